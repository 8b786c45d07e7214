"""Fixtures of the simulator tests: a Chromium browser per module and the simulator on a
thread with a temporary state and config directory (a test file may define its own `sim`)."""
from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_support import ARGS, CHROMIUM, Page, ctl, wait_until
from sim.page.harness import ServerThread, fast_profile


def pytest_configure(config: pytest.Config) -> None:
    """Ctrl-C reaches the programs the tests start even when the suite itself runs as a
    background job of a shell without job control, which starts it with SIGINT ignored:
    an ignored signal stays ignored in every child, so `bgboard run` and `bgboard monitor`
    (whose Ctrl-C the tests time) never saw the tests' SIGINT and six tests timed out. A
    handled signal is reset to its default in a child, where Python handles it again."""
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture()
def sim(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ServerThread]:
    """The simulator with a 120 ms settling time, its board set up and online."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    (tmp_path / "state").mkdir()
    server = ServerThread(state_dir=tmp_path / "state",
                          settings_file=tmp_path / "config" / "bgboard" / "simulator.json",
                          profile=fast_profile(tmp_path), seed=11)
    with server:
        wait_until(lambda: ctl(server, lambda c: c.status().online and not c.status().setting_up))
        yield server


@pytest.fixture()
def page(browser: Any, sim: ServerThread) -> Iterator[Page]:
    """A tab on the simulator (a test file may define its own `page`); no page errors."""
    p = Page(browser, sim.url)
    yield p
    assert p.errors == [], p.errors
    p.close()


#: The files that take longest (`--durations`, a minute or more each on this machine, most of
#: it waiting on a subprocess, a browser or a settling board). pytest-xdist's `--dist loadfile`
#: hands out whole files in the order collected: these go first, so the workers finish
#: together instead of one worker starting a long file when the others are done.
LONGEST_FIRST = (
    "test_analysis_releases.py", "test_bench_pi.py", "test_club_night.py", "test_bot_levels.py",
    "test_review.py", "test_match_random.py", "test_online_play.py",
    "test_scenarios.py", "test_browser.py", "test_browser_page.py", "test_firmware_emulator.py",
    "test_hardware_boards.py", "test_evaluation_program.py", "test_online_board.py", "test_engine_oracle.py",
    "test_monitor_hostile.py", "test_bot_strength.py", "test_analysis.py",
    "test_browser_spectators.py", "test_evaluation_numpy.py", "test_headless_long_wait.py",
    "test_link_flood.py", "test_mat_bglab.py", "test_online_lost_turn.py",
)


#: Files of long runs, `slow` as a whole: properties and replays over thousands of positions
#: or recorded matches, the computer levels' strength, the networks against gnubg's, the
#: firmware under MicroPython and fuzzed, whole programs driven as processes under floods
#: and faults, the benches. With every test that needs Chromium or the real-time simulator
#: (`SLOW_FIXTURES`) they make the `slow` tier: `pytest -m "not slow"` is the developer's
#: few minutes, and CI runs everything.
SLOW_FILES = frozenset({
    "test_analysis.py", "test_analysis_two_ply.py", "test_analysis_move_filter.py",
    "test_bot_levels.py", "test_bot_strength.py", "test_evaluation_numpy.py",
    "test_engine_oracle.py", "test_match_random.py", "test_mat_roundtrip.py", "test_mat_bglab.py",
    "test_mat_gnubg.py", "test_mat_hostile.py", "test_codec_fuzz.py", "test_firmware_fuzz.py",
    "test_firmware_micropython.py", "test_firmware_main.py", "test_firmware_emulator.py",
    "test_hardware_agreement.py", "test_calibrate_levels.py", "test_install_script.py",
    "test_online_play.py", "test_online_board.py", "test_monitor_hostile.py", "test_link_flood.py",
    "test_soak_smoke.py", "test_bench_pi.py", "test_link_bench.py", "test_page_bench.py", "test_club_bench.py",
    "test_hardware_boards.py", "test_vboard_reading.py", "test_review.py",
    # the server double over TCP in real time, fuzzed or for whole matches
    "test_online_events_fuzz.py", "test_online_watch.py", "test_online_watch_page.py",
    "test_online_silence.py", "test_online_page.py", "test_online_restart.py",
    "test_online_lost_turn.py",
    # a club room of virtual boards as a process, played to results, killed and restarted
    "test_club_boards.py",
    # the simulator's web server and pyserial on a pty, in real time (the serial line's contract)
    "test_web_server.py", "test_web_hostile.py", "test_link_serial.py",
})
#: the fixtures of Chromium and of the simulator running in real time on its thread
SLOW_FIXTURES = frozenset({"browser", "page", "sim"})


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the slow tier (see SLOW_FILES); under pytest-xdist (whose workers collect),
    the longest files first (see LONGEST_FIRST), every other in its usual order."""
    for item in items:
        if item.path.name in SLOW_FILES or SLOW_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)
    if "PYTEST_XDIST_WORKER" not in os.environ:
        return
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))
