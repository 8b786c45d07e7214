"""Entered dice on the board's buttons: gpiozero's mock pins through the real ButtonPanel
and the application's button handler into the controller (the menu shows a die, the cube
button steps it 1..6, the main button takes it, twice)."""
from __future__ import annotations

import tomllib
from pathlib import Path

from controller.table import Table
from controller.board.reconcile import BoardState
from controller.controller import Controller
from controller.dice import DiceState
from controller.engine import Position
from controller.engine.board_view import cell_counts
from controller.engine.match import Match
from controller.engine.match_settings import MatchSettings
from controller.events import ReadingReceived, Tick
from controller.inputs.buttons import ButtonConfig, ButtonPanel, make_pin_factory
from controller.show.texts import render
from controller.play.showing import phase_prompt

PROFILE = tomllib.loads(
    (Path(__file__).resolve().parents[1] / "hardware" / "profiles" / "default.toml").read_text())
PINS = ButtonConfig.from_profile(PROFILE).pins


class Clock:
    def __init__(self) -> None:
        self.now = 10.0

    def __call__(self) -> float:
        return self.now


def _rig(dice: str) -> tuple[Table, ButtonPanel, object, Clock]:
    clock = Clock()
    controller = Controller(Match.new(MatchSettings(length=3, dice=dice)), dice=DiceState(), now=clock.now)
    table = Table(controller, clock=clock)
    table.dispatch(ReadingReceived(BoardState.of(cell_counts(Position.initial(), "white")), clock.now))
    table.dispatch(Tick(clock.now + 0.5))
    clock.now += 1
    assert not controller.status().setting_up
    factory = make_pin_factory("mock")
    panel = ButtonPanel(ButtonConfig.from_profile(PROFILE), factory, table.on_button, clock=clock)
    return table, panel, factory, clock


def _press(factory: object, clock: Clock, name: str) -> None:
    pin = factory.pin(PINS[name])  # type: ignore[attr-defined]
    pin.drive_low()
    clock.now += 0.1
    pin.drive_high()
    clock.now += 0.2


def _prompt(table: Table) -> str:
    prompt = phase_prompt(table.controller.state)
    assert prompt is not None
    return render(prompt.key, prompt.as_dict())


def test_entered_dice_on_the_buttons_opening_then_a_roll() -> None:
    table, panel, factory, clock = _rig("entered")
    try:
        c = table.controller
        _press(factory, clock, "white_main")  # roll: the board asks for the real dice
        assert c.status().match.phase == "opening" and _prompt(table) == "White: your die 1? Cube: change"
        for _ in range(4):
            _press(factory, clock, "white_cube")  # 1 -> 5
        _press(factory, clock, "white_main")
        assert _prompt(table) == "Black: your die 1? Cube: change"
        _press(factory, clock, "black_cube")  # 1 -> 2
        _press(factory, clock, "black_main")
        assert c.status().match.phase == "move" and c.status().match.dice == (5, 2) and c.status().match.turn == "white"
        assert any("dice entered: 5-2" in line for line in table.log_lines)
        # White plays 13/8 6/4 on the board; Black rolls real dice: 6-6 after stepping past 6 once
        moved = cell_counts(Position.initial(), "white")
        for cell, (dw, db) in {"13": (-1, 0), "8": (1, 0), "6": (-1, 0), "4": (1, 0)}.items():
            w, b = moved[cell]
            moved[cell] = (w + dw, b + db)
        table.dispatch(ReadingReceived(BoardState.of(moved), clock.now))
        clock.now += 0.5
        table.dispatch(Tick(clock.now))
        assert c.status().match.phase == "roll" and c.status().match.turn == "black"
        _press(factory, clock, "black_main")
        assert _prompt(table) == "Black: dice 1? Cube: change"
        for _ in range(5):
            _press(factory, clock, "black_cube")
        _press(factory, clock, "black_main")
        assert _prompt(table) == "Black: dice 6-1? Cube: change"
        for _ in range(5):
            _press(factory, clock, "black_cube")
        _press(factory, clock, "black_main")
        assert c.status().match.dice == (6, 6) and c.status().match.turn == "black"
    finally:
        panel.close()
        factory.close()  # type: ignore[attr-defined]


def test_verifiable_dice_offer_no_dice_entry_and_show_the_commitment() -> None:
    table, panel, factory, clock = _rig("verifiable")
    try:
        c = table.controller
        secret = c.status().dice.secret
        assert secret is not None
        assert _prompt(table) == f"Dice {secret.commitment[:4]} {secret.commitment[4:8]}: each rolls one die"
        _press(factory, clock, "menu")
        assert "dice_entry" not in c.status().menu.items
        _press(factory, clock, "white_cube")  # closes the menu
        _press(factory, clock, "black_main")
        assert c.status().match.phase == "move" or any("tie" in line for line in table.log_lines)
    finally:
        panel.close()
        factory.close()  # type: ignore[attr-defined]


def test_the_menu_reveals_the_verifiable_seed() -> None:
    table, panel, factory, clock = _rig("verifiable")
    try:
        c = table.controller
        _press(factory, clock, "menu")
        while c.status().menu.item != "reveal_dice":
            assert c.status().menu.is_open
            _press(factory, clock, "menu")  # the menu button steps through the items
        assert _prompt(table) == "Menu: reveal the dice seed"
        _press(factory, clock, "black_main")
        # revealing ends the dice's guarantee for the rest of the match: it asks first
        assert c.status().dice.secret is not None and not c.status().dice.secret.revealed
        assert _prompt(table) == "Black: reveal seed, end dice proof? Main: yes"
        _press(factory, clock, "black_main")
        assert c.status().dice.secret is not None and c.status().dice.secret.revealed
        assert any("dice seed revealed" in line for line in table.log_lines)
        _press(factory, clock, "menu")
        assert "reveal_dice" not in c.status().menu.items  # once is all
    finally:
        panel.close()
        factory.close()  # type: ignore[attr-defined]


def test_the_reveal_asked_is_not_made_by_another_button() -> None:
    """The reveal's question is answered yes only by the asking side's main button: the
    cube button, the menu button or the other side's main leave the seed secret."""
    for answer in ("black_cube", "menu", "white_main"):
        table, panel, factory, clock = _rig("verifiable")
        try:
            c = table.controller
            _press(factory, clock, "menu")
            while c.status().menu.item != "reveal_dice":
                _press(factory, clock, "menu")
            _press(factory, clock, "black_main")
            assert "reveal seed" in _prompt(table)
            _press(factory, clock, answer)
            assert c.status().dice.secret is not None and not c.status().dice.secret.revealed, answer
            assert not c.status().menu.is_open
        finally:
            panel.close()
            factory.close()  # type: ignore[attr-defined]
