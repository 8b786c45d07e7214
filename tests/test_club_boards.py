"""The club room's virtual boards (sim/club_boards.py) as a hub meets them: the process
prints each board's address and code, a hub pairs every board, assigns each a 1-point
match, the boards' hands play it out on the virtual board, and each result comes back with
a record that replays clean under the assigned names. Killed with SIGKILL and started
again on the same directories, every board still holds its unacknowledged result and its
pairing (issue 36: a board cut off keeps its result until the hub acknowledges it)."""
from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import aiohttp

from controller.records.replay import replay_text

ROOT = Path(__file__).resolve().parent.parent
BOARDS = 2


def _start(state_dir: Path) -> tuple[subprocess.Popen[str], list[dict[str, str]]]:
    process = subprocess.Popen([sys.executable, "-m", "sim.club_boards", "--count", str(BOARDS), "--state-dir",
                                str(state_dir), "--seed", "7"], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    lines = [json.loads(process.stdout.readline()) for _ in range(BOARDS)]
    return process, lines


def _hub(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}", "X-Club-Hub": "hub-1"}


async def _results(session: aiohttp.ClientSession, board: dict[str, str], key: str) -> list[dict[str, object]]:
    async with session.get(board["club"] + "results", headers=_hub(key)) as response:
        assert response.status == 200
        results: list[dict[str, object]] = (await response.json())["results"]
        return results


def test_a_hub_plays_a_round_on_the_virtual_boards_and_a_killed_board_keeps_its_results(tmp_path: Path) -> None:
    process, boards = _start(tmp_path)
    keys: list[str] = []
    try:
        assert [b["name"] for b in boards] == ["club-board-1", "club-board-2"]
        assert all(b["club"] == f"http://{b['address']}/club/v1/" and b["url"].endswith(b["code"]) for b in boards)

        async def round_one() -> list[list[dict[str, object]]]:
            async with aiohttp.ClientSession() as session:
                for i, board in enumerate(boards):
                    async with session.post(board["club"] + "pair", json={
                            "code": board["code"], "hub_id": "hub-1", "hub_name": "Club"}) as response:
                        keys.append((await response.json())["hub_key"])
                    async with session.post(board["club"] + "assign", headers=_hub(keys[i]), json={
                            "match_id": f"r1-{i}", "white": f"Player {2 * i}", "black": f"Player {2 * i + 1}",
                            "length": 1, "clock": None, "crawford": True}) as response:
                        assert response.status == 200
                deadline = time.monotonic() + 240
                while time.monotonic() < deadline:
                    found = [await _results(session, b, k) for b, k in zip(boards, keys)]
                    if all(found):
                        return found
                    await asyncio.sleep(0.5)
                raise AssertionError("the boards did not finish their 1-point matches in 4 minutes")

        found = asyncio.run(round_one())
        for i, (result,) in enumerate(found):
            assert result["match_id"] == f"r1-{i}" and result["winner"] in ("white", "black")
            report = replay_text(str(result["record"]))
            assert report.problem is None and not report.in_progress
            assert report.players == (f"Player {2 * i}", f"Player {2 * i + 1}")
            assert max(result["score"]) >= 1  # type: ignore[call-overload]
    finally:
        os.kill(process.pid, signal.SIGKILL)
        process.wait(10)
    process, boards = _start(tmp_path)  # the same directories: the same boards

    async def after_restart() -> None:
        async with aiohttp.ClientSession() as session:
            for i, (board, key) in enumerate(zip(boards, keys)):
                assert [r["match_id"] for r in await _results(session, board, key)] == [f"r1-{i}"]
                async with session.post(board["club"] + "ack", headers=_hub(key), json={"match_id": f"r1-{i}"}) as r:
                    assert await r.json() == {"known": True}
                assert await _results(session, board, key) == []
    try:
        asyncio.run(after_restart())
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(30) == 0
