"""A rig around the virtual board, with faults a person can inject (`--sim --fault ...`).

The virtual board runs the real firmware on a manual clock behind a real pseudo-terminal,
and the controller's `BoardLink` reads it as it would read `/dev/bgboard`. The LEDs are a
recording strip, the display luma's dummy device, the buttons and buzzer gpiozero's mock
pins. Faults change the simulated hardware only, never the profile the steps use:

- `swap:A,B`            sensors A and B wired to each other's slots
- `dead-leds:FIRST-LAST` LEDs FIRST..LAST never light (a broken strip piece)
- `stuck-button:KEY`     the button of profile key KEY is held down (e.g. white_main)
- `dead-sensor:N`        sensor N never sees a magnet
- `flicker:N`            sensor N flickers on its own (every 100 ms, slower than debouncing)
- `stuck-mux:M`          module M's multiplexer (1..16, chain order) reads its channel 0 on
                         every address (its S0..S3 stuck)
- `overlap:N`            sensor N reads a black checker as it reads a white one
"""
from __future__ import annotations

import asyncio
import dataclasses
import re
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from controller.board.profile import Profile
from controller.bringup.feed import SensorFeed
from controller.bringup.rig import Rig, button_emitter
from controller.errors import UsageError
from controller.inputs.buttons import (
    BUTTON_KEYS,
    ButtonPanel,
    make_mock_pins,
)
from controller.inputs.press import ButtonPressed
from controller.inputs.buzzer import Buzzer
from controller.inputs.pins import MockPin, MockPinFactory
from controller.link.board_link import BoardLink
from controller.show.display import DummyDevice
from controller.show.display_backends import open_dummy
from controller.show.leds import LedConfig, SimulatedStrip

if TYPE_CHECKING:
    from sim.vboard_parts import PartKind

FAULT_HELP = ("swap:A,B | dead-leds:FIRST-LAST | stuck-button:KEY | dead-sensor:N | flicker:N"
              " | stuck-mux:M | overlap:N")
#: A flickering sensor's period: slow enough to pass the firmware's debouncing.
FLICKER_MS = 100


@dataclass(frozen=True)
class Faults:
    """Faults built into the simulated board."""

    swaps: tuple[tuple[int, int], ...] = ()
    dead_leds: frozenset[int] = frozenset()
    stuck_buttons: frozenset[str] = frozenset()
    dead_sensors: frozenset[int] = frozenset()
    flickers: frozenset[int] = frozenset()
    stuck_muxes: frozenset[int] = frozenset()      # modules, 1-based
    overlaps: frozenset[int] = frozenset()


#: the faults that name one number: the field of `Faults` they add it to, and whether the
#: number fits (given the profile's count of sensors)
_ONE_NUMBER: dict[str, tuple[str, Callable[[int, int], bool]]] = {
    "dead-sensor": ("dead_sensors", lambda n, sensors: n < sensors),
    "flicker": ("flickers", lambda n, sensors: n < sensors),
    "stuck-mux": ("stuck_muxes", lambda n, sensors: 1 <= n <= 16),
    "overlap": ("overlaps", lambda n, sensors: n < sensors),
}


def parse_faults(texts: list[str], profile: Profile) -> Faults:
    """`--fault` arguments to `Faults`; a bad one is a UsageError naming it."""
    faults = Faults()
    for text in texts:
        faults = _with_fault(faults, text, profile)
    return faults


def _with_fault(faults: Faults, text: str, profile: Profile) -> Faults:
    kind, _, arg = text.partition(":")
    sensors, leds = profile.sensors.count, profile.leds.count
    one = _ONE_NUMBER.get(kind)
    if one is not None and arg.isdigit() and one[1](int(arg), sensors):
        field = one[0]
        return dataclasses.replace(faults, **{field: getattr(faults, field) | {int(arg)}})
    if kind == "stuck-button" and arg in BUTTON_KEYS:
        return dataclasses.replace(faults, stuck_buttons=faults.stuck_buttons | {arg})
    if kind == "swap" and (m := re.fullmatch(r"(\d+),(\d+)", arg)):
        a, b = int(m.group(1)), int(m.group(2))
        if a == b or max(a, b) >= sensors:
            raise UsageError(f"--fault {text}: two different sensors 0..{sensors - 1}")
        return dataclasses.replace(faults, swaps=faults.swaps + ((a, b),))
    if kind == "dead-leds" and (m := re.fullmatch(r"(\d+)-(\d+)", arg)):
        first, last = int(m.group(1)), int(m.group(2))
        if first > last or last >= leds:
            raise UsageError(f"--fault {text}: a range within 0..{leds - 1}")
        return dataclasses.replace(faults, dead_leds=faults.dead_leds | frozenset(range(first, last + 1)))
    raise UsageError(f"--fault {text!r}: expected {FAULT_HELP}"
                     + (f" (buttons: {', '.join(BUTTON_KEYS)})" if kind == "stuck-button" else ""))


def wired_profile(profile: Profile, swaps: tuple[tuple[int, int], ...]) -> Profile:
    """The profile as the simulated board is really wired: swapped sensors exchanged."""
    if not swaps:
        return profile
    mapping = {i: i for i in range(profile.sensors.count)}
    for a, b in swaps:
        mapping[a], mapping[b] = mapping[b], mapping[a]
    cells = tuple((cell, tuple(mapping[s] for s in sensors)) for cell, sensors in profile.cells)
    return dataclasses.replace(profile, cells=cells)


