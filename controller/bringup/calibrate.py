"""`bgboard calibrate`: measure this board's settling time and sensor flicker.

Two measurements, both on the debounced SCANs the controller really gets:

- **flicker**: the board stands idle for a while; every sensor change then is flicker
  (a sensor near its threshold, a loose wire). Flickering sensors are named, and the
  firmware's debounce count is raised so the game does not see them.
- **settling**: the person places and lifts a checker a few times; a checker sliding
  into place makes a burst of changes, and the longest burst (first to last change)
  tells how long the controller must wait before it trusts a reading (`settle_ms`).

The figures go into the local profile (`profile_writer.write_calibrated`).
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

from controller.board.profile import Timing
from controller.bringup.feed import SensorFeed, Sensors
from controller.bringup.requests import ClearCell, PlaceChecker
from controller.bringup.rig import Operator, Rig

#: settle_ms never goes below this: a person's hand leaves the board slower than that.
MIN_SETTLE_MS = 150
#: Headroom on the longest burst measured.
SETTLE_FACTOR = 1.5
#: Debounce scans added when sensors flicker while idle (and the most ever set).
DEBOUNCE_STEP = 2
MAX_DEBOUNCE = 10


@dataclass(frozen=True)
class Calibration:
    """What was measured, and the timing it leads to."""

    idle_seconds: float
    flicker: tuple[tuple[int, int], ...]     # (sensor, changes while idle), worst first
    bursts_ms: tuple[float, ...]             # per placement and lift: first to last change
    settle_ms: int
    debounce_scans: int

    @property
    def flicker_per_minute(self) -> float:
        total = sum(n for _, n in self.flicker)
        return total * 60.0 / self.idle_seconds if self.idle_seconds else 0.0

    def lines(self) -> list[str]:
        worst = max(self.bursts_ms, default=0.0)
        out = [(f"settling: {len(self.bursts_ms)} bursts, the longest {worst:.0f} ms "
               f"-> settle_ms = {self.settle_ms}")]
        if self.flicker:
            named = ", ".join(f"sensor {s} ({n}x)" for s, n in self.flicker[:8])
            out.append(f"flicker: {self.flicker_per_minute:.1f} changes a minute while idle: "
                       f"{named} -> debounce_scans = {self.debounce_scans}")
        else:
            out.append(f"flicker: none in {self.idle_seconds:g} s idle "
                       f"-> debounce_scans = {self.debounce_scans}")
        return out


def flicker_counts(feed: SensorFeed, since: int) -> Counter[int]:
    """Changes per sensor in `feed.changes[since:]`, against the values before them."""
    counts: Counter[int] = Counter()
    if since >= len(feed.changes):
        return counts
    previous = feed.changes[since - 1].sensors if since > 0 else None
    for change in feed.changes[since:]:
        if previous is not None:
            counts.update(i for i, (a, b) in enumerate(zip(previous, change.sensors)) if a != b)
        previous = change.sensors
    return counts


def burst_ms(feed: SensorFeed, since: int) -> float:
    """First to last change in `feed.changes[since:]`, in ms (0 for a single change)."""
    burst = feed.changes[since:]
    return (burst[-1].time - burst[0].time) * 1000.0 if len(burst) > 1 else 0.0


def recommend(timing: Timing, flicker: Counter[int] | dict[int, int],
              bursts: list[float]) -> tuple[int, int]:
    """settle_ms and debounce_scans for what was measured, from the profile's `timing`."""
    debounce = timing.debounce_scans
    if flicker:
        debounce = min(MAX_DEBOUNCE, debounce + DEBOUNCE_STEP)
    # the firmware needs debounce+1 scans and up to 20 ms to report a change
    reporting = (debounce + 1) * timing.scan_period_ms + 20
    worst = max(bursts, default=0.0)
    settle = max(MIN_SETTLE_MS, math.ceil((worst * SETTLE_FACTOR + reporting) / 10) * 10)
    return settle, debounce


async def calibrate(rig: Rig, op: Operator, *, idle_seconds: float = 10.0,
                    placements: int = 5, cell: str = "1", burst_quiet: float = 1.0) -> Calibration:
    """Measure flicker while idle, then settling over `placements` place-and-lift cycles.

    `burst_quiet` is how long no change must come before a burst counts as over (a
    second for a person's hand; 0 in the simulator, whose checkers land at once).
    """
    feed = rig.feed
    op.say(f"Flicker: leave the board empty and untouched for {idle_seconds:g} s.")
    if await feed.wait_for(lambda s: True, rig.wait) is None:
        raise TimeoutError("no SCAN from the board")
    mark = len(feed.changes)
    await rig.pass_time(idle_seconds)
    flicker = flicker_counts(feed, mark)

    op.say(f"Settling: place and lift one checker on slot 1 of the cell, {placements} times.")
    bursts: list[float] = []
    sensor = rig.profile.cell_sensors(cell)[0]
    for _ in range(placements):
        for request, want in ((PlaceChecker(cell, 0, "white"), True), (ClearCell(cell), False)):
            mark = len(feed.changes)
            await op.do(request)
            def reached(s: Sensors, w: bool = want) -> bool:
                return (s[sensor] != 0) == w

            done = await feed.wait_for(reached, rig.wait, burst_quiet)
            if done is None:
                raise TimeoutError(f"sensor {sensor} did not change; run `bgboard selftest`")
            bursts.append(burst_ms(feed, mark))
    settle, debounce = recommend(rig.profile.timing, flicker, bursts)
    worst_first = tuple(sorted(flicker.items(), key=lambda item: (-item[1], item[0])))
    return Calibration(idle_seconds, worst_first, tuple(bursts), settle, debounce)
