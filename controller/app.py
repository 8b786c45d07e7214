"""`bgboard run`'s main loop: the table on the real board, on the loop's clock.

The table is opened by `controller.table.open_table` like every other front end; what
is the Pi's own here is only how time passes: the loop wakes at once for a reading from
the sensor board, every 50 ms while something is moving (a reading settling, a clock,
blinking lights), four times a second when the board is idle.

    board session --(on the loop)--> BoardFeed --> Table.dispatch         (reader thread)
    buttons       --call_soon_threadsafe--> Table.on_button               (gpiozero thread)
    this loop     ---------------------------------> Table.tick (Tick, redraw)

At start the saved match (if any) is resumed, and the board is first set up to its
position (the controller starts in set-up mode).
"""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from controller.board.profile import Profile, load_profile
from controller.controller import ControllerConfig
from controller.engine.match_settings import MatchSettings
from controller.errors import LinkError
from controller.events import LinkChanged
from controller.table import BackendChoice, Table, make_bot, open_table
from controller.table.table import busy
from controller.table.backends import LedBackend, PinBackend
from controller.table.start import starting_match

log = logging.getLogger("bgboard")


async def run_table(port: str, *, profile: Profile | None = None, state_dir: Path | None = None,
                    config: ControllerConfig | None = None, match_settings: MatchSettings | None = None,
                    position_id: str | None = None, score: tuple[int, int] | None = None,
                    crawford_played: bool | None = None,
                    strip_name: LedBackend = "neopixel", display_driver: str | None = None,
                    pin_factory: PinBackend = "rpigpio", seconds: float | None = None,
                    tick_s: float = 0.05, idle_tick_s: float = 0.25,
                    brightness: float | None = None,
                    on_table: Callable[[Table], object] | None = None) -> Table:
    """Play on a board at `port` until cancelled (or for `seconds`): the Pi's main loop.
    A `position_id` or a `score` starts a new match from it instead of the saved one;
    `brightness` (0..1, the settings' value) overrides the profile's LED brightness.
    `on_table` is called with the table once it is open (online play seats its remote
    player at it: controller/online/seat.py)."""
    profile = profile or load_profile()
    loop = asyncio.get_running_loop()
    now = loop.time
    settings = match_settings or MatchSettings()
    backends = BackendChoice(port=port, leds=strip_name, display=display_driver, pins=pin_factory,
                             state_dir=state_dir, brightness=brightness)
    start = None
    if position_id or score is not None:
        start = starting_match(settings, position_id, score=score or (0, 0),
                               crawford_played=crawford_played)
    table = open_table(profile, backends, clock=now, config=config, match=start,
                       new_match=lambda: starting_match(settings), bots=make_bot, loop=loop)
    if position_id is None:  # a game from a set position is not a record's game
        table.review_matches()
    if on_table is not None:
        on_table(table)
    with table:
        link = table.link
        assert link is not None
        wake = asyncio.Event()
        table.on_reading(wake.set)
        end = None if seconds is None else now() + seconds
        table.refresh(now())
        await _connect(link, table, now, end)
        try:
            while end is None or now() < end:
                pause = tick_s if busy(table, now()) else idle_tick_s
                wake.clear()
                try:  # not wait_for: under a flood of readings (3.11) it swallowed Ctrl-C when both came at once
                    async with asyncio.timeout(pause):
                        await wake.wait()
                except TimeoutError:
                    pass
                table.tick(now())
        finally:
            await table.aclose()
    return table


class Startable(Protocol):
    """What `_connect` needs of a link: `await start()`."""

    async def start(self) -> None: ...


async def _connect(link: Startable, table: Table, now: Callable[[], float], end: float | None,
                   retry_s: float = 0.5) -> None:
    """Open the link; while the board is missing, show "board offline" and keep trying
    (the Pi's service starts before anyone plugs the board in)."""
    told = False
    while True:
        try:
            await link.start()
            return
        except LinkError as exc:
            if not told:
                told = True
                log.warning("waiting for the board: %s", exc)
                table.dispatch(LinkChanged(False, now(), str(exc)))
            if end is not None and now() >= end:
                raise
            await asyncio.sleep(retry_s)
            table.tick(now())
