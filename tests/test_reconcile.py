"""Reconcile: the turn's plan of legal partials and what a settled reading means."""
from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from controller.board.reconcile import (Ambiguous, BoardState, Expectation, Matched, Mismatch,
                                        mismatch, reconcile, turn_expectation)
from controller.engine import Position, TurnPlan, legal_moves
from controller.engine.board_view import Colour, cell_counts

START = Position.initial()


def board(position: Position, mover: Colour = "white", changes: Sequence[tuple[str, int, int]] = (),
          saturated: tuple[str, ...] = ()) -> BoardState:
    counts = cell_counts(position, mover)
    for cell, dw, db in changes:
        w, b = counts[cell]
        counts[cell] = (w + dw, b + db)
    return BoardState.of(counts, saturated)


@pytest.mark.slow  # a property over many random matches
def test_plan_ends_are_exactly_the_legal_moves_over_random_play() -> None:
    rng = random.Random(5)
    checked = 0
    for _ in range(12):
        pos = START
        for _ in range(120):
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            graph = TurnPlan(pos, dice)
            moves = legal_moves(pos, dice)
            assert graph.complete == ({m.result for m in moves} or {pos}), (pos, dice)
            for m in moves[:3]:
                found = graph.move_for(m.result)
                assert found is not None and found.result == m.result
            checked += 1
            if not moves:
                pos = pos.swap()
                continue
            nxt = rng.choice(moves).result
            if sum(nxt.mine) == 0:
                break
            pos = nxt.swap()
    assert checked > 500


def test_targets_carry_the_dice_used() -> None:
    graph = TurnPlan(START, (3, 1))
    assert graph.targets(START, 8) == {5: "3", 7: "1", 4: "3+1"}
    assert graph.targets(START, 24) == {21: "3", 23: "1", 20: "3+1"}
    doubles = TurnPlan(START, (2, 2))
    assert doubles.targets(START, 6)[2] == "2+2"


def test_bar_entry_6_4_with_the_4_point_closed_must_enter_with_the_6_first() -> None:
    # White on the bar; Black holds White's 21 point (entry with a 4) with two checkers.
    pos = Position.from_points({25: 1, 13: 5, 8: 3, 6: 5, 24: 1}, {4: 2, 20: 13})
    graph = TurnPlan(pos, (6, 4))
    firsts = {(s.frm, s.to) for s in graph.next_steps(pos)}
    assert firsts == {(25, 19)}


def _expect(dice: tuple[int, int], pos: Position = START, mover: str = "white") -> tuple[TurnPlan, Expectation]:
    graph = TurnPlan(pos, dice)
    return graph, turn_expectation(graph, mover)  # type: ignore[arg-type]


def test_start_partial_complete_and_in_hand() -> None:
    graph, exp = _expect((3, 1))
    assert reconcile(board(START), exp, START) == Matched(START)
    lifted = reconcile(board(START, changes=[("8", -1, 0)]), exp, START)
    assert isinstance(lifted, Matched) and lifted.in_hand == ("8", "white") and lifted.position == START
    partial = reconcile(board(START, changes=[("8", -1, 0), ("5", 1, 0)]), exp, START)
    assert isinstance(partial, Matched) and partial.is_exact
    assert partial.position in graph.partials and partial.position not in graph.complete
    done = reconcile(board(START, changes=[("8", -1, 0), ("6", -1, 0), ("5", 2, 0)]), exp, START)
    assert isinstance(done, Matched) and done.position in graph.complete


def test_lifting_the_moved_checker_again_is_in_hand_from_the_current_partial() -> None:
    graph, exp = _expect((3, 1))
    after = board(START, changes=[("8", -1, 0), ("5", 1, 0)])
    current = reconcile(after, exp, START).position  # type: ignore[union-attr]
    # the same board as "start minus a checker on 8": preferred base is the current partial
    verdict = reconcile(board(START, changes=[("8", -1, 0)]), exp, current)
    assert isinstance(verdict, Matched) and verdict.position == current and verdict.in_hand == ("5", "white")
    # moving it back is an undo: the start is allowed again
    assert reconcile(board(START), exp, current) == Matched(START)


def test_a_hit_blot_must_reach_the_bar() -> None:
    # White 9 -> 7 hits Black's blot on White's 7 point.
    pos = Position.from_points({13: 4, 9: 1, 8: 3, 6: 5, 24: 2}, {18: 1, 24: 1, 13: 5, 8: 3, 6: 5})
    graph, exp = _expect((2, 1), pos)
    # the hitting checker landed, the blot still stands on 7
    pending = board(pos, changes=[("9", -1, 0), ("7", 1, 0)])
    verdict = reconcile(pending, exp, pos)
    assert isinstance(verdict, Matched) and verdict.hits_pending == ("7",)
    # the blot in hand: it belongs on the bar
    in_hand = board(pos, changes=[("9", -1, 0), ("7", 1, -1)])
    verdict = reconcile(in_hand, exp, pos)
    assert isinstance(verdict, Matched) and verdict.in_hand == ("bar", "black")
    # on the bar: an exact partial
    done = board(pos, changes=[("9", -1, 0), ("7", 1, -1), ("bar", 0, 1)])
    verdict = reconcile(done, exp, pos)
    assert isinstance(verdict, Matched) and verdict.is_exact
    # the blot put on the bar first, before the hitting checker lands
    early = board(pos, changes=[("7", 0, -1), ("bar", 0, 1)])
    verdict = reconcile(early, exp, pos)
    assert isinstance(verdict, Matched) and verdict.prehit == ("7",)


