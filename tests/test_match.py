"""The match state machine, rule by rule (RULES.md "Who starts" to "Timer")."""
from __future__ import annotations

import dataclasses

import pytest

from controller.engine.errors import MatchStateError
from controller.engine.match import Match, Transition, game_result
from controller.engine.match_events import (
    DoubleDropped,
    GameStarted,
    GameWon,
    MatchWon,
    Moved,
    NoMove,
    OpeningTie,
    RematchStarted,
    ResignAccepted,
    TimedOut,
    TurnStarted,
)
from controller.engine.match_history import CubeRecord, ResignRecord, TurnRecord
from controller.engine.match_settings import MatchSettings
from controller.engine.moves import Step
from controller.engine.position import Position


pos = Position.from_points


def opened(m: Match | None = None, dice: tuple[int, int] = (3, 1)) -> Match:
    """A match whose opening roll is made (White wins it with 3-1 by default)."""
    return (m or Match.new(length=5)).roll("white", dice).match


def first_move(m: Match) -> Match:
    assert m.phase == "move"
    return m.play(m.turn, m.legal_moves()[0]).match  # type: ignore[arg-type]


def black_to_roll(**settings) -> Match:
    """Black on turn before rolling, after White's opening move."""
    m = first_move(opened(Match.new(**settings)))
    assert m.phase == "roll" and m.turn == "black"
    return m


def at(m: Match, position: Position, dice: tuple[int, int], **changes) -> Match:
    """The same match with the side on turn to move `dice` in `position` (a test setup)."""
    return dataclasses.replace(m, phase="move", position=position, partial=position, dice=dice,
                               steps=(), **changes)


# -- settings --------------------------------------------------------------------------
@pytest.mark.parametrize("bad", [{"length": 0}, {"length": "5"}, {"length": True}, {"confirm": "maybe"},
                                 {"clock": "blitz"}, {"cube": "yes"}])
def test_bad_settings_are_refused(bad: dict) -> None:
    with pytest.raises(MatchStateError):
        MatchSettings(**bad)


def test_any_length_is_accepted() -> None:
    assert Match.new(length=1).length == 1
    assert Match.new(length=25).length == 25


# -- who starts ------------------------------------------------------------------------
def test_opening_tie_is_rolled_again_and_changes_nothing() -> None:
    m = Match.new(length=3)
    t = m.roll("black", (4, 4))
    assert t.events == (OpeningTie(4),)
    assert t.match == m and t.match.phase == "opening"


@pytest.mark.parametrize("dice,starter", [((3, 1), "white"), ((2, 6), "black"), ((1, 6), "black")])
def test_the_higher_die_starts_and_plays_both(dice: tuple[int, int], starter: str) -> None:
    t = Match.new(length=3).roll("black", dice)
    m = t.match
    assert m.phase == "move" and m.turn == starter and m.dice == dice
    assert t.events == (GameStarted(1, starter, dice, False),)  # type: ignore[arg-type]
    assert m.position == Position.initial()
    m = first_move(m)
    opening = m.history[0].actions[0]
    assert isinstance(opening, TurnRecord) and opening.opening and opening.dice == dice
    assert m.turn != starter and m.phase == "roll"


def test_opening_dice_must_be_dice() -> None:
    with pytest.raises(MatchStateError):
        Match.new().roll("white", (0, 7))
    with pytest.raises(MatchStateError):
        Match.new().roll("green", (1, 2))  # type: ignore[arg-type]


# -- every command that is not allowed -------------------------------------------------
STEP = Step(13, 11, 2)
COMMANDS = {
    "roll": lambda m, s: m.roll(s, (5, 2)),
    "double": lambda m, s: m.double(s),
    "take": lambda m, s: m.take(s),
    "drop": lambda m, s: m.drop(s),
    "resign": lambda m, s: m.resign(s, "single"),
    "accept": lambda m, s: m.accept(s),
    "decline": lambda m, s: m.decline(s),
    "forfeit": lambda m, s: m.forfeit(s),
    "step": lambda m, s: m.step(s, STEP),
    "undo": lambda m, s: m.undo(s),
    "play": lambda m, s: m.play(s, m.legal_moves()[0] if m.legal_moves() else Match.new().roll("white", (3, 1)).match.legal_moves()[0]),
    "done": lambda m, s: m.done(s),
    "rematch": lambda m, s: m.rematch(s),
}


