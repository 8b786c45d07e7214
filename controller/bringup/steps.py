"""The selftest's steps, each ending in a clear pass or fail (`StepResult`).

Every step works through a `Rig` and an `Operator` only, in the order a person brings a
board up: LEDs, sensors, buttons, buzzer, display, the serial link.
"""
from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from controller.board.profile import Profile
from controller.bringup.feed import Sensors
from controller.bringup.requests import (
    CellLit,
    ClearCell,
    HeardBeep,
    PlaceChecker,
    PressButton,
    SawPattern,
    StepResult,
    cell_text,
)
from controller.bringup.rig import Operator, Rig
from controller.engine.wording import counted
from controller.inputs.buttons import BUTTON_KEYS
from controller.inputs.press import ButtonPressed
from controller.inputs.buzzer import BuzzerPattern
from controller.link.codec import LinkStats

EMPTY, WHITE, BLACK, FAULT = 0, 1, 2, 3
VALUE_NAMES = {EMPTY: "empty", WHITE: "white", BLACK: "black", FAULT: "fault"}
#: The selftest's beep: two short ones, unlike any sound of the game.
SELFTEST_BEEP = BuzzerPattern(0.15, 0.15, 2)
#: The LED role lit for each cell in the walk (white, solid in the default profile).
WALK_ROLE = "origin"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def slot_name(profile: Profile, sensor: int) -> str:
    """"sensor 26 (point 5 slot 3)", or "sensor 183 (no cell)" for an unmapped one."""
    place = profile.cell_of_sensor().get(sensor)
    if place is None:
        return f"sensor {sensor} (no cell)"
    cell, slot = place
    return f"sensor {sensor} ({cell_text(cell)} slot {slot + 1})"


# --- LED walk ---------------------------------------------------------------------------------


async def led_walk(rig: Rig, op: Operator) -> StepResult:
    """Light each cell in turn, in the order of the LED chain; the person confirms each."""
    cells = sorted(rig.strip.config.cells, key=lambda c: min(rig.strip.config.cells[c]))
    op.say("LED walk: each cell lights up in turn, in the order of the LED chain.")
    dark: list[str] = []
    loop = asyncio.get_running_loop()
    try:
        for cell in cells:
            rig.strip.update({cell: WALK_ROLE}, loop.time())
            if not await op.confirm(CellLit(cell)):
                leds = rig.strip.config.cells[cell]
                dark.append(f"{cell_text(cell)} (LEDs {leds[0]}–{leds[-1]}) not lit as it should be")
    finally:
        rig.strip.off(loop.time())
    if dark:
        return StepResult("leds", False, f"{len(dark)} of {len(cells)} cells wrong", tuple(dark))
    return StepResult("leds", True, f"all {len(cells)} cells lit one by one")


# --- sensor map -------------------------------------------------------------------------------


async def sensor_map(rig: Rig, op: Operator, colours: tuple[str, ...] = ("white", "black"),
                     cells: tuple[str, ...] | None = None) -> StepResult:
    """Checker by checker, slot by slot: each placement must change its own sensor only.

    Each cell is filled from the edge inward, then cleared, once per colour. Wrong or
    swapped slots, dead sensors, sensors that read the wrong colour (mounted upside down)
    and sensors that read fault are each named with their cell and slot.
    """
    profile = rig.profile
    op.say("Sensor map: clear the whole board, then place checkers as asked.")
    baseline = await rig.feed.wait_for(lambda s: True, rig.wait)
    if baseline is None:
        return StepResult("sensors", False, "no SCAN from the board",
                          ("check the USB cable and `bgboard monitor`",))
    found = _SensorFindings(_not_empty_at_rest(profile, baseline))
    wanted = cells if cells is not None else tuple(c for c, _ in profile.cells)
    for cell in wanted:
        sensors = profile.cell_sensors(cell)
        for colour in colours:
            for slot, expected in enumerate(sensors):
                await _place_checker(rig, op, found, baseline, cell, slot, expected, colour)
            await _clear_cell(rig, op, found, baseline, cell, sensors)
    problems = found.problems + _describe_moves(profile, found.moved)
    summary = f"{found.checked} placements on {len(wanted)} cells"
    if problems:
        return StepResult("sensors", False, f"{summary}: {_count(len(problems), 'problem')}",
                          tuple(problems))
    return StepResult("sensors", True, f"{summary}, every slot read its own sensor")


