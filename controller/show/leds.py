"""The LED strips: a scene's `{cell: role}` and the time in, pixel colours out.

The profile's [leds] section says which LEDs belong to each cell ([leds.cells]) and how
each role looks ([leds.roles]: a colour and a pattern: `solid`, `blink` at 2 Hz, `pulse`
breathing at 1 Hz). Patterns are a pure function of the time the caller gives, so every
blinking cell is in step and tests need no clock.

Writes are coalesced: `update` computes the frame and writes it only when it differs
from the last one written; `next_change` tells the event loop when a pattern will next
change the frame, so an idle board with solid lights wakes for nothing.

Backends:
- `SimulatedStrip` records the last frames written (time and colours per LED) for the
  tests and the simulator page.
- `NeoPixelStrip` drives a WS2812B chain through adafruit-circuitpython-neopixel,
  imported only when that strip is made. Writing 82 LEDs takes a few milliseconds of
  DMA set-up and transfer, so the strip writes from one worker thread with a one-frame
  mailbox (the newest frame wins): `update` never blocks the loop that reads the sensors.

Colours in frames are at full scale; the strip's `brightness` is applied by the
hardware driver (NeoPixel's own brightness), and the page may apply it too.
"""
from __future__ import annotations

import math
import threading
from collections import deque
from dataclasses import dataclass
from typing import Callable, Mapping, Protocol

# the [leds] section is parsed with the profile; re-exported here for the strip's users
from controller.board.profile_sections import (PATTERNS, RGB, LedConfig, Pattern,  # noqa: F401
                                               RoleLight)
from controller.errors import BackendUnavailableError, ProfileError

BLINK_HZ = 2.0
PULSE_HZ = 1.0
#: A pulse is drawn in this many steps a second: smooth to the eye, few frames to write.
PULSE_STEPS = 16
#: The dimmest point of a pulse, so a pulsing cell never looks unlit.
PULSE_FLOOR = 0.15
OFF: RGB = (0, 0, 0)


def pattern_level(pattern: str, now: float) -> float:
    """How lit a pattern is at time `now`, 0..1 (a pure function of the time)."""
    if pattern == "solid":
        return 1.0
    if pattern == "blink":
        return 1.0 if (now * BLINK_HZ) % 1.0 < 0.5 else 0.0
    step = math.floor(now * PULSE_HZ * PULSE_STEPS) % PULSE_STEPS
    phase = (step + 0.5) / PULSE_STEPS
    wave = 0.5 - 0.5 * math.cos(2 * math.pi * phase)
    return PULSE_FLOOR + (1.0 - PULSE_FLOOR) * wave


def next_pattern_change(pattern: str, now: float) -> float | None:
    """The first time after `now` at which `pattern_level` may change; None for solid."""
    if pattern == "solid":
        return None
    rate = 2 * BLINK_HZ if pattern == "blink" else PULSE_HZ * PULSE_STEPS
    return (math.floor(now * rate + 1e-9) + 1) / rate


def render_frame(leds: Mapping[str, str], now: float, config: LedConfig) -> tuple[RGB, ...]:
    """The colour of every LED for a scene's `{cell: role}` at time `now`.

    Cells the profile gives no LEDs are skipped (a board without tray LEDs still works);
    an unknown role is a programming error and raises ValueError.
    """
    pixels: list[RGB] = [OFF] * config.count
    for cell, role in leds.items():
        light = config.roles.get(role)
        if light is None:
            raise ValueError(f"no light for role {role!r} (cell {cell})")
        level = pattern_level(light.pattern, now)
        colour: RGB = tuple(round(channel * level) for channel in light.color)  # type: ignore[assignment]
        for index in config.cells.get(cell, ()):
            pixels[index] = colour
    return tuple(pixels)


@dataclass(frozen=True)
class LedFrame:
    """One frame written to a strip: when, and the colour of each LED."""

    time: float
    pixels: tuple[RGB, ...]


class LedStrip:
    """A strip of LEDs addressed by cell; subclasses say how a frame is written."""

    def __init__(self, config: LedConfig) -> None:
        self.config = config
        self._last: tuple[RGB, ...] | None = None
        self._closed = False
        self.frames_written = 0

    @property
    def brightness(self) -> float:
        return self.config.brightness

    def update(self, leds: Mapping[str, str], now: float) -> bool:
        """Show `{cell: role}` at time `now`; writes only a changed frame (True if so)."""
        if self._closed:
            raise RuntimeError("the LED strip is closed")
        frame = render_frame(leds, now, self.config)
        if frame == self._last:
            return False
        self._write(frame, now)
        self._last = frame
        self.frames_written += 1
        return True

    def next_change(self, leds: Mapping[str, str], now: float) -> float | None:
        """When the frame for `leds` may next change by itself (a blink or a pulse),
        so the caller can sleep until then; None when every lit role is solid."""
        times = [next_pattern_change(self.config.roles[role].pattern, now)
                 for role in set(leds.values()) if role in self.config.roles]
        pending = [time for time in times if time is not None]
        return min(pending) if pending else None

    def off(self, now: float = 0.0) -> bool:
        """Turn every LED off (written only if something was lit)."""
        return self.update({}, now)

    def close(self) -> None:
        self._closed = True

    @property
    def is_closed(self) -> bool:
        return self._closed

    def __enter__(self) -> "LedStrip":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _write(self, frame: tuple[RGB, ...], now: float) -> None:
        raise NotImplementedError