def _states() -> dict[str, tuple[Match, dict[str, set[str]]]]:
    """Sample states and the commands each side may give there."""
    opening = Match.new(length=5)
    roll = black_to_roll(length=5)
    doubled = roll.double("black").match
    taken = doubled.take("white").match  # black to roll, may not redouble
    move = opened(Match.new(length=5, confirm="button"), (5, 2))
    stepped = move.step("white", Step(13, 8, 5)).match
    complete = stepped.step("white", Step(13, 11, 2)).match
    resigning = roll.resign("black", "single").match
    declined = resigning.decline("white").match
    over = roll.forfeit("white").match
    offered = over.rematch("white").match
    f = {"forfeit"}
    return {
        "opening": (opening, {"white": {"roll"} | f, "black": {"roll"} | f}),
        "roll": (roll, {"black": {"roll", "double", "resign"} | f, "white": f}),
        "doubled": (doubled, {"white": {"take", "drop"} | f, "black": f}),
        "taken": (taken, {"black": {"roll", "resign"} | f, "white": f}),
        # RULES.md "Resigning": at the start of one's own turn, before rolling, only
        "move": (move, {"white": {"step", "play"} | f, "black": f}),
        "stepped": (stepped, {"white": {"step", "undo"} | f, "black": f}),
        "complete": (complete, {"white": {"undo", "done"} | f, "black": f}),
        "resigning": (resigning, {"white": {"accept", "decline"} | f, "black": f}),
        "declined": (declined, {"black": {"roll", "double", "resign"} - {"resign"} | f, "white": f}),
        "over": (over, {"white": {"rematch"}, "black": {"rematch"}}),
        "offered": (offered, {"white": set(), "black": {"rematch", "accept", "decline"}}),
    }


@pytest.mark.parametrize("name", list(_states()))
def test_only_the_allowed_commands_work_and_others_change_nothing(name: str) -> None:
    m, allowed = _states()[name]
    snapshot = dataclasses.replace(m)
    for side in ("white", "black"):
        for command, run in COMMANDS.items():
            if command in allowed[side]:
                t = run(m, side)
                assert isinstance(t, Transition) and t.events, (name, side, command)
            else:
                with pytest.raises(MatchStateError) as info:
                    run(m, side)
                assert "\n" not in str(info.value) and str(info.value), (name, side, command)
            assert m == snapshot


def test_declined_single_allows_only_a_higher_resignation() -> None:
    m, _ = _states()["declined"]
    with pytest.raises(MatchStateError, match="only a higher"):
        m.resign("black", "single")
    t = m.resign("black", "gammon")
    assert t.match.phase == "resigning" and t.match.resign_level == "gammon"


# -- turns -----------------------------------------------------------------------------
def test_a_move_passes_the_turn_and_is_remembered() -> None:
    m = opened(dice=(3, 1))
    move = next(x for x in m.legal_moves() if x.result == pos({5: 2, 6: 4, 8: 2, 13: 5, 24: 2}, {6: 5, 8: 3, 13: 5, 24: 2}))
    t = m.play("white", move)
    n = t.match
    assert n.turn == "black" and n.phase == "roll" and n.position == move.result.swap()
    assert isinstance(t.events[0], Moved) and isinstance(t.events[-1], TurnStarted)
    assert n.last_move is not None and n.last_move.side == "white" and set(n.last_move.steps) == set(move.steps)
    assert n.pips() == {"white": 163, "black": 167}


