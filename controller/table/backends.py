"""The table's backends: what a front end names, and the small interfaces they keep.

A table is the same program on every front end; only its backends differ:

| front end              | link                      | LEDs       | display | buttons + buzzer | clock     |
| ---------------------- | ------------------------- | ---------- | ------- | ---------------- | --------- |
| `bgboard run` (the Pi) | /dev/bgboard (pyserial)   | `neopixel` | luma    | `rpigpio`/`lgpio`| the loop's|
| `bgboard sim`          | the virtual board's pty   | `sim`      | `dummy` | `mock` pins      | the loop's|
| `bgboard sim --headless`| in-memory cable to it    | `sim`      | `dummy` | `mock` pins      | simulated |

`BackendChoice` carries each backend by name (the command line's words: a port's path,
`neopixel`, a luma driver, a pin factory's name) or as the object itself, as gpiozero's
devices take a pin factory object and only the default is chosen by name: a
`LinkInterface` (the in-memory cable to the virtual board), an LED strip, a display, a
pin factory. `controller.table.open_table` opens the named ones; the table owns and
closes them all. Every device is used through one of the Protocols below, so the table
never depends on a driver package (those are imported only when their backend is named).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Protocol

from controller.bot.base import Bot
from controller.inputs.pins import PinFactory
from controller.link.interface import LinkInterface
from controller.show.content import DisplayContent

LedBackend = Literal["neopixel", "sim"]
PinBackend = Literal["rpigpio", "lgpio", "mock", "none"]


class LedOutput(Protocol):
    """The LED strips (controller.show.leds.LedStrip and its backends)."""

    def update(self, leds: Mapping[str, str], now: float) -> bool: ...
    def next_change(self, leds: Mapping[str, str], now: float) -> float | None: ...
    def close(self) -> None: ...


class DisplayOutput(Protocol):
    """The display (controller.show.display_backends.Display)."""

    frames_written: int

    def show(self, content: DisplayContent, now: float = 0.0) -> bool: ...
    def frame_png(self) -> bytes: ...
    def close(self) -> None: ...


class BuzzerOutput(Protocol):
    """The buzzer (controller.inputs.buzzer.Buzzer)."""

    def play(self, pattern: str) -> None: ...
    def close(self) -> None: ...


BotFactory = Callable[[str], Bot]


@dataclass(frozen=True)
class BackendChoice:
    """The backends of one front end, each by name or as the object (see the module
    docstring).

    `port` is the sensor board's serial port (a path: pyserial) or a `LinkInterface`;
    `leds` a strip's name or a strip; `display` a luma driver name (None: the profile's)
    or a display; `pins` the gpiozero pin factory of buttons and buzzer, by name (`none`:
    no buttons) or the factory;
    `state_dir` where the match is saved (None: not saved); `brightness` overrides the
    profile's LED brightness (the settings' value). The board session's PING liveness
    runs every `ping_interval_s`, and `offline_after_s` overrides the profile's silence
    limit: the headless runner turns both off, since it jumps its board's clock over a
    long quiet wait without running the firmware (no PONG, no heartbeat meanwhile).
    `read_timeout_s` is the serial port's read timeout.
    """

    port: str | LinkInterface
    leds: LedBackend | LedOutput = "sim"
    display: str | DisplayOutput | None = "dummy"
    pins: PinBackend | PinFactory = "mock"
    state_dir: Path | None = None
    brightness: float | None = None
    ping_interval_s: float | None = 1.0
    read_timeout_s: float = 0.1
    offline_after_s: float | None = None
    buzzer_sound: bool = True
