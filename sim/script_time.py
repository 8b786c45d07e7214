"""Simulated time for a scenario script: the virtual board runs in steps, its frames reach
the table as the firmware writes them (the in-memory cable, sim/memory_cable.py), the
table gets its ticks. Nothing here waits for real time: the board's clock is the table's.

A long wait skips the board's quiet time (see `ScriptTime.advance`).
"""
from __future__ import annotations

from collections.abc import Callable

from controller.link.board_session import BoardSession
from sim.virtual_board import VirtualBoard

STEP_MS = 20          # the runner's time step while letting time pass
FRAME_MS = 60         # enough for the firmware's debounce (3 scans) and its 20 ms rate limit
LONG_WAIT_MS = 10_000  # a wait longer than this skips the board's quiet time (see advance)
SKIP_AFTER_MS = 2_000  # stepped normally first: settling, debounce, a pending roll
SKIP_MS = 1_000       # the clock's jump, one tick each, while the board is quiet
IDLE_SKIP_MS = 60_000  # the jump while the table is idle too (no clock, nothing settling)
ONLINE_WITHIN_MS = 5_000  # a board that does not play within this is left as it is


class ScriptTime:
    """The script's clock over `vb`; `tick` lets the table's time pass (`Table.tick`)."""

    def __init__(self, vb: VirtualBoard, *, tick: Callable[[float], None],
                 busy: Callable[[float], bool]) -> None:
        self._vb = vb
        self._tick, self._busy = tick, busy

    @property
    def now(self) -> float:
        """The controller's clock: the virtual board's, in seconds."""
        return self._vb.now_ms / 1000.0

    def advance(self, ms: int, *, ticks: bool = True) -> None:
        """Let `ms` of simulated time pass: the board runs, its frames reach the table, the
        table gets a tick every `STEP_MS`.

        A long wait (`wait 86400`) is not stepped through 20 ms at a time: after the first
        seconds, while the board is quiet, its clock jumps a second at a time
        (`VirtualBoard.skip`) with one tick each, a minute at a time while the table is idle
        too (no clock running, nothing settling or due: `controller.table.table.busy`), and
        the last second runs normally again so the board's heartbeat reaches the
        controller."""
        if ms > LONG_WAIT_MS and ticks:
            self._advance(SKIP_AFTER_MS)
            left = ms - SKIP_AFTER_MS
            while left > SKIP_MS:
                jump = SKIP_MS if self._busy(self.now) else min(IDLE_SKIP_MS, left - SKIP_MS)
                jump = max(jump, SKIP_MS)
                if self._vb.skip(jump):
                    self._tick(self.now)
                else:
                    self._advance(SKIP_MS)
                    jump = SKIP_MS
                left -= jump
            self._advance(left)
            return
        self._advance(ms, ticks=ticks)

    def _advance(self, ms: int, *, ticks: bool = True) -> None:
        left = ms
        while left > 0:
            chunk = min(STEP_MS, left)
            self._vb.advance(chunk)
            left -= chunk
            if ticks:
                self._tick(self.now)

    def wait_online(self, session: BoardSession, readings: Callable[[], int], heartbeat_ms: int) -> None:
        """Let time pass until `session` plays (`ONLINE_WITHIN_MS` at most), then until the
        first reading after the (re)connection: `readings` counts the table's readings,
        and the board sends one at least every heartbeat."""
        waited = 0
        while not session.is_playing and waited < ONLINE_WITHIN_MS:
            self.advance(STEP_MS)
            waited += STEP_MS
        before = readings()
        waited = 0
        while readings() == before and waited < 2 * heartbeat_ms:
            self.advance(STEP_MS)
            waited += STEP_MS