def test_no_legal_move_passes_by_itself() -> None:
    # White on the bar against a closed board: any roll passes
    closed = pos({25: 1, 13: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3})
    m = black_to_roll()
    m = dataclasses.replace(m, turn="white", phase="roll", position=closed, partial=closed)
    t = m.roll("white", (6, 5))
    assert NoMove("white", (6, 5)) in t.events
    assert t.match.turn == "black" and t.match.phase == "roll"
    assert t.match.history[-1].actions[-1] == TurnRecord("white", (6, 5), ())
    # Black's own earlier move is not shown to Black as the opponent's last move
    assert t.match.last_move is not None and t.match.last_move.side == "white" and t.match.last_move.steps == ()


def test_auto_roll_when_the_player_may_not_double() -> None:
    assert black_to_roll(length=5).auto_roll is False
    assert black_to_roll(length=5, cube=False).auto_roll is True
    assert black_to_roll(length=1).auto_roll is True
    assert black_to_roll(length=5, auto_roll_black=True).auto_roll is True
    assert black_to_roll(length=5, auto_roll_white=True).auto_roll is False


# -- steps, undo, done -----------------------------------------------------------------
def test_steps_and_undo_in_auto_mode_end_the_turn_when_complete() -> None:
    m = opened(dice=(3, 1))
    with pytest.raises(MatchStateError, match="cannot move 24/20"):
        m.step("white", Step(24, 20, 4))
    a = m.step("white", Step(8, 5, 3)).match
    assert a.steps == (Step(8, 5, 3),) and a.phase == "move" and not a.move_complete
    assert a.pips()["white"] == 164
    b = a.undo("white").match
    assert b.steps == () and b.partial == m.position
    t = a.step("white", Step(6, 5, 1))
    assert t.match.turn == "black" and t.match.phase == "roll"
    assert t.match.history[-1].actions[-1] == TurnRecord("white", (3, 1), (Step(8, 5, 3), Step(6, 5, 1)), True)


def test_button_mode_waits_for_done() -> None:
    m = opened(Match.new(confirm="button"), (3, 1))
    a = m.step("white", Step(8, 5, 3)).match
    with pytest.raises(MatchStateError, match="not complete"):
        a.done("white")
    b = a.step("white", Step(6, 5, 1)).match
    assert b.phase == "move" and b.move_complete and b.turn == "white"
    with pytest.raises(MatchStateError):
        b.step("white", Step(13, 12, 1))
    c = b.done("white").match
    assert c.turn == "black" and c.phase == "roll"


def test_step_chooses_the_die_given() -> None:
    # bearing off from the 2 with a 2 or (the highest checker) with a 5
    m = at(opened(), pos({2: 1, 1: 1}, {13: 15}), (5, 2))
    t = m.step("white", Step(2, 0, 5))
    assert t.match.steps == (Step(2, 0, 5),)


def test_play_refuses_illegal_moves_and_moves_after_steps() -> None:
    m = opened(dice=(3, 1))
    other_roll = Match.new().roll("white", (6, 5)).match.legal_moves()[0]
    with pytest.raises(MatchStateError, match="not a legal move"):
        m.play("white", other_roll)
    a = m.step("white", Step(8, 5, 3)).match
    with pytest.raises(MatchStateError, match="already moved"):
        a.play("white", m.legal_moves()[0])


# -- cube --------------------------------------------------------------------------------
def test_double_take_gives_the_cube_to_the_taker() -> None:
    m = black_to_roll()
    t = m.double("black")
    assert t.match.phase == "doubled" and t.match.double_offered and t.match.cube == 1
    t = t.match.take("white")
    n = t.match
    assert n.cube == 2 and n.cube_owner == "white" and n.phase == "roll" and n.turn == "black"
    assert n.auto_roll and not n.may_double("black")
    with pytest.raises(MatchStateError, match="white owns the cube"):
        n.double("black")
    assert n.history[-1].actions[-2:] == (CubeRecord("black", "double", 2), CubeRecord("white", "take", 2))
    # the owner may redouble at the start of a later turn
    n = first_move(n.roll("black", (6, 5)).match)
    assert n.turn == "white" and n.may_double("white")
    r = n.double("white").match.take("black").match
    assert r.cube == 4 and r.cube_owner == "black"