class DeadLedStrip(SimulatedStrip):
    """A recording strip on which some LEDs never light."""

    def __init__(self, config: LedConfig, dead: frozenset[int]) -> None:
        super().__init__(config)
        self.dead = dead

    def _write(self, frame: tuple[tuple[int, int, int], ...], now: float) -> None:
        super()._write(tuple((0, 0, 0) if i in self.dead else px for i, px in enumerate(frame)), now)


class BenchBoard(Protocol):
    """What the operator does with the virtual board (sim/virtual_board.py, which this
    layer may not import): checkers placed and lifted by cell, time let pass."""

    def advance(self, ms: int) -> None: ...

    def place(self, cell: str | int, colour: str = "white") -> None: ...

    def lift(self, cell: str | int, colour: str | None = None) -> str: ...

    def counts(self, cell: str | int) -> tuple[int, int]: ...

    def set_cell(self, cell: str | int, white: int, black: int) -> None: ...

    def clear(self) -> None: ...


@dataclass
class SimBench:
    """The simulated hardware's controls, for the operator that stands in for a person."""

    board: BenchBoard
    strip: SimulatedStrip
    display_device: DummyDevice
    pin_factory: MockPinFactory
    button_pins: Mapping[str, int]
    buzzer_pin_number: int
    bounce_s: float
    settle_ms: int
    stuck_buttons: frozenset[str] = field(default_factory=frozenset)
    #: each cell's number of slots (the operator covers them all with checkers)
    cell_slots: Mapping[str, int] = field(default_factory=dict)

    def settle(self) -> None:
        """Let the firmware debounce and report a change (manual clock)."""
        self.board.advance(self.settle_ms)

    def buzzer_pin(self) -> MockPin:
        return self.pin_factory.pin(self.buzzer_pin_number)

    async def press(self, key: str) -> None:
        """Press and release a button; a stuck one stays down whatever the finger does."""
        if key in self.stuck_buttons:
            return
        pin = self.pin_factory.pin(self.button_pins[key])
        pin.drive_low()
        await asyncio.sleep(self.bounce_s + 0.02)
        pin.drive_high()
        await asyncio.sleep(0.01)


@asynccontextmanager
async def open_sim_rig(profile: Profile, faults: Faults = Faults(), *, parts: PartKind = "random",
                       calibrated: bool = True, seed: int = 0) -> AsyncIterator[tuple[Rig, SimBench]]:
    """A rig around a fresh virtual board with `faults` built in, its sensors `parts` of
    their datasheet's limits (sim/vboard_parts.py, drawn from `seed`), calibrated at the
    factory or not; everything closed after."""
    from sim.virtual_board import VirtualBoard  # the simulator is imported only here

    loop = asyncio.get_running_loop()
    timing = profile.timing
    settle_ms = (timing.debounce_scans + 1) * timing.scan_period_ms + 25
    board = VirtualBoard(wired_profile(profile, faults.swaps), parts=parts, calibrated=calibrated, seed=seed)
    for sensor in faults.dead_sensors:
        board.stick(sensor, 0)
    for sensor in faults.flickers:
        board.flicker(sensor, FLICKER_MS)
    for module in faults.stuck_muxes:
        board.stick_mux(module - 1, 0)
    for sensor in faults.overlaps:
        board.black_reads_white(sensor)
    feed = SensorFeed(profile.sensors.count)
    link = BoardLink(board.port, on_frame=feed.on_message, baudrate=profile.link.baudrate,
                     offline_after=profile.link.offline_after_ms / 1000)
    strip = DeadLedStrip(profile.leds, faults.dead_leds)
    device = open_dummy(profile.display)
    factory = make_mock_pins("all")  # the operator reads the buzzer's states since a mark
    events: asyncio.Queue[ButtonPressed] = asyncio.Queue()
    button_config = profile.buttons
    panel = ButtonPanel(button_config, factory,
                        button_emitter(loop, events))
    for key in faults.stuck_buttons:
        factory.pin(button_config.pins[key]).drive_low()
    buzzer = Buzzer(profile.buzzer, factory)
    bench = SimBench(board, strip, device, factory, button_config.pins, profile.buzzer.pin,
                     button_config.bounce_ms / 1000, settle_ms, faults.stuck_buttons,
                     {cell: len(sensors) for cell, sensors in profile.cells})

    async def pass_time(seconds: float) -> None:
        remaining = int(seconds * 1000)
        while remaining > 0:
            chunk = min(50, remaining)
            board.advance(chunk)
            remaining -= chunk
            await asyncio.sleep(0.001)   # let the link's thread hand the frames over

    try:
        await link.start()
        await pass_time(timing.heartbeat_ms / 1000 + 0.05)
        if await feed.wait_for(lambda s: True, 2.0) is None:
            raise RuntimeError("the virtual board sent no SCAN")  # a bug, not a user error
        rig = Rig(profile, feed, link, strip, device, panel, events, buzzer, pass_time,
                  wait=2.0, quiet=0.0)
        yield rig, bench
    finally:
        link.close()
        panel.close()
        buzzer.close()
        strip.close()
        board.close()
        factory.close()
