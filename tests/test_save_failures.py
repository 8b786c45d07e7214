"""Failed saves on real small file systems (a tmpfs of 64 KB, filled or mounted read-only;
the tests run as root, as CI does): the failure is shown at once on the display and the
page, logged at ERROR once, tried again, the match can still be exported, and once the
disk takes it again the match is on disk exactly as played."""
from __future__ import annotations

import asyncio
import errno
import json
import logging
import os
import subprocess
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from controller.engine.board_view import cell_counts
from controller.engine.match import Match
from controller.engine.match_settings import MatchSettings
from controller.records import saved
from controller.records.store import TableStore
from controller.show.content import Prompt
from controller.show.display_backends import Display
from sim.page.harness import ServerThread, fast_profile

pytestmark = pytest.mark.timeout(120)


@pytest.fixture()
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 64 KB tmpfs, unmounted afterwards (needs root, as CI runs; never skipped)."""
    mount = tmp_path / "disk"
    mount.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount)], check=True)
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=True)


def _fill(disk: Path) -> Path:
    """Fill the file system to the last block; the filler file to remove later."""
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:
        while True:
            os.write(fd, b"\0" * 512)
    except OSError as exc:
        assert exc.errno == errno.ENOSPC
    finally:
        os.close(fd)
    return filler


def _wait(cond: Any, timeout: float = 8.0) -> None:
    end = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < end, "condition not reached in time"
        time.sleep(0.02)


def _remount(disk: Path, mode: str) -> None:
    subprocess.run(["mount", "-o", f"remount,{mode}", str(disk)], check=True)


def test_a_full_disk_is_shown_at_once_logged_retried_and_export_still_works(
        small_disk: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    state = small_disk / "state"
    state.mkdir()
    with ServerThread(state_dir=state, settings_file=tmp_path / "sim.json", profile=fast_profile(tmp_path),
                      seed=5) as sim:
        _wait(lambda: sim.inspect(lambda live: live.online and not live.table.controller.status().setting_up))  # type: ignore[union-attr]
        filler = _fill(small_disk)

        async def roll_and_watch() -> str:
            async with aiohttp.ClientSession() as session, session.ws_connect(sim.url + "ws") as ws:
                await ws.receive(timeout=5)
                await ws.send_str(json.dumps({"type": "button", "name": "white_main"}))
                while True:
                    data = json.loads((await ws.receive(timeout=5)).data)
                    if data["type"] == "state" and data["prompt"].startswith("cannot save"):
                        return str(data["prompt"])

        prompt = asyncio.run(roll_and_watch())
        assert prompt.startswith("cannot save: disk full — the match goes on in memory")
        errors = [r for r in caplog.records if r.levelno == logging.ERROR]
        assert len(errors) == 1 and "disk full" in errors[0].getMessage()

        # the display shows it too: the frame is the scene's own with the warning as prompt
        def frames() -> tuple[bytes, bytes]:
            table = sim.live.table  # type: ignore[union-attr]
            at = table.store._failed_at
            table.refresh(at)
            expected = Display.open(sim.live.profile.display, "dummy")  # type: ignore[union-attr]
            expected.show(replace(table.controller.status().scene.display, prompt=Prompt.of("cannot_save_full")), at)
            return table.display.frame_png(), expected.frame_png()
        shown, expected = sim.call(frames)
        assert shown == expected

        # the match goes on in memory (the opening move is played) and can be exported
        side = sim.inspect(lambda live: live.table.controller.status().match.turn)  # type: ignore[union-attr]

        async def play_opening() -> None:
            async with aiohttp.ClientSession() as session, session.ws_connect(sim.url + "ws") as ws:
                for _ in range(4):
                    if sim.inspect(lambda live: live.table.controller.status().match.turn) != side:  # type: ignore[union-attr]
                        return
                    steps = sim.inspect(lambda live: len(live.table.controller.status().match.steps))  # type: ignore[union-attr]
                    await ws.send_str(json.dumps({"type": "auto_step", "cell": "13" if side == "white" else "12"}))
                    _wait(lambda steps=steps: sim.inspect(
                        lambda live: len(live.table.controller.status().match.steps) > steps  # type: ignore[union-attr]
                        or live.table.controller.status().match.turn != side))  # type: ignore[union-attr]
        asyncio.run(play_opening())
        assert sim.inspect(lambda live: live.table.controller.status().match.turn) != side  # type: ignore[union-attr]

        async def export() -> str:
            async with aiohttp.ClientSession() as session, session.get(sim.url + "match.mat") as resp:
                assert resp.status == 200
                return await resp.text()
        assert "Game 1" in asyncio.run(export())
        assert saved.load_latest(state) is None  # nothing reached the disk

        # retried: once the disk has room, the match is on disk and the warning goes
        sim.inspect(lambda live: setattr(live.table.store, "retry_s", 0.1))  # type: ignore[union-attr]
        time.sleep(0.3)  # a few more failed tries: still one ERROR line
        assert len([r for r in caplog.records if r.levelno == logging.ERROR]) == 1
        filler.unlink()
        _wait(lambda: not sim.inspect(lambda live: live.table.store.status.failing))  # type: ignore[union-attr]
        assert saved.load_latest(state) == sim.inspect(lambda live: live.table.controller.status().match)  # type: ignore[union-attr]
        assert not sim.inspect(lambda live: live.snapshot()["prompt"]).startswith("cannot save")
        assert any("saving works again" in r.getMessage() for r in caplog.records)


def test_a_read_only_state_directory_is_reported_and_saving_resumes(
        small_disk: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    store = TableStore(small_disk, retry_s=1.0)
    first = Match.new(MatchSettings(length=3))
    assert store.save(first, now=0.0)
    later = first.roll("white", (6, 1)).match
    _remount(small_disk, "ro")
    try:
        assert not store.save(later, now=10.0)
        assert store.status.reason == "readonly"
        assert store.status.line == "cannot save: the state directory is read-only — the match goes on in memory"
        store.retry(10.5)  # not yet due
        store.retry(11.0)
        store.retry(12.0)
        assert store.status.failures == 3
        assert saved.load_latest(small_disk) == first  # the last good save is intact
    finally:
        _remount(small_disk, "rw")
    store.retry(13.0)
    assert not store.status.failing and saved.load_latest(small_disk) == later
    errors = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 1 and "read-only" in errors[0]
    assert not os.path.exists(small_disk / (saved.FILE_NAME + saved.TEMP_SUFFIX))


def test_a_script_tries_a_failed_save_again_as_the_board_does(small_disk: Path) -> None:
    """The scripts tick the table as `bgboard run` and the page do (`Table.tick`): a save
    that failed on a full disk is tried again while time passes, not only at the next
    action, so a move made while the disk was full is on disk once it has room."""
    import io

    from sim.headless import run_script_sync

    state = small_disk / "state"
    state.mkdir()
    filler = _fill(small_disk)
    script = small_disk.parent / "moves.txt"
    script.write_text("match length=3\ndice 3 1\nwhite roll\nmove 8 5\nmove 6 5\nwait 8000\n")

    class FreedAfterTheMove(io.StringIO):
        """The script's output; room is made on the disk once the move has been read."""

        def write(self, text: str) -> int:
            if filler.exists() and any(json.loads(line).get("action") == "move 6 5"
                                       for line in text.splitlines() if line.startswith("{")):
                assert saved.load_latest(state) is None  # the move could not be saved
                filler.unlink()
            return super().write(text)

    out = FreedAfterTheMove()
    run_script_sync(str(script), out=out, state_dir=state)
    lines = [json.loads(line) for line in out.getvalue().splitlines() if line.startswith("{")]
    assert not filler.exists() and lines[-1]["action"] == "wait 8000"
    on_disk = saved.load_latest(state)
    assert on_disk is not None and on_disk.turn == "black", on_disk
    counts = cell_counts(*on_disk.board())
    assert (counts["8"], counts["6"], counts["5"]) == ((2, 0), (4, 0), (2, 0))  # White's 8/5 6/5
