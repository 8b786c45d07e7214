"""A script's `match` line is the table's MatchChosen (issue 33.3), as New match is on the
page, the phone and the board's menu: the table is not closed and opened again (the board
never went offline, and a second table read it anew), and `seed=N` seeds the table's dice
through its step (DiceSeeded), so the same seed rolls the same whatever rolled before."""
from __future__ import annotations

import asyncio
import random
from pathlib import Path

from controller.controller import Controller, step
from controller.dice import DiceState
from controller.engine.match import Match
from controller.events import DiceSeeded
from controller.engine.match_settings import MatchSettings
from sim import script as sc
from sim.headless import HeadlessRunner


def run(text: str, tmp_path: Path) -> list:
    path = tmp_path / "match.txt"
    path.write_text(text)
    return asyncio.run(HeadlessRunner(sc.load_script(path), state_dir=tmp_path / "state").run())


def test_a_match_line_starts_the_match_on_the_same_table(tmp_path: Path) -> None:
    first, second = run("match length=3\nmatch length=7 crawford=off\n", tmp_path)
    assert second["match"]["length"] == 7 and second["match"]["state"] == "opening"
    assert "new match to 7" in second["events"]
    assert not any("offline" in event or "online" in event for event in first["events"] + second["events"])


def test_the_same_seed_rolls_the_same_whatever_rolled_before() -> None:
    rolled = []
    for seed in (1, 2):  # two tables whose dice rolled from other generators
        table = Controller(Match.new(MatchSettings(length=5)), dice=DiceState.seeded(random.Random(seed)))
        state, _ = step(table.state, DiceSeeded(9, 0.0))
        first, dice = state.dice.drawn_randomly()
        rolled.append((first, dice.drawn_randomly()[0]))
    assert rolled[0] == rolled[1]
