"""`bgboard calibrate`'s sensor levels on the virtual board, through the real protocol:
each sensor's empty, white and black level learned from LEVELS, checked, sent with
CALIBRATE and CAL_SAVE, verified with CAL_STATUS; an impossible calibration is one line a
sensor, naming its cell, and the board keeps the calibration it had (issue 32, "Bad input")."""
from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from controller.board.profile import Profile, load_profile
from controller.bringup.level_table import (
    CalibrationRefused,
    LevelCalibration,
    SensorLevels,
    check,
    load_copy,
    save_copy,
)
from controller.bringup.sensor_levels import calibrate_levels, store
from sim.bringup_operator import SimOperator
from sim.bringup_rig import open_sim_rig, parse_faults
from controller.errors import BgboardError
from hardware.design import sensing
from sim.vboard_chain import DIVIDER
from sim.virtual_board import VirtualBoard

PROFILE = load_profile()
N = PROFILE.sensors.count

pytestmark = pytest.mark.timeout(300)


def _levels_within_reach(vb: VirtualBoard, sensor: int) -> tuple[tuple[int, int], ...]:
    """(lowest, highest) mV the ADC can read of `sensor` empty, under a white and under a
    black checker anywhere within its play in the recess (SLIS153C's V = VQ + S·B, clamped),
    with its neighbours' stray field and four standard deviations of its noise either way."""
    part = vb.hardware.sensors.parts[sensor]
    table = vb.hardware.sensors.table
    off = abs(complex(*part.offset))
    strong, weak = table.bz(part.gap, 0.0), table.bz(part.gap, off + sensing.PLAY)
    slack = 1.0 + 4 * part.noise_pp / 6                       # mT: stray field, noise
    ranges = [(part.volts(-slack), part.volts(slack))]
    for sign in (1.0, -1.0):
        ends = [part.volts(sign * strong) + sign * slack * part.sensitivity / 1000,
                part.volts(sign * weak) - sign * slack * part.sensitivity / 1000]
        ranges.append((min(ends), max(ends)))
    return tuple((int(lo * 1000 * DIVIDER) - 3, int(hi * 1000 * DIVIDER) + 3) for lo, hi in ranges)


def _run(faults: list[str], then_store: bool = True, uncalibrated: bool = False,
         reach: dict[int, tuple[tuple[int, int], ...]] | None = None
         ) -> tuple[LevelCalibration | CalibrationRefused, int, int, dict[str, bytes], dict[str, bytes]]:
    """Calibrate a fresh virtual board with `faults`; (result, CRC in use before, after,
    the flash's files before, after). `reach` gets each of its sensors' levels within reach."""
    async def go() -> tuple[LevelCalibration | CalibrationRefused, int, int,
                            dict[str, bytes], dict[str, bytes]]:
        async with open_sim_rig(PROFILE, parse_faults(faults, PROFILE)) as (rig, bench):
            vb = bench.board
            if uncalibrated:                      # a new Pico: nothing on its flash
                vb.storage.files.clear()  # type: ignore[attr-defined]
                vb.reboot()  # type: ignore[attr-defined]
                await rig.pass_time(0.6)
            for sensor in reach or {}:
                reach[sensor] = _levels_within_reach(vb, sensor)  # type: ignore[index,arg-type]
            crc_before = vb.firmware.cal_crc  # type: ignore[attr-defined]
            files_before = dict(vb.storage.files)  # type: ignore[attr-defined]
            try:
                result: LevelCalibration | CalibrationRefused = await calibrate_levels(
                    rig, SimOperator(bench), empty_seconds=1.0, stall_s=1.0)
            except CalibrationRefused as exc:
                result = exc
            if isinstance(result, LevelCalibration) and then_store:
                await store(rig, result)
            return (result, crc_before, vb.firmware.cal_crc,  # type: ignore[attr-defined]
                    files_before, dict(vb.storage.files))  # type: ignore[attr-defined]
    return asyncio.run(go())


def test_every_sensors_levels_are_learned_stored_and_used() -> None:
    reach: dict[int, tuple[tuple[int, int], ...]] = {i: () for i in (0, 77, 150, 181)}
    result, before, after, files_before, files_after = _run([], uncalibrated=True, reach=reach)
    assert isinstance(result, LevelCalibration)
    assert len(result.sensors) == N
    for i, ranges in reach.items():             # each its own part, read back through the ADC path
        got = result.sensors[i]
        for level, (lo, hi) in zip((got.empty, got.white, got.black), ranges):
            assert lo <= level <= hi, (i, got, ranges)
    assert before == 0 and after == result.crc   # the board reports the new table's CRC
    assert files_before == {} and files_after    # and has it on its flash


@pytest.mark.parametrize(("fault", "line"), [
    ("dead-sensor:26", "point 5 slot 3 (sensor 26): did not move for a white or a black checker"),
    ("overlap:77", "point 13 slot 6 (sensor 77): white "),
    ("stuck-mux:2", "point 3 slot 1 (sensor 12) to point 4 slot 6 (sensor 23) all read the same levels"),
])
def test_an_impossible_calibration_names_the_cell_and_the_board_keeps_its_own(fault: str, line: str) -> None:
    result, before, after, files_before, files_after = _run([fault])
    assert isinstance(result, CalibrationRefused)
    assert len(result.problems) == 1 and result.problems[0].startswith(line), result.problems
    assert "\n" not in result.problems[0]
    assert after == before and files_after == files_before   # nothing was sent


