"""The board session's events as the controller's events: one adapter for every front end.

    feed = BoardFeed()
    session = BoardSession(port, profile, on_event=lambda e: [table.dispatch(x) for x in feed.events(e)])

- a `BoardReading` becomes `ReadingReceived(board)` (its `BoardState` carries the faulty
  cells, which the scene shows as `error` with "sensor fault at 13");
- a `BoardStatus` becomes `LinkChanged(online=is_playing, prompt=...)`: the display
  says "Wrong board: profile 14x13, board 12x12" or "Board cannot read its sensors";
- a `BoardErrorReport` (other than a scan failure, whose status follows) shows "Board
  error 3: restarted by the watchdog" for `error_shown_s`, then the readings clear it.
"""
from __future__ import annotations

from controller.events import Event, LinkChanged, ReadingReceived
from controller.link.board_events import BoardErrorReport, BoardEvent, BoardReading, BoardStatus
from controller.link.codec import ErrorCode
from controller.show.scene import board_status_prompt


class BoardFeed:
    """Translates board events for the controller; keeps only what an ERROR's display
    line needs (when it was shown, whether the session plays)."""

    def __init__(self, error_shown_s: float = 5.0) -> None:
        self.error_shown_s = error_shown_s
        self._playing = False
        self._error_at: float | None = None

    def events(self, event: BoardEvent) -> list[Event]:
        if isinstance(event, BoardReading):
            out: list[Event] = []
            if self._error_at is not None and event.at - self._error_at >= self.error_shown_s:
                self._error_at = None
                out.append(LinkChanged(True, event.at, "board error shown long enough"))
            out.append(ReadingReceived(event.board, event.at))
            return out
        if isinstance(event, BoardStatus):
            self._playing = event.is_playing
            self._error_at = None
            return [LinkChanged(event.is_playing, event.at, event.detail,
                                board_status_prompt(event))]
        if isinstance(event, BoardErrorReport):
            if event.code == ErrorCode.SCAN:
                return []  # the session's SCAN_FAILING status says it, and says it longer
            self._error_at = event.at
            return [LinkChanged(self._playing, event.at, event.line, board_status_prompt(event))]
        return []
