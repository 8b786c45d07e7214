"""The hub: the night's state on disk and the boards it has paired.

One `step` is the whole job, repeated (`run`): collect every board's finished matches
(each recorded and saved BEFORE the board is told to forget it), pair the next round
when the last is complete, and hand the round's waiting matches to free boards (each
assignment saved before it is sent, and sent again after a restart: the board takes the
same match_id twice as once). Everything the hub knows is in the state file, so a hub
killed at any moment and started again carries on where it was: a result recorded but not
acknowledged is acknowledged, a match assigned but perhaps never sent is sent.

A board that does not answer is skipped until the next step (it keeps its results); a
board that answers wrongly, a stale or forged result: one line in the log, nothing changed
(each line once per board and match, not once per poll).
"""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from club.hub.client import Assignment, BoardClient, BoardProblem, BoardReport, BoardUnreachable, ClientFactory
from club.hub.intake import judge
from club.state import night, store
from club.state.model import Board, ClubState
from controller.outside_text import printable

log = logging.getLogger("bgboard.club")


def utc_now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")


def board_address(link: str) -> tuple[str, str | None]:
    """The board's address (`http://host:port`) and the code in it, from what the director
    typed: the board's page link (`http://10.0.0.5:8080/?token=...`) or its address."""
    parts = urlsplit(link.strip() if "://" in link else f"http://{link.strip()}")
    if parts.scheme != "http" or not parts.hostname or parts.port is None:
        raise night.NightError(f"not a board's address (http://HOST:PORT): {printable(link)[:80]!r}")
    code = parse_qs(parts.query).get("token", [None])[0]
    return f"http://{parts.netloc}", code


