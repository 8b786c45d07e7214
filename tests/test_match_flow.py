"""Match flow against the rule book (issue 12): resigning before the roll, the move timer
around a declined offer, GNU Backgammon's notation in the events, counts in words."""
from __future__ import annotations

from pathlib import Path

import pytest

from controller.engine.errors import MatchStateError
from controller.engine.match import Match
from controller.engine.match_events import GameWon, Moved
from controller.engine.moves import Step
from controller.engine.notation import format_move
from controller.engine.position import Position
from controller.play.showing import phase_prompt
from controller.events import RollQueued


def white_moving(dice: tuple[int, int], **settings: object) -> Match:
    """White on turn with `dice` from the start (White won the opening roll)."""
    return Match.new(**settings).roll("white", dice).match  # type: ignore[arg-type]


def black_to_roll(**settings: object) -> Match:
    m = white_moving((3, 1), **settings)
    m = m.play("white", m.legal_moves()[0]).match
    assert m.phase == "roll" and m.turn == "black"
    return m


# -- RULES.md "Resigning": at the start of one's own turn, before rolling -----------------
def test_a_resignation_before_the_roll_is_offered() -> None:
    t = black_to_roll().resign("black", "gammon")
    assert t.match.phase == "resigning" and t.match.pending_resign == "gammon"


@pytest.mark.parametrize("steps", [(), (Step(8, 5, 3),)], ids=["after the roll", "halfway"])
def test_a_resignation_after_the_roll_is_refused_and_changes_nothing(steps: tuple[Step, ...]) -> None:
    m = white_moving((3, 1))
    for s in steps:
        m = m.step("white", s).match
    with pytest.raises(MatchStateError, match="before rolling"):
        m.resign("white", "single")
    assert m.phase == "move" and m.steps == steps


def test_a_declined_offer_gives_back_the_rest_of_the_move_timer_not_a_fresh_one() -> None:
    """RULES.md "Timer": 15 s per action, then the bank (20 s). Black thinks 10 s, offers,
    White takes 5 s to decline: Black has 5 s of the action left, then its bank runs."""
    m = black_to_roll(clock="timer")  # Black's action began at 0
    white_bank = m.clock_reading(0.0).white.bank  # type: ignore[union-attr]
    m = m.resign("black", "single", now=10.0).match
    m = m.decline("white", now=15.0).match
    reading = m.clock_reading(15.0)
    assert reading is not None and reading.running == "black"
    assert reading.black.allowance == pytest.approx(5.0) and reading.black.bank == pytest.approx(20.0)
    later = m.clock_reading(25.0)
    assert later is not None and later.black.bank == pytest.approx(15.0)
    assert later.white.bank == pytest.approx(white_bank)  # 5 s of White's 15 s: no bank used


def test_a_declined_offer_after_the_action_timer_ran_out_leaves_only_the_bank() -> None:
    m = black_to_roll(clock="timer").resign("black", "single", now=18.0).match  # 3 s of bank used
    m = m.decline("white", now=20.0).match
    reading = m.clock_reading(20.0)
    assert reading is not None and reading.black.allowance == 0.0
    assert reading.black.bank == pytest.approx(17.0)


def test_a_declined_offer_on_the_tournament_clock_keeps_the_delay_used() -> None:
    m = black_to_roll(clock="tournament", length=3).resign("black", "single", now=4.0).match
    m = m.decline("white", now=6.0).match
    reading = m.clock_reading(6.0)
    assert reading is not None and reading.black.allowance == pytest.approx(8.0)  # 12 s delay - 4


def test_a_declined_offer_survives_a_save_and_resume() -> None:
    import json

    from controller.engine.match_json import match_from_dict, match_to_dict

    m = black_to_roll(clock="timer").resign("black", "single", now=10.0).match
    again = match_from_dict(json.loads(json.dumps(match_to_dict(m))))
    assert again == m and again.resume_used == pytest.approx(10.0)


