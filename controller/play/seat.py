"""What every job of the controller reads of the table: the common part of their seats.

Each job (controller/play/*.py) reads the table through a narrow Protocol of its own, its
"seat"; most of them need the match, the controller's time, the move being carried out,
whether the board is being set up, and who plays a side. Those are declared here once;
a job's seat adds what only it reads.
"""
from __future__ import annotations

from typing import Protocol

from controller.engine.board_view import Colour
from controller.engine.match import Match
from controller.play.status import BotPlan


class MatchSeat(Protocol):
    """The match at the table, as the jobs read it."""

    @property
    def match(self) -> Match: ...
    @property
    def now(self) -> float: ...
    @property
    def bot(self) -> BotPlan | None: ...
    @property
    def setting_up(self) -> bool: ...
    def player(self, side: Colour) -> str: ...