def test_drop_wins_the_cube_value_before_the_double() -> None:
    m = black_to_roll().double("black").match.take("white").match
    m = first_move(m.roll("black", (6, 5)).match)
    t = m.double("white").match.drop("black")
    assert DoubleDropped("black") in t.events
    won = next(e for e in t.events if isinstance(e, GameWon))
    assert won.points == 2 and won.how == "drop" and t.match.score == (2, 0)
    n = t.match
    assert n.phase == "opening" and n.game == 2 and n.cube == 1 and n.cube_owner is None
    assert n.history[0].end is not None and n.history[0].end.points == 2
    assert n.history[1].score_before == (2, 0)


def test_cube_cap_is_64() -> None:
    m = dataclasses.replace(black_to_roll(length=200), cube=64, cube_owner="black")
    with pytest.raises(MatchStateError, match="64"):
        m.double("black")
    m = dataclasses.replace(m, cube=32)
    assert m.double("black").match.take("white").match.cube == 64


@pytest.mark.parametrize("settings,why", [({"cube": False}, "cube is off"), ({"length": 1}, "1-point"),
                                          ({"auto_roll_black": True}, "auto-roll")])
def test_no_double_without_a_cube(settings: dict, why: str) -> None:
    with pytest.raises(MatchStateError, match=why):
        black_to_roll(**settings).double("black")


def _win_game_by_drop(m: Match, winner: str) -> Match:
    """From an opening phase: play until `winner` may double, then the other drops."""
    m = opened(m, (3, 1) if winner == "black" else (1, 3))  # the loser starts
    m = first_move(m)
    assert m.turn == winner
    return m.double(winner).match.drop("white" if winner == "black" else "black").match


def test_crawford_game_and_post_crawford() -> None:
    m = Match.new(length=3)
    m = _win_game_by_drop(m, "black")
    m = _win_game_by_drop(m, "black")
    assert m.score == (0, 2) and m.crawford and m.post_crawford
    t = m.roll("white", (3, 1))
    assert t.events[0] == GameStarted(3, "white", (3, 1), True)
    n = first_move(t.match)
    assert n.turn == "black" and n.auto_roll and not n.cube_enabled
    with pytest.raises(MatchStateError, match="Crawford"):
        n.double("black")
    # Black resigns the Crawford game: White scores 1, the next game is post-Crawford
    n = n.resign("black", "single").match.accept("white").match
    assert n.score == (1, 2) and not n.crawford and n.post_crawford and n.history[-2].crawford
    n = first_move(opened(n, (3, 1)))
    assert n.turn == "black" and n.may_double("black")


def test_no_crawford_when_the_rule_is_off() -> None:
    m = Match.new(length=3, crawford=False)
    m = _win_game_by_drop(_win_game_by_drop(m, "black"), "black")
    assert m.score == (0, 2) and not m.crawford
    assert first_move(opened(m, (3, 1))).may_double("black")


# -- scoring -----------------------------------------------------------------------------
@pytest.mark.parametrize("theirs,result", [
    ({12: 14}, "single"),
    ({12: 15}, "gammon"),
    ({12: 14, 25: 1}, "backgammon"),
    ({12: 14, 20: 1}, "backgammon"),  # in the winner's home board (their 19..24)
    ({12: 14, 18: 1}, "gammon"),
])
def test_game_result(theirs: dict[int, int], result: str) -> None:
    assert game_result(pos({}, theirs)) == result


@pytest.mark.parametrize("cube,theirs,points", [(1, {12: 14}, 1), (2, {12: 15}, 4), (4, {19: 15}, 12)])
def test_bearing_off_the_last_checker_scores_result_times_cube(cube: int, theirs: dict[int, int], points: int) -> None:
    m = at(opened(Match.new(length=15)), pos({1: 1}, theirs), (2, 1), cube=cube, cube_owner="black")
    t = m.play("white", m.legal_moves()[0])
    won = next(e for e in t.events if isinstance(e, GameWon))
    assert won.side == "white" and won.how == "bearoff" and won.points == points
    assert t.match.score == (points, 0) and t.match.phase == "opening"
    assert t.match.history[0].end is not None and t.match.history[0].end.points == points


