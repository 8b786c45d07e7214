"""What a board keeps of its club (issue 36, ../notes/club-contract.md): its own id, the hub
it is paired to and that hub's key, the club match assigned to it, and the results the hub
has not yet acknowledged.

Everything lives in `<state dir>/club/`, one small JSON file each, written whole or not at
all (`write_atomically`): a board pulled from the power at any moment keeps its pairing,
its assignment and every result until the hub acknowledges it, which is the point of a
result kept on the board (a board cut off from the network reports when it is back).

Bad input from a hub is checked here, before anything changes: `ClubRefusal` carries the
HTTP status and the one line the hub is told.
"""
from __future__ import annotations

import json
import logging
import unicodedata
import uuid
from dataclasses import dataclass
from pathlib import Path

from controller.engine.match_settings import MAX_CLOCK_MINUTES
from controller.files import read_bounded, write_atomically
from controller.json_value import JsonObject
from controller.outside_text import printable

log = logging.getLogger("bgboard")

#: a club match's length on the board (the contract's range; the hub asks for nothing longer)
MAX_CLUB_LENGTH = 25
MAX_NAME = 40
MAX_HUB_TEXT = 80
#: the longest delay a hub may give a clock (its minutes: MatchSettings' own limit)
MAX_DELAY_S = 60


class ClubRefusal(Exception):
    """A hub's request refused: `status` (400 bad input, 403 not this hub, 409 not now) and
    one line to tell it; nothing was changed."""

    def __init__(self, status: int, line: str) -> None:
        super().__init__(line)
        self.status = status
        self.line = line


def _bad(line: str) -> ClubRefusal:
    return ClubRefusal(400, line)


def _shown(value: object) -> str:
    return printable(str(value))[:40]


def check_text(value: object, what: str, limit: int) -> str:
    """One line of 1..`limit` printable characters (a name, a hub's name or id)."""
    if not isinstance(value, str):
        raise _bad(f"bad {what}: expected text, got {type(value).__name__}")
    if any(unicodedata.category(c)[0] == "C" or c in "\u2028\u2029" for c in value):
        raise _bad(f"bad {what} {_shown(value)!r}: no control characters")
    if not value.strip() or len(value) > limit:
        raise _bad(f"bad {what} {_shown(value)!r}: 1 to {limit} printable characters")
    return value


def _name(value: object, what: str) -> str:
    """A player's name as the match record can carry it: no colon (a `.mat` score line is
    `name : points`, and `Ann: 2` read back as a score of 2)."""
    name = check_text(value, what, MAX_NAME)
    if ":" in name:
        raise _bad(f"bad {what} {_shown(name)!r}: no ':' (the match record's score line cannot carry it)")
    return name


