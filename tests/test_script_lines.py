"""A scenario script's physical lines are gestures of the simulator's one hand (sim/hands.py),
the page's: what a line lifts is in that hand, what it cannot do is refused and changes nothing."""
from __future__ import annotations

import asyncio

import pytest

from controller.board.profile import load_profile
from controller.events import Refused
from sim.hands import Hands
from sim.script_lines import ScriptLines
from sim.virtual_board import VirtualBoard

PROFILE = load_profile()


@pytest.fixture
def rig():
    with VirtualBoard(PROFILE) as vb:
        refused: list[Refused] = []

        async def advance(ms: int) -> None:
            vb.advance(ms)

        hands = Hands(vb, status=lambda: pytest.fail("a script's line does not read the table"))
        lines = ScriptLines(hands, vb, PROFILE, mover=lambda: "white", refuse=refused.append, advance=advance)
        lines.lay_out()
        yield vb, hands, lines, refused


def test_a_lifted_checker_is_in_the_one_hand_and_goes_down_from_it(rig) -> None:
    vb, hands, lines, refused = rig
    lines.lift("13", None)                  # the starting position: five white on 13
    assert hands.hand == [{"colour": "white", "from": "13"}]
    assert vb.counts("13") == (4, 0)
    lines.place("10", None)
    assert hands.hand == [] and vb.counts("10") == (1, 0) and refused == []


def test_a_lift_from_an_empty_point_is_refused_and_changes_nothing(rig) -> None:
    vb, hands, lines, refused = rig
    lines.lift("10", "white")
    lines.lift("12", "white")               # black's five stand there
    assert [r.why.key for r in refused] == ["refused.board_cannot"] * 2
    assert hands.hand == [] and vb.counts("10") == (0, 0) and vb.counts("12") == (0, 5)


def test_a_move_whose_checker_is_not_there_puts_none_down(rig) -> None:
    # it put a checker on its target out of nothing after refusing the lift
    vb, hands, lines, refused = rig
    asyncio.run(lines.move("10", "12", "white"))
    assert len(refused) == 1
    assert vb.counts("12") == (0, 5) and vb.counts("10") == (0, 0)


def test_a_place_of_a_colour_not_in_the_air_adds_one(rig) -> None:
    vb, hands, lines, refused = rig
    lines.place("10", "black")
    assert vb.counts("10") == (0, 1) and hands.hand == [] and refused == []
