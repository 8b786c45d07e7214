"""The page's clock on the event loop: the loop's time that the table runs on, a tick every
50 ms, one more exactly when the board's last reading has settled, and the SCAN times of
the frame rate's window.

The controller acts on a reading once it has settled: the look then, not at the next
tick, lights the targets up to a tick sooner. This timing was spread over `LiveSim`'s
start, close and reading callbacks; here it is one small job with one timer and one task.
"""
from __future__ import annotations

import asyncio
import collections
from collections.abc import Callable

from controller.web.page_debug import trim_frames

TICK_S = 0.05


class PageTicks:
    """`tick(now)` is called every `TICK_S` and `settle_s` after the last reading;
    `changed` tells the page a reading came."""

    def __init__(self, *, settle_s: float, tick: Callable[[float], None], changed: Callable[[], None]) -> None:
        self._settle_s, self._tick, self._changed = settle_s, tick, changed
        self.loop: asyncio.AbstractEventLoop | None = None
        self.frames: collections.deque[float] = collections.deque()  # SCAN times, the last 2 s
        self._task: asyncio.Task[None] | None = None
        self._settle_timer: asyncio.TimerHandle | None = None  # a look when the last reading settles

    def bind(self) -> None:
        """Run on the running loop (its clock is the table's)."""
        self.loop = asyncio.get_running_loop()

    def start(self) -> None:
        """Tick from now on."""
        self._task = asyncio.create_task(self._ticks())

    def close(self) -> None:
        for cancel in (self._task, self._settle_timer):
            if cancel is not None:
                cancel.cancel()

    def now(self) -> float:
        assert self.loop is not None
        return self.loop.time()

    async def _ticks(self) -> None:
        while True:
            await asyncio.sleep(TICK_S)
            self._tick_now()

    def reading_seen(self) -> None:
        """A reading reached the table: counted, told, and looked at again once settled."""
        now = self.now()
        self.frames.append(now)
        trim_frames(self.frames, now)  # here, not only when a tab asks: idle, it stays 2 s long
        self._changed()
        if self._settle_timer is not None:
            self._settle_timer.cancel()
        assert self.loop is not None
        self._settle_timer = self.loop.call_later(self._settle_s + 0.001, self._tick_now)

    def _tick_now(self) -> None:
        self._settle_timer = None
        self._tick(self.now())
