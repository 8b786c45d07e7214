"""The bot contract: choosing a level, the one-line refusal when gnubg is missing, contexts."""
from __future__ import annotations

import random

import pytest

from controller.bot import gnubg_level
from controller.bot.base import MONEY, Bot, MatchContext, make_bot
from controller.engine import Position, legal_moves
from controller.errors import BackendUnavailableError, BgboardError, UsageError


@pytest.mark.parametrize("level", ["simple", "pubeval"])
def test_levels_follow_the_protocol_and_play_legal_moves(level: str) -> None:
    bot = make_bot(level)
    assert isinstance(bot, Bot)
    pos = Position.initial()
    move = bot.choose_move(pos, (6, 5), MONEY)
    assert move in legal_moves(pos, (6, 5))


def test_unknown_level_is_a_usage_error_naming_the_choices() -> None:
    with pytest.raises(UsageError, match="choose simple, gnubg, beginner, .*, worldclass$"):
        make_bot("grandmaster")


def test_gnubg_missing_everywhere_says_so_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gnubg_level, "load_gnubg_nn", lambda: None)
    monkeypatch.setattr(gnubg_level, "find_gnubg_program", lambda: None)
    with pytest.raises(BackendUnavailableError) as info:
        make_bot("gnubg")
    message = str(info.value)
    assert message == "the gnubg level needs the gnubg program: sudo apt install gnubg (or choose simple)"
    assert "\n" not in message and isinstance(info.value, BgboardError)


def test_a_level_chosen_for_a_new_match_is_checked_but_not_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    """The page's New match (and a script's) checks the level without making it: loading
    gnubg's network or starting its program there would hold the table's loop (a second
    and more on a Pi); the level is made when first asked, in a worker. A level that cannot
    play on this machine is refused in one line naming the fix, before the match starts."""
    from controller.analysis import network
    from controller.bot import gnubg_strength
    from controller.bot.base import OFFERED_LEVELS, check_level
    from controller.web.dialog import new_match_choice

    def loaded(*args: object, **kwargs: object) -> None:
        raise AssertionError("the level was loaded when it was chosen")

    monkeypatch.setattr(gnubg_strength.StrengthBot, "__init__", loaded)
    monkeypatch.setattr(gnubg_level, "make_gnubg_bot", loaded)
    for level in ("expert", "gnubg", "worldclass"):  # they can play here (.ci/run installs gnubg)
        _, match = new_match_choice({"length": 3, "opponent": level})
        assert match.settings.black_player == level
    # a Pi without the wheel, without Debian's gnubg and its weights
    monkeypatch.setenv("BGBOARD_NETWORK", "numpy")
    monkeypatch.setattr(network, "BINARY_WEIGHTS", ())
    monkeypatch.setattr(gnubg_level, "find_gnubg_program", lambda: None)
    for level in OFFERED_LEVELS:
        if level == "simple":
            check_level(level)
            continue
        with pytest.raises(BackendUnavailableError) as info:
            new_match_choice({"length": 3, "opponent": level})
        message = str(info.value)
        assert message.startswith(f"the {level} level cannot play here: ") and "sudo apt install gnubg" in message
        assert "\n" not in message
    with pytest.raises(UsageError, match="choose simple, gnubg"):
        check_level("grandmaster")


def test_a_strength_level_without_gnubgs_weights_names_the_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Pi without the wheel and without Debian's gnubg: one line, the command that fixes it."""
    from controller.analysis import network

    monkeypatch.setenv("BGBOARD_NETWORK", "numpy")
    monkeypatch.setattr(network, "BINARY_WEIGHTS", ())
    monkeypatch.setattr(network, "_loaded", {})
    with pytest.raises(BackendUnavailableError) as info:
        make_bot("expert")
    assert str(info.value) == "the expert level needs GNU Backgammon's weights: sudo apt install gnubg"


def test_asking_for_the_wheel_never_falls_back_to_the_program(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gnubg_level, "load_gnubg_nn", lambda: None)
    monkeypatch.setattr(gnubg_level, "find_gnubg_program", lambda: "/usr/games/gnubg")
    with pytest.raises(BackendUnavailableError):
        make_bot("gnubg", backend="nn")


def test_without_the_wheel_the_program_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[tuple[str, int]] = []

    class FakeProcessBot:
        def __init__(self, program: str, plies: int) -> None:
            made.append((program, plies))

    import controller.bot.gnubg_process as gp

    monkeypatch.setattr(gnubg_level, "load_gnubg_nn", lambda: None)
    monkeypatch.setattr(gnubg_level, "find_gnubg_program", lambda: "/opt/gnubg")
    monkeypatch.setattr(gp, "GnubgProcessBot", FakeProcessBot)
    bot = make_bot("gnubg", plies=1)
    assert isinstance(bot, FakeProcessBot) and made == [("/opt/gnubg", 1)]


def test_bad_gnubg_options_are_usage_errors() -> None:
    with pytest.raises(UsageError):
        make_bot("gnubg", plies=5)
    with pytest.raises(UsageError):
        make_bot("gnubg", backend="cloud")


@pytest.mark.parametrize("kwargs", [
    {"cube": 3}, {"cube": 0}, {"length": -1}, {"length": 5, "bot_away": 6, "opponent_away": 1},
    {"length": 5, "bot_away": 0, "opponent_away": 2}, {"owner": "nobody"},
])
def test_impossible_contexts_are_refused(kwargs: dict[str, object]) -> None:
    with pytest.raises(UsageError):
        MatchContext(**kwargs)  # type: ignore[arg-type]


def test_who_may_double() -> None:
    assert MONEY.bot_may_double() and MONEY.opponent_may_double()
    crawford = MatchContext(5, 4, 1, crawford=True)
    assert not crawford.bot_may_double() and not crawford.opponent_may_double()
    owned = MatchContext(7, 5, 5, cube=2, owner="opponent")
    assert not owned.bot_may_double() and owned.opponent_may_double()
    dead = MatchContext(7, 2, 5, cube=2, owner="bot")  # a 4-cube would be worth nothing more to us
    assert not dead.bot_may_double()
    assert MatchContext(1, 1, 1).bot_may_double() is False


def test_flipped_context_swaps_score_and_owner() -> None:
    c = MatchContext(7, 2, 5, cube=2, owner="bot")
    f = c.flipped()
    assert (f.bot_away, f.opponent_away, f.owner) == (5, 2, "opponent")
    assert f.flipped() == c


def test_seeded_simple_bot_replays_the_same_game() -> None:
    def game(seed: int) -> list[str]:
        bot = make_bot("simple", rng=random.Random(seed))
        dice_rng = random.Random(99)
        pos, played = Position.initial(), []
        for _ in range(40):
            move = bot.choose_move(pos, (dice_rng.randint(1, 6), dice_rng.randint(1, 6)), MONEY)
            if move is not None:
                played.append(move.notation)
                pos = move.result
            pos = pos.swap()
        return played

    assert game(1) == game(1)


@pytest.mark.parametrize("level", ["simple", "pubeval", "gnubg"])
def test_every_level_answers_with_a_legal_move_on_varied_positions(level: str) -> None:
    from bgboard.bench.bot_bench import sample_positions

    if level == "gnubg" and gnubg_level.load_gnubg_nn() is None:
        pytest.skip("gnubg-nn wheel not installed")
    bot = make_bot(level)
    try:
        for position, dice in sample_positions(120, seed=31):
            move = bot.choose_move(position, dice, MatchContext(7, 3, 6, cube=2, owner="bot"))
            assert move in legal_moves(position, dice), (level, position.id, dice)
    finally:
        bot.close()
        bot.close()  # twice is harmless
