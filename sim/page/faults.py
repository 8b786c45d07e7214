"""Faults the simulator's page injects into the virtual board's wire and sensors.

The page's fault buttons make the board misbehave as a real one can: noise on the cable,
the cable unplugged and plugged back, and for two seconds flipped or dropped bytes, or a
sensor flickering under point 7. They test that the table reads through them (the link
checks and retries, a flicker never settles); the page shows the sensor that flickers.
This job keeps the timed fault running, at most one at a time.
"""
from __future__ import annotations

import asyncio

from controller.board.profile import Profile
from sim.virtual_board import VirtualBoard
from controller.web.protocol import Notice


class PageFaults:
    """The faults injected into `vb` (see the module docstring)."""

    def __init__(self, vb: VirtualBoard, profile: Profile) -> None:
        self._vb, self._profile = vb, profile
        self.task: asyncio.Task[None] | None = None  # the timed fault running, if any
        self._flickering: int | None = None  # the sensor a flicker fault is running on

    @property
    def flickering(self) -> int | None:
        """The sensor a flicker fault is running on, if one is."""
        return self._flickering

    def inject(self, name: str) -> str | Notice | None:
        """The fault `name`: noise, unplug, plug, or the timed flip, drop and flicker."""
        if name == "noise":
            self._vb.noise(64)
        elif name == "unplug":
            self._vb.unplug()
        elif name == "plug":
            self._vb.plug()
        elif name in ("flip", "drop", "flicker"):
            if self.task is not None and not self.task.done():
                return "a fault is already running"
            self.task = asyncio.create_task(self._timed(name, 2.0))
        return Notice("fault", f"fault injected: {name}", {"name": name})

    def close(self) -> None:
        """Stop the timed fault running, if any (the simulator closes)."""
        if self.task is not None:
            self.task.cancel()

    async def _timed(self, name: str, seconds: float) -> None:
        vb, sensor = self._vb, None
        if name == "flip":
            vb.flip_bytes(0.02)
        elif name == "drop":
            vb.drop_bytes(0.02)
        else:
            sensors = self._profile.cell_sensors("7")
            sensor = sensors[sum(vb.counts("7"))] if sum(vb.counts("7")) < len(sensors) else sensors[-1]
            vb.flicker(sensor, 70, 1)
            self._flickering = sensor
        try:
            await asyncio.sleep(seconds)
        finally:
            if name == "flip":
                vb.flip_bytes(0.0)
            elif name == "drop":
                vb.drop_bytes(0.0)
            elif sensor is not None:
                vb.flicker(sensor, 0)
                self._flickering = None
