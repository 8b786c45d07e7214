"""An in-memory board that follows the club protocol v1 (the lead's contract) to the letter,
for the hub's tests: pairing by the display's code, 403 without the hub's key, 409 when
paired to another hub or busy with another club match, results kept until acknowledged,
and `finish` playing the assigned match to the winner asked for, with a real `.mat` record
written by the engine (so the hub's replay check is the real one)."""
from __future__ import annotations

import random
import secrets
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from club.hub.client import (Assignment, BoardProblem, BoardReport, BoardUnreachable, PairAnswer,
                             reports_of)
from club.state.names import name_problem
from controller.engine.board_view import other
from controller.engine.match import Match
from controller.engine.match_settings import MatchSettings
from controller.json_value import JsonObject
from controller.records.from_match import record_from_match
from controller.records.mat_writer import write_mat


def decided_match(white: str, black: str, length: int, winner: str, seed: int = 0) -> Match:
    """A legal match to `length` that `winner` ("white" or "black") wins: the loser resigns
    a single game whenever it is his turn to roll."""
    rng = random.Random(seed)
    m = Match.new(MatchSettings(length=length, white=white, black=black))
    loser = other(winner)  # type: ignore[arg-type]
    while not m.is_over:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        if m.phase == "opening":
            m = m.roll("white", dice).match
        elif m.phase == "roll":
            assert m.turn is not None
            m = (m.resign(m.turn, "single") if m.turn == loser else m.roll(m.turn, dice)).match
        elif m.phase == "resigning":
            assert m.turn is not None
            m = m.accept(other(m.turn)).match
        else:
            assert m.turn is not None and m.phase == "move"
            m = m.play(m.turn, rng.choice(m.legal_moves())).match
    return m


@dataclass
class FakeBoard:
    name: str
    address: str
    code: str = field(default_factory=lambda: secrets.token_urlsafe(12))
    board_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    hub_id: str | None = None
    hub_key: str | None = None
    hub_name: str = ""
    assignment: JsonObject | None = None
    finished: list[JsonObject] = field(default_factory=list)
    reachable: bool = True
    assigned_log: list[str] = field(default_factory=list)
    abandoned: bool = False  # its club match replaced at the table (a New match there)

    def finish(self, winner: str, seed: int = 0) -> JsonObject:
        """The assigned match played to its end, `winner` ("white"/"black") winning."""
        a = self.assignment
        assert a is not None, f"{self.name} has no match"
        m = decided_match(str(a["white"]), str(a["black"]), int(str(a["length"])), winner, seed)
        result: JsonObject = {"match_id": a["match_id"], "white": a["white"], "black": a["black"],
                              "length": a["length"], "score": list(m.score), "winner": winner,
                              "record": write_mat(record_from_match(m)), "finished_at": "2026-12-07T21:00:00Z"}
        self.finished.append(result)
        self.assignment = None
        return result

    def new_page_links(self) -> None:
        """The board's "New page links": a new code, and the hub forgotten."""
        self.code, self.hub_id, self.hub_key = secrets.token_urlsafe(12), None, None


class FakeClient:
    """The hub's `BoardClient` onto a `FakeBoard`, as HTTP would carry it."""

    def __init__(self, board: FakeBoard, hub_id: str, hub_key: str | None) -> None:
        self.board, self.hub_id, self.hub_key = board, hub_id, hub_key

    def _door(self) -> FakeBoard:
        if not self.board.reachable:
            raise BoardUnreachable("connection refused")
        b = self.board
        if b.hub_key is None or self.hub_key != b.hub_key or self.hub_id != b.hub_id:
            raise BoardProblem("refused: not the paired club hub", 403)
        return b

    async def pair(self, code: str, hub_id: str, hub_name: str) -> PairAnswer:
        b = self.board
        if not b.reachable:
            raise BoardUnreachable("connection refused")
        if code != b.code:
            raise BoardProblem("refused: wrong code", 403)
        if b.hub_id is not None and b.hub_id != hub_id:
            raise BoardProblem(f"refused: this board is paired to another club hub ({b.hub_name}): "
                               "New page links on the board frees it", 409)
        b.hub_id, b.hub_key, b.hub_name = hub_id, secrets.token_urlsafe(32), hub_name
        return PairAnswer(b.board_id, b.name, b.hub_key)

    async def status(self) -> JsonObject:
        b = self._door()
        return {"board_id": b.board_id, "board_name": b.name, "assignment": b.assignment,
                "playing": b.assignment is not None and not b.abandoned, "live": {}}

    async def assign(self, assignment: Assignment) -> None:
        b = self._door()
        body = assignment.body()
        for key in ("white", "black"):
            problem = name_problem(str(body[key]))
            if problem is not None:
                raise BoardProblem(problem, 400)
        if b.assignment is not None and not b.abandoned:
            if b.assignment["match_id"] == body["match_id"]:
                return
            raise BoardProblem("refused: a club match is under way", 409)
        b.assignment, b.abandoned = body, False
        b.assigned_log.append(assignment.match_id)

    async def results(self) -> list[BoardReport | BoardProblem]:
        return reports_of({"results": list(self._door().finished)})

    async def ack(self, match_id: str) -> None:
        b = self._door()
        b.finished = [r for r in b.finished if r["match_id"] != match_id]

    async def live(self) -> AsyncIterator[JsonObject]:
        yield {"board": self._door().name}


class FakeBoards:
    """Boards by address, and the hub's client factory onto them."""

    def __init__(self, count: int) -> None:
        self.boards = [FakeBoard(f"Table {i + 1}", f"http://10.0.0.{i + 1}:8080") for i in range(count)]
        self.by_address = {b.address: b for b in self.boards}

    def client(self, address: str, hub_id: str, hub_key: str | None) -> FakeClient:
        return FakeClient(self.by_address[address], hub_id, hub_key)