@dataclass
class _SensorFindings:
    """What the sensor map has found so far, in the order it found it."""

    problems: list[str]
    moved: dict[int, int] = field(default_factory=dict)  # expected sensor -> the one that changed instead
    checked: int = 0  # placements made


def _not_empty_at_rest(profile: Profile, baseline: Sensors) -> list[str]:
    """Every sensor that reads something with the board cleared."""
    return [f"{slot_name(profile, sensor)} reads {VALUE_NAMES[value]} with the board empty"
            for sensor, value in enumerate(baseline) if value != EMPTY]


async def _place_checker(rig: Rig, op: Operator, found: _SensorFindings, baseline: Sensors,
                         cell: str, slot: int, expected: int, colour: str) -> None:
    """Ask for one checker on `cell`'s `slot` and judge what changed: its own sensor
    (`expected`), and only that, must read its colour."""
    before = rig.feed.latest or baseline
    await op.do(PlaceChecker(cell, slot, colour))

    def moved_on(s: Sensors) -> bool:
        return s != before

    after = await rig.feed.wait_for(moved_on, rig.wait, rig.quiet)
    found.checked += 1
    where = f"{cell_text(cell)} slot {slot + 1}"
    if after is None:
        found.problems.append(f"{where}: no sensor changed for a {colour} checker "
                              f"(sensor {expected} dead or not wired?)")
        return
    changed = {i: v for i, v in enumerate(after) if v != before[i]}
    _judge_change(rig.profile, found, where, expected, colour, changed)


def _judge_change(profile: Profile, found: _SensorFindings, where: str, expected: int, colour: str,
                  changed: dict[int, int]) -> None:
    """One placement's sensors that changed (sensor -> value): the right one with the
    wrong colour (upside down?), another one alone (noted for `_describe_moves`), or several."""
    if set(changed) == {expected}:
        seen = changed[expected]
        if seen != (WHITE if colour == "white" else BLACK):
            hint = " (mounted upside down?)" if seen in (WHITE, BLACK) else ""
            found.problems.append(f"{where}: sensor {expected} reads {VALUE_NAMES[seen]} "
                                  f"for a {colour} checker{hint}")
    elif len(changed) == 1:
        (other,) = changed
        found.moved[expected] = other
    else:
        names = ", ".join(slot_name(profile, i) for i in sorted(changed))
        found.problems.append(f"{where}: several sensors changed: {names}")


async def _clear_cell(rig: Rig, op: Operator, found: _SensorFindings, baseline: Sensors,
                      cell: str, sensors: tuple[int, ...]) -> None:
    """Ask for `cell` to be cleared; its sensors must read as they did at rest."""
    await op.do(ClearCell(cell))

    def empty_again(s: Sensors) -> bool:
        return all(s[i] == baseline[i] for i in sensors)

    cleared = await rig.feed.wait_for(empty_again, rig.wait, rig.quiet)
    if cleared is None:
        found.problems.append(f"{cell_text(cell)} does not read empty after clearing it")


def _describe_moves(profile: Profile, moved: dict[int, int]) -> list[str]:
    """Swapped pairs named once as a pair; other misplaced slots one by one."""
    lines: list[str] = []
    done: set[int] = set()
    for expected, seen in sorted(moved.items()):
        if expected in done:
            continue
        if moved.get(seen) == expected:
            lines.append(f"{slot_name(profile, expected)} and {slot_name(profile, seen)} "
                         "are swapped")
            done.update((expected, seen))
        else:
            lines.append(f"expected {slot_name(profile, expected)}, but "
                         f"{slot_name(profile, seen)} changed")
            done.add(expected)
    return lines


# --- buttons ------------------------------------------------------------------------------


async def buttons(rig: Rig, op: Operator) -> StepResult:
    """No button may read pressed at rest; each one pressed must report as itself."""
    problems: list[str] = []
    stuck = [key for key in BUTTON_KEYS if rig.buttons.is_pressed(key)]
    for key in stuck:
        problems.append(f"{key} reads pressed with nobody touching it "
                        "(stuck, or its wire shorted to ground)")
    for key in BUTTON_KEYS:
        if key in stuck:
            continue
        while not rig.button_events.empty():
            rig.button_events.get_nowait()
        await op.do(PressButton(key))
        try:
            event = await asyncio.wait_for(rig.button_events.get(), rig.wait)
        except TimeoutError:
            problems.append(f"{key}: no press seen within {rig.wait:g} s")
            continue
        side, kind = BUTTON_KEYS[key]
        if not isinstance(event, ButtonPressed) or (event.side, event.button) != (side, kind):
            got = next((k for k, v in BUTTON_KEYS.items() if v == (event.side, event.button)), "?")
            problems.append(f"{key} pressed, but {got} reported (wires swapped?)")
    if problems:
        return StepResult("buttons", False, f"{len(problems)} of {len(BUTTON_KEYS)} buttons wrong",
                          tuple(problems))
    return StepResult("buttons", True, f"all {len(BUTTON_KEYS)} buttons pressed and reported")


