"""Hint labels: what the display says about a lifted checker is the engine's label, always.

The issue behind this file: a second turn graph once labelled the same targets its own way
(opening 5-3 from the 24: the engine `3+5`, the display `5+3`). The rule now lives in one
place, `TurnPlan.targets`: the dice in the order the checker uses them, as it travels,
fewest dice first. These properties hold over positions reached by play (random legal
moves from the opening, `controller/engine/playout.py`), every roll, partly played turns
and either colour on the board.
"""
from __future__ import annotations

import random
from itertools import islice

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.board.reconcile import Matched
from controller.engine import ALL_ROLLS, Position, TurnPlan
from controller.engine.board_view import Colour, cell_of_point
from controller.engine.playout import random_walk
from controller.show.content import DisplayContent, Hint
from controller.show.display import text_lines
from controller.show.scene import ControllerView, build_scene


@st.composite
def partly_played_turns(draw: st.DrawFn) -> tuple[TurnPlan, Position]:
    """A position reached by play, a roll, and some legal steps of it already played."""
    seed = draw(st.integers(0, 2**32 - 1))
    plies = draw(st.integers(0, 160))
    start = next(islice(random_walk(random.Random(seed)), plies, None))
    plan = TurnPlan(start, draw(st.sampled_from(ALL_ROLLS)))
    partial = start
    for _ in range(draw(st.integers(0, 3))):
        steps = plan.next_steps(partial)
        if not steps:
            break
        partial = partial.after(draw(st.sampled_from(steps)))
    return plan, partial


def shown_hints(plan: TurnPlan, partial: Position, frm: int, mover: Colour) -> DisplayContent:
    """The display's content while the checker on `frm` is in the air."""
    view = ControllerView(table=DisplayContent(turn=mover, dice=plan.dice), mover=mover, plan=plan,
                          current=partial,
                          verdict=Matched(partial, in_hand=(cell_of_point(frm, mover), mover)))
    return build_scene(view).display


@settings(max_examples=300, deadline=None)
@given(partly_played_turns(), st.sampled_from(["white", "black"]))
def test_the_display_shows_the_engines_labels_for_every_checker(
        turn: tuple[TurnPlan, Position], mover: Colour) -> None:
    plan, partial = turn
    for frm in sorted(plan.movable(partial)):
        engine = {Hint(cell_of_point(to, mover), label) for to, label in plan.targets(partial, frm).items()}
        display = shown_hints(plan, partial, frm, mover)
        assert set(display.hints) == engine, (partial, plan.dice, frm)
        line = "  ".join(f"{hint.cell}:{hint.dice}" for hint in display.hints)
        assert line in text_lines(display)


@settings(max_examples=300, deadline=None)
@given(partly_played_turns())
def test_a_label_is_the_dice_in_the_order_the_checker_travels(turn: tuple[TurnPlan, Position]) -> None:
    """Playing the label's dice in its order with that one checker is legal step by step
    and lands on the target; no route there uses fewer dice."""
    plan, partial = turn
    for frm in plan.movable(partial):
        routes = plan.routes(partial, frm)
        for to, label in plan.targets(partial, frm).items():
            at, here = frm, partial
            dice = [int(d) for d in label.split("+")]
            for die in dice:
                step = next(s for s in plan.next_steps(here) if s.frm == at and s.die == die)
                here, at = here.after(step), step.to
            assert at == to, (partial, plan.dice, frm, label)
            assert len(dice) == min(len(r) for r in routes[to])


def test_opening_five_three_from_the_24_goes_three_then_five() -> None:
    # 24/19 is blocked (the opponent's 6 point), so the checker travels 24/21/16: "3+5".
    plan = TurnPlan(Position.initial(), (5, 3))
    assert plan.targets(Position.initial(), 24)[16] == "3+5"
    assert Hint("9", "3+5") in shown_hints(plan, Position.initial(), 24, "black").hints
    # from the 13 both orders are open: the higher die is named first
    assert plan.targets(Position.initial(), 13)[5] == "5+3"


def test_two_ways_to_one_point_name_the_higher_die_first() -> None:
    # 8/5/4 and 8/7/4 are both open
    assert TurnPlan(Position.initial(), (3, 1)).targets(Position.initial(), 8)[4] == "3+1"