# -- notation: the one `bgboard moves` prints ---------------------------------------------
@pytest.mark.parametrize(("dice", "steps", "written"), [
    ((4, 2), (Step(8, 4, 4), Step(13, 11, 2)), "13/11 8/4"),
    ((3, 1), (Step(13, 10, 3), Step(10, 9, 1)), "13/9"),
    ((6, 4), (Step(24, 18, 6), Step(18, 14, 4)), "24/14"),
    ((6, 1), (Step(8, 7, 1), Step(13, 7, 6)), "13/7 8/7"),
])
def test_the_moved_event_is_written_in_gnubg_notation(dice: tuple[int, int], steps: tuple[Step, ...],
                                                       written: str) -> None:
    m = white_moving(dice)
    events = []
    for s in steps:
        t = m.step("white", s)
        m = t.match
        events += list(t.events)
    moved = [e for e in events if isinstance(e, Moved)]
    assert len(moved) == 1 and str(moved[0]).endswith(f": {written}")
    assert format_move(moved[0].steps) == written


def test_the_moved_notation_is_a_line_of_bgboard_moves(capsys: pytest.CaptureFixture[str]) -> None:
    from bgboard.cli import main

    assert main(["moves", Position.initial().id, "31"]) == 0
    listed = {line.split("  ")[0] for line in capsys.readouterr().out.splitlines()}
    m = white_moving((3, 1))
    m = m.step("white", Step(13, 10, 3)).match
    t = m.step("white", Step(10, 9, 1))
    text = str(next(e for e in t.events if isinstance(e, Moved))).split(": ", 1)[1]
    assert text == "13/9" and text in listed


# -- counts: "1 point", never "1 points" --------------------------------------------------
def test_a_single_game_won_says_1_point() -> None:
    m = black_to_roll(length=3).resign("black", "single").match
    won = next(e for e in m.accept("white").events if isinstance(e, GameWon))
    assert ", 1 point," in str(won) and "1 points" not in str(won)
    gammon = black_to_roll(length=3).resign("black", "gammon").match.accept("white").events
    assert ", 2 points," in str(next(e for e in gammon if isinstance(e, GameWon)))


@pytest.mark.parametrize(("language", "one", "two"), [
    ("en", "1 point", "2 points"), ("da", "1 point", "2 point"), ("sv", "1 poäng", "2 poäng"),
])
def test_game_won_on_the_display_has_each_languages_plural(language: str, one: str, two: str) -> None:
    from controller.show.texts import render

    assert render("game_won", {"side": "white", "result": "single", "points": 1}, language).endswith(one)
    assert render("game_won", {"side": "white", "result": "gammon", "points": 2}, language).endswith(two)


@pytest.mark.parametrize(("language", "one", "two"), [
    ("en", "Put 1 white back", "Put 2 white back"), ("da", "Sæt 1 hvid tilbage", "Sæt 2 hvide tilbage"),
    ("sv", "Ställ tillbaka 1 vit ", "Ställ tillbaka 2 vita "),
])
def test_checker_counts_on_the_display_agree_with_the_number(language: str, one: str, two: str) -> None:
    from controller.show.texts import render

    assert render("put_back", {"n": 1, "colour": "white", "cell": "13"}, language).startswith(one)
    assert render("put_back", {"n": 2, "colour": "white", "cell": "13"}, language).startswith(two)


def test_the_replay_summary_of_one_game_says_1_game() -> None:
    from controller.records.replay import replay_text

    text = ("; [Player 1 \"a\"]\n; [Player 2 \"b\"]\n\n 1 point match\n\n Game 1\n a : 0      b : 0\n"
            "  1) 31: 8/5 6/5\n      Wins 1 point\n")
    assert ", 1 game," in replay_text(text).summary_line()


# -- RULES.md "Timer": carrying out a move shown on the LEDs is nobody's thinking time ----
def test_a_chosen_move_stops_the_clock_until_it_is_carried_out() -> None:
    from controller.engine.match_events import MoveChosen

    m = white_moving((3, 1), clock="timer")  # White's action began at 0
    move = m.legal_moves()[0]
    t = m.choose("white", move, now=3.0)
    assert [type(e) for e in t.events] == [MoveChosen]
    chosen = t.match
    reading = chosen.clock_reading(3.0)
    assert reading is not None and reading.running is None
    # 12 of the 15 s unused: the bank grows by 5 x 12 / 15 = 4 s, as for any move
    assert reading.white.bank == pytest.approx(24.0)
    assert chosen.tick(1000.0).events == ()  # minutes of carrying out lose nothing
    after = chosen.play("white", move, now=1000.0).match
    later = after.clock_reading(1005.0)
    assert after.turn == "black" and later is not None and later.running == "black"
    assert later.white.bank == pytest.approx(24.0) and later.black.allowance == pytest.approx(10.0)