class Hub:
    """The hub of one club directory (see the module docstring)."""

    def __init__(self, directory: Path, clients: ClientFactory, *, now: Callable[[], str] = utc_now) -> None:
        self.directory = directory
        self.state: ClubState = store.load(directory)
        self._clients = clients
        self._now = now
        self._told: set[tuple[str, str]] = set()
        self._sent: set[str] = set()  # matches sent to their board by this process

    def commit(self, state: ClubState) -> None:
        """Save `state`, then hold it: what the hub does next may depend on it."""
        store.save(self.directory, state)
        self.state = state

    def client(self, board: Board) -> BoardClient:
        return self._clients(board.address, self.state.hub_id, board.hub_key)

    def _tell(self, board_id: str, line: str) -> None:
        if (board_id, line) not in self._told:
            self._told.add((board_id, line))
            log.warning("board %s: %s", printable(board_id[:40]), line)

    # -- pairing ---------------------------------------------------------------------
    async def pair(self, link: str, code: str | None) -> Board:
        """Pair the board at `link` with the code on its display (or the one in its link)."""
        address, linked = board_address(link)
        code = code or linked
        if not code:
            raise night.NightError("give the code the board's display shows (or its page link)")
        try:
            answer = await self._clients(address, self.state.hub_id, None).pair(code, self.state.hub_id,
                                                                                  self.state.hub_name)
        except BoardUnreachable as exc:
            raise night.NightError(f"no answer from {address}: {exc}") from None
        except BoardProblem as exc:
            raise night.NightError(f"{address}: {exc}") from None
        board = Board(answer.board_id, answer.board_name, address, answer.hub_key)
        self.commit(night.add_board(self.state, board))
        return board

    # -- the job ---------------------------------------------------------------------
    async def step(self) -> None:
        """Collect, pair the next round when due, assign (see the module docstring)."""
        await asyncio.gather(*(self.collect(board) for board in self.state.boards))
        current = self.state.current()
        if current is not None and not night.finished(self.state, current) \
                and current.rounds and current.rounds[-1].finished(night.winners(self.state)):
            self.commit(night.next_round(self.state))
            log.info("round %d paired", len(current.rounds) + 1)
        await self.deliver()

    async def collect(self, board: Board) -> None:
        """Record every acceptable result the board holds, then acknowledge it."""
        try:
            reports = await self.client(board).results()
        except BoardUnreachable:
            return
        except BoardProblem as exc:
            self._tell(board.board_id, f"results: {exc}")
            return
        for report in reports:
            if isinstance(report, BoardProblem):
                self._tell(board.board_id, f"ignored {report}")
                continue
            await self._intake(board, report)
        await self._look_for_abandoned(board)

    async def _look_for_abandoned(self, board: Board) -> None:
        """A match sent to `board` that it no longer plays and holds no result for was
        abandoned there (someone chose New match at the table): a director would have it
        played, so it is sent again (the same players, from the start; the board starts an
        abandoned match again) and the log says so once."""
        sent = {m for m, b in self.state.assignments.items()
                if b == board.board_id and m in self._sent and m not in self.state.results}
        if not sent:
            return
        try:
            status = await self.client(board).status()
        except (BoardUnreachable, BoardProblem):
            return
        assignment = status.get("assignment")
        match_id = assignment.get("match_id") if isinstance(assignment, dict) else None
        if status.get("playing") is False and isinstance(match_id, str) and match_id in sent \
                and not await self._has_result(board, match_id):
            log.warning("board %s: %s was abandoned there (a New match at the table): sent again, from the start",
                        printable(board.name[:40]), match_id)
            self._sent.discard(match_id)

    async def _intake(self, board: Board, report: BoardReport) -> None:
        verdict = judge(self.state, board.board_id, report)
        if verdict.action == "refuse":
            self._tell(board.board_id, f"refused {verdict.line}")
            return
        if verdict.result is not None:
            self.commit(night.record(self.state, verdict.result))  # on disk before the ack
            log.info("board %s: %s", printable(board.name[:40]), verdict.line)
        try:
            await self.client(board).ack(report.match_id)
        except (BoardUnreachable, BoardProblem):
            pass  # acknowledged at the next step: the result is recorded, and counted once

    async def _has_result(self, board: Board, match_id: str) -> bool:
        """Whether the board holds `match_id`'s result: a match that ended between the hub's
        reading of the results and of the status is finished, not abandoned (the next step
        collects it). The board keeps the result before it stops playing."""
        try:
            reports = await self.client(board).results()
        except (BoardUnreachable, BoardProblem):
            return True  # not known now: looked at again at the next step
        return any(not isinstance(r, BoardProblem) and r.match_id == match_id for r in reports)

    async def deliver(self) -> None:
        """Send every assigned match without a result that this process has not sent yet
        (after a restart: all of them, once), then give waiting matches to free boards (a
        board that refused or did not answer gets no other match in this step)."""
        skip: set[str] = set()
        for match_id, board_id in list(self.state.assignments.items()):
            board = self.state.board(board_id)
            if match_id not in self.state.results and match_id not in self._sent and board is not None:
                if not await self._send(board, match_id):
                    skip.add(board_id)
        while True:  # each turn assigns a match or sets a board aside: it ends
            waiting = night.unassigned(self.state)
            free = [b for b in night.free_boards(self.state) if b.board_id not in skip]
            if not waiting or not free:
                return
            match_id = waiting[0][0].match_id
            self.commit(night.assign(self.state, match_id, free[0].board_id))
            if not await self._send(free[0], match_id):
                skip.add(free[0].board_id)

    async def _send(self, board: Board, match_id: str) -> bool:
        """Whether the board took the match (unreachable: it stays assigned, sent again at
        the next step; refused: it waits for another board)."""
        pairing = night.pairing(self.state, match_id)
        found = night.current_round(self.state)
        if pairing is None or found is None:
            return False
        tournament, paired = found
        assignment = Assignment(match_id, pairing.white, pairing.black, tournament.rules_of(paired.number))
        try:
            await self.client(board).assign(assignment)
        except BoardUnreachable:
            return False
        except BoardProblem as exc:
            self._tell(board.board_id, f"refused {match_id}: {exc}: the match waits for another board")
            self.commit(night.unassign(self.state, match_id))
            return False
        self._sent.add(match_id)
        log.info("board %s: %s, %s v %s", printable(board.name[:40]), match_id, printable(pairing.white),
                 printable(pairing.black))
        return True

    async def run(self, stop: asyncio.Event, interval_s: float = 2.0) -> None:
        """`step` every `interval_s` until `stop` is set."""
        while not stop.is_set():
            await self.step()
            try:
                await asyncio.wait_for(stop.wait(), interval_s)
            except asyncio.TimeoutError:
                pass
