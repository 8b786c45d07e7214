"""What the board's page on the player's phone does besides the buttons (sim/web/board_page.py):
the language, real dice keyed in, and a refused action said in one line, all through the
table's own events. Against `bgboard run` in Chromium: tests/test_browser_spectators.py.
"""
from __future__ import annotations

import asyncio
from pathlib import Path

from controller.board.profile import load_profile
from controller.board.reconcile import BoardState
from controller.controller import Controller
from controller.dice import TableDice
from controller.engine import Position
from controller.engine.board_view import cell_counts
from controller.engine.match import Match
from controller.engine.match_settings import MatchSettings
from controller.events import ReadingReceived, Tick
from controller.records.store import TableStore
from controller.table import Table
from sim.web.board_page import NOT_YET, BoardPage
from sim.web.protocol import Notice, PageAction


def _page(tmp_path: Path, dice: str = "board") -> BoardPage:
    match = Match.new(MatchSettings(length=5, dice=dice))
    table_dice = TableDice()
    table_dice.adopt(match)
    table = Table(Controller(match, dice=table_dice, now=1.0), store=TableStore(tmp_path), clock=lambda: 1.0)
    table.dispatch(ReadingReceived(BoardState.of(cell_counts(Position.initial(), "white")), 1.0))
    table.dispatch(Tick(1.5))  # the reading settles: the board is set up
    assert not table.controller.setting_up
    return BoardPage(table, load_profile())


def test_the_phone_chooses_the_language(tmp_path: Path) -> None:
    page = _page(tmp_path)
    assert asyncio.run(page.act(PageAction("language", name="da"))) is None
    assert page.table.controller.config.language == "da"
    assert page.snapshot()["settings"]["language"] == "da"


def test_an_action_the_table_refuses_is_one_line_on_the_phone(tmp_path: Path) -> None:
    page = _page(tmp_path)
    before = page.table.controller.match
    answer = asyncio.run(page.act(PageAction("command", name="white double")))
    assert isinstance(answer, Notice) and answer.text.startswith("rejected: ") and "\n" not in answer.text
    assert page.table.controller.match == before


def test_real_dice_are_keyed_in_on_the_phone(tmp_path: Path) -> None:
    page = _page(tmp_path, dice="entered")
    assert page.snapshot()["dice_panel"]["mode"] == "entered"
    assert asyncio.run(page.act(PageAction("dice", name="52"))) is None  # the opening: White's 5, Black's 2
    m = page.table.controller.match
    assert m.phase == "move" and m.turn == "white" and tuple(m.dice) == (5, 2)


def test_what_the_phone_cannot_do_yet_is_said(tmp_path: Path) -> None:
    page = _page(tmp_path)
    assert asyncio.run(page.act(PageAction("new_match", settings={}))) == NOT_YET
