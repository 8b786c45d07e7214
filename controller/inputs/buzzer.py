"""The buzzer: short patterns for a clock running low, an error and a lost match on time.

An active buzzer on one GPIO pin (the profile's [buzzer] pin) through gpiozero's
`Buzzer`, on a pin factory passed in (`buttons.make_pin_factory`). gpiozero plays a
pattern from its own background thread, so `play` returns at once; a new pattern
replaces the one playing.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Mapping

# the [buzzer] section is parsed with the profile; re-exported here for the buzzer's users
from controller.board.profile_sections import BuzzerConfig  # noqa: F401
from controller.errors import BackendUnavailableError
from controller.inputs.pins import PinFactory


@dataclass(frozen=True)
class BuzzerPattern:
    """`count` beeps of `on_seconds`, each followed by `off_seconds` of silence."""

    on_seconds: float
    off_seconds: float
    count: int

    def __post_init__(self) -> None:
        if self.on_seconds <= 0 or self.off_seconds < 0 or self.count < 1:
            raise ValueError(f"not a playable buzzer pattern: {self!r}")

    @property
    def duration(self) -> float:
        return self.count * (self.on_seconds + self.off_seconds)


#: The product's sounds: a clock warning is three quick chirps, easy to tell from the
#: single long tone of an error (an illegal placement), time out is longer still.
PATTERNS: Mapping[str, BuzzerPattern] = {
    "warning": BuzzerPattern(0.08, 0.12, 3),
    "error": BuzzerPattern(0.4, 0.1, 1),
    "time_out": BuzzerPattern(1.2, 0.1, 1),
}


#: How many of the last patterns' names a `Buzzer` keeps in `played`.
PLAYED_KEPT = 32


class Buzzer:
    """Plays `PATTERNS` by name (or any `BuzzerPattern`); `enabled=False` keeps it quiet
    (a setting), `background=False` plays to the end before returning (tests)."""

    def __init__(self, config: BuzzerConfig, pin_factory: PinFactory, *, enabled: bool = True,
                 background: bool = True) -> None:
        from gpiozero import Buzzer as GpioBuzzer

        try:
            self._device = GpioBuzzer(config.pin, pin_factory=pin_factory)
        except Exception as error:
            raise BackendUnavailableError(
                f"cannot use the buzzer on GPIO{config.pin}: {error}") from None
        self.enabled = enabled
        self._background = background
        # the names of the last patterns played (tests read them; a table beeps for months)
        self.played: deque[str] = deque(maxlen=PLAYED_KEPT)

    def play(self, pattern: str | BuzzerPattern) -> None:
        """Play a pattern (by name from `PATTERNS`); an unknown name is a KeyError."""
        if isinstance(pattern, str):
            if pattern not in PATTERNS:
                raise KeyError(f"unknown buzzer pattern {pattern!r}; "
                               f"choose one of {', '.join(PATTERNS)}")
            name, pattern = pattern, PATTERNS[pattern]
        else:
            name = "custom"
        self.played.append(name)
        if not self.enabled:
            return
        self._device.beep(on_time=pattern.on_seconds, off_time=pattern.off_seconds,
                          n=pattern.count, background=self._background)

    def stop(self) -> None:
        self._device.off()

    @property
    def is_active(self) -> bool:
        return bool(self._device.is_active)

    def close(self) -> None:
        self._device.close()

    def __enter__(self) -> "Buzzer":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