def test_reaching_the_length_wins_the_match() -> None:
    m = at(opened(Match.new(length=2)), pos({1: 1}, {12: 15}), (2, 1))
    t = m.step("white", Step(1, 0, 2))
    assert isinstance(t.events[-1], MatchWon)
    assert t.match.phase == "over" and t.match.winner == "white" and t.match.end == "score"
    assert t.match.score == (2, 0)
    assert t.match.is_over


def test_last_checker_off_ends_the_game_even_in_button_mode() -> None:
    m = at(opened(Match.new(length=3, confirm="button")), pos({1: 1}, {12: 14}), (2, 1))
    assert m.step("white", Step(1, 0, 2)).match.phase == "opening"


# -- resigning ---------------------------------------------------------------------------
def test_resignation_accepted_scores_level_times_cube() -> None:
    m = dataclasses.replace(black_to_roll(length=9), cube=2, cube_owner="black")
    t = m.resign("black", "gammon").match.accept("white")
    won = next(e for e in t.events if isinstance(e, GameWon))
    assert won.side == "white" and won.points == 4 and won.how == "resign" and won.result == "gammon"
    acts = t.match.history[0].actions[-2:]
    assert acts == (ResignRecord("black", "offer", "gammon"), ResignRecord("white", "accept", "gammon"))


def test_backgammon_resignation_is_accepted_by_itself() -> None:
    t = black_to_roll(length=9).resign("black", "backgammon")
    assert ResignAccepted("white", "backgammon", True) in t.events
    assert t.match.score == (3, 0) and t.match.phase == "opening"


def test_resigning_after_the_roll_or_halfway_through_a_move_is_refused() -> None:
    """RULES.md "Resigning": at the start of their own turn a player may offer to resign."""
    rolled = opened(dice=(3, 1))
    halfway = rolled.step("white", Step(8, 5, 3)).match
    for m in (rolled, halfway):
        with pytest.raises(MatchStateError, match="before rolling") as info:
            m.resign("white", "single")
        assert "\n" not in str(info.value)
    declined = black_to_roll().resign("black", "single").match.decline("white").match
    assert declined.phase == "roll" and declined.turn == "black" and declined.declined == 1


def test_offers_reset_every_turn() -> None:
    m = black_to_roll().resign("black", "gammon").match.decline("white").match
    assert m.declined == 2
    n = first_move(m.roll("black", (6, 5)).match)
    n = first_move(n.roll("white", (6, 5)).match)
    assert n.turn == "black" and n.declined == 0
    assert n.resign("black", "single").match.phase == "resigning"


# -- forfeit, end of match, rematch ------------------------------------------------------
def test_forfeit_ends_the_match_for_the_opponent() -> None:
    t = black_to_roll().forfeit("black")
    m = t.match
    assert m.phase == "over" and m.winner == "white" and m.end == "forfeit" and m.score == (0, 0)
    assert m.history[-1].end is not None and m.history[-1].end.how == "forfeit"
    assert isinstance(t.events[-1], MatchWon)


def test_rematch_swaps_colours() -> None:
    m = Match.new(length=3, white="Ann", black="Bob", auto_roll_white=True).forfeit("white").match
    o = m.rematch("black").match
    assert o.rematch_offer == "black"
    declined = o.decline("white").match
    assert declined.rematch_offer is None
    t = o.rematch("white")
    assert t.events == (RematchStarted("Bob", "Ann"),)
    n = t.match
    assert n.phase == "opening" and n.score == (0, 0) and n.settings.white == "Bob"
    assert n.settings.auto_roll_black and not n.settings.auto_roll_white
    assert o.accept("white").match == n


