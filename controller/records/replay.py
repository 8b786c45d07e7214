"""Check recorded matches move by move and summarise them (what `bgboard replay` prints).

A report says, per file: whether every entry was legal, the match length, the players,
each finished game's winner, points on the board and how it ended, the final score, and
the first problem (`game 3 move 12: 13/7 is not legal for 6-5`). Every stated result and
game header score is held against what happened (`results.py`). A record whose last game
stops in the middle is a match in progress (as the page's Download .mat writes one during
play): it replays as such, at that game and move, the way GNU Backgammon imports it.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from controller.errors import RecordError
from controller.json_value import JsonObject
from controller.outside_text import printable
from controller.files import MAX_BYTES, FileTooLarge, read_bounded
from controller.records.mat_reader import UNFINISHED, Problem, check_entries, parse_mat
from controller.records.model import MatchRecord
from controller.records.results import stated_result_problem
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
    #: (game, move) where a record of a match in progress stops, else None
    in_progress: tuple[int, int] | None = None

    @property
    def ok(self) -> bool:
        return self.problem is None

    def _keys(self) -> list[str]:
        keys = list(self.players)
        if len(keys) == 2 and keys[0] == keys[1]:  # the same name twice: keep both scores
            keys[1] = f"{keys[1]} (2)"
        return keys

    def to_json(self) -> JsonObject:
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
            "in_progress": None if self.in_progress is None else
            {"game": self.in_progress[0], "move": self.in_progress[1]},
        }

    def json_line(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False)

    def summary_line(self) -> str:
        """One human line: `FILE: ok, 3 games, A 3 - B 1 (match to 3)`."""
        if not self.players:
            return f"{printable(self.file)}: {self.problem}"
        a, b = self.players
        score = f"{a or '?'} {self.final[0]} - {b or '?'} {self.final[1]}"
        length = f"match to {self.length}" if self.length else "money play"
        head = "ok" if self.ok else "PROBLEM"
        if self.ok and self.in_progress is not None:
            head = f"in progress at game {self.in_progress[0]} move {self.in_progress[1]}"
        return f"{printable(self.file)}: {head}, {counted(len(self.games), 'game')}, {score} ({length})"

    def problem_line(self) -> str:
        """The one line that names the file, game and move of the problem."""
        return f"{printable(self.file)}: {self.problem}"


def report_from_record(name: str, record: MatchRecord, problem: str | None,
                       in_progress: tuple[int, int] | None = None) -> ReplayReport:
    games = tuple(GameSummary(g.winner, g.points, g.end or "")
                  for g in record.games if g.winner is not None)
    return ReplayReport(name, record.length, record.players, games, record.final_score, problem, in_progress)


def _checked(text: str) -> tuple[MatchRecord, Problem | None, tuple[int, int] | None]:
    """Replay the moves, then the stated results; a last game cut short is in progress."""
    raw = parse_mat(text)
    record, problem = check_entries(raw)
    in_progress = None
    if problem is not None and problem.reason == UNFINISHED and len(record.games) == len(raw.games):
        in_progress, problem = (problem.game, problem.move), None
    if problem is None:
        problem = stated_result_problem(raw, record)
    return record, problem, in_progress


def replay_text(text: str, name: str = "-") -> ReplayReport:
    """Replay a `.mat` text; never raises for bad content (it becomes the problem)."""
    try:
        record, problem, in_progress = _checked(text)
    except RecordError as exc:
        return ReplayReport(name, 0, (), (), (), str(exc))
    return report_from_record(name, record, str(problem) if problem else None, in_progress)


def read_record(path: str | Path) -> str:
    """A record's text (bounded: ``files.read_bounded``); undecodable bytes are kept as
    replacement characters so that a damaged file is reported at its damaged move.
    OSError when it cannot be read, FileTooLarge past the bound."""
    return read_bounded(path).decode("utf-8", errors="replace").lstrip("\ufeff")


def too_large(exc: FileTooLarge) -> str:
    """The problem of a file past the bound, for every command that reads records
    (replay, analyze, verify-dice): bad input, exit 2, as any file that is not a record."""
    return f"{exc.strerror}: not a match record"


def replay_file(path: str | Path) -> ReplayReport:
    """Replay a file. Raises OSError when it cannot be read; a file past the bound is not
    a match record (its problem)."""
    try:
        text = read_record(path)
    except FileTooLarge as exc:
        return ReplayReport(str(path), 0, (), (), (), too_large(exc))
    return replay_text(text, str(path))
