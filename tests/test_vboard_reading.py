"""A board built with every sensor at its datasheet limits reads every checker right once
`bgboard calibrate` has learned its levels (issue 32, "Done when"), and misreads without:
the real firmware (chain, levels, debouncer) reads the virtual board's analogue path, each
sensor its own DRV5053RA (SLIS153C: VQ 0.90-1.15 V, -20...-70 mV/mT, 0.79 mTpp), the gap,
the magnets and each checker's play in its recess at their tolerances
(hardware/design/sensing.py).

The cases are the rule book's and the board's: every colour on every cell, up to 15 on a
point (those past its six slots lying on top), full neighbourhoods of either colour around
empty and taken slots, a checker pushed 0-20 mm off its slot, noise over many scans, and
the temperature moving sensitivity (±10 %) and the magnets' remanence after calibration.
"""
from __future__ import annotations

import asyncio
import math
import random
from collections.abc import Iterator

import pytest

from controller.board.profile import load_profile
from controller.bringup.rig import Rig
from controller.bringup.sensor_levels import calibrate_levels, store
from sim.bringup_operator import SimOperator
from sim.bringup_rig import open_sim_rig
from controller.engine.board_view import CELLS
from controller.engine.position import Position
from firmware import levels
from hardware.design import sensing
from sim.virtual_board import VirtualBoard, lay_out

PROFILE = load_profile()
POINTS = [str(p) for p in range(1, 25)]
#: board time for a change to pass the firmware's average and debouncer, with room
SETTLE_MS = 150


def _calibrated_by_bgboard_calibrate(seed: int) -> dict[str, bytes]:
    """The flash of a new worst-case board (nothing on it) after `bgboard calibrate`'s sensor
    levels ran on it: the simulator's operator puts the checkers on every slot, each with
    its own play, and the table goes to the board over the link (CALIBRATE, CAL_SAVE)."""
    async def go() -> dict[str, bytes]:
        async with open_sim_rig(PROFILE, parts="worst", calibrated=False, seed=seed) as (rig, bench):
            vb = bench.board
            assert isinstance(vb, VirtualBoard)
            calibration = await calibrate_levels(rig, SimOperator(bench), empty_seconds=1.0, stall_s=1.0)
            await store(rig, calibration)
            return dict(vb.storage.files)
    return asyncio.run(go())


@pytest.fixture(scope="module")
def worst() -> Iterator[VirtualBoard]:
    """One worst-case board as `bgboard calibrate` left it (each test clears it first): the
    same parts (the same seed), its flash from the calibration."""
    files = _calibrated_by_bgboard_calibrate(seed=11)
    with VirtualBoard(PROFILE, parts="worst", seed=11, calibrated=False) as vb:
        vb.storage.files.update(files)
        vb.reboot()
        assert vb.firmware.levels.calibrated
        yield vb


def misread(vb: VirtualBoard) -> dict[int, tuple[int, int]]:
    """Let the board settle; every sensor whose reported value is not what stands on it:
    sensor -> (reported, true)."""
    vb.advance(SETTLE_MS)
    return {s: (got, want) for s, (got, want) in enumerate(zip(vb.firmware.values(), vb.sensors()))
            if got != want}


def fill(vb: VirtualBoard, counts: dict[str, tuple[int, int]]) -> None:
    vb.clear()
    for cell, (white, black) in counts.items():
        vb.set_cell(cell, white, black)


