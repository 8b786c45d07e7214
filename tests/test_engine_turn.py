"""TurnPlan: step-by-step legality (RULES.md "Moving": a step is offered only if a full
legal move starts with it), with the worked examples of RULES.md and seeds/004."""
from __future__ import annotations

import pytest

from controller.engine import Position, Step, legal_moves
from controller.engine.turn import TurnPlan


pos = Position.from_points


START_THEIRS = {13: 7, 8: 3, 6: 5}  # nothing on the mover's home board


def test_bar_entry_six_four_with_four_closed_only_bar_19_first() -> None:
    # the opponent holds their 4 point = the mover's 21, the entry point of a 4
    p = pos({25: 1, 24: 1, 13: 5, 8: 3, 6: 5}, {13: 5, 8: 3, 7: 5, 4: 2})
    plan = TurnPlan(p, (6, 4))
    assert plan.movable(p) == {25}
    assert plan.next_steps(p) == [Step(25, 19, 6, False)]
    assert plan.targets(p, 25) == {19: "6", 15: "6+4"}
    after = pos({24: 1, 19: 1, 13: 5, 8: 3, 6: 5}, {13: 5, 8: 3, 7: 5, 4: 2})
    assert plan.is_partial(after)
    assert plan.dice_left(after) == {(4,)}
    assert 19 in plan.movable(after) and 24 in plan.movable(after)
    assert plan.previous(after) == {p}


def test_six_two_in_bear_off_only_7_5_then_6_off() -> None:
    p = pos({7: 1, 6: 1, 5: 3, 4: 3, 3: 3, 2: 2}, {24: 2, 6: 5, 5: 4, 4: 4})
    plan = TurnPlan(p, (6, 2))
    assert plan.next_steps(p) == [Step(7, 5, 2, False)]
    mid = pos({6: 1, 5: 4, 4: 3, 3: 3, 2: 2}, {24: 2, 6: 5, 5: 4, 4: 4})
    assert plan.next_steps(mid) == [Step(6, 0, 6, False)]
    (move,) = legal_moves(p, (6, 2))
    assert plan.complete == {move.result}
    assert plan.move_for(move.result) == move


def test_six_five_where_only_one_die_plays_is_the_higher() -> None:
    p = pos({13: 1, 5: 3, 4: 4, 3: 4, 1: 3}, {23: 2, 6: 5, 5: 4, 4: 4})
    plan = TurnPlan(p, (6, 5))
    assert plan.next_steps(p) == [Step(13, 7, 6, False)]
    assert plan.steps_needed == 1
    (move,) = legal_moves(p, (6, 5))
    assert move.steps == (Step(13, 7, 6, False),)
    assert plan.complete == {move.result}


def test_six_four_bears_off_two_or_plays_5_1() -> None:
    p = pos({5: 1, 3: 1}, START_THEIRS)
    plan = TurnPlan(p, (6, 4))
    assert len(plan.complete) == 2
    assert {s for s in plan.next_steps(p)} == {Step(5, 0, 6, False), Step(5, 1, 4, False)}
    assert plan.targets(p, 5) == {0: "6", 1: "4"}
    assert plan.targets(p, 3) == {}
    assert pos({}, START_THEIRS) in plan.complete
    assert pos({1: 1}, START_THEIRS) in plan.complete


def test_partial_reached_with_different_dice_left() -> None:
    p = pos({3: 1, 2: 1}, START_THEIRS)
    plan = TurnPlan(p, (5, 3))
    mid = pos({2: 1}, START_THEIRS)
    assert plan.dice_left(mid) == {(5,), (3,)}
    assert plan.targets(p, 3) == {0: "3"}  # the exact die is named first
    assert set(plan.next_steps(mid)) == {Step(2, 0, 3, False), Step(2, 0, 5, False)}
    assert plan.previous(pos({}, START_THEIRS)) == {mid}  # 2/off first is never legal here


def test_start_three_one_targets_and_combined_labels() -> None:
    p = Position.initial()
    plan = TurnPlan(p, (3, 1))
    assert len(plan.complete) == 16
    assert plan.movable(p) == {24, 13, 8, 6}
    assert plan.targets(p, 8) == {5: "3", 7: "1", 4: "3+1"}
    assert plan.targets(p, 24) == {21: "3", 23: "1", 20: "3+1"}
    for m in legal_moves(p, (3, 1)):
        assert plan.move_for(m.result) == m
        assert plan.is_complete(m.result)


def test_doubles_chain_label() -> None:
    p = Position.initial()
    plan = TurnPlan(p, (2, 2))
    assert plan.targets(p, 24)[18] == "2+2+2"
    assert plan.targets(p, 24)[16] == "2+2+2+2"
    assert plan.steps_needed == 4


