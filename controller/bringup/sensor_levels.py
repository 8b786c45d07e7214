"""`bgboard calibrate`'s sensor levels: each sensor's empty, white and black level, learned
on the board and stored on its flash (hardware/front-end.md, hardware/protocol.md).

Why: a DRV5053RA's quiescent output spreads 0.90-1.15 V and its sensitivity 20-70 mV/mT,
so the firmware classifies each sensor by its own levels. They are learned in three steps,
all from the board's own averaged levels (LEVELS? about ten times a second):

1. **the empty board**: each sensor's level (its zero) and how much it moves by itself
   (its noise, peak to peak);
2. **white on every slot**: the cells lit on the LEDs (and named on the display) are
   covered with white checkers, a few cells at a time (a person has 15); a sensor is
   learned when its level held well beyond its empty level for a while (LEARN_MIN_MV
   and HOLD_SAMPLES samples that agree), its most extreme such level kept (a checker
   centred on its slot beats one nudged aside, or a neighbour's stray field);
3. **black on every slot**, the same way.

Then every sensor is checked (`check`); an impossible calibration (a sensor that does not
move, white and black on the same side of empty, a stuck multiplexer: every channel of a
module the same) is refused with one line per sensor, naming its cell, and nothing is
sent: the board keeps the calibration it has. A good one goes to the board (CALIBRATE
frames, CAL_SAVE with the table's CRC-32), is verified with CAL_STATUS?, and a copy is
kept in the state directory (`calibration.json`) so a replaced Pico can be given it again
(`bgboard calibrate --restore`). The table, its checks and the copy: level_table.py.
"""
from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

from PIL import Image, ImageDraw

from controller.board.profile import Profile
from controller.bringup.level_table import (
    CalibrationNotStored,
    CalibrationRefused,
    LevelCalibration,
    SensorLevels,
    check,
    volts,
    where,
)
from controller.bringup.requests import ClearBoard, CoverCells
from controller.bringup.rig import Operator, Rig
from controller.link.codec import (
    CAL_ROWS_PER_FRAME,
    Calibrate,
    CalSave,
    CalState,
    CalStatus,
    CalStatusRequest,
    LevelsRequest,
)
from hardware.design.sensing import VQ

#: a sensor is learned when it held at least this far from its empty level ...
LEARN_MIN_MV = 100
#: ... or NOISE_FACTOR times its own noise, whichever is more, for HOLD_SAMPLES samples
NOISE_FACTOR = 6
HOLD_SAMPLES = 3
#: samples that agree lie within this of each other (or twice the noise)
HOLD_SPREAD_MV = 10
#: an empty board: every sensor within its part's quiescent range (hardware/design/sensing.py
#: VQ, at the datasheet's limits), with room for the bus's divider and the ADC's error
EMPTY_BAND_MV = (round(VQ[0] * 900), round(VQ[1] * 1050))
#: the slots a person can cover at once: 15 checkers of each colour
CHECKERS = 15
SAMPLE_S = 0.1


# --- on the board -------------------------------------------------------------------------


async def read_levels(rig: Rig) -> tuple[int, ...]:
    """One LEVELS? answer: every sensor's averaged level (TimeoutError when none comes)."""
    feed = rig.feed
    mark = len(feed.levels)
    rig.link.send(LevelsRequest())
    await rig.pass_time(0.02)
    if not await feed.wait_count(feed.levels, mark, rig.reply):
        raise TimeoutError("the board does not answer LEVELS?: does it run firmware 2.0?")
    return feed.levels[-1]


async def await_empty(rig: Rig) -> None:
    """Wait (up to rig.wait) until every sensor reads as an empty slot does, HOLD_SAMPLES
    samples in a row: a person clears the board at their own pace. CalibrationRefused
    names each sensor that never did (a checker left there, a magnet near, no sensor)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + rig.wait
    low, high = EMPTY_BAND_MV
    calm = 0
    while True:
        levels = await read_levels(rig)
        outside = [i for i, v in enumerate(levels) if not low <= v <= high]
        calm = 0 if outside else calm + 1
        if calm >= HOLD_SAMPLES:
            return
        if loop.time() > deadline:
            raise CalibrationRefused([
                f"{where(rig.profile, i)}: reads {volts(levels[i])} with the board cleared, not "
                f"{volts(low)}-{volts(high)}: a checker or a magnet still there, or no sensor"
                for i in outside])
        await rig.pass_time(SAMPLE_S)


async def measure_empty(rig: Rig, op: Operator, seconds: float) -> tuple[list[int], list[int]]:
    """Each sensor's level on the empty board (the mean) and its noise (max - min)."""
    await op.do(ClearBoard())
    await await_empty(rig)
    samples: list[tuple[int, ...]] = []
    for _ in range(max(3, round(seconds / SAMPLE_S))):
        samples.append(await read_levels(rig))
        await rig.pass_time(SAMPLE_S)
    columns = list(zip(*samples))
    return ([round(sum(c) / len(c)) for c in columns], [max(c) - min(c) for c in columns])