#: How many of its last frames a `SimulatedStrip` keeps: the simulator shows only the
#: last, tests read a few. Each frame is about 2 KB (82 LEDs, their colours), and a board
#: writes a few hundred a game, so 1,000 kept grew the simulator's process by 2 MB over
#: its first five games (the creep a soak showed after the first game); 32 are full within
#: the first minute of play.
KEEP_FRAMES = 32


class SimulatedStrip(LedStrip):
    """A strip that records the frames written (the last `keep`, so a simulator that runs
    for hours with a pulsing LED does not grow); `when_frame` is called with each one."""

    def __init__(self, config: LedConfig,
                 when_frame: Callable[[LedFrame], None] | None = None, *, keep: int = KEEP_FRAMES) -> None:
        super().__init__(config)
        self.frames: deque[LedFrame] = deque(maxlen=keep)
        self.when_frame = when_frame

    def _write(self, frame: tuple[RGB, ...], now: float) -> None:
        record = LedFrame(now, frame)
        self.frames.append(record)
        if self.when_frame is not None:
            self.when_frame(record)

    @property
    def last(self) -> LedFrame | None:
        return self.frames[-1] if self.frames else None

    def cell_colours(self, cell: str) -> tuple[RGB, ...]:
        """The colours of `cell`'s LEDs in the last frame (all off before any frame)."""
        pixels = self.last.pixels if self.last else (OFF,) * self.config.count
        return tuple(pixels[index] for index in self.config.cells.get(cell, ()))


class Pixels(Protocol):
    """What the strip uses of a `neopixel.NeoPixel` (which ships no types): a colour set
    per LED, then shown all at once (auto_write off)."""

    def __setitem__(self, index: int, colour: RGB) -> None: ...

    def show(self) -> None: ...


class NeoPixelStrip(LedStrip):
    """A WS2812B chain on the Pi through adafruit-circuitpython-neopixel.

    `pixels` may be given (any object with item assignment and `show()`, e.g. a
    `neopixel.NeoPixel`); otherwise it is made from the profile's pin, count, order
    and brightness. Frames go to the chain from a worker thread; only the newest
    frame waiting is written.
    """

    def __init__(self, config: LedConfig, pixels: Pixels | None = None) -> None:
        super().__init__(config)
        self._pixels = pixels if pixels is not None else _open_neopixel(config)
        self._pending: tuple[RGB, ...] | None = None
        self._condition = threading.Condition()
        self._stop = False
        self.error: BaseException | None = None
        self._worker = threading.Thread(target=self._run, name="neopixel-writer", daemon=True)
        self._worker.start()

    def _write(self, frame: tuple[RGB, ...], now: float) -> None:
        if self.error is not None:
            raise BackendUnavailableError(f"the LED strip stopped: {self.error}")
        with self._condition:
            self._pending = frame
            self._condition.notify()

    def flush(self, timeout: float = 1.0) -> bool:
        """Wait until the worker has written every frame handed to it (tests, shutdown)."""
        with self._condition:
            return self._condition.wait_for(
                lambda: self._pending is None or self.error is not None, timeout)

    def _run(self) -> None:
        while True:
            with self._condition:
                self._condition.wait_for(lambda: self._pending is not None or self._stop)
                if self._pending is None:
                    return
                frame = self._pending
            try:
                for index, colour in enumerate(frame):
                    self._pixels[index] = colour
                self._pixels.show()
            except Exception as error:  # a hardware fault: reported on the next update
                self.error = error
            with self._condition:
                if self._pending is frame:
                    self._pending = None
                self._condition.notify_all()
                if self._stop and self._pending is None:
                    return

    def close(self) -> None:
        """Write the last frame, turn the chain off and stop the worker."""
        if self.is_closed:
            return
        if self._last is not None and any(p != OFF for p in self._last) and self.error is None:
            self._write((OFF,) * self.config.count, 0.0)
        with self._condition:
            self._stop = True
            self._condition.notify_all()
        self._worker.join(timeout=2.0)
        deinit = getattr(self._pixels, "deinit", None)
        if callable(deinit):
            deinit()
        super().close()


def _open_neopixel(config: LedConfig) -> Pixels:
    try:
        import board
        import neopixel
    except (ImportError, NotImplementedError, RuntimeError) as error:
        raise BackendUnavailableError(
            "the NeoPixel strip needs adafruit-circuitpython-neopixel on a Raspberry Pi "
            f"(pip install 'bgboard[pi]'): {error}") from None
    try:
        pin = getattr(board, config.pin)
    except AttributeError:
        raise ProfileError(f"profile [leds] pin {config.pin!r} is not a pin of this board "
                           "(use a name like D10)") from None
    try:
        return neopixel.NeoPixel(pin, config.count, brightness=config.brightness,
                                 auto_write=False, pixel_order=config.order)
    except (OSError, RuntimeError) as error:
        raise BackendUnavailableError(
            f"cannot drive the LEDs on {config.pin}: {error} (wire them to D10, SPI MOSI, "
            "and run hardware/pi/install.sh: see 'Why SPI MOSI' in hardware/README.md)") from None


STRIPS: tuple[str, ...] = ("sim", "neopixel")


def open_strip(name: str, config: LedConfig) -> LedStrip:
    """The strip named `name`: `sim` (records frames) or `neopixel` (the Pi)."""
    if name == "sim":
        return SimulatedStrip(config)
    if name == "neopixel":
        return NeoPixelStrip(config)
    raise ProfileError(f"LED strip {name!r} is unknown; choose one of {', '.join(STRIPS)}")