def test_only_a_legal_move_of_the_side_on_turn_can_be_chosen() -> None:
    m = white_moving((3, 1), clock="timer")
    other_roll = Match.new().roll("white", (6, 5)).match.legal_moves()[0]
    with pytest.raises(MatchStateError, match="not a legal move"):
        m.choose("white", other_roll)
    with pytest.raises(MatchStateError):
        m.choose("black", m.legal_moves()[0])


def test_against_the_computer_no_clock_runs_while_the_person_carries_out_its_move() -> None:
    """The issue's case: waiting 35 s while the computer's move is on the LEDs used to win."""
    import random

    from controller.board.reconcile import BoardState
    from controller.controller import Controller
    from controller.dice import DiceState
    from controller.engine.board_view import cell_counts, step_cells
    from controller.engine.match_settings import MatchSettings
    from controller.events import ActionRequested, AskBot, BotCube, BotMoved, ReadingReceived, Tick

    dice = DiceState.seeded(random.Random(0))
    dice = dice.push((6, 2))
    c = Controller(Match.new(MatchSettings(length=3, clock="timer", black_player="simple")), dice=dice)
    counts = cell_counts(Position.initial(), "white")
    c.handle(ReadingReceived(BoardState.of(counts), 0.0))
    c.handle(Tick(0.3))
    c.handle(ActionRequested("white", "roll", 0.4))
    counts["13"], counts["7"], counts["11"] = (3, 0), (1, 0), (1, 0)  # White's 13/7 13/11
    out = c.handle(ReadingReceived(BoardState.of(counts), 1.0))
    out += c.handle(Tick(1.3))
    asked = [e for e in out if isinstance(e, AskBot)]
    c.handle(RollQueued((6, 4), c.status().now))
    c.handle(BotCube("roll", 1.5, asked[-1].turn_token))
    move = c.status().match.legal_moves()[0]
    c.handle(BotMoved(move, 1.6, c.status().bot_token))
    out = c.handle(Tick(60.0))  # the person takes a minute to move the computer's checkers
    assert not c.status().match.is_over, [str(e) for e in out]
    reading = c.status().match.clock_reading(60.0)
    assert reading is not None and reading.running is None
    for s in move.steps:
        frm, to = step_cells(s, "black")
        counts[frm] = (counts[frm][0], counts[frm][1] - 1)
        counts[to] = (counts[to][0] - (1 if s.hit else 0), counts[to][1] + 1)
        if s.hit:
            counts["bar"] = (counts["bar"][0] + 1, counts["bar"][1])
    c.handle(ReadingReceived(BoardState.of(counts), 61.0))
    c.handle(Tick(61.3))
    assert c.status().match.turn == "white" and not c.status().match.is_over
    reading = c.status().match.clock_reading(61.3)
    assert reading is not None and reading.running == "white" and reading.black.bank >= 20.0


# -- a set score: the Crawford game played or not (RULES.md "Doubling cube") -------------
FINISHED = "4HPwATAAAAAAAA"  # the side on roll has borne off all 15: that game is over
OPPONENT_DONE = "AAAAwOfgA2AAAA"  # the opponent has no checker left


@pytest.mark.parametrize(("length", "score", "answers"), [
    (3, (2, 2), {True}),          # both at match point: the Crawford game was played
    (3, (2, 0), {False}),         # behind on 0: it cannot have been played (they would have won it)
    (3, (0, 2), {False}),
    (3, (2, 1), {False, True}),   # either: the players say
    (3, (1, 1), {False}),         # nobody at match point yet
    (2, (1, 1), {True}),
    (7, (6, 3), {False, True}),
])
def test_which_crawford_answers_a_score_allows(length: int, score: tuple[int, int], answers: set[bool]) -> None:
    from controller.engine.match_start import crawford_answers

    assert crawford_answers(length, score) == answers
    assert crawford_answers(length, score, rule=False) == {False}