class _Learner:
    """Which sensors held a level well beyond empty, and their most extreme held level."""

    def __init__(self, empty: Sequence[int], noise: Sequence[int]) -> None:
        self.empty = empty
        self.margin = [max(LEARN_MIN_MV, NOISE_FACTOR * n) for n in noise]
        self.spread = [max(HOLD_SPREAD_MV, 2 * n) for n in noise]
        self.recent: list[list[int]] = [[] for _ in empty]
        self.learned: dict[int, int] = {}

    def take(self, levels: Sequence[int]) -> None:
        for i, v in enumerate(levels):
            run = self.recent[i]
            if abs(v - self.empty[i]) < self.margin[i]:
                run.clear()
                continue
            run.append(v)
            del run[:-HOLD_SAMPLES]
            if len(run) == HOLD_SAMPLES and max(run) - min(run) <= self.spread[i]:
                held = round(sum(run) / len(run))
                best = self.learned.get(i)
                if best is None or abs(held - self.empty[i]) > abs(best - self.empty[i]):
                    self.learned[i] = held


def batches(profile: Profile) -> list[tuple[str, ...]]:
    """The cells in groups a person covers at once: at most CHECKERS slots a group."""
    out: list[tuple[str, ...]] = []
    group: list[str] = []
    used = 0
    for cell, sensors in profile.cells:
        if group and used + len(sensors) > CHECKERS:
            out.append(tuple(group))
            group, used = [], 0
        group.append(cell)
        used += len(sensors)
    if group:
        out.append(tuple(group))
    return out


async def learn(rig: Rig, op: Operator, colour: str, empty: Sequence[int],
                noise: Sequence[int], *, show: Callable[[str, list[str]], None],
                stall_s: float) -> dict[int, int]:
    """Every slot covered with `colour`, group by group; the levels each sensor held."""
    learner = _Learner(empty, noise)
    profile = rig.profile
    loop = asyncio.get_running_loop()
    for group in batches(profile):
        sensors = [s for cell in group for s in profile.cell_sensors(cell)]
        show(colour, list(group))
        await op.do(CoverCells(colour, group))
        last_progress = loop.time()
        waited = 0.0
        known = len(learner.learned)
        while any(s not in learner.learned for s in sensors) or waited < HOLD_SAMPLES * SAMPLE_S:
            learner.take(await read_levels(rig))
            await rig.pass_time(SAMPLE_S)
            waited += SAMPLE_S
            if len(learner.learned) != known:
                known, last_progress = len(learner.learned), loop.time()
            elif loop.time() - last_progress > stall_s and waited > 1.0:
                break                      # these slots do not move: named by check()
        # a settled group: hold on to the most extreme levels for a moment more
        learner.take(await read_levels(rig))
    await op.do(ClearBoard())
    return learner.learned


async def store(rig: Rig, calibration: LevelCalibration) -> CalStatus:
    """The table sent and stored on the board, and verified; CalibrationNotStored if not."""
    rows = calibration.rows
    feed = rig.feed
    for first in range(0, len(rows), CAL_ROWS_PER_FRAME):
        rig.link.send(Calibrate(first=first, rows=rows[first:first + CAL_ROWS_PER_FRAME]))
    for request in (CalSave(crc=calibration.crc), CalStatusRequest()):
        mark = len(feed.cal_status)
        rig.link.send(request)
        await rig.pass_time(0.05)
        if not await feed.wait_count(feed.cal_status, mark, rig.reply):
            raise CalibrationNotStored("the board did not answer with CAL_STATUS")
        status = feed.cal_status[-1]
        if status.state is not CalState.IN_USE or status.crc != calibration.crc \
                or status.count != len(rows):
            why = status.state.name.lower().replace("_", " ") if status.state else str(status.status)
            raise CalibrationNotStored(f"the board did not store the calibration ({why}); "
                                       "it keeps the one it had")
    return feed.cal_status[-1]


class Showing:
    """What the LEDs and the display show while levels are learned: the cells to cover."""

    def __init__(self, rig: Rig) -> None:
        self.rig = rig

    def __call__(self, colour: str, cells: list[str]) -> None:
        loop = asyncio.get_running_loop()
        self.rig.strip.update({cell: "setup" for cell in cells}, loop.time())
        device = self.rig.display_device
        image = Image.new("1", device.size, 0)
        draw = ImageDraw.Draw(image)
        draw.text((2, 2), f"Calibrate: {colour}", fill=1)
        draw.text((2, 20), "cover the lit cells:", fill=1)
        draw.text((2, 38), ", ".join(cells)[:21], fill=1)
        device.display(image.convert(device.mode))

    def off(self) -> None:
        self.rig.strip.off(asyncio.get_running_loop().time())
        self.rig.display_device.clear()


async def calibrate_levels(rig: Rig, op: Operator, *, empty_seconds: float = 3.0,
                           stall_s: float = 60.0) -> LevelCalibration:
    """The three steps, the checks; the calibration that can be stored (CalibrationRefused
    with every problem when it cannot: nothing is sent then)."""
    show = Showing(rig)
    try:
        op.say(f"Sensor levels 1/3: the empty board, {empty_seconds:g} s.")
        empty, noise = await measure_empty(rig, op, empty_seconds)
        op.say("Sensor levels 2/3: white on every slot.")
        white = await learn(rig, op, "white", empty, noise, show=show, stall_s=stall_s)
        op.say("Sensor levels 3/3: black on every slot.")
        black = await learn(rig, op, "black", empty, noise, show=show, stall_s=stall_s)
    finally:
        show.off()
    problems = check(rig.profile, empty, noise, white, black)
    if problems:
        raise CalibrationRefused(problems)
    return LevelCalibration(tuple(SensorLevels(empty[i], white[i], black[i], noise[i])
                                  for i in range(len(empty))))
