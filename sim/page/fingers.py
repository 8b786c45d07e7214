"""A finger on the table's buttons, for the simulator's page.

The page's buttons (a side's main and cube, the menu, a long press on the menu) press the
table's real button panel through its mock pins, as a finger does: down, then up after a
tap's time (or a long press's), never faster than the panel's debounce, so the panel and
the menu behave as on the board. A press while the last tap is still down lifts it first.
This job keeps the buttons held down and when each last came up.
"""
from __future__ import annotations

import asyncio
from collections.abc import Callable

from controller.table import Table
from sim.finger import LONG_PRESS_S, TAP_S, Finger
from controller.web.protocol import Notice


class PageFingers:
    """Presses on the current table's buttons (see the module docstring): `table` is the
    page's table (None before it opens, another once a table is closed), `now` the loop's time."""

    def __init__(self, table: Callable[[], Table | None], now: Callable[[], float]) -> None:
        self._table, self._now = table, now
        self._pressed: dict[str, asyncio.TimerHandle] = {}  # buttons held down, until released
        self._released_at: dict[str, float] = {}  # when each button last came up (loop time)

    async def press(self, name: str) -> str | Notice | None:
        """A finger on the table's button `name` (`white_main`, `black_cube`, `menu`, or
        `menu_hold` for a long press): the mock pin is driven as a press does, so the
        real button panel debounces it and the menu opens on the display as on the board."""
        table = self._table()
        assert table is not None
        held = name == "menu_hold"
        key = "menu" if held else name
        finger = Finger.on(table)
        if finger is None or table.buttons is None:
            return "this table has no buttons"
        if key not in table.buttons.pins:
            return f"ignored an unknown button {name!r}"
        bounce = table.buttons.bounce_s + 0.005  # a real finger is no faster than this
        pending = self._pressed.pop(key, None)
        if pending is not None:  # pressed again before the last tap came up: lift, then press
            pending.cancel()
            await asyncio.sleep(bounce)  # down long enough to count as a press
            self._release(table, finger, key)
        # up long enough to count as a release: the panel takes a press closer than the bounce
        # time to the last edge for bounce (a quick second click on the page's button was lost)
        since_up = self._now() - self._released_at.get(key, float("-inf"))
        if since_up < bounce:
            await asyncio.sleep(bounce - since_up)
        if table is not self._table():
            return None  # a new match while waiting: this press was for the old table
        finger.down(key)  # main and cube act on the press: the page hears back at once
        self._pressed[key] = asyncio.get_running_loop().call_later(
            LONG_PRESS_S if held else TAP_S, self._release, table, finger, key)
        await asyncio.sleep(0)  # the panel's events are handled on the loop's next turn
        return None  # a refusal answers it (`act`)

    def _release(self, table: Table, finger: Finger, key: str) -> None:
        """The finger comes up (unless that table has been closed since: a new match)."""
        self._pressed.pop(key, None)
        if table is self._table():
            finger.up(key)
            self._released_at[key] = self._now()
