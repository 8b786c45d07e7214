"""The board's messages, as a bring-up step waits for them.

`SensorFeed` is the `on_frame` callback of a `BoardLink` (it runs on the event loop): it
keeps the latest sensor values, the time of every change, PONGs and ERRORs, and lets a
step wait until the sensors satisfy a condition and have been quiet for a while (a
checker sliding into place flickers before it settles).
"""
from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass

from controller.link.codec import BoardError, CalStatus, Hello, Levels, Message, Pong, Scan

Sensors = tuple[int, ...]


@dataclass(frozen=True)
class Change:
    """The sensors changed to `sensors` at `time` (the event loop's clock)."""

    time: float
    sensors: Sensors


class SensorFeed:
    """Latest sensors and their history of changes; see the module docstring."""

    def __init__(self, count: int, clock: Callable[[], float] | None = None) -> None:
        self.count = count
        self._clock = clock
        self.latest: Sensors | None = None
        self.changes: list[Change] = []
        self.scans = 0
        self.hello: Hello | None = None
        self.pongs: list[bytes] = []
        self.errors: list[BoardError] = []
        #: every whole LEVELS answer (mV, sensor order), oldest first; CAL_STATUS answers
        self.levels: list[Sensors] = []
        self.cal_status: list[CalStatus] = []
        self._levels_part: list[int] = []
        self._waiters: list[asyncio.Future[None]] = []

    def _now(self) -> float:
        return self._clock() if self._clock is not None else asyncio.get_running_loop().time()

    def on_message(self, message: Message) -> None:
        """The BoardLink's `on_frame`: called on the event loop for every message."""
        if isinstance(message, Scan):
            self.scans += 1
            sensors = message.sensors(self.count)
            if sensors != self.latest:
                self.latest = sensors
                self.changes.append(Change(self._now(), sensors))
        elif isinstance(message, Hello):
            self.hello = message
        elif isinstance(message, Pong):
            self.pongs.append(message.payload)
        elif isinstance(message, BoardError):
            self.errors.append(message)
        elif isinstance(message, Levels):
            self._on_levels(message)
        elif isinstance(message, CalStatus):
            self.cal_status.append(message)
        self._wake()

    def _on_levels(self, message: Levels) -> None:
        """LEVELS frames in order make one answer; a frame out of order starts afresh."""
        if message.first != len(self._levels_part):
            self._levels_part = []
            if message.first != 0:
                return
        self._levels_part.extend(message.levels)
        if len(self._levels_part) >= self.count:
            self.levels.append(tuple(self._levels_part[:self.count]))
            self._levels_part = []

    def _wake(self) -> None:
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    async def next_message(self, timeout: float) -> bool:
        """Wait for the next message of any kind; False when `timeout` passes first."""
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            await asyncio.wait_for(waiter, timeout)
        except TimeoutError:
            return False
        return True

    async def wait_for(self, condition: Callable[[Sensors], bool], timeout: float,
                       quiet: float = 0.0) -> Sensors | None:
        """The sensors once `condition` holds and nothing changed for `quiet` seconds.

        None when `timeout` passes first. A change during the quiet time restarts it,
        and the condition is checked again on the new values.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            current = self.latest
            remaining = deadline - loop.time()
            if current is not None and condition(current):
                if quiet <= 0:
                    return current
                stable_until = loop.time() + quiet
                while self.latest == current and loop.time() < stable_until:
                    await self.next_message(stable_until - loop.time())
                if self.latest == current:
                    return current
                continue
            if remaining <= 0:
                return None
            await self.next_message(remaining)

    async def wait_count(self, items: list[Sensors] | list[CalStatus], more_than: int,
                         timeout: float) -> bool:
        """Wait until `items` (one of this feed's lists) holds more than `more_than`."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while len(items) <= more_than:
            remaining = deadline - loop.time()
            if remaining <= 0:
                return False
            await self.next_message(remaining)
        return True

    async def wait_pong(self, payload: bytes, timeout: float) -> bool:
        """Wait for the PONG that echoes `payload`."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while payload not in self.pongs:
            remaining = deadline - loop.time()
            if remaining <= 0:
                return False
            await self.next_message(remaining)
        return True