def test_running_past_a_blot_is_the_move_on_the_board_not_an_unfinished_hit() -> None:
    """24/14 with 6-4 past a black blot on White's 18: the board shows 24/20/14, so it is
    that move, not 24/18*/14 waiting for the blot to reach the bar (found in the browser)."""
    theirs = list(START.theirs)
    theirs[7] -= 1  # one black checker from White's 17 ...
    theirs[6] += 1  # ... to White's 18: a blot
    pos = Position.checked(list(START.mine), theirs)
    graph, exp = _expect((6, 4), pos)
    ran = board(pos, changes=[("24", -1, 0), ("14", 1, 0)])
    verdict = reconcile(ran, exp, pos)
    assert isinstance(verdict, Matched) and verdict.is_exact and not verdict.hits_pending
    assert verdict.position in graph.complete
    assert verdict.position.opponent_on(18) == 1  # the blot still stands


def test_a_wrong_move_is_explained_by_the_least_movement() -> None:
    _, exp = _expect((3, 1))
    verdict = reconcile(board(START, changes=[("13", -1, 0), ("7", 1, 0)]), exp, START)
    assert isinstance(verdict, Mismatch)
    assert verdict.cells == ("7", "13")
    (ins,) = verdict.instructions
    assert (ins.kind, ins.colour, ins.n, ins.frm, ins.to) == ("move", "white", 1, "7", "13")


def test_pairs_surplus_with_the_nearest_deficit_and_counts_extra_checkers() -> None:
    reference = board(START)
    state = board(START, changes=[("13", -2, 0), ("12", 0, 1), ("11", 2, 0)])
    result = mismatch(state, reference)
    kinds = {(i.kind, i.colour, i.n, i.frm, i.to) for i in result.instructions}
    assert ("move", "white", 2, "11", "13") in kinds
    assert ("take", "black", 1, "12", None) in kinds


def test_a_saturated_point_is_resolved_from_fifteen_checkers() -> None:
    # Seven white checkers on the 6 point (6 slots): the reading shows 6 and "full".
    pos = Position.from_points({6: 7, 8: 3, 13: 5}, {24: 2, 13: 5, 8: 3, 6: 5})
    seen = board(pos, changes=[("6", -1, 0)], saturated=("6",))
    verdict = reconcile(seen, Expectation.single(pos, "white"), pos)
    assert verdict == Matched(pos)
    # a checker lifted elsewhere while 6 is full is still understood as in hand
    lifted = board(pos, changes=[("6", -1, 0), ("13", -1, 0)], saturated=("6",))
    verdict = reconcile(lifted, Expectation.single(pos, "white"), pos)
    assert isinstance(verdict, Matched) and verdict.in_hand == ("13", "white")


def test_two_saturated_points_that_fit_two_legal_positions_are_ambiguous() -> None:
    # 7 on the 6 point and 6 on the 5 point (6 slots each): after 6/5 it is 6 and 7, and
    # both boards read "6 full, 5 full".
    pos = Position.from_points({6: 7, 5: 6, 13: 2}, {24: 2, 13: 5, 8: 3, 6: 5})
    graph, exp = _expect((1, 1), pos)
    seen = board(pos, changes=[("6", -1, 0)], saturated=("5", "6"))
    assert reconcile(seen, exp, pos) == Matched(pos)  # the last accepted position wins
    elsewhere = next(p for p in graph.partials if p.mine[3] == 1 and p.mine[4] == 5)
    verdict = reconcile(seen, exp, elsewhere)
    assert isinstance(verdict, Ambiguous)
    assert set(verdict.cells) == {"5", "6"}
    assert len(verdict.positions) == 2 and pos in verdict.positions


def test_before_the_roll_only_the_position_itself_is_right() -> None:
    exp = Expectation.single(START, "white")
    assert reconcile(board(START), exp, START) == Matched(START)
    assert isinstance(reconcile(board(START, changes=[("13", -1, 0), ("10", 1, 0)]), exp, START), Mismatch)


@pytest.mark.parametrize("dice", [(6, 6), (1, 1), (6, 5)])
def test_reconcile_is_fast_enough_for_the_latency_budget(dice: tuple[int, int]) -> None:
    import time

    graph, exp = _expect(dice)
    state = board(START, changes=[("13", -1, 0), ("7", 1, 0), ("1", 0, 0)])
    t0 = time.thread_time()  # this thread's CPU time: other jobs on the machine do not count
    for _ in range(100):
        reconcile(state, exp, START)
    assert (time.thread_time() - t0) / 100 < 0.005
