"""The virtual board under the simulator's page: the `PageBoard` the one page of every
table (controller/web/table_page.py) is handed on `bgboard sim`.

What only the simulator has is here: the page's hands lift and place checkers on the
virtual board and help (sim/hands.py, the simulator's one hand), faults are injected into its wire and sensors
(sim/page/faults.py), and the Debug panel shows its sensors and the link's counters. A new
match chosen on the page leaves the board laid out as the match starts, as a person would
set it up on the real board.
"""
from __future__ import annotations

import collections
from collections.abc import Callable, Mapping

from controller.board.profile import Profile
from controller.engine.board_view import CELLS
from controller.engine.match import Match
from controller.json_value import JsonObject
from controller.table import Table
from controller.web.page_actions import Handler
from controller.web.page_debug import debug_view, trim_frames
from controller.web.protocol import PageKind
from sim.hands import Hands
from sim.page.faults import PageFaults
from sim.virtual_board import VirtualBoard


class SimBoard:
    """The virtual board `vb` under the page (a `PageBoard`, see the module docstring);
    `table` is the page's table, `frames` the link's recent frame times (the Debug panel's
    rate), `now` the loop's clock."""

    def __init__(self, vb: VirtualBoard, profile: Profile, *, hands: Hands, faults: PageFaults,
                 table: Callable[[], Table], frames: collections.deque[float], now: Callable[[], float]) -> None:
        self.vb, self.profile, self.hands, self.faults = vb, profile, hands, faults
        self._table, self._frames, self._now = table, frames, now

    @property
    def hand(self) -> list[dict[str, str]]:
        return self.hands.hand

    def actions(self) -> Mapping[PageKind, Handler]:
        """What each of the page's `PHYSICAL` actions does: the hand on the virtual board,
        and its faults."""
        hands = self.hands
        return {
            "lift": lambda a: hands.lift(a.cell or "", a.colour),
            "place": lambda a: hands.place(a.cell or "", a.colour, hits=not a.slide),
            "drop_outside": lambda a: hands.drop_outside(),
            "setup": lambda a: hands.setup(),
            "bot_move": lambda a: hands.bot_move(),
            "undo": lambda a: hands.undo(),
            "auto_step": lambda a: hands.auto_step(a.cell or ""),
            "cover": lambda a: hands.cover(a.cell or ""),
            "fault": lambda a: self.faults.inject(a.name or ""),
        }

    def cells(self) -> dict[str, list[int]]:
        return {c: list(self.vb.counts(c)) for c in CELLS}

    def helpers(self) -> list[str]:
        return self.hands.helpers()

    def hand_back(self) -> None:
        self.hands.hand_back()

    def match_chosen(self, match: Match) -> None:
        self.hands.set_board(match)  # set up as the new match starts (the table reads it over the link)

    def plugged(self) -> bool:
        return self.vb.is_plugged

    def shown(self, view: JsonObject) -> JsonObject:
        """The Debug panel: the sensors, the link's frames and bad SCANs, a running fault."""
        table = self._table()
        trim_frames(self._frames, self._now())
        link = table.link
        return {"debug": debug_view(self.vb.sensors(), self.profile, link, online=table.controller.status().online,
                                    frames=len(self._frames), bad_scans=link.bad_scans if link is not None else 0,
                                    flickering=self.faults.flickering)}