def test_combined_label_follows_the_open_order() -> None:
    # the mover's 8 is closed: 13/2 goes 6 then 5, never through the 8
    p = pos({13: 2, 6: 13}, {17: 2, 1: 2})  # opponent's 17 = mover's 8, closed
    plan = TurnPlan(p, (6, 5))
    assert plan.targets(p, 13)[2] == "6+5"
    assert 8 not in plan.targets(p, 13)


def test_step_that_prevents_the_other_die_is_not_offered() -> None:
    # the opponent holds the mover's 1: the 1 plays only as 8/7, the 6 only as 8/2, never both
    p = pos({8: 1, 2: 14}, {24: 2, 13: 5})
    plan = TurnPlan(p, (6, 1))
    steps = set(plan.next_steps(p))
    # 8/2 with the 6 then 2/1 is closed, 8/7 then 7/1 closed: only one die plays -> the 6
    assert steps == {Step(8, 2, 6, False)}


def test_no_legal_move() -> None:
    # the mover on the bar against a closed board
    p = pos({25: 1, 6: 14}, {6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 2})
    plan = TurnPlan(p, (6, 6))
    assert plan.complete == {p}
    assert plan.next_steps(p) == []
    assert plan.move_for(p) is None
    assert plan.is_partial(p) and plan.dice_left(p) == {(6, 6, 6, 6)}


def test_unreachable_position() -> None:
    plan = TurnPlan(Position.initial(), (3, 1))
    other = pos({1: 15}, {1: 15})
    assert not plan.is_partial(other)
    assert plan.next_steps(other) == [] and plan.dice_left(other) == set()


@pytest.mark.parametrize("dice", [(6, 6), (5, 4), (1, 1)])
def test_plan_agrees_with_legal_moves(dice: tuple[int, int]) -> None:
    p = Position.from_id("4HPwATDgc/ABMA")
    plan = TurnPlan(p, dice)
    assert plan.complete == {m.result for m in legal_moves(p, dice)}
    # every partial is reachable from the start and can complete
    for q in list(plan._nodes):
        assert plan.next_steps(q) or plan.is_complete(q)


@pytest.mark.slow  # a property over many random matches
def test_random_walks_through_plans_end_in_legal_moves() -> None:
    """Over positions reached by play: the plan's end positions are exactly the legal
    moves' results, and following any offered steps always completes a legal move."""
    import random

    from controller.engine import ALL_ROLLS
    from controller.engine.playout import played_positions

    rng = random.Random(5)
    for p in played_positions(60, 5):
        for dice in ALL_ROLLS:
            plan = TurnPlan(p, dice)
            results = {m.result for m in legal_moves(p, dice)}
            assert plan.complete == (results or {p})
            q, walked = p, []
            while plan.next_steps(q):
                step = rng.choice(plan.next_steps(q))
                assert step.frm in plan.movable(q)
                assert step.to in plan.targets(q, step.frm)
                nxt = q.after(step)
                assert q in plan.previous(nxt)
                q = nxt
                walked.append(step)
                assert plan.is_partial(q)
            assert plan.is_complete(q)
            assert len(walked) == plan.steps_needed
            if results:
                assert plan.move_for(q) is not None and plan.move_for(q).result == q


def test_path_leads_on_from_a_partial_by_legal_steps() -> None:
    # what the reconciler asks when the board jumps ahead: which steps bring the match there
    p = Position.initial()
    plan = TurnPlan(p, (3, 1))
    mid = p.after(Step(8, 5, 3))
    end = mid.after(Step(6, 5, 1))
    assert plan.path(p, p) == ()
    assert plan.path(p, end) in ((Step(8, 5, 3), Step(6, 5, 1)), (Step(6, 5, 1), Step(8, 5, 3)))
    assert plan.path(mid, end) == (Step(6, 5, 1),)
    assert plan.path(end, mid) is None  # backwards is an undo, not a path
    assert plan.path(p, p.after(Step(24, 18, 6))) is None  # not this roll


def test_path_respects_the_dice_left_at_a_shared_partial() -> None:
    # {2} reached by 3/off with the 3 (5 left) or with the 5 (3 left): either way 2/off follows
    p = pos({3: 1, 2: 1}, START_THEIRS)
    plan = TurnPlan(p, (5, 3))
    mid, end = pos({2: 1}, START_THEIRS), pos({}, START_THEIRS)
    path = plan.path(mid, end)
    assert path is not None and len(path) == 1 and path[0].frm == 2
    full = plan.path(p, end)
    assert full is not None and sorted(s.die for s in full) == [3, 5]


def test_steps_into_and_partials_fewest_steps_first() -> None:
    p = Position.initial()
    plan = TurnPlan(p, (3, 1))
    mid = p.after(Step(8, 5, 3))
    assert plan.steps_into(mid) == {Step(8, 5, 3)}  # set back to 8 it is an undo
    assert plan.steps_into(p) == set()
    partials = plan.partials
    assert partials[0] == p and set(partials) >= plan.complete
    assert all(plan.is_partial(q) for q in partials)
    first_complete = min(partials.index(q) for q in plan.complete)
    assert mid in partials[:first_complete]
