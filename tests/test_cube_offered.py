"""The cube offered (issue 22, item 4): when a side doubles, the cube is turned to the new
value and put before the opponent, who takes or drops (RULES.md "Doubling cube"); the
display and the page showed it still at 64 in the middle ("1 (center)") until the answer."""
from __future__ import annotations

import random

from controller.board.reconcile import BoardState
from controller.controller import Controller
from controller.dice import DiceState
from controller.engine import Position
from controller.engine.board_view import cell_counts
from controller.engine.match_settings import MatchSettings
from controller.events import ActionRequested, ReadingReceived, Tick
from controller.table.start import starting_match
from controller.web.page_facts import page_facts


def test_a_double_offered_shows_the_cube_turned_before_the_doubled_side() -> None:
    m = starting_match(MatchSettings(length=5), Position.initial().id, turn="white")
    c = Controller(m, dice=DiceState.seeded(random.Random(1)))
    c.handle(ReadingReceived(BoardState.of(cell_counts(Position.initial(), "white")), 0.0))
    c.handle(Tick(0.3))
    assert (c.status().scene.display.cube_value, c.status().scene.display.cube_owner) == (1, "center")
    c.handle(ActionRequested("white", "double", 0.4))  # White doubles (the computer alike)
    assert c.status().match.phase == "doubled" and c.status().match.cube == 1  # the cube counts only once taken
    assert (c.status().scene.display.cube_value, c.status().scene.display.cube_owner) == (2, "black")
    assert page_facts(c.status(), "en")["cube_view"] == {"value": 2, "owner": "black", "offered": True}
    c.handle(ActionRequested("black", "take", 0.5))
    assert (c.status().scene.display.cube_value, c.status().scene.display.cube_owner) == (2, "black")
    assert page_facts(c.status(), "en")["cube_view"] == {"value": 2, "owner": "black", "offered": False}
