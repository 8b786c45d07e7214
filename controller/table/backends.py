"""The table's backends: what a front end names, and the small interfaces they keep.

A table is the same program on every front end; only its backends differ:

| front end              | link (port)            | LEDs       | display | buttons + buzzer | clock     |
| ---------------------- | ---------------------- | ---------- | ------- | ---------------- | --------- |
| `bgboard run` (the Pi) | /dev/bgboard           | `neopixel` | luma    | `rpigpio`/`lgpio`| the loop's|
| `bgboard sim`          | the virtual board's pty| `sim`      | `dummy` | `mock` pins      | the loop's|
| `bgboard sim --headless`| the virtual board's pty| `sim`     | `dummy` | `mock` pins      | simulated |

`BackendChoice` names them; `controller.table.open_table` opens them. Every device is
used through one of the Protocols below, so the table never depends on a driver package
(those are imported only when their backend is named).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Protocol

from controller.bot.base import Bot
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
    """The backends of one front end, by name (see the module docstring).

    `port` is the sensor board's serial port; `display` a luma driver name (None: the
    profile's); `pins` the gpiozero pin factory of buttons and buzzer (`none`: no buttons);
    `state_dir` where the match is saved (None: not saved); `brightness` overrides the
    profile's LED brightness (the settings' value). The board session's PING liveness
    runs every `ping_interval_s` (None: off, for the headless runner, whose board runs on
    simulated time between its steps, which would starve the PONGs); `offline_after_s`
    and `link_backoff_s` override the link's timeout and reconnect pauses there too.
    """

    port: str
    leds: LedBackend = "sim"
    display: str | None = "dummy"
    pins: PinBackend = "mock"
    state_dir: Path | None = None
    brightness: float | None = None
    ping_interval_s: float | None = 1.0
    read_timeout_s: float = 0.1
    offline_after_s: float | None = None
    link_backoff_s: tuple[float, float] | None = None
    buzzer_sound: bool = True
