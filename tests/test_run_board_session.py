"""`bgboard run` and the table against boards that do not simply work (issue 11).

A board flashed for another size, then replaced; a sensor stuck at fault; a sensor chain
that fails. Each gives one clear line and a display message, never a traceback, and the
table plays again once the board is right. Real pty, real firmware code behind it; the
table is opened by `open_table` with the browser simulator's backends, so the page goes
through the same board session as the Pi.
"""
from __future__ import annotations

import asyncio
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from controller.board.profile import load_profile
from controller.dice import DiceState
from controller.engine.match import Match
from controller.engine.match_settings import MatchSettings
from controller.show.content import Scene
from controller.show.texts import render
from controller.table import BackendChoice, open_table
from sim.virtual_board import VirtualBoard

REPO = Path(__file__).resolve().parents[1]
PROFILE = load_profile()

pytestmark = pytest.mark.timeout(90)


def test_bgboard_run_against_a_board_of_another_size_says_so_in_one_line(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "c"), "PATH": "/usr/bin:/bin"}
    with VirtualBoard(PROFILE, size=(12, 12)) as vb:
        vb.start()
        proc = subprocess.run([sys.executable, "-m", "bgboard.cli", "run", "--port", vb.port,
                               "--seconds", "2.5", "--leds", "sim", "--display", "dummy",
                               "--buttons", "none", "--state-dir", str(tmp_path / "state")],
                              capture_output=True, text=True, cwd=REPO, timeout=60, env=env)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr and "Exception" not in proc.stderr
    lines = [line for line in proc.stderr.splitlines() if "board 12x12" in line]
    assert len(lines) == 1, proc.stderr
    assert "profile 14x13, board 12x12" in lines[0]


def _prompt_text(scene: Scene | None) -> str:
    prompt = scene.display.prompt if scene is not None else None
    return render(prompt.key, prompt.as_dict()) if prompt is not None else ""


async def _until(cond: Callable[[], bool], timeout: float = 15.0) -> None:
    t0 = time.monotonic()
    while not cond():
        if time.monotonic() - t0 > timeout:
            raise AssertionError(f"condition not met within {timeout} s")
        await asyncio.sleep(0.01)


class _Rig:
    """The table as the browser simulator opens it (`open_table`, its backends), on the
    virtual board's pty: the same board session and feed as `bgboard run`."""

    def __init__(self, vb: VirtualBoard) -> None:
        loop = asyncio.get_running_loop()
        backends = BackendChoice(port=vb.port, leds="sim", display="dummy", pins="mock",
                                 read_timeout_s=0.02)
        self.table = open_table(PROFILE, backends, clock=loop.time,
                                new_match=lambda: Match.new(MatchSettings(length=3)),
                                dice=DiceState.seeded(random.Random(0)), bots=None, loop=loop)
        self.controller = self.table.controller

    async def __aenter__(self) -> "_Rig":
        assert self.table.link is not None
        await self.table.link.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.table.aclose()

    def shown(self) -> str:
        return _prompt_text(self.controller.status().scene)


def test_the_display_names_a_wrong_board_and_the_table_plays_once_it_is_replaced() -> None:
    async def main() -> None:
        with VirtualBoard(PROFILE, size=(12, 12)) as vb:
            vb.start()
            async with _Rig(vb) as rig:
                await _until(lambda: "Wrong board" in rig.shown())
                assert rig.shown() == "Wrong board: profile 14x13, board 12x12"
                assert not rig.controller.status().online and rig.controller.status().reading is None
                vb.flash(14, 13)
                await _until(lambda: rig.controller.status().online and rig.controller.status().reading is not None)
                assert "Wrong board" not in rig.shown()
    asyncio.run(main())


def test_a_stuck_sensor_is_shown_on_its_cell_and_a_failing_chain_on_the_display() -> None:
    async def main() -> None:
        with VirtualBoard(PROFILE) as vb:
            vb.start()
            async with _Rig(vb) as rig:
                await _until(lambda: rig.controller.status().reading is not None)
                vb.stick(PROFILE.cell_sensors("13")[0], 3)
                await _until(lambda: "Sensor fault" in rig.shown())
                assert rig.shown() == "Sensor fault at 13: check it"
                assert rig.controller.status().scene.leds.get("13") == "error"
                vb.stick(PROFILE.cell_sensors("13")[0], None)
                await _until(lambda: "Sensor fault" not in rig.shown())
                vb.fail_chain("SPI timeout")
                await _until(lambda: rig.shown() == "Board cannot read its sensors")
                assert not rig.controller.status().online
                vb.fail_chain(None)
                await _until(lambda: rig.controller.status().online)
                assert rig.shown() != "Board cannot read its sensors"
    asyncio.run(main())


def test_bgboard_monitor_names_a_board_of_another_size_and_still_shows_its_frames() -> None:
    with VirtualBoard(PROFILE, size=(12, 12)) as vb:
        vb.start()
        proc = subprocess.run([sys.executable, "-m", "bgboard.cli", "monitor", "--port", vb.port,
                               "--raw", "--seconds", "1.2"],
                              capture_output=True, text=True, cwd=REPO, timeout=60)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr
    assert "board mismatch: profile 14x13, board 12x12" in proc.stderr
    assert "matrix=12x12" in proc.stdout and "scan seq=" in proc.stdout


def test_the_headless_runner_does_the_handshake_and_its_board_runs_on_the_profiles_config() -> None:
    from dataclasses import replace

    from sim.headless import HeadlessRunner
    from sim.script import parse_script

    calibrated = replace(PROFILE, timing=replace(PROFILE.timing, scan_period_ms=5,
                                                 debounce_scans=2, heartbeat_ms=200))
    runner = HeadlessRunner(parse_script("match length=3 opponent=human\ndice 3 1\nwhite roll\n"),
                            profile=calibrated)
    results = asyncio.run(runner.run())
    assert results and results[-1]["match"]["dice"] == [3, 1]
    assert runner.vb is not None and runner.vb.configs >= 1
    assert runner.vb.timing == (5, 2, 200)       # booted at 10/3/500: the CONFIG reached it
