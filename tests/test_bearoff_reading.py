"""A bear-off a hand makes the same way for two moves (RULES.md "Bearing off": a die higher
than the highest occupied point bears off from that point; a lower die may be played
before a higher one).

With 6-1 and the last checker above the 4-point on the 5-point, 5/off with the 6 and
5/4/off with both dice leave the same checkers. Read by the fewest steps the board meant
the first, and a player who meant 5/4/off waited for ever for a 1. Now the display asks
"Was it 5/4/off?" (the board's question for a reading it cannot tell apart): main says
yes and the whole move counts; cube says no, or simply playing the 1 elsewhere answers it.
"""
from __future__ import annotations

import random

from controller.board.reconcile import BoardState
from controller.controller import Controller
from controller.dice import DiceState
from controller.engine.board_view import cell_counts
from controller.engine.match import Match
from controller.engine.match_history import TurnRecord
from controller.engine.match_settings import MatchSettings
from controller.engine.moves import Step
from controller.engine.position import Position
from controller.events import ActionRequested, ButtonPressed, ReadingReceived, Tick
from controller.play.tracker import whole_move_reading
from controller.show.texts import render
from controller.play.showing import phase_prompt


def _counts(points: dict[int, int]) -> tuple[int, ...]:
    return tuple(points.get(p, 0) for p in range(1, 25)) + (0,)


#: White (on roll) bears off: one checker on 5, three each on 3 and 2, eight off; Black
#: has its last five checkers in its home board
BEAROFF = Position(_counts({5: 1, 3: 3, 2: 3}), _counts({1: 2, 2: 3}))


def _rolled(dice: tuple[int, int] = (6, 1), confirm: str = "auto") -> Match:
    return Match.from_score(MatchSettings(length=3, confirm=confirm), position=BEAROFF).roll("white", dice).match


def test_five_off_with_the_six_is_also_five_four_off_with_both_dice() -> None:
    m = _rolled()
    assert whole_move_reading(m) is None  # nothing moved yet
    m = m.step("white", Step(5, 0, 6))
    m = m.match
    assert not m.move_complete  # read by the fewest steps: the 1 is still to play
    whole = whole_move_reading(m)
    assert whole is not None and whole.result == m.partial
    assert sorted((s.frm, s.to, s.die) for s in whole.steps) == [(4, 0, 6), (5, 4, 1)]
    assert whole_move_reading(m.step("white", Step(3, 2, 1)).match) is None  # played on: a complete move


def test_no_question_where_the_dice_used_are_plain() -> None:
    m = Match.new(MatchSettings(length=3)).roll("white", (6, 1)).match.step("white", Step(13, 7, 6)).match
    assert whole_move_reading(m) is None  # a position with a die left is never a complete move's result here
    m = _rolled((6, 5)).step("white", Step(5, 0, 6)).match  # 5/off with the 6 and the 5 still to play
    assert whole_move_reading(m) is None  # 5/off with the 5 leaves the same, but it is one die, not a whole move


# -- at the table: the board read, the question asked and answered ---------------------
def _board(points_off: dict[str, tuple[int, int]]) -> BoardState:
    counts = cell_counts(BEAROFF, "white")
    for cell, (dw, db) in points_off.items():
        w, b = counts[cell]
        counts[cell] = (w + dw, b + db)
    return BoardState.of(counts)


def _table(confirm: str = "auto") -> Controller:
    dice = DiceState.seeded(random.Random(1))
    dice = dice.push((6, 1))
    c = Controller(Match.from_score(MatchSettings(length=3, confirm=confirm), position=BEAROFF), dice=dice)
    c.handle(ReadingReceived(_board({}), 0.0))
    c.handle(Tick(0.3))
    c.handle(ActionRequested("white", "roll", 0.4))
    assert c.status().match.phase == "move" and c.status().match.dice == (6, 1)
    c.handle(ReadingReceived(_board({"5": (-1, 0), "off-white": (1, 0)}), 1.0))  # the checker on 5 taken off
    c.handle(Tick(1.4))
    return c


def _line(c: Controller) -> str:
    prompt = phase_prompt(c.state)
    assert prompt is not None
    return render(prompt.key, prompt.as_dict(), "en")


def _last_move(c: Controller) -> list[tuple[int, int]]:
    turn = [a for a in c.status().match.history[-1].actions if isinstance(a, TurnRecord)][-1]
    return [(s.frm, s.to) for s in turn.steps]


def test_the_table_asks_and_main_says_it_was_the_whole_move() -> None:
    c = _table()
    assert _line(c) == "Was it 5/4/off? Main: yes, cube: no"
    c.handle(ButtonPressed("white", "main", 2.0))
    assert c.status().match.turn == "black" and _last_move(c) == [(5, 4), (4, 0)]  # the turn ended (confirm auto)


def test_cube_says_no_and_the_one_is_played_elsewhere() -> None:
    c = _table()
    c.handle(ButtonPressed("white", "cube", 2.0))
    assert c.status().match.turn == "white" and _line(c) == "White to play 6-1"  # asked once: play on
    c.handle(ReadingReceived(_board({"5": (-1, 0), "off-white": (1, 0), "3": (-1, 0), "2": (1, 0)}), 3.0))
    c.handle(Tick(3.4))
    assert c.status().match.turn == "black" and sorted(_last_move(c)) == [(3, 2), (5, 0)]


def test_playing_on_answers_the_question_without_a_button() -> None:
    c = _table()
    c.handle(ReadingReceived(_board({"5": (-1, 0), "off-white": (1, 0), "2": (-1, 0), "1": (1, 0)}), 2.0))
    c.handle(Tick(2.4))
    assert c.status().match.turn == "black" and sorted(_last_move(c)) == [(2, 1), (5, 0)]


def test_with_confirm_by_button_yes_makes_the_move_complete_and_done_ends_it() -> None:
    c = _table(confirm="button")
    assert _line(c) == "Was it 5/4/off? Main: yes, cube: no"
    c.handle(ButtonPressed("white", "main", 2.0))
    assert c.status().match.move_complete and _line(c) == "White: done? Press the button"
    c.handle(ButtonPressed("white", "main", 2.5))
    assert c.status().match.turn == "black" and _last_move(c) == [(5, 4), (4, 0)]


def test_asked_exactly_when_a_step_short_position_is_a_complete_moves_result() -> None:
    """Over random bear-offs and every roll: after any first step, the table asks exactly
    when the engine's own list of complete moves (legal_moves) has one ending there."""
    from controller.engine.moves import legal_moves

    rng = random.Random(5)
    asked = 0
    for _ in range(60):
        spread = [rng.randrange(7) for _ in range(rng.randrange(1, 10))]  # 0: already off
        points = {p: spread.count(p) for p in range(1, 7) if spread.count(p)}
        position = Position(_counts(points), _counts({1: 2, 2: 3}))
        for d1 in range(1, 7):
            for d2 in range(1, d1):
                m = Match.from_score(MatchSettings(length=3, confirm="button"), position=position).roll("white", (d1, d2)).match
                results = {move.result for move in legal_moves(position, (d1, d2))}
                assert m.plan is not None
                for step in m.plan.next_steps(m.partial):
                    after = m.step("white", step).match
                    if after.phase != "move" or after.move_complete:
                        continue
                    whole = whole_move_reading(after)
                    assert (whole is not None) == (after.partial in results), (points, d1, d2, step)
                    if whole is not None:
                        asked += 1
                        assert whole.result == after.partial and len(whole.steps) == 2
    assert asked > 0