# -- clocks ------------------------------------------------------------------------------
def test_timer_runs_out_and_loses_the_match() -> None:
    m = Match.new(length=3, clock="timer").roll("white", (3, 1), now=0.0).match
    assert m.clock is not None and m.clock.running == "white"
    assert m.tick(30.0).match == m  # 15 s + 15 s of the 20 s bank
    t = m.play("white", m.legal_moves()[0], now=35.0)
    assert t.events[0] == TimedOut("white")
    assert t.match.phase == "over" and t.match.winner == "black" and t.match.end == "time"
    assert m.tick(40.0).match.winner == "black"


def test_timer_bank_grows_after_a_quick_move_and_runs_for_the_next_player() -> None:
    m = Match.new(length=3, clock="timer").roll("white", (3, 1), now=0.0).match
    n = m.play("white", m.legal_moves()[0], now=3.0).match
    assert n.clock is not None and n.clock.running == "black"
    assert n.clock_reading(3.0).white.bank == pytest.approx(24.0)  # type: ignore[union-attr]


def test_tournament_clock_is_hit_after_play_and_cube_actions() -> None:
    m = Match.new(length=3, clock="tournament").roll("white", (3, 1), now=0.0).match
    n = m.play("white", m.legal_moves()[0], now=20.0).match  # 8 s of reserve
    assert n.clock_reading(20.0).white.bank == pytest.approx(352.0)  # type: ignore[union-attr]
    d = n.double("black", now=25.0).match
    assert d.clock is not None and d.clock.running == "white"
    k = d.take("white", now=30.0).match
    assert k.clock is not None and k.clock.running == "black"
    late = k.roll("black", (6, 5), now=30.0 + 12 + 360 + 1)
    assert late.match.winner == "white" and late.match.end == "time"


# -- ids ---------------------------------------------------------------------------------
def test_match_id_matches_gnubg() -> None:
    # gnubg 1.07 `new match 3`, X (White) rolled 41: Match ID cAlmAAAAAAAE
    m = Match.new(length=3).roll("black", (4, 1)).match
    assert m.match_id == "cAlmAAAAAAAE"
    assert m.position_id == "4HPwATDgc/ABMA"


# -- resuming ----------------------------------------------------------------------------
def test_json_round_trip_of_unusual_states() -> None:
    import json

    from controller.engine.match_json import match_from_dict, match_to_dict

    samples = [
        Match.new(length=3).forfeit("black").match,  # over before any roll
        black_to_roll().resign("black", "single").match,  # resigning before the roll
        black_to_roll(clock="timer").resign("black", "gammon", now=4.0).match,
        black_to_roll().double("black").match,
        Match.new(length=3, clock="tournament").roll("white", (3, 1), now=5.0).match,
    ]
    for m in samples:
        assert match_from_dict(json.loads(json.dumps(match_to_dict(m)))) == m


def test_saved_match_that_contradicts_itself_is_refused() -> None:
    from controller.engine.match_json import match_from_dict, match_to_dict

    data = match_to_dict(black_to_roll())
    data["dice"] = [3, 1]  # dice showing while the player is still to roll
    with pytest.raises(MatchStateError, match="inconsistent"):
        match_from_dict(data)
    data = match_to_dict(black_to_roll())
    del data["cube"]
    with pytest.raises(MatchStateError, match="malformed"):
        match_from_dict(data)


def test_resumed_match_restarts_the_running_action_on_the_new_time_origin() -> None:
    m = Match.new(length=3, clock="timer").roll("white", (3, 1), now=1000.0).match
    r = m.resumed(2.0)  # the program restarted: its clock now reads 2 s
    assert r.clock is not None and r.clock.running == "white" and r.clock.since == 2.0
    assert r.clock_reading(10.0).white.allowance == pytest.approx(7.0)  # type: ignore[union-attr]
    assert r.play("white", r.legal_moves()[0], now=10.0).match.turn == "black"
    assert Match.new().resumed(5.0) == Match.new()


def test_events_read_as_short_lines() -> None:
    t = black_to_roll().double("black")
    assert [str(e) for e in t.events] == ["black doubles to 2"]
    t = opened(dice=(3, 1))
    assert str(Match.new().roll("white", (3, 1)).events[0]) == "game 1 starts: white plays 3-1"
