"""`bgboard calibrate`: what it measures, what it recommends, and the profile it writes."""
from __future__ import annotations

import asyncio
import tomllib
from datetime import UTC, datetime
from pathlib import Path

import pytest

from controller.board.profile import Profile, Timing, load_profile
from controller.bringup.calibrate import (
    MIN_SETTLE_MS,
    Calibration,
    burst_ms,
    calibrate,
    flicker_counts,
    recommend,
)
from controller.bringup.feed import Change, SensorFeed
from controller.bringup.profile_writer import (
    set_calibration,
    set_timing,
    write_calibrated,
)
from sim.bringup_operator import SimOperator
from sim.bringup_rig import open_sim_rig, parse_faults
from bgboard.cli import main
from controller.errors import ProfileError

WHEN = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
TIMING = Timing(scan_period_ms=10, debounce_scans=3, heartbeat_ms=500, settle_ms=300)


@pytest.fixture(scope="module")
def profile() -> Profile:
    return load_profile()


def _calibrate_sim(profile: Profile, faults: list[str]) -> Calibration:
    async def go() -> Calibration:
        async with open_sim_rig(profile, parse_faults(faults, profile)) as (rig, bench):
            return await calibrate(rig, SimOperator(bench), idle_seconds=3.0, placements=2,
                                   burst_quiet=0.0)
    return asyncio.run(go())


def test_a_quiet_virtual_board_keeps_its_debounce(profile: Profile) -> None:
    result = _calibrate_sim(profile, [])
    assert result.flicker == ()
    assert result.debounce_scans == profile.timing.debounce_scans
    assert result.settle_ms == MIN_SETTLE_MS
    assert len(result.bursts_ms) == 4                  # 2 placements, 2 lifts


def test_flickering_sensors_are_named_and_debouncing_raised(profile: Profile) -> None:
    result = _calibrate_sim(profile, ["flicker:40"])
    assert [sensor for sensor, _ in result.flicker] == [40]
    changes = result.flicker[0][1]
    # it changes every 100 ms for 3 s: 30 changes, fewer on a loaded machine (a scan held up
    # past a change misses it), never more
    assert 10 <= changes <= 35
    assert result.debounce_scans == profile.timing.debounce_scans + 2
    assert "sensor 40" in result.lines()[1]


def _feed(*changes: tuple[float, tuple[int, ...]]) -> SensorFeed:
    feed = SensorFeed(3, clock=lambda: 0.0)
    feed.changes = [Change(t, s) for t, s in changes]
    return feed


def test_flicker_and_bursts_are_counted_from_the_changes() -> None:
    feed = _feed((0.0, (0, 0, 0)), (1.0, (1, 0, 0)), (1.1, (0, 0, 0)), (1.25, (0, 2, 0)))
    assert flicker_counts(feed, 1) == {0: 2, 1: 1}
    assert flicker_counts(feed, 4) == {}
    assert burst_ms(feed, 1) == pytest.approx(250.0)
    assert burst_ms(feed, 3) == 0.0


@pytest.mark.parametrize("flicker, bursts, settle, debounce", [
    ({}, [], MIN_SETTLE_MS, 3),
    ({}, [200.0], 360, 3),                  # 200 x 1.5 + (3+1) x 10 + 20, to 10 ms
    ({7: 4}, [200.0], 380, 5),              # debouncing raised: 2 more scans to report
    ({7: 4}, [], MIN_SETTLE_MS, 5),
])
def test_recommendation(flicker: dict[int, int], bursts: list[float], settle: int,
                        debounce: int) -> None:
    assert recommend(TIMING, flicker, bursts) == (settle, debounce)
    worst = Timing(10, 9, 500, 300)
    assert recommend(worst, {1: 1}, [])[1] == 10         # never beyond 10 scans


def test_set_timing_keeps_comments_and_adds_what_is_missing() -> None:
    text = "[board]\nname = 'x'\n\n[timing]\nsettle_ms = 300   # quiet this long\n\n[link]\nbaudrate = 1\n"
    out = set_timing(text, "settle_ms", 450)
    assert "settle_ms = 450   # quiet this long" in out
    assert out.count("settle_ms") == 1 and "[link]\nbaudrate = 1" in out
    added = set_timing(text, "debounce_scans", 5)
    assert tomllib.loads(added)["timing"] == {"settle_ms": 300, "debounce_scans": 5}
    assert tomllib.loads(set_timing("[board]\n", "settle_ms", 9))["timing"] == {"settle_ms": 9}


def test_calibrating_twice_leaves_one_calibration_section() -> None:
    cal = Calibration(10.0, ((5, 2),), (120.0, 80.0), 220, 5)
    once = set_calibration("[timing]\nsettle_ms = 1\n", cal, WHEN)
    twice = set_calibration(once, cal, WHEN)
    assert twice == once
    data = tomllib.loads(twice)["calibration"]
    assert data == {"measured": "2026-11-29T12:00:00+00:00", "idle_seconds": 10,
                    "flicker": [[5, 2]], "bursts_ms": [120, 80]}


def test_written_profile_loads_with_the_new_timing(profile: Profile, tmp_path: Path) -> None:
    cal = Calibration(10.0, (), (90.0,), 250, 4)
    target = write_calibrated(profile.path, tmp_path / "local" / "profile.toml", cal, WHEN)
    written = load_profile(target)
    assert (written.timing.settle_ms, written.timing.debounce_scans) == (250, 4)
    assert written.cells == profile.cells                  # the rest as it was
    assert "# firmware scan period" in target.read_text()  # comments survive


def test_a_profile_the_loader_rejects_is_never_written(profile: Profile, tmp_path: Path) -> None:
    target = tmp_path / "profile.toml"
    target.write_text("# the old local profile\n")
    cal = Calibration(10.0, (), (), 10**6, 3)             # settle_ms beyond the loader's range
    with pytest.raises(ProfileError, match="settle_ms"):
        write_calibrated(profile.path, target, cal, WHEN)
    assert target.read_text() == "# the old local profile\n"
    assert [p.name for p in tmp_path.iterdir()] == ["profile.toml"]


def test_command_line_writes_the_profile(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_file = tmp_path / "cal.toml"
    code = main(["calibrate", "--sim", "--idle-seconds", "1", "--placements", "1",
                 "--output", str(out_file)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert f"calibrate: wrote {out_file}" in out
    assert load_profile(out_file).timing.settle_ms == MIN_SETTLE_MS
    # a profile of one's own is the local profile: calibrated in place
    code = main(["calibrate", "--sim", "--idle-seconds", "1", "--placements", "1",
                 "--profile", str(out_file)])
    out = capsys.readouterr().out
    assert code == 0 and f"calibrate: wrote {out_file}" in out and "to use it" not in out


def test_dry_run_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_file = tmp_path / "cal.toml"
    assert main(["calibrate", "--sim", "--idle-seconds", "1", "--placements", "1",
                 "--output", str(out_file), "--dry-run"]) == 0
    assert "nothing written" in capsys.readouterr().out
    assert not out_file.exists()


@pytest.mark.parametrize("argv, words", [
    (["calibrate", "--sim", "--cell", "25"], "--cell '25'"),
    (["calibrate", "--fault", "flicker:3"], "--fault only goes with --sim"),
])
def test_usage_errors(argv: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err
