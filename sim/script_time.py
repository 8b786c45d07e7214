"""Simulated time for a scenario script: the virtual board runs in steps, its frames reach
the table, the table gets its ticks.

Frames cross a real pty and a reader thread, so time is synchronised with a PING barrier:
a PING with a fresh token goes through the board session, the board answers, and the
PONG is awaited on the event loop; every SCAN the board wrote before it has then reached
the controller. A long wait skips the board's quiet time (see `ScriptTime.advance`).

It was part of the headless runner (sim/headless.py); the runner's steps and its table's
opening both let time pass through it.
"""
from __future__ import annotations

import asyncio
from collections.abc import Callable

from controller.link.serial_link import LinkState
from controller.link.session import BoardSession
from sim.virtual_board import VirtualBoard

STEP_MS = 20          # the runner's time step while letting time pass
FRAME_MS = 60         # enough for the firmware's debounce (3 scans) and its 20 ms rate limit
LONG_WAIT_MS = 10_000  # a wait longer than this skips the board's quiet time (see advance)
SKIP_AFTER_MS = 2_000  # stepped normally first: settling, debounce, a pending roll
SKIP_MS = 1_000       # the clock's jump, one tick each, while the board is quiet
BARRIER_TIMEOUT_S = 3.0


class ScriptTime:
    """The script's clock over `vb`: `session` is the table's board session now (None
    between tables), `tick` lets the table's time pass (`Table.tick`)."""

    def __init__(self, vb: VirtualBoard, *, session: Callable[[], BoardSession | None],
                 tick: Callable[[float], None]) -> None:
        self._vb = vb
        self._session, self._tick = session, tick

    @property
    def now(self) -> float:
        """The controller's clock: the virtual board's, in seconds."""
        return self._vb.now_ms / 1000.0

    async def advance(self, ms: int, *, ticks: bool = True) -> None:
        """Let `ms` of simulated time pass: the board runs, frames reach the controller,
        the controller gets its ticks.

        A long wait (`wait 86400`) is not stepped through 20 ms at a time (a day took 14
        minutes of pings): after the first seconds, while the board is quiet, its clock
        jumps a second at a time (`VirtualBoard.skip`) with one tick each, and the last
        second runs normally again so the board's heartbeat reaches the controller."""
        if ms > LONG_WAIT_MS and ticks:
            await self._advance(SKIP_AFTER_MS)
            left = ms - SKIP_AFTER_MS
            while left > SKIP_MS:
                if self._vb.skip(SKIP_MS):
                    self._tick(self.now)
                else:
                    await self._advance(SKIP_MS)
                left -= SKIP_MS
            await self._advance(left)
            return
        await self._advance(ms, ticks=ticks)

    async def _advance(self, ms: int, *, ticks: bool = True) -> None:
        left = ms
        since_barrier = 0
        while left > 0:
            chunk = min(STEP_MS, left)
            self._vb.advance(chunk)
            left -= chunk
            since_barrier += chunk
            if since_barrier >= FRAME_MS or left == 0:
                await self.barrier()
                since_barrier = 0
            if ticks:
                self._tick(self.now)

    async def barrier(self) -> None:
        """Wait until every frame the board has written so far reached the controller: a
        PING through the board session, whose PONG comes after every SCAN sent before it."""
        session = self._session()
        if session is None or not self._vb.is_plugged or session.link.status not in (
                LinkState.ONLINE, LinkState.CONNECTING, LinkState.OFFLINE):
            await asyncio.sleep(0.005)
            return
        pong = asyncio.ensure_future(session.ping(timeout=BARRIER_TIMEOUT_S))
        while not pong.done():
            self._vb.advance(0)
            await asyncio.wait({pong}, timeout=0.01)
        if not pong.cancelled():
            pong.exception()  # a lost PONG (the line was cut): nothing more to wait for

    async def wait_online(self, session: BoardSession, readings: Callable[[], int], heartbeat_ms: int) -> None:
        """Wait (a few seconds of the loop at most) for `session` to play, then for the
        first SCAN after the (re)connection: `readings` counts the table's readings, and
        the board sends one at least every heartbeat."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + BARRIER_TIMEOUT_S
        while not session.is_playing and loop.time() < deadline:
            self._vb.advance(STEP_MS)
            await asyncio.sleep(0.01)
        before = readings()
        await self.barrier()
        waited = 0
        while readings() == before and waited < 2 * heartbeat_ms:
            await self.advance(STEP_MS)
            waited += STEP_MS

    async def wait_offline(self, session: BoardSession) -> None:
        """Wait (a few seconds of the loop at most) until `session` sees the cable pulled."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + BARRIER_TIMEOUT_S
        while session.link.status is LinkState.ONLINE and loop.time() < deadline:
            await asyncio.sleep(0.01)
