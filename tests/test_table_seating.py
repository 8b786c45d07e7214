"""Online play takes the table and gives it back through one method, `Table.seat`.

The seating is who plays at the table: the match, the dice it is rolled with (online the
server's) and the store it is saved in (online the online directory, so the online match
never overwrites the local one). Taking the table saves the local match first (nothing
confirmed is ever lost); giving it back brings the same match, dice and store back, and
the online banner ("connection lost, rejoining") goes with the online seating. Nothing
outside the controller and the table assigns these facts (Goal 1: no state mutated from
outside its owner).
"""
from __future__ import annotations

import ast
import random
from pathlib import Path

from controller.board.reconcile import BoardState
from controller.controller import Controller
from controller.dice import DiceState
from controller.engine.board_view import cell_counts
from controller.engine.match import Match
from controller.engine.match_settings import MatchSettings
from controller.engine.position import Position
from controller.events import ActionRequested, ReadingReceived, Tick
from controller.records.store import TableStore
from controller.show.content import Prompt
from controller.table import Seating, Table

ROOT = Path(__file__).resolve().parents[1]
START = BoardState.of(cell_counts(Position.initial(), "white"))


def _board_stands(table: Table, at: float) -> None:
    table.dispatch(ReadingReceived(START, at))
    table.dispatch(Tick(at + 0.5))


def _local_table(tmp_path: Path) -> Table:
    match = Match.new(MatchSettings(length=5, white="Ann", black="Bo"))
    table = Table(Controller(match, dice=DiceState.seeded(random.Random(1))),
                  store=TableStore(tmp_path / "local"), clock=lambda: 0.0)
    _board_stands(table, 0.0)
    return table


def test_seating_a_match_saves_the_local_one_first_and_plays_with_the_new_dice_and_store(tmp_path: Path) -> None:
    table = _local_table(tmp_path)
    local = table.controller.status().match
    assert table.store.load(1.0) is None  # nothing confirmed yet, so nothing saved
    online_dice = DiceState()
    online_dice = online_dice.push((6, 4))  # the server's opening roll: White's die, then Black's
    online_store = TableStore(tmp_path / "online")

    left = table.seat(Seating(Match.new(MatchSettings(length=3)), online_dice, online_store), 1.0)

    assert left.match == local and left.store.load(1.0) == local  # saved before it was left
    assert table.seating.dice is online_dice and table.seating.store is online_store
    _board_stands(table, 2.0)
    table.dispatch(ActionRequested("white", "roll", 3.0))
    online = table.controller.status().match
    assert (online.settings.length, online.dice, online.turn) == (3, (6, 4), "white")
    assert online_store.load(4.0) == online  # the online match is saved in its own store
    assert left.store.load(4.0) == local  # and never over the local one


def test_giving_the_seating_back_restores_match_dice_and_store_without_the_banner(tmp_path: Path) -> None:
    table = _local_table(tmp_path)
    local = table.seating
    online = Seating(Match.new(MatchSettings(length=3)), DiceState(), TableStore(tmp_path / "online"))
    given = table.seat(online, 1.0)
    table.show_banner(Prompt.of("server_lost"))
    assert table.controller.status().scene.display.prompt == Prompt.of("server_lost")

    back = table.seat(given, 2.0)

    assert back.match == online.match and back.dice is online.dice and back.store is online.store
    assert table.seating == local
    _board_stands(table, 3.0)
    assert table.controller.status().scene.display.prompt != Prompt.of("server_lost")
    assert table.controller.status().match == local.match


def test_a_banner_is_drawn_at_once_and_taken_away(tmp_path: Path) -> None:
    table = _local_table(tmp_path)
    shown: list[Prompt | None] = []
    table.on_scene(lambda scene: shown.append(scene.display.prompt if scene.display else None))
    table.show_banner(Prompt.of("server_lost"))
    table.show_banner(None)
    assert shown[0] == Prompt.of("server_lost") and shown[-1] != Prompt.of("server_lost")


def _outside_assignments(attributes: set[str], owners: set[str]) -> list[str]:
    """`x.<attribute> = ...` with x not `self`, in every module but the owners'."""
    found = []
    for path in sorted(p for package in ("bgboard", "controller", "sim") for p in (ROOT / package).rglob("*.py")):
        if str(path.relative_to(ROOT)) in owners:
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            targets = node.targets if isinstance(node, ast.Assign) else \
                [node.target] if isinstance(node, ast.AugAssign | ast.AnnAssign) else []
            for target in targets:
                if isinstance(target, ast.Attribute) and target.attr in attributes \
                        and not (isinstance(target.value, ast.Name) and target.value.id == "self"):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} {ast.unparse(target)}")
    return found


def test_nothing_outside_the_controller_and_the_table_assigns_the_seating_or_the_banner() -> None:
    assert _outside_assignments({"dice", "banner"}, {"controller/controller.py"}) == []
    assert _outside_assignments({"store"}, {"controller/table/table.py"}) == []