# --- buzzer -------------------------------------------------------------------------------


async def buzzer(rig: Rig, op: Operator) -> StepResult:
    rig.buzzer.play(SELFTEST_BEEP)
    if await op.confirm(HeardBeep()):
        return StepResult("buzzer", True, "beeped")
    return StepResult("buzzer", False, "no beep heard",
                      (f"check the transistor and the buzzer on GPIO{rig.profile.buzzer.pin}",))


# --- display ------------------------------------------------------------------------------


def display_test_pattern(size: tuple[int, int]) -> Image.Image:
    """The display's test pattern: a frame, a chequered left half, the words in the right.

    Every pixel row and column of the frame lights, so a bad ribbon or a wrong
    width/height shows at once; the chequers show a wrong driver (ssd1306 vs sh1106
    shifts them by two columns).
    """
    width, height = size
    image = Image.new("1", size, 0)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, width - 1, height - 1), outline=1)
    square = 4
    for y in range(2, height - 2, square):
        for x in range(2, width // 2, square):
            if ((x // square) + (y // square)) % 2 == 0:
                draw.rectangle((x, y, x + square - 1, min(y + square - 1, height - 3)), fill=1)
    draw.text((width // 2 + 6, height // 2 - 14), "bgboard", fill=1)
    draw.text((width // 2 + 6, height // 2 + 2), "selftest", fill=1)
    return image


async def display(rig: Rig, op: Operator) -> StepResult:
    device = rig.display_device
    device.display(display_test_pattern(device.size).convert(device.mode))
    try:
        seen = await op.confirm(SawPattern())
    finally:
        device.clear()
    if seen:
        return StepResult("display", True, "test pattern shown")
    return StepResult("display", False, "test pattern not seen as expected",
                      ("check the I2C wiring (i2cdetect -y 1) and the profile's display driver",))


# --- serial link --------------------------------------------------------------------------


async def link(rig: Rig, op: Operator, seconds: float = 10.0) -> StepResult:
    """The link's error counters over `seconds`, then a PING that must come back."""
    op.say(f"Serial link: counting frames and errors for {seconds:g} s.")
    start = rig.link.stats
    await rig.pass_time(seconds)
    payload = os.urandom(4)
    rig.link.send_ping(payload)
    await rig.pass_time(0.1)
    ponged = await rig.feed.wait_pong(payload, 2.0)
    end = rig.link.stats
    delta = LinkStats(end.frames - start.frames, end.crc_errors - start.crc_errors,
                      end.framing_errors - start.framing_errors, end.lost - start.lost)
    summary = (f"{counted(delta.frames, 'frame')} in {seconds:g} s, {counted(delta.crc_errors, 'CRC error')}, "
               f"{counted(delta.framing_errors, 'framing error')}, {delta.lost} lost")
    problems = []
    if delta.frames == 0:
        problems.append("no frames at all: is the board running its firmware?")
    if delta.crc_errors or delta.framing_errors or delta.lost:
        problems.append("errors on the line: check the USB cable (short, shielded) and power")
    if not ponged:
        problems.append("PING not answered: the host-to-board direction does not work")
    if rig.feed.errors:
        problems.append(f"the board reported {counted(len(rig.feed.errors), 'error')}, the last: "
                        f"{rig.feed.errors[-1].text}")
    return StepResult("link", not problems, summary + ("" if ponged else ", no PONG"),
                      tuple(problems))


Step = Callable[[Rig, Operator], Awaitable[StepResult]]

#: Every step by name, in the order the selftest runs them.
STEPS: dict[str, Step] = {
    "leds": led_walk,
    "sensors": sensor_map,
    "buttons": buttons,
    "buzzer": buzzer,
    "display": display,
    "link": link,
}