def _whole(value: object, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _bad(f"bad {what} {_shown(value)!r}: a whole number from {low} to {high}")
    return value


@dataclass(frozen=True)
class ClubClock:
    """The clock a hub asks for: each player's minutes and the delay of every action."""

    minutes: int
    delay_s: int

    def to_json(self) -> JsonObject:
        return {"minutes": self.minutes, "delay_s": self.delay_s}


@dataclass(frozen=True)
class Assignment:
    """A club match as the hub assigns it (`POST /club/v1/assign`'s body)."""

    match_id: str
    white: str
    black: str
    length: int
    clock: ClubClock | None
    crawford: bool

    def to_json(self) -> JsonObject:
        return {"match_id": self.match_id, "white": self.white, "black": self.black, "length": self.length,
                "clock": None if self.clock is None else self.clock.to_json(), "crawford": self.crawford}

    @classmethod
    def parse(cls, data: object) -> Assignment:
        """The body checked field by field (ClubRefusal 400 naming the first bad one)."""
        if not isinstance(data, dict):
            raise _bad("the assignment must be a JSON object")
        unknown = set(data) - {"match_id", "white", "black", "length", "clock", "crawford"}
        if unknown:
            raise _bad(f"unknown field {_shown(min(unknown))!r} in the assignment")
        clock = data.get("clock")
        if clock is not None:
            if not isinstance(clock, dict) or set(clock) != {"minutes", "delay_s"}:
                raise _bad("bad clock: null or {\"minutes\": int, \"delay_s\": int}")
            clock = ClubClock(_whole(clock["minutes"], "clock minutes", 1, MAX_CLOCK_MINUTES),
                              _whole(clock["delay_s"], "clock delay_s", 0, MAX_DELAY_S))
        crawford = data.get("crawford")
        if not isinstance(crawford, bool):
            raise _bad("bad crawford: true or false")
        return cls(check_text(data.get("match_id"), "match_id", MAX_HUB_TEXT),
                   _name(data.get("white"), "white name"), _name(data.get("black"), "black name"),
                   _whole(data.get("length"), "length", 1, MAX_CLUB_LENGTH), clock, crawford)


@dataclass(frozen=True)
class PairedHub:
    """The hub this board takes orders from."""

    hub_id: str
    hub_name: str
    hub_key: str

    def to_json(self) -> JsonObject:
        return {"hub_id": self.hub_id, "hub_name": self.hub_name, "hub_key": self.hub_key}


@dataclass(frozen=True)
class ClubMatch:
    """The assignment this board plays, and whether its result is kept (`finished`) or the
    match was replaced at the table before its end (`abandoned`)."""

    assignment: Assignment
    state: str = "playing"  # playing, finished, abandoned

    def to_json(self) -> JsonObject:
        return {"assignment": self.assignment.to_json(), "state": self.state}


class ClubStore:
    """The files of `<state dir>/club/` (see the module docstring)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.board_id = self._board_id()
        self.hub = self._hub()
        self.match = self._match()
        self.results: list[JsonObject] = self._results()

    # -- reading ------------------------------------------------------------------------
    def _read(self, name: str) -> JsonObject | None:
        """A file's object, or None when it is missing or unreadable (said in one line)."""
        path = self.directory / name
        try:
            data = json.loads(read_bounded(path))
        except FileNotFoundError:
            return None
        except (OSError, ValueError, RecursionError) as exc:
            log.warning("club: ignoring %s: %s", path, str(exc)[:120])
            return None
        return data if isinstance(data, dict) else None

    def _board_id(self) -> str:
        data = self._read("board.json")
        if data is not None and isinstance(data.get("board_id"), str):
            return str(data["board_id"])
        board_id = str(uuid.uuid4())
        self._write("board.json", {"board_id": board_id})
        return board_id

    def _hub(self) -> PairedHub | None:
        data = self._read("hub.json")
        try:
            return None if data is None else PairedHub(str(data["hub_id"]), str(data["hub_name"]), str(data["hub_key"]))
        except KeyError:
            return None

    def _match(self) -> ClubMatch | None:
        data = self._read("match.json")
        if data is None:
            return None
        try:
            return ClubMatch(Assignment.parse(data.get("assignment")), str(data.get("state", "playing")))
        except ClubRefusal as exc:
            log.warning("club: ignoring the saved assignment: %s", exc.line)
            return None

    def _results(self) -> list[JsonObject]:
        data = self._read("results.json")
        results = [] if data is None else data.get("results")
        return [r for r in results if isinstance(r, dict)] if isinstance(results, list) else []

    # -- writing (each whole or not at all; OSError when it cannot be) -------------------
    def _write(self, name: str, data: JsonObject | None) -> None:
        path = self.directory / name
        if data is None:
            path.unlink(missing_ok=True)
        else:
            write_atomically(path, json.dumps(data, ensure_ascii=False), mode=0o600)

    def pair(self, hub: PairedHub | None) -> None:
        self._write("hub.json", None if hub is None else hub.to_json())
        self.hub = hub

    def keep_match(self, match: ClubMatch | None) -> None:
        self._write("match.json", None if match is None else match.to_json())
        self.match = match

    def add_result(self, result: JsonObject) -> None:
        """Keep a finished club match's result (one per match_id)."""
        kept = [r for r in self.results if r.get("match_id") != result["match_id"]] + [result]
        self._write("results.json", {"results": list(kept)})
        self.results = kept

    def acknowledge(self, match_id: str) -> bool:
        """Forget that result (only that one); whether it was held."""
        kept = [r for r in self.results if r.get("match_id") != match_id]
        if len(kept) == len(self.results):
            return False
        self._write("results.json", {"results": list(kept)})
        self.results = kept
        return True


#: where the club's calls are served on the board's web server (club_door.py)
CLUB_PATH = "/club/v1/"
