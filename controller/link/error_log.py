"""The board's ERROR frames in the log: each code at most once every few seconds.

A board that sends ERROR frames without pause (a hostile or broken board: 12,800 lines in
5 s, 690 KB, from a flood at 640 KB/s) would fill the log and the Pi's journal. The first
error of a code is logged at once; the same code again within `every_s` is counted, and
the next line logged for it says how many were not.
"""
from __future__ import annotations

import logging

from controller.link.board_events import BoardErrorReport

ERROR_LOG_S = 5.0


class BoardErrorLog:
    """Logs board errors to `log`, each code at most once every `every_s` (board time: the
    reports' own `at`)."""

    def __init__(self, log: logging.Logger, every_s: float = ERROR_LOG_S) -> None:
        self.log = log
        self.every_s = every_s
        self._told: dict[int, float] = {}
        self._muted: dict[int, int] = {}

    def tell(self, report: BoardErrorReport) -> bool:
        """Log `report` unless its code was logged within `every_s`; whether it was."""
        told = self._told.get(report.code)
        if told is not None and 0 <= report.at - told < self.every_s:
            self._muted[report.code] = self._muted.get(report.code, 0) + 1
            return False
        self._told[report.code] = report.at
        muted = self._muted.pop(report.code, 0)
        more = f" ({muted:,} more of error {report.code} not logged since the last)" if muted else ""
        self.log.warning("%s%s", report.line, more)
        return True