def _crawford_bit(m: Match) -> bool:
    from controller.engine.match_id import decode_match_id

    return decode_match_id(m.match_id).crawford


def test_both_at_match_point_is_post_crawford_and_the_cube_is_back() -> None:
    """The issue's case: score=2-2 in a 3-point match opened a Crawford game."""
    m = Match.from_score(Match.new(length=3).settings, (2, 2))
    assert not m.crawford and m.post_crawford and m.cube_enabled and not _crawford_bit(m)
    with pytest.raises(MatchStateError, match="both players are at match point") as info:
        Match.from_score(m.settings, (2, 2), crawford_played=False)
    assert "\n" not in str(info.value)


def test_one_at_match_point_is_the_crawford_game_unless_the_players_say_it_was_played() -> None:
    settings = Match.new(length=3).settings
    this_one = Match.from_score(settings, (2, 1))
    assert this_one.crawford and not this_one.cube_enabled and _crawford_bit(this_one)
    after = Match.from_score(settings, (2, 1), crawford_played=True)
    assert not after.crawford and after.post_crawford and after.cube_enabled and not _crawford_bit(after)
    with pytest.raises(MatchStateError, match="not won a Crawford game"):
        Match.from_score(settings, (2, 0), crawford_played=True)
    with pytest.raises(MatchStateError, match="nobody has reached match point"):
        Match.from_score(settings, (1, 0), crawford_played=True)


def test_a_crawford_game_set_by_score_is_followed_by_post_crawford_games() -> None:
    m = Match.from_score(Match.new(length=3).settings, (2, 0))
    assert m.crawford
    m = m.roll("white", (3, 1)).match
    m = m.play("white", m.legal_moves()[0]).match.resign("black", "single").match.accept("white").match
    assert m.is_over  # White reached 3
    m = Match.from_score(Match.new(length=3).settings, (0, 2))
    m = m.roll("white", (3, 1)).match
    m = m.play("white", m.legal_moves()[0]).match.resign("black", "single").match.accept("white").match
    assert m.score == (1, 2) and not m.crawford and m.post_crawford  # no second Crawford game


def test_a_score_already_past_the_length_is_refused() -> None:
    with pytest.raises(MatchStateError, match="already past"):
        Match.from_score(Match.new(length=3).settings, (3, 0))


def test_the_tournament_clock_starts_from_the_reserve_left_at_the_score() -> None:
    """The issue's case: length=7 clock=tournament score=3-2 showed 14:00 each."""
    settings = Match.new(length=7, clock="tournament").settings
    fresh = Match.from_score(settings).clock_reading(0.0)
    at_3_2 = Match.from_score(settings, (3, 2)).clock_reading(0.0)
    assert fresh is not None and at_3_2 is not None
    assert fresh.white.bank == 14 * 60
    assert at_3_2.white.bank == at_3_2.black.bank == (14 - 5) * 60


# -- a finished position is refused wherever a position is given ------------------------
@pytest.mark.parametrize("position_id", [FINISHED, OPPONENT_DONE])
def test_a_finished_position_cannot_start_a_game(position_id: str) -> None:
    from controller.engine.errors import InvalidPositionError

    with pytest.raises(InvalidPositionError, match="already over") as info:
        Position.for_play(position_id)
    assert "\n" not in str(info.value)
    with pytest.raises(InvalidPositionError, match="already over"):
        Match.from_score(Match.new().settings, position=Position.from_id(position_id))


