"""The hub's HTTP client against boards served as the contract says, and `bgboard club
serve` killed with SIGKILL mid-round and started again: it resumes exactly (the results
recorded once, every match played on the board it was given)."""
from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from club.hub.http_client import HttpBoardClient
from club.hub.hub import Hub
from club.state import night, store
from club.tournament.model import RoundRules
from club_http_board import HttpBoards
from controller.records.replay import replay_text

PLAYERS = ["Anna", "Bjørn", "Carl", "Dora", "Eve", "Finn"]


@pytest.fixture()
def boards() -> Iterator[HttpBoards]:
    served = HttpBoards(3)
    yield served
    served.close()


def _club(tmp_path: Path, boards: HttpBoards) -> Path:
    state = store.create(tmp_path, "Thursday club")
    for name in PLAYERS:
        state = night.add_player(state, name)
    store.save(tmp_path, state)
    hub = Hub(tmp_path, HttpBoardClient)
    for board in boards.fakes.boards:
        asyncio.run(hub.pair(f"{board.address}/?token={board.code}", None))
    store.save(tmp_path, night.start(store.load(tmp_path), "swiss", (RoundRules(1),), 2, seed=3))
    return tmp_path


def test_the_http_client_pairs_assigns_collects_and_acks(tmp_path: Path, boards: HttpBoards) -> None:
    hub = Hub(_club(tmp_path, boards), HttpBoardClient)
    asyncio.run(hub.step())
    held = [b.assignment for b in boards.fakes.boards]
    assert all(a is not None for a in held)
    boards.on_loop(lambda: [b.finish("white") for b in boards.fakes.boards])
    asyncio.run(hub.step())
    state = store.load(tmp_path)
    assert len(state.results) == 3 and all(replay_text(r.record).ok for r in state.results.values())
    assert all(b.finished == [] for b in boards.fakes.boards)  # acknowledged
    assert state.tournaments[0].rounds[-1].number == 2  # the next round was paired and handed out
    assert all(b.assignment is not None for b in boards.fakes.boards)


def test_a_wrong_key_is_refused_by_the_board(tmp_path: Path, boards: HttpBoards) -> None:
    _club(tmp_path, boards)
    board = boards.fakes.boards[0]
    client = HttpBoardClient(board.address, store.load(tmp_path).hub_id, "not-the-key")
    from club.hub.client import BoardProblem
    with pytest.raises(BoardProblem) as refused:
        asyncio.run(client.results())
    assert refused.value.status == 403


def _wait(condition: Callable[[], object], seconds: float = 20.0) -> None:
    """Poll a condition on a real process (the hub's serve), which no injected clock reaches."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError("timed out")


@pytest.mark.slow
def test_serve_killed_mid_round_resumes_exactly(tmp_path: Path, boards: HttpBoards) -> None:
    club = _club(tmp_path, boards)
    command = [sys.executable, "-m", "bgboard.cli", "club", "serve", "--dir", str(club), "--port", "0",
               "--interval", "0.1"]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    first = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        _wait(lambda: all(b.assignment is not None for b in boards.fakes.boards))
        boards.on_loop(lambda: boards.fakes.boards[0].finish("black"))
        _wait(lambda: len(store.load(club).results) == 1)
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait(10)
    held = [b.assignment for b in boards.fakes.boards]
    boards.on_loop(lambda: [b.finish("white") for b in boards.fakes.boards[1:]])
    second = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert second.stdout is not None
        room = second.stdout.readline().decode().split()[-1]  # "the room: http://127.0.0.1:PORT/"
        with urllib.request.urlopen(f"{room}room.json", timeout=10) as answer:  # the port the system gave
            assert json.load(answer)["hub_name"] == "Thursday club"
        _wait(lambda: len(store.load(club).results) == 3
              and all(b.assignment is not None for b in boards.fakes.boards))
    finally:
        second.send_signal(signal.SIGTERM)
        out, err = second.communicate(timeout=10)
    assert second.returncode == 0, err
    state = store.load(club)
    assert [state.results[m].winner for m in ("T1-R1-1", "T1-R1-2", "T1-R1-3")] == ["black", "white", "white"]
    assert held[0] is None and all(len(b.assigned_log) == 2 for b in boards.fakes.boards)  # round 1, round 2
