"""The hint on the board (issue 14): the menu's hint shows gnubg's best move lit with the
`hint` role and the move and its equity on the display; asking again shows the next best;
before rolling it names the cube action; never in an online match."""
from __future__ import annotations

import random

import pytest

from controller.board.reconcile import BoardState
from controller.controller import Controller, ControllerConfig
from controller.dice import DiceState
from controller.engine import Position
from controller.engine.board_view import cell_counts
from controller.engine.match import Match
from controller.engine.match_settings import MatchSettings
from controller.events import ActionRequested, ButtonPressed, ReadingReceived, Tick
from controller.events import menu_pressed as MenuPressed  # noqa: N812 - reads as the event

from network_backends import needs_network, network_backend, with_each_network  # noqa: F401
pytestmark = needs_network + [with_each_network]


def _table(config: ControllerConfig | None = None, black_player: str = "human") -> Controller:
    dice = DiceState.seeded(random.Random(1))
    dice = dice.push((6, 3))
    c = Controller(Match.new(MatchSettings(length=5, black_player=black_player)), dice=dice, config=config)
    c.handle(ReadingReceived(BoardState.of(cell_counts(Position.initial(), "white")), 0.0))
    c.handle(Tick(0.3))
    c.handle(ActionRequested("white", "roll", 0.4))  # the opening roll: white plays 6-3
    assert c.status().match.phase == "move" and c.status().match.dice == (6, 3)
    return c


def _open_at_hint(c: Controller, t: float) -> float:
    c.handle(MenuPressed(t))
    while c.status().menu.item != "hint":
        t += 0.1
        c.handle(MenuPressed(t))
        assert c.status().menu.item is not None
    return t


def test_the_hint_lights_the_best_move_and_a_second_press_the_next() -> None:
    c = _table()
    t = _open_at_hint(c, 1.0)
    c.handle(ButtonPressed("white", "main", t + 0.1))
    scene = c.status().scene
    prompt = scene.display.prompt
    assert prompt is not None and prompt.key == "hint"
    first = dict(prompt.params)
    # gnubg 1.07 at 0-ply, 5-point match 0-0: 24/15 +0.020, 24/18 13/10 +0.010 (-0.011)
    assert first["rank"] == 1 and first["notation"] == "24/15"
    assert float(first["equity"]) == pytest.approx(0.020, abs=0.002)
    lit = {cell for cell, role in scene.leds.items() if role == "hint"}
    assert {"24", "15"} <= lit
    c.handle(ButtonPressed("white", "main", t + 0.2))
    second = dict(c.status().scene.display.prompt.params)  # type: ignore[union-attr]
    assert second["rank"] == 2 and second["notation"] == "24/18 13/10"
    assert float(second["equity"]) <= float(first["equity"])


def test_the_hint_goes_once_the_position_changes() -> None:
    c = _table()
    t = _open_at_hint(c, 1.0)
    c.handle(ButtonPressed("white", "main", t + 0.1))
    c.handle(ButtonPressed("white", "cube", t + 0.2))  # close the menu: the hint stays
    assert c.status().scene.display.prompt.key == "hint"  # type: ignore[union-attr]
    moved = cell_counts(Position.initial(), "white")
    moved["24"] = (moved["24"][0] - 1, moved["24"][1])
    moved["18"] = (moved["18"][0] + 1, moved["18"][1])  # white starts 24/18
    c.handle(ReadingReceived(BoardState.of(moved), t + 0.3))
    c.handle(Tick(t + 0.7))
    assert c.status().match.steps  # the first step counted
    assert "hint" not in c.status().scene.leds.values()


def test_no_hint_in_an_online_match() -> None:
    c = _table(black_player="remote")
    c.handle(MenuPressed(1.0))
    assert "hint" not in c.status().menu.items


def _play_on_board(c: Controller, steps: list[tuple[str, str]], t: float) -> float:
    counts = cell_counts(Position.initial(), "white")
    for frm, to in steps:
        counts[frm] = (counts[frm][0] - 1, counts[frm][1])
        counts[to] = (counts[to][0] + 1, counts[to][1])
        c.handle(ReadingReceived(BoardState.of(dict(counts)), t))
        t += 0.5
        c.handle(Tick(t))
    return t


def _tutored(tutor: str) -> Controller:
    dice = DiceState.seeded(random.Random(1))
    dice = dice.push((6, 3))
    c = Controller(Match.new(MatchSettings(length=5, confirm="button")), dice=dice,
                   config=ControllerConfig(tutor=tutor))
    c.handle(ReadingReceived(BoardState.of(cell_counts(Position.initial(), "white")), 0.0))
    c.handle(Tick(0.3))
    c.handle(ActionRequested("white", "roll", 0.4))
    return c


def test_the_tutor_warns_before_a_bad_move_is_confirmed_and_lights_the_better() -> None:
    c = _tutored("doubtful")
    _play_on_board(c, [("13", "7"), ("13", "10")], 1.0)  # 13/10 13/7: -0.091 against 24/15
    assert c.status().match.move_complete and c.status().match.phase == "move"
    scene = c.status().scene
    prompt = scene.display.prompt
    assert prompt is not None and prompt.key == "tutor"
    assert dict(prompt.params) == {"mark_key": "tutor.bad", "loss": "-0.09"}
    from controller.show.texts import render
    assert render(prompt.key, dict(prompt.params), "en") == "Bad: -0.09. Undo?"
    assert {"24", "15"} <= {cell for cell, role in scene.leds.items() if role == "hint"}


def test_the_tutor_keeps_quiet_below_its_mark_and_when_off() -> None:
    for tutor, steps in (("very_bad", [("13", "7"), ("13", "10")]), ("off", [("13", "7"), ("13", "10")])):
        c = _tutored(tutor)  # 13/10 13/7 loses 0.091 (gnubg 1.07's hint, 0-ply): bad, below "very bad"
        _play_on_board(c, steps, 1.0)
        assert c.status().match.move_complete
        assert c.status().scene.display.prompt.key == "done"  # type: ignore[union-attr]
