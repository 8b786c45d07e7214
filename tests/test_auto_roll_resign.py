"""The automatic roll leaves time to resign (issue 22, item 5). RULES.md "Automation":
when a player may not double (the opponent owns the cube) the dice are rolled without
waiting; RULES.md "Resigning": at the start of their own turn a player may offer to resign.
Both hold: the roll waits its delay (2 s) after the turn starts, and while the player has
the menu open (the board's way to resign) it does not roll; once the menu closes the full
delay runs again, so a player who opened the menu to resign is never overtaken by the dice."""
from __future__ import annotations

import random

from controller.board.reconcile import BoardState
from controller.controller import Controller, ControllerConfig
from controller.dice import DiceState
from controller.engine import Position
from controller.engine.board_view import cell_counts
from controller.engine.match_settings import MatchSettings
from controller.events import ActionRequested, ButtonPressed, ReadingReceived, Tick
from controller.events import menu_pressed as MenuPressed  # noqa: N812 - reads as the event
from controller.table.start import starting_match


def _owned_by_black() -> Controller:
    """White on roll at the start, Black owning the cube at 2: White may not double."""
    m = starting_match(MatchSettings(length=5), Position.initial().id, turn="white")
    dice = DiceState.seeded(random.Random(3))
    dice = dice.push((6, 5))
    c = Controller(m, dice=dice, config=ControllerConfig(auto_roll_delay_s=2.0))
    c.handle(ReadingReceived(BoardState.of(cell_counts(Position.initial(), "white")), 0.0))
    c.handle(Tick(0.3))
    c.handle(ActionRequested("white", "double", 0.4))
    c.handle(ActionRequested("black", "take", 0.5))
    assert c.status().match.cube == 2 and c.status().match.cube_owner == "black"
    return c


def test_the_automatic_roll_waits_while_the_menu_is_open_then_its_whole_delay() -> None:
    c = _owned_by_black()
    # the doubler rolls after the take, and may not double again: the dice roll by themselves
    assert c.status().match.phase == "roll" and c.status().match.turn == "white" and c.status().match.auto_roll
    c.handle(MenuPressed(1.0))  # White reaches for the menu within the delay
    assert c.status().menu.is_open
    c.handle(Tick(2.6))
    c.handle(Tick(9.0))
    assert c.status().match.phase == "roll"  # no roll while the menu is open
    c.handle(MenuPressed(9.1, held=True))  # closed without resigning (a long press)
    assert not c.status().menu.is_open
    c.handle(Tick(10.0))
    assert c.status().match.phase == "roll"  # the whole delay again
    c.handle(Tick(11.2))
    assert c.status().match.phase == "move" and c.status().match.dice == (6, 5)


def test_a_resignation_from_the_menu_beats_the_automatic_roll() -> None:
    c = _owned_by_black()
    c.handle(MenuPressed(1.0))
    while c.status().menu.item != "resign_single":
        c.handle(MenuPressed(c.status().now + 0.1))
        assert c.status().menu.item is not None
    c.handle(Tick(5.0))
    c.handle(ButtonPressed("white", "main", 5.1))
    assert c.status().match.phase == "resigning" and c.status().match.resign_level == "single"