@pytest.mark.parametrize("argv", [
    ["moves", FINISHED, "31"],
    ["run", "--port", "/dev/null", "--position", FINISHED],
    ["run", "--port", "/dev/null", "--length", "3", "--score", "2-2", "--crawford-played", "no"],
    ["run", "--port", "/dev/null", "--length", "3", "--score", "3-1"],
    ["run", "--port", "/dev/null", "--length", "99999"],
])
def test_the_command_line_refuses_an_impossible_start_in_one_line(
        argv: list[str], capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from bgboard.cli import main

    config = tmp_path / "config.toml"
    config.write_text("")
    try:
        code = main(argv + (["--config", str(config)] if argv[0] == "run" else []))
    except SystemExit as stop:  # argparse's own check of a number option
        code = stop.code  # type: ignore[assignment]
    assert code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_the_page_dialog_takes_a_score_and_the_crawford_answer() -> None:
    from sim.page.live import check_dialog, dialog_match

    d = check_dialog({"length": 3, "score": "2-2"})
    assert not dialog_match(d).crawford and dialog_match(d).cube_enabled
    assert dialog_match(check_dialog({"length": 3, "score": "2-1", "crawford_played": "yes"})).post_crawford
    clock = dialog_match(check_dialog({"length": 7, "clock": "tournament", "score": "3-2"})).clock_reading(0.0)
    assert clock is not None and clock.white.bank == 9 * 60
    for bad in ({"length": 3, "score": "2-2", "crawford_played": "no"}, {"length": 3, "score": "3-0"},
                {"length": 3, "score": "two"}):
        with pytest.raises(ValueError):
            check_dialog(bad)


# -- scripts: every line checked before anything runs, with the match's own limits ------
REPO = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(("text", "says"), [
    ("match length=99999", "1 to 32767"),
    ("match length=3 score=2-2 crawford_played=no", "both players are at match point"),
    ("match length=3 score=2-0 crawford_played=yes", "not won a Crawford game"),
    (f"match position={FINISHED}", "already over"),
    ("match score=2-x", "2-1"),
    ("match seed=-1", "seed"),
    ("match crawford_played=maybe", "yes, no, auto"),
    ("flicker 5 0", "1 to 60000"),
    ("set 5 16 0", "0 to 15"),
])
def test_a_bad_script_line_is_one_line_naming_it(text: str, says: str) -> None:
    import sim.script as sc
    from controller.errors import UsageError

    with pytest.raises(UsageError) as info:
        sc.parse_script("match length=3\n# fine so far\n" + text)
    assert str(info.value).startswith("script line 3: ") and says in str(info.value)
    assert "\n" not in str(info.value)


def _run_script(tmp_path: Path, text: str) -> "subprocess.CompletedProcess[str]":
    import subprocess
    import sys

    script = tmp_path / "s.txt"
    script.write_text(text)
    return subprocess.run([sys.executable, "-m", "bgboard.cli", "sim", "--headless", "--script", str(script)],
                          capture_output=True, text=True, timeout=120, cwd=REPO)


def test_a_script_with_a_too_long_match_exits_2_before_running_anything(tmp_path: Path) -> None:
    """The issue's case: `match length=99999` crashed with a traceback after three JSON lines."""
    proc = _run_script(tmp_path, "match length=3\ndice 3 1\nwhite roll\nmatch length=99999\n")
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "line 4" in proc.stderr and "Traceback" not in proc.stderr


def test_a_script_match_at_a_set_score_carries_the_crawford_state_in_its_match_id(tmp_path: Path) -> None:
    from controller.engine.match_id import decode_match_id

    proc = _run_script(tmp_path, "match length=3 score=2-2\nmatch length=3 score=2-1\n"
                                 "match length=3 score=2-1 crawford_played=yes\n")
    assert proc.returncode == 0, proc.stderr
    import json

    ids = [decode_match_id(json.loads(line)["match"]["match_id"]) for line in proc.stdout.splitlines()]
    assert [f.crawford for f in ids] == [False, True, False]
    assert [f.score for f in ids] == [(2, 2), (1, 2), (1, 2)]  # gnubg's order: Black, White


def test_the_readme_states_every_script_limit_once() -> None:
    import sim.script as sc

    readme = (REPO / "README.md").read_text()
    section = readme.split("### Scenario script limits", 1)[1].split("\n#", 1)[0]
    for key, option in sc.MATCH_OPTIONS.items():
        rows = [line for line in section.splitlines() if line.startswith(f"| `{key}=` |")]
        assert len(rows) == 1, key
        assert (option.rule in rows[0]) or all(c in rows[0] for c in option.choices or ()), key
    for limit in (str(sc.WAIT_MAX_S), str(sc.FLICKER_MAX_MS)):
        assert limit in section
    assert readme.count("32767") == 1


# -- RULES.md "Match": after a match either player may offer a rematch -------------------
def _table_against(level: object, match: Match) -> "object":
    from controller.table import Table
    from controller.table.computer import ComputerSeat
    from controller.board.reconcile import BoardState
    from controller.controller import Controller
    from dataclasses import replace
    from controller.engine.board_view import cell_counts
    from controller.events import ReadingReceived, Tick

    match = replace(match, settings=replace(match.settings, black_player="simple"))
    table = Table(Controller(match),
                  computers=ComputerSeat(lambda name: level), clock=lambda: 0.0)  # type: ignore[arg-type,return-value]
    table.dispatch(ReadingReceived(BoardState.of(cell_counts(Position.initial(), "white")), 0.0))
    table.dispatch(Tick(0.5))  # the board as it stands, settled
    return table


class _Level:
    """A computer level as the table sees one; its rematch answers are set per test."""

    name = "simple"

    def __init__(self, accepts: bool | None = None, offers: bool | None = None) -> None:
        if accepts is not None:
            self.accepts_rematch = lambda context: accepts
        if offers is not None:
            self.offers_rematch = lambda context, lost: offers


def _texts(table: object) -> list[str]:
    return list(table.log_lines)  # type: ignore[attr-defined]


def test_the_computer_accepts_the_persons_rematch_offer() -> None:
    from controller.events import ActionRequested, Tick

    table = _table_against(_Level(), Match.new(length=1).forfeit("white").match)  # the computer won
    table.dispatch(Tick(1.0))  # type: ignore[attr-defined]
    assert table.controller.status().match.rematch_offer is None  # type: ignore[attr-defined]  # a winner leaves it to the person
    table.dispatch(ActionRequested("white", "rematch", 2.0))  # type: ignore[attr-defined]
    m = table.controller.status().match  # type: ignore[attr-defined]
    assert m.phase == "opening" and m.score == (0, 0) and not m.history[-1].actions
    assert any(t.startswith("rematch:") for t in _texts(table))


def test_the_computer_offers_a_rematch_after_losing_and_the_person_accepts() -> None:
    from controller.events import ButtonPressed, Tick

    table = _table_against(_Level(), Match.new(length=1).forfeit("black").match)  # the person won
    table.dispatch(Tick(1.0))  # type: ignore[attr-defined]
    m = table.controller.status().match  # type: ignore[attr-defined]
    assert m.rematch_offer == "black"
    prompt = phase_prompt(table.controller.state)  # type: ignore[attr-defined]
    assert prompt.key == "rematch" and dict(prompt.params)["side"] == "black"
    table.dispatch(ButtonPressed("white", "main", 2.0))  # type: ignore[attr-defined]
    assert table.controller.status().match.phase == "opening"  # type: ignore[attr-defined]


def test_a_level_may_decline_a_rematch_and_nobody_answers_for_the_computer() -> None:
    from controller.events import ActionRequested, Tick

    table = _table_against(_Level(accepts=False, offers=False), Match.new(length=1).forfeit("black").match)
    table.dispatch(Tick(1.0))  # type: ignore[attr-defined]
    assert table.controller.status().match.rematch_offer is None  # type: ignore[attr-defined]
    table.dispatch(ActionRequested("white", "rematch", 2.0))  # type: ignore[attr-defined]
    m = table.controller.status().match  # type: ignore[attr-defined]
    assert m.is_over and m.rematch_offer is None
    assert "black declines the rematch" in _texts(table)
    table.dispatch(ActionRequested("white", "rematch", 3.0))  # type: ignore[attr-defined]
    table.dispatch(ActionRequested("black", "accept", 4.0))  # type: ignore[attr-defined]
    assert "rejected: black is played by the computer" in _texts(table)


# -- bgboard replay: what a record states, held against what happened -------------------
BGLAB = REPO.parent / "shared" / "matches" / "bglab"
SINGLE_GAME_4 = BGLAB / "lasse__match10611856.txt"  # its game 4 ends single at cube 1


def _with_game(text: str, number: int, old: str, new: str) -> str:
    """`text` with `old` replaced by `new` inside game `number` only."""
    head, sep, rest = text.partition(f" Game {number}\n")
    game, nxt, tail = rest.partition(f" Game {number + 1}\n")
    assert old in game
    return head + sep + game.replace(old, new, 1) + nxt + tail


@pytest.mark.skipif(not BGLAB.exists(), reason="shared/matches not present")
def test_a_stated_result_the_game_does_not_give_is_named_by_game() -> None:
    """The issue's case: game 4 says `Wins 2 points` but ends single at cube 1 (RULES.md
    "End of a game and scoring": single = 1 x cube)."""
    from controller.records.replay import replay_text

    text = SINGLE_GAME_4.read_text()
    assert replay_text(text).ok
    bad = _with_game(text, 4, "Wins 1 point", "Wins 2 points")
    report = replay_text(bad)
    assert not report.ok and report.problem is not None
    assert report.problem.startswith("game 4 move ") and "'Wins 2 points'" in report.problem
    assert "1 point (a single game at cube 1)" in report.problem


@pytest.mark.skipif(not BGLAB.exists(), reason="shared/matches not present")
def test_a_game_header_score_that_disagrees_with_the_games_before_is_named() -> None:
    import re

    from controller.records.replay import replay_text

    text = SINGLE_GAME_4.read_text()
    wrong = re.sub(r"(\n Game 5\n[^\n:]*: )(\d+)", lambda m: m.group(1) + str(int(m.group(2)) + 1), text, 1)
    assert wrong != text
    report = replay_text(wrong)
    assert not report.ok and report.problem is not None and report.problem.startswith("game 5: the score line says")


def test_galaxys_capped_result_of_the_last_game_is_accepted() -> None:
    """Galaxy writes the match-winning gammon of a 3-point match at 1-2 as `Wins 3 point`."""
    from controller.records.results import stated_agrees
    from controller.records.model import Game

    gammon = Game(3, (1, 2), False, (), winner=1, points=4, end="bearoff", cube=2)
    assert stated_agrees(4, gammon, 3) and stated_agrees(3, gammon, 3) and stated_agrees(1, gammon, 3)
    assert not stated_agrees(2, gammon, 3)
    middle = Game(2, (0, 0), False, (), winner=1, points=1, end="bearoff", cube=1)
    assert stated_agrees(1, middle, 3) and not stated_agrees(2, middle, 3)


def test_replay_checks_every_real_match_the_same(tmp_path: Path) -> None:
    """Every real match the reader reads cleanly still replays OK with its results checked."""
    from controller.records.replay import replay_file

    if not BGLAB.exists():
        pytest.skip("shared/matches not present")
    reports = [replay_file(path) for path in sorted(BGLAB.glob("*.txt"))[::7]]
    garbled = [r for r in reports if not r.ok]
    assert all("unreadable entry" in (r.problem or "") for r in garbled), [r.problem for r in garbled]
    assert len(reports) - len(garbled) >= 205


# -- a record of a match in progress ----------------------------------------------------
def _played(moves: int) -> Match:
    import random
    import sys

    sys.path.insert(0, str(Path(__file__).parent))
    from match_driver import random_command

    rng = random.Random(3)
    m = Match.new(length=3)
    for _ in range(moves):
        m = random_command(m, rng).match
    return m


def test_a_record_of_a_match_in_progress_replays_as_in_progress(capsys: pytest.CaptureFixture[str],
                                                                 tmp_path: Path) -> None:
    import json

    from bgboard.cli import main
    from controller.web.record import mat_text

    m = _played(25)
    assert not m.is_over and m.history[-1].end is None and m.history[-1].actions
    path = tmp_path / "during.mat"
    path.write_text(mat_text(m))
    assert main(["replay", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is True and report["problem"] is None
    assert report["in_progress"]["game"] == m.game and report["in_progress"]["move"] >= 1
    assert main(["replay", str(path)]) == 0
    assert f"in progress at game {m.game} move " in capsys.readouterr().out


def test_an_unfinished_game_followed_by_another_is_still_a_problem() -> None:
    from controller.records.replay import replay_text
    from controller.web.record import mat_text

    m = _played(25)
    text = mat_text(m)
    after = f" Game {m.game + 1}\n White : {m.score[0]}                        Black : {m.score[1]}\n  1) 31: 8/5 6/5\n"
    report = replay_text(text + "\n" + after)
    assert not report.ok and report.in_progress is None
    assert report.problem is not None and report.problem.startswith(f"game {m.game} move ")


# -- records name the real players, and the download says who played and when ----------
def test_a_record_against_the_computer_names_its_level_and_the_file_says_when() -> None:
    from datetime import datetime

    from controller.records.replay import replay_text
    from controller.web.record import mat_text, player_names, record_filename

    from dataclasses import replace

    m = _played(25)
    m = replace(m, settings=replace(m.settings, black_player="gnubg"))
    players = player_names(m)
    assert players == ("White", "gnubg")
    text = mat_text(m, players=players, when=datetime(2026, 12, 1, 10, 5))
    assert '; [Player 2 "gnubg"]' in text and '; [EventDate "2026.12.01"]' in text
    assert replay_text(text).players == ("White", "gnubg")
    assert record_filename(text) == "White-vs-gnubg-2026-12-01-1005.mat"
    assert record_filename(" 3 point match\n") == "bgboard-match.mat"


def test_the_scenario_runners_record_names_the_computer(tmp_path: Path) -> None:
    import subprocess
    import sys

    script = tmp_path / "s.txt"
    script.write_text("match length=1 opponent=simple\ndice 3 1\nwhite roll\n")
    out = tmp_path / "out.mat"
    proc = subprocess.run([sys.executable, "-m", "bgboard.cli", "sim", "--headless", "--script", str(script),
                           "--record", str(out)], capture_output=True, text=True, timeout=120, cwd=REPO)
    assert proc.returncode == 0, proc.stderr
    assert '; [Player 2 "simple"]' in out.read_text()


def test_gnubg_imports_a_record_of_a_match_in_progress(tmp_path: Path) -> None:
    import re
    import shutil
    import subprocess

    from controller.web.record import mat_text

    gnubg = shutil.which("gnubg") or shutil.which("/usr/games/gnubg")
    if gnubg is None:
        pytest.fail("GNU Backgammon (/usr/games/gnubg) is not installed: the CI installs it")
    m = _played(120)
    assert not m.is_over and m.history[-1].actions
    path = tmp_path / "during.mat"
    path.write_text(mat_text(m))
    out = subprocess.run([gnubg, "-t", "-q"], input=f"set confirm default no\nimport mat {path}\nshow score\n",
                         capture_output=True, text=True, timeout=120, check=False).stdout
    finished = sum(1 for g in m.history if g.end is not None)
    found = re.findall(r"The score \(after (\d+) games?\) is: \S+ (\d+), \S+ (\d+)", out)
    assert found, out[-400:]
    games, white, black = (int(x) for x in found[-1])
    assert not re.search(r"warn|invalid|unrecognised", out, re.IGNORECASE), out[-400:]
    assert (games, white, black) == (finished, m.score[0], m.score[1])


def test_the_table_refuses_a_resignation_after_the_roll_with_a_rejected_line() -> None:
    from controller.board.reconcile import BoardState
    from controller.controller import Controller
    from controller.engine.board_view import cell_counts
    from controller.events import ActionRequested, ReadingReceived, Refused, Tick

    c = Controller(Match.new(length=3))
    c.handle(ReadingReceived(BoardState.of(cell_counts(Position.initial(), "white")), 0.0))
    c.handle(Tick(0.5))
    while c.status().match.phase == "opening":
        c.handle(ActionRequested("white", "roll", 1.0))
    side = c.status().match.turn
    out = c.handle(ActionRequested(side, "resign", 2.0, "single"))  # type: ignore[arg-type]
    lines = [f"rejected: {e.reason}" for e in out if isinstance(e, Refused)]  # as the table logs it
    assert any(t.startswith(f"rejected: {side} cannot resign now") for t in lines), lines
    assert c.status().match.phase == "move"
