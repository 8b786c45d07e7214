"""Check recorded matches move by move and summarise them (what `bgboard replay` prints).

A report says, per file: whether every entry was legal, the match length, the players,
each finished game's winner, points on the board and how it ended, the final score, and
the first problem (`game 3 move 12: 13/7 is not legal for 6-5`).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.errors import RecordError
from controller.records.mat_reader import check_mat
from controller.records.model import MatchRecord
from controller.engine.wording import counted


@dataclass(frozen=True, slots=True)
class GameSummary:
    winner: int
    points: int
    end: str


@dataclass(frozen=True, slots=True)
class ReplayReport:
    """The outcome of replaying one file."""

    file: str
    length: int
    players: tuple[str, ...]
    games: tuple[GameSummary, ...]
    final: tuple[int, ...]
    problem: str | None

    @property
    def ok(self) -> bool:
        return self.problem is None

    def _keys(self) -> list[str]:
        keys = list(self.players)
        if len(keys) == 2 and keys[0] == keys[1]:  # the same name twice: keep both scores
            keys[1] = f"{keys[1]} (2)"
        return keys

    def to_json(self) -> dict[str, Any]:
        """The JSON object of issue 3 item 3 (one per file)."""
        keys = self._keys()
        return {
            "file": self.file,
            "ok": self.ok,
            "length": self.length,
            "players": list(self.players),
            "games": [{"winner": self.players[g.winner], "points": g.points, "end": g.end} for g in self.games],
            "final": {k: s for k, s in zip(keys, self.final)},
            "problem": self.problem,
        }

    def json_line(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False)

    def summary_line(self) -> str:
        """One human line: `FILE: ok, 3 games, A 3 - B 1 (match to 3)`."""
        if not self.players:
            return f"{self.file}: {self.problem}"
        a, b = self.players
        score = f"{a or '?'} {self.final[0]} - {b or '?'} {self.final[1]}"
        length = f"match to {self.length}" if self.length else "money play"
        head = "ok" if self.ok else "PROBLEM"
        return f"{self.file}: {head}, {counted(len(self.games), 'game')}, {score} ({length})"

    def problem_line(self) -> str:
        """The one line that names the file, game and move of the problem."""
        return f"{self.file}: {self.problem}"


def report_from_record(name: str, record: MatchRecord, problem: str | None) -> ReplayReport:
    games = tuple(GameSummary(g.winner, g.points, g.end or "")
                  for g in record.games if g.winner is not None)
    return ReplayReport(name, record.length, record.players, games, record.final_score, problem)


def replay_text(text: str, name: str = "-") -> ReplayReport:
    """Replay a `.mat` text; never raises for bad content (it becomes the problem)."""
    try:
        record, problem = check_mat(text)
    except RecordError as exc:
        return ReplayReport(name, 0, (), (), (), str(exc))
    return report_from_record(name, record, str(problem) if problem else None)


#: bytes read of one file at most: the longest of 1,464 real records is 21 KB, so a file
#: past this is not a match record, and reading stops there (memory stays bounded)
MAX_BYTES = 4 * 1024 * 1024


def replay_file(path: str | Path) -> ReplayReport:
    """Replay a file. Raises OSError when it cannot be read; undecodable bytes are kept as
    replacement characters so that a damaged file is reported at its damaged move."""
    with open(path, "rb") as handle:
        data = handle.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        return ReplayReport(str(path), 0, (), (), (),
                            f"larger than {MAX_BYTES // (1024 * 1024)} MB: not a match record")
    return replay_text(data.decode("utf-8", errors="replace").lstrip("\ufeff"), str(path))
