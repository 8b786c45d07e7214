"""The local player's commands, held until the server is ready for them.

The table records the person's action at once, but the server takes a command only at its
moment (the steps on our turn with dice, a double before our roll, an answer while our
double waits...), and a connection lost in between can swallow a batch. This module keeps
that timing apart from reading the server: `Outbox` turns the match's records into
commands, holds each batch until its moment is due, and remembers the last batch sent so
that it can be sent again. It sees the server's state and our opening die through two
callables, nothing else of `RemoteOpponent`.
"""
from __future__ import annotations

from collections import deque
from typing import Callable

from controller.engine.match_history import CubeRecord, ResignRecord, TurnRecord
from controller.bgammon import commands
from controller.online.events import GameState
from controller.online.facts import LOCAL


class Outbox:
    """Batches of commands, each with the server's moment it waits for."""

    def __init__(self, server: Callable[[], GameState], opening_rolled: Callable[[], bool]) -> None:
        self._server = server
        self._opening_rolled = opening_rolled
        self.held: deque[tuple[str, list[str]]] = deque()  # (the server's moment, commands)
        self.last_batch: list[str] = []
        # the server as it stood when the last batch was sent: (its moment, board, dice)
        self._last_sent_at: tuple[str, tuple[int, ...], tuple[int, int]] | None = None

    def hold(self, action: object) -> bool:
        """Hold the commands of the local player's action until the server is where the
        table was when the person acted (the engine passes a turn that cannot be played at
        once; the server waits for that player's `ok`). True for a turn of ours."""
        if isinstance(action, TurnRecord) and action.side == LOCAL:
            # a correction first: steps the server holds of an earlier try are taken back
            self.held.append(("moving", [commands.RESET, *(commands.move(s.frm, s.to) for s in action.steps),
                                         commands.OK]))
            return True
        if isinstance(action, CubeRecord) and action.side == LOCAL:
            if action.action == "double":
                self.held.append(("on_roll", [commands.DOUBLE]))
            else:
                self.held.append(("answering", [commands.OK if action.action == "take" else commands.RESIGN]))
        elif isinstance(action, ResignRecord) and action.side == LOCAL and action.action == "offer":
            self.held.append(("our_turn", [commands.RESIGN]))
        return False

    def flush(self) -> list[str]:
        """The held commands whose moment has come on the server, in order."""
        out: list[str] = []
        while self.held and self.due(self.held[0][0]) and self._server().player2.name:
            held = self.held.popleft()
            out.extend(held[1])
            self.sent(*held)
        return out

    def due(self, moment: str) -> bool:
        """The server waits for commands of this moment now."""
        s = self._server()
        return {
            "moving": s.turn == 1 and s.roll1 != 0 and not s.double_offered,
            "on_roll": s.turn == 1 and s.roll1 == 0 and not s.double_offered,
            "answering": s.turn == 2 and s.double_offered,
            "our_turn": s.turn == 1,
            "rolling": self.awaits_roll(),
        }[moment]

    def sent(self, moment: str, batch: list[str]) -> None:
        self.last_batch = batch
        s = self._server()
        self._last_sent_at = (moment, tuple(s.board), (s.roll1, s.roll2))

    def lost(self) -> list[str] | None:
        """The last batch again, when the server shows it did not arrive: the moment it was
        sent for is still due, with the same dice, and the same board (or steps of it the
        server holds, which its leading `reset` takes back)."""
        at, s = self._last_sent_at, self._server()
        if at is None:
            return None
        moment, board, dice = at
        if self.due(moment) and (s.roll1, s.roll2) == dice and (tuple(s.board) == board or bool(s.moves)):
            return self.last_batch
        return None

    def awaits_roll(self) -> bool:
        """The server waits for our `roll` (the opening die, or our turn before the roll)."""
        s = self._server()
        if s.winner or s.double_offered or not s.player2.name:
            return False
        if s.turn == 0:
            return s.roll1 == 0 and not self._opening_rolled()
        return s.turn == 1 and s.roll1 == 0
