"""The hub finds the boards that announce themselves (club/hub/discovery.py against the
board's own announcer, controller/web/club_announce.py): real multicast on loopback."""
from __future__ import annotations

import asyncio

import pytest

from bgboard.cli import main

from club.hub.discovery import FoundBoard, find_boards
from controller.web.club_announce import ZeroconfAnnouncer, board_service


def test_the_hub_finds_an_announced_board_with_the_address_to_pair_it_at() -> None:
    async def main() -> list[FoundBoard]:
        board = ZeroconfAnnouncer(interfaces=["127.0.0.1"])
        await board.start(board_service("table 3", "127.0.0.1", 8123))
        try:
            return await find_boards(3.0, interfaces=["127.0.0.1"])
        finally:
            await board.close()

    assert FoundBoard("table 3", "http://127.0.0.1:8123") in asyncio.run(main())


def test_find_refuses_a_window_out_of_bounds_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["club", "board", "find", "--seconds", "0"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
