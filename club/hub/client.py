"""What the hub asks of a board, as a small typed interface (`BoardClient`), and the
contract's bodies as values.

Production talks HTTP to the board's `/club/v1/` (`club.hub.http_client`); the tests hand
the hub an in-memory board that follows the same contract. A board's answer is read here
into typed values, field by field: whatever a board sends that is not the contract's shape
is a `BoardProblem` (one line), never a KeyError deep inside the hub.
"""
from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Protocol

from club.state.model import Side
from club.tournament.model import RoundRules
from controller.json_value import JsonObject


class BoardProblem(Exception):
    """A board that answered, but not as the contract says (or refused: `status`)."""

    def __init__(self, line: str, status: int | None = None) -> None:
        super().__init__(line)
        self.status = status


class BoardUnreachable(Exception):
    """No answer from the board (off the network, restarting): try again later."""


@dataclass(frozen=True, slots=True)
class PairAnswer:
    board_id: str
    board_name: str
    hub_key: str


@dataclass(frozen=True, slots=True)
class Assignment:
    """The body of `POST /club/v1/assign`."""

    match_id: str
    white: str
    black: str
    rules: RoundRules

    def body(self) -> JsonObject:
        clock = self.rules.clock
        return {"match_id": self.match_id, "white": self.white, "black": self.black, "length": self.rules.length,
                "clock": None if clock is None else {"minutes": clock.minutes, "delay_s": clock.delay_s},
                "crawford": self.rules.crawford}


@dataclass(frozen=True, slots=True)
class BoardReport:
    """One entry of `GET /club/v1/results`."""

    match_id: str
    white: str
    black: str
    length: int
    score: tuple[int, int]
    winner: Side
    record: str
    finished_at: str


class BoardClient(Protocol):
    """One board, as the hub talks to it (every call but `pair` carries the hub's key)."""

    async def pair(self, code: str, hub_id: str, hub_name: str) -> PairAnswer: ...

    async def status(self) -> JsonObject: ...

    async def assign(self, assignment: Assignment) -> None: ...

    async def results(self) -> list[BoardReport | BoardProblem]: ...

    async def ack(self, match_id: str) -> None: ...

    def live(self) -> AsyncIterator[JsonObject]: ...


#: a client for the board at `address` (`http://host:port`), with the hub's id and key
#: (None before pairing)
ClientFactory = Callable[[str, str, str | None], BoardClient]


def pair_answer(payload: object) -> PairAnswer:
    if not isinstance(payload, dict):
        raise BoardProblem("the board's pairing answer is not a JSON object")
    fields = [payload.get(k) for k in ("board_id", "board_name", "hub_key")]
    if not all(isinstance(f, str) and f for f in fields):
        raise BoardProblem("the board's pairing answer lacks board_id, board_name or hub_key")
    board_id, board_name, hub_key = (str(f) for f in fields)
    return PairAnswer(board_id, board_name, hub_key)


def report_of(entry: object) -> BoardReport | BoardProblem:
    """One result entry read field by field (a `BoardProblem` naming what is wrong)."""
    if not isinstance(entry, dict):
        return BoardProblem("a result that is not a JSON object")
    text = {k: entry.get(k) for k in ("match_id", "white", "black", "record", "finished_at", "winner")}
    if not all(isinstance(v, str) for v in text.values()):
        return BoardProblem(f"a result without its texts (match {str(entry.get('match_id'))[:40]!r})")
    length, score = entry.get("length"), entry.get("score")
    if not isinstance(length, int) or not (isinstance(score, list) and len(score) == 2
                                           and all(isinstance(s, int) for s in score)):
        return BoardProblem(f"a result without its length or score ({str(text['match_id'])[:40]!r})")
    winner = text["winner"]
    if winner not in ("white", "black"):
        return BoardProblem(f"a result whose winner is {str(winner)[:20]!r}")
    side: Side = "white" if winner == "white" else "black"
    return BoardReport(str(text["match_id"]), str(text["white"]), str(text["black"]), length,
                       (int(score[0]), int(score[1])), side, str(text["record"]), str(text["finished_at"]))


def reports_of(payload: object) -> list[BoardReport | BoardProblem]:
    if not isinstance(payload, dict) or not isinstance(payload.get("results"), list):
        return [BoardProblem("the board's results are not {\"results\": [...]}")]
    return [report_of(entry) for entry in payload["results"]]
