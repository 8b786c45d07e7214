"""The virtual board's clock: the firmware's milliseconds, on a manual clock that
`advance` moves (deterministic scripts and tests) or on the monotonic clock while the
board runs in real time, continuing where the other left off."""
from __future__ import annotations

import time
from collections.abc import Callable


class BoardClock:
    """Milliseconds since the board's start, manual or real time (see the module doc)."""

    def __init__(self, mono_ms: Callable[[], float] | None = None) -> None:
        self.manual_ms = 0
        self.realtime = False
        self._mono_ms = mono_ms or (lambda: time.monotonic() * 1000.0)
        self._t0 = 0.0

    @property
    def now_ms(self) -> int:
        """Real time since `go_realtime` (from the manual time then), or the manual clock."""
        if self.realtime:
            return int(self._mono_ms() - self._t0)
        return self.manual_ms

    def ticks_ms(self) -> int:
        """MicroPython's `time.ticks_ms`, as the firmware calls it."""
        return self.now_ms

    @staticmethod
    def ticks_diff(a: int, b: int) -> int:
        """MicroPython's `time.ticks_diff` (no wrap-around in a simulation's lifetime)."""
        return a - b

    def go_realtime(self) -> None:
        """Run on the monotonic clock from the manual clock's time on."""
        self._t0 = self._mono_ms() - self.manual_ms
        self.realtime = True

    def go_manual(self) -> None:
        """Stop at the time reached; `manual_ms` moves it from here."""
        self.manual_ms = self.now_ms
        self.realtime = False