def test_a_sensor_that_reads_nothing_on_the_cleared_board_is_named_before_anything_is_learned() -> None:
    async def go() -> CalibrationRefused:
        async with open_sim_rig(PROFILE, parse_faults([], PROFILE)) as (rig, bench):
            bench.board.stick(40, 3)  # type: ignore[attr-defined]  # its output at 0 V
            with pytest.raises(CalibrationRefused) as refused:
                await calibrate_levels(rig, SimOperator(bench), empty_seconds=1.0, stall_s=1.0)
            return refused.value
    problems = asyncio.run(go()).problems
    assert problems == ("point 7 slot 5 (sensor 40): reads 0.00 V with the board cleared, not "
                        "0.81 V-1.21 V: a checker or a magnet still there, or no sensor",)


def test_the_checks_on_their_own() -> None:
    empty = [1000] * 6
    noise = [4] * 6
    white = {i: 1600 + 7 * i for i in range(6)}
    black = {i: 400 - 9 * i for i in range(6)}
    assert check(PROFILE, empty, noise, white, black) == []
    bad_empty = list(empty)
    bad_empty[1] = 20
    assert check(PROFILE, bad_empty, noise, white, black) == [
        "point 1 slot 2 (sensor 1): reads 0.02 V on the empty board: no sensor there, or no supply"]
    assert check(PROFILE, empty, noise, white, {**black, 2: 1010})[0].startswith(
        "point 1 slot 3 (sensor 2): white 1.61 V and black 1.01 V overlap")
    assert check(PROFILE, empty, noise, {k: v for k, v in white.items() if k != 3}, black) == [
        "point 1 slot 4 (sensor 3): did not move for a white checker: a sensor that does not move for white"]


def test_the_copy_on_the_pi_round_trips_and_refuses_a_changed_one(tmp_path: Path) -> None:
    calibration = LevelCalibration(tuple(SensorLevels(1000 + i, 1700, 300, 3) for i in range(N)))
    path = save_copy(tmp_path, calibration)
    assert load_copy(tmp_path, N) == calibration
    path.write_text(path.read_text().replace("1007", "1008", 1))
    with pytest.raises(BgboardError, match="CRC does not match"):
        load_copy(tmp_path, N)
    with pytest.raises(BgboardError, match="no calibration kept here"):
        load_copy(tmp_path / "elsewhere", N)


def test_the_command_stores_keeps_a_copy_and_restores_it(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    from bgboard.cli import main

    assert main(["calibrate", "--sim", "--only", "levels", "--state-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "levels: 182 sensors learned" in out and "stored on the board" in out
    kept = load_copy(tmp_path, N)
    with VirtualBoard(PROFILE) as same:          # --sim builds the board of this profile and seed
        lo, hi = _levels_within_reach(same, 0)[0]
    assert lo <= kept.sensors[0].empty <= hi
    assert main(["calibrate", "--sim", "--restore", "--state-dir", str(tmp_path)]) == 0
    assert "stored on the board" in capsys.readouterr().out


def test_the_command_refuses_an_impossible_calibration_in_one_line_a_sensor(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from bgboard.cli import main

    code = main(["calibrate", "--sim", "--only", "levels", "--fault", "dead-sensor:150",
                 "--state-dir", str(tmp_path)])
    err = capsys.readouterr().err.splitlines()
    assert code == 1
    assert err == ["bgboard calibrate: the bar slot 7 (sensor 150): did not move for a white or a "
                   "black checker: a sensor that does not move",
                   "bgboard calibrate: nothing sent: the board keeps the calibration it has"]
    assert not (tmp_path / "calibration.json").exists()


def test_a_stuck_multiplexer_is_told_from_its_sensors_noise_not_from_look_alike_parts() -> None:
    """A stuck multiplexer reads one sensor on all its channels, each reading its own noisy
    sample of it: the module's levels agree within the sensor's noise (8 mVpp here), not to
    the millivolt. Parts that saturate alike (white and black at the output's limits) but
    differ at rest are not one sensor."""
    rng = __import__("random").Random(3)
    empty = [900 + rng.randrange(250) for _ in range(N)]
    noise = [8] * N
    white = {i: 1759 for i in range(N)}          # every part saturated, as a 70 mV/mT one is
    black = {i: 195 for i in range(N)}
    assert check(PROFILE, empty, noise, white, black) == []
    for i in range(12, 24):                       # module P3-4 reads sensor 12 on every channel
        empty[i] = empty[12] + rng.randint(-4, 4)
        white[i], black[i] = 1759 + rng.randint(-4, 4), 195 + rng.randint(-4, 4)
    assert check(PROFILE, empty, noise, white, black) == [
        "point 3 slot 1 (sensor 12) to point 4 slot 6 (sensor 23) all read the same levels: "
        "a stuck multiplexer on that module (check its S0-S3)"]
