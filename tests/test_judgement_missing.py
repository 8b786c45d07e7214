"""Where no judgement is at hand (neither the gnubg-nn wheel nor the gnubg program's weight
file: a Raspberry Pi before `sudo apt install gnubg`), the hint and the tutor say so in one
line naming the command that installs it (the levels' own `INSTALL_HINT`), instead of
leaving the menu and the table without a word (issue 21)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from controller.analysis import network
from controller.board.reconcile import BoardState
from controller.controller import Controller, ControllerConfig
from controller.dice import DiceState
from controller.engine import Position
from controller.engine.board_view import cell_counts
from controller.engine.match import Match
from controller.engine.match_settings import MatchSettings
from controller.evaluation.backend import INSTALL_HINT
from controller.events import ActionRequested, Announce, ButtonPressed, ReadingReceived, Tick
from controller.events import menu_pressed as MenuPressed  # noqa: N812 - reads as the event
from controller.show.texts import render


@pytest.fixture(autouse=True)
def no_judgement(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The wheel hidden and the weight file nowhere (a network loaded before is forgotten)."""
    monkeypatch.setenv("BGBOARD_NETWORK", "numpy")
    monkeypatch.setattr(network, "BINARY_WEIGHTS", (tmp_path / "gnubg.wd",))
    monkeypatch.setattr(network, "_loaded", {})
    assert not network.network_available()


def _table(tutor: str = "off") -> Controller:
    dice = DiceState.seeded(random.Random(1))
    dice = dice.push((6, 3))
    c = Controller(Match.new(MatchSettings(length=5, confirm="button")), dice=dice,
                   config=ControllerConfig(tutor=tutor))
    c.handle(ReadingReceived(BoardState.of(cell_counts(Position.initial(), "white")), 0.0))
    c.handle(Tick(0.3))
    return c


def test_the_hint_item_stays_and_answers_with_the_command_that_installs_gnubg() -> None:
    c = _table()
    c.handle(ActionRequested("white", "roll", 0.4))
    assert c.status().match.phase == "move"
    c.handle(MenuPressed(1.0))
    assert "hint" in c.status().menu.items
    t = 1.0
    while c.status().menu.item != "hint":
        t += 0.1
        c.handle(MenuPressed(t))
    out = c.handle(ButtonPressed("white", "main", t + 0.1))
    prompt = c.status().scene.display.prompt
    assert prompt is not None and prompt.key == "hint_missing"
    assert render(prompt.key, dict(prompt.params), "en") == f"Hint needs: {INSTALL_HINT}"
    assert Announce(f"hint: needs {INSTALL_HINT}") in out
    assert c.status().match.phase == "move"  # nothing else changed


def test_the_tutor_says_before_the_opening_roll_what_it_needs_and_holds_nothing() -> None:
    c = _table("doubtful")
    prompt = c.status().scene.display.prompt
    assert prompt is not None and prompt.key == "tutor_missing"
    assert render(prompt.key, dict(prompt.params), "en") == f"Tutor needs: {INSTALL_HINT}"
    c.handle(ActionRequested("white", "roll", 0.4))
    assert c.status().match.phase == "move"
    assert c.status().scene.display.prompt.key != "tutor_missing"  # type: ignore[union-attr]


def test_without_the_tutor_the_opening_prompt_is_the_tables_own() -> None:
    assert _table("off").status().scene.display.prompt.key != "tutor_missing"  # type: ignore[union-attr]
