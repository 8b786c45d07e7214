"""What the web server needs from the page it serves.

The server knows nothing of the controller's insides: it asks a `PageBackend` for
snapshots and hands it checked page actions. The one page of every table implements it
(controller/web/table_page.py: the phone's board page, and the simulator's, sim/page/live.py,
on the real stack: virtual board with the firmware code, pseudo-terminal, link, controller);
the spectators' page and a watched match's are read-only ones.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from controller.json_value import JsonObject
from controller.web.protocol import Answer, Notice, PageAction


class NoRecord(Exception):
    """This page keeps no match record (a watched match: the server keeps it); the
    server answers 404 with the reason, one line."""


class PageBackend(Protocol):
    """A table (or a watched match), as the page sees it."""

    def snapshot(self) -> JsonObject:
        """Everything the page draws: board cells, hand, LEDs, display version, match,
        debug figures (JSON-serialisable)."""

    def display_png(self) -> bytes:
        """The display's current frame as PNG, pixel for pixel what the OLED shows."""

    def match_record(self) -> str:
        """The match so far in the `.mat` text format (NoRecord: this page keeps none)."""

    def review_json(self) -> JsonObject:
        """The match's review (games, players, winning-chance series, marked decisions)."""

    async def act(self, action: PageAction) -> Answer:
        """Carry out a page action; return a notice for the user, or None."""

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call `callback` whenever the snapshot may have changed; returns unsubscribe."""

    def on_notice(self, callback: Callable[[Notice], None]) -> Callable[[], None]:
        """Call `callback(notice)` for a notice no page action asked for (the computer
        failing in its worker: controller.web.refusals); returns unsubscribe."""