def neighbourhoods() -> list[dict[str, tuple[int, int]]]:
    """Boards that put every slot among full neighbours of each colour, taken and empty:
    whole points of one colour beside whole points of the other, half points (the outer
    three slots empty between full neighbours), points stacked to 15, the bar and the trays
    full and half full, each pattern with the colours swapped too."""
    patterns: list[dict[str, tuple[int, int]]] = []
    for swap in (False, True):
        def side(k: int, n: int) -> tuple[int, int]:
            white = (k % 2 == 0) != swap
            return (n, 0) if white else (0, n)
        patterns.append({p: side(k, 6) for k, p in enumerate(POINTS)}
                        | {"bar": (4, 4), "off-white": (15, 0), "off-black": (0, 15)})
        patterns.append({p: side(0, 6) for p in POINTS} | {"bar": (8, 0) if not swap else (0, 8)})
        patterns.append({p: side(k, 3 if k % 3 else 6) for k, p in enumerate(POINTS)}
                        | {"bar": (2, 2), "off-white": (7, 0), "off-black": (0, 8)})
        patterns.append({p: side(k // 2, 15 if k % 4 == 0 else 6) for k, p in enumerate(POINTS)}
                        | {"bar": (5, 7)})
        patterns.append({p: side(k, (k * 5) % 7) for k, p in enumerate(POINTS)}
                        | {"off-white": (15, 0), "off-black": (0, 15)})
    return patterns


def test_a_worst_board_misreads_without_calibration() -> None:
    """Read against the typical part's levels, the weakest parts (20 mV/mT at the far end of
    the gap, 0.90 V at rest) never reach the typical white threshold: the opening position
    reads wrong, which is why the board is calibrated."""
    with VirtualBoard(PROFILE, parts="worst", calibrated=False) as vb:
        lay_out(vb, Position.initial(), "white")
        wrong = misread(vb)
        assert wrong, "a board of worst-case parts read right on the typical levels"
        assert {want for _got, want in wrong.values()} == {levels.WHITE}
        assert {got for got, _want in wrong.values()} == {levels.EMPTY}


def test_calibrated_the_worst_board_reads_the_opening_position(worst: VirtualBoard) -> None:
    lay_out(worst, Position.initial(), "white")
    assert misread(worst) == {}


@pytest.mark.parametrize("pattern", range(10))
def test_calibrated_the_worst_board_reads_every_neighbourhood(worst: VirtualBoard, pattern: int) -> None:
    fill(worst, neighbourhoods()[pattern])
    assert misread(worst) == {}


def test_every_colour_reads_right_on_every_slot_of_every_cell(worst: VirtualBoard) -> None:
    """One checker at a time up to a full cell, white then black, on every cell, with the
    neighbouring cells full of the other colour."""
    for cell in CELLS:
        for colour, other in (("white", "black"), ("black", "white")):
            fill(worst, {c: ((6, 0) if other == "white" else (0, 6)) for c in POINTS if c != cell})
            for _ in range(PROFILE.slots(cell)):
                worst.place(cell, colour)
                assert misread(worst) == {}, (cell, colour, worst.counts(cell))


@pytest.mark.parametrize("colour", ["white", "black"])
def test_a_checker_pushed_off_its_slot_never_reads_as_the_other_colour(worst: VirtualBoard, colour: str) -> None:
    """Checkers slid 0-20 mm off their slots in every direction, among neighbours of the
    other colour: a pushed checker's slot reads its colour or empty, never the other colour,
    and every checker left in its recess still reads right."""
    other = "black" if colour == "white" else "white"
    rng = random.Random(colour)
    for trial in range(6):
        fill(worst, {})
        pushed: set[int] = set()
        for k, point in enumerate(POINTS):
            mine = k % 2 == trial % 2
            n = 1 + (k + trial) % 5
            worst.set_cell(point, *((n, 0) if (colour if mine else other) == "white" else (0, n)))
            if mine:
                index = rng.randrange(n)
                distance, angle = rng.uniform(0.0, 20.0), rng.uniform(0.0, 2 * math.pi)
                worst.push(point, distance * math.cos(angle), distance * math.sin(angle), index)
                pushed.add(PROFILE.cell_sensors(point)[index])
        wrong = misread(worst)
        value = levels.WHITE if colour == "white" else levels.BLACK
        assert all(s in pushed and got == levels.EMPTY and want == value
                   for s, (got, want) in wrong.items()), (trial, wrong)


def _park(vb: VirtualBoard, cell: str, slot: int, fraction: float) -> int:
    """Slide the checker on `cell`'s `slot` (along the point, away from the edge) until its
    sensor's level, without noise, lies `fraction` of its calibrated span from empty: between
    the two thresholds of the hysteresis, where noise has the least room. Its sensor."""
    sensor = PROFILE.cell_sensors(cell)[slot]
    cal = vb.firmware.levels                     # the firmware's own calibration of it
    empty = cal.empty[sensor]
    full = empty + cal.span_white[sensor] if vb.sensors()[sensor] == levels.WHITE else empty - cal.span_black[sensor]
    near, far = 0.0, 20.0
    for _ in range(30):
        mid = (near + far) / 2
        vb.push(cell, 0.0, mid, slot)
        level = vb.hardware.chain.ideal_mv(vb.hardware.sensors.outputs()[sensor])
        near, far = (mid, far) if (level - empty) / (full - empty) > fraction else (near, mid)
    return sensor


def test_noise_never_flips_a_settled_reading(worst: VirtualBoard) -> None:
    """Checkers slid until their sensors sit between the hysteresis's two thresholds (the
    least room noise can have), saturating and weak parts, both colours, among full
    neighbours: over 3,000 scans (30 s) no scan's classification changes, before the
    debouncer, and the firmware reports no change (only heartbeats go out)."""
    middle = (sensing.ENTER + sensing.LEAVE) / 2
    fill(worst, {"3": (6, 0), "4": (0, 6), "9": (0, 6), "10": (6, 0), "16": (2, 0), "21": (0, 2)}
         | {p: (0, 3) if int(p) % 2 else (3, 0) for p in ("5", "6", "7", "8", "17", "18", "19", "20")})
    parked = [_park(worst, "16", 0, middle), _park(worst, "16", 1, middle),
              _park(worst, "21", 0, middle), _park(worst, "21", 1, middle)]
    worst.advance(SETTLE_MS)
    settled = bytes(worst.firmware.levels.classes)
    assert all(settled[s] in (levels.EMPTY, worst.sensors()[s]) for s in parked)
    sent = worst.firmware.frames_sent
    period = worst.timing[0]
    for _ in range(30_000 // period):
        worst.advance(period)
        assert bytes(worst.firmware.levels.classes) == settled
    heartbeats = 30_000 // worst.timing[2]
    assert worst.firmware.frames_sent - sent <= heartbeats + 1


def _temperatures() -> list[tuple[float, float, float]]:
    """(sensitivity, remanence, quiescent mV) between calibration and play at the limits:
    the RA's ±10 % both ways, the magnets' grade and the room's temperatures both ways, the
    quiescent level as far as the firmware's tracking of it is budgeted."""
    s_lo, s_hi = sensing.sensitivity_ratio()
    b_lo, b_hi = sensing.br_ratio()
    vq = sensing.TRACK_LIMIT_MV
    return [(s_lo, b_lo / b_hi, -vq), (s_hi, b_hi / b_lo, vq), (s_lo, b_hi / b_lo, vq), (s_hi, b_lo / b_hi, -vq)]


@pytest.mark.parametrize("temperature", _temperatures())
def test_temperature_within_the_datasheet_after_calibration_still_reads_right(
        worst: VirtualBoard, temperature: tuple[float, float, float]) -> None:
    worst.drift(*temperature)
    try:
        for pattern in neighbourhoods()[:5]:
            fill(worst, pattern)
            assert misread(worst) == {}, temperature
    finally:
        worst.drift()


# -- bgboard calibrate on it, through the protocol --------------------------------------------
async def _reported(rig: Rig, vb: VirtualBoard) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(what the board's SCAN frames say, what stands there) once a change has settled: board
    time for the average, the debouncer and a heartbeat, then a SCAN sent after it."""
    await rig.pass_time(0.6)
    mark = rig.feed.scans
    await rig.pass_time(0.6)
    while rig.feed.scans <= mark:
        assert await rig.feed.next_message(5.0), "no SCAN from the board"
    assert rig.feed.latest is not None
    return rig.feed.latest, tuple(vb.sensors())


def test_bgboard_calibrate_makes_a_worst_board_read_right() -> None:
    """Issue 32's "Done when": a new board of worst-case parts, with nothing on its flash,
    misreads the opening position; `bgboard calibrate`'s sensor levels (the empty board, then
    white and black on every slot, placed by the simulator's operator with each checker's own
    play) go to it over the real link (CALIBRATE, CAL_SAVE, CAL_STATUS), and then it reads the
    opening position and every neighbourhood right, in its SCAN frames."""
    async def go() -> None:
        async with open_sim_rig(PROFILE, parts="worst", calibrated=False) as (rig, bench):
            vb = bench.board
            assert isinstance(vb, VirtualBoard)
            lay_out(vb, Position.initial(), "white")
            seen, truth = await _reported(rig, vb)
            assert seen != truth
            calibration = await calibrate_levels(rig, SimOperator(bench), empty_seconds=1.0, stall_s=1.0)
            status = await store(rig, calibration)
            assert status.crc == calibration.crc and vb.firmware.levels.calibrated
            lay_out(vb, Position.initial(), "white")
            seen, truth = await _reported(rig, vb)
            assert seen == truth
            for k, pattern in enumerate(neighbourhoods()):
                fill(vb, pattern)
                seen, truth = await _reported(rig, vb)
                assert seen == truth, (k, {s: (a, b) for s, (a, b) in enumerate(zip(seen, truth)) if a != b})
    asyncio.run(go())
