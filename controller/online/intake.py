"""The server's facts into the table, each when the table has caught up with it.

`RemoteOpponent` reads the server and notes facts; this module is the other half: it turns
the next fact into the events that bring it in (as the computer's answers enter: `BotMoved`
for the remote player's move, `RemoteActed` for rolls, cube and resignations), waits while
the table is not ready, and stops play when the engine refuses what the server says. Kept
apart because it only reads the table's status and the fact queue: it gets the queue,
`stop` and the opponent's name injected, never the opponent itself. The server's dice enter
as `ServerRolled` before the roll they are for.
"""
from __future__ import annotations

from collections import deque
from dataclasses import replace
from typing import Callable

from controller.engine.match import Match
from controller.events import ActionRequested, BotMoved, Event, RemoteActed, ServerRolled
from controller.play.status import TableStatus
from controller.bgammon import commands
from controller.online.facts import (LOCAL, REMOTE, DiceRolled, Fact, OpeningRolled, Reaction, RemoteCube,
                                     RemoteMoved, RemoteResigned, ScoreCheck)
from controller.online.perspective import board_of_position, position_of_board
from controller.online.scoring import as_server_scored


def before_the_roll(m: Match) -> Match:
    """The match as it was before the side on turn rolled: a roll is recorded only with
    the move played, so the history is already that of the moment before it."""
    return replace(m, phase="roll", dice=None, steps=(), partial=m.position)


class Intake:
    """Feeds `facts` (shared with the opponent, who appends them) to the table."""

    def __init__(self, facts: deque[Fact], stop: Callable[[str, Reaction], None],
                 opponent: Callable[[], str]) -> None:
        self.facts = facts
        self._stop = stop
        self._opponent = opponent
        self._inflight: tuple[Fact, Match, object] | None = None
        self.refused = 0  # server moves the engine refused

    def feed(self, c: TableStatus, out: Reaction) -> None:
        """Feed the facts the table is ready for, one at a time (each waits for the
        table to take it, or to refuse it in a state that must change first)."""
        while self.facts:
            fact = self.facts[0]
            flight = self._inflight
            state = (c.board, c.setting_up, c.verdict)
            if flight is not None and flight[0] is fact:
                if c.match is not flight[1] or (isinstance(fact, RemoteMoved) and c.carried_out is not None):
                    self.facts.popleft()
                    self._inflight = None
                    continue
                if flight[2] == state:
                    return  # refused in this very state: wait for a change (the board set right)
            found = self._events_for(fact, c, out)
            if found is None:
                return  # the table has not caught up yet
            if not found:
                if self.facts and self.facts[0] is fact:
                    self.facts.popleft()
                continue
            out.events.extend(found)
            self._inflight = (fact, c.match, state)
            return

    def _events_for(self, fact: Fact, c: TableStatus, out: Reaction) -> list[Event] | None:
        """The table events that bring `fact` in; None when the table is not ready for it
        yet, [] when it needs nothing (or was refused: then play has stopped)."""
        if isinstance(fact, OpeningRolled):
            return self._opening_roll(fact, c)
        if isinstance(fact, DiceRolled):
            return self._roll(fact, c.match, c.now)
        if isinstance(fact, RemoteMoved):
            return self._remote_move(fact, c, out)
        if isinstance(fact, RemoteCube):
            return self._cube(fact, c.match, c.now)
        if isinstance(fact, RemoteResigned):
            return self._resignation(fact, c.match, c.now, out)
        return self._score_check(fact, c.match, out)

    @staticmethod
    def _opening_roll(fact: OpeningRolled, c: TableStatus) -> list[Event] | None:
        """The opening dice, once the table is at the opening and not being set up."""
        if c.match.phase != "opening" or c.setting_up:
            return None
        return [ServerRolled(fact.dice, c.now), ActionRequested(LOCAL, "roll", c.now)]

    @staticmethod
    def _roll(fact: DiceRolled, m: Match, now: float) -> list[Event] | None:
        """A turn's dice, once the table waits for that side to roll: ours as our roll,
        the remote player's as theirs."""
        if m.phase != "roll" or m.turn != fact.side:
            return None
        return [ServerRolled(fact.dice, now), ActionRequested(LOCAL, "roll", now) if fact.side == LOCAL else RemoteActed(REMOTE, "roll", now)]

    def _cube(self, fact: RemoteCube, m: Match, now: float) -> list[Event] | None:
        """A double, take, drop, accept or rematch of the remote player, unless the table
        has already done it by itself."""
        if fact.action == "accept" and m.phase in ("opening", "over") and m.rematch_offer is None:
            return []  # our backgammon resignation: the engine accepted it at once
        if fact.action == "rematch" and not m.is_over:
            return []  # the new match has begun already
        event = self._cube_event(fact, m, now)
        return None if event is None else [event]

    @staticmethod
    def _resignation(fact: RemoteResigned, m: Match, now: float, out: Reaction) -> list[Event] | None:
        """The remote player resigns on their turn; we accept at once unless it is a
        backgammon (the engine accepts that one by itself)."""
        if m.turn != REMOTE or m.phase not in ("roll", "move"):
            return None
        if m.phase == "move":
            # the server lets a player resign after rolling, the rule book only before:
            # the server is the truth, so the unplayed roll is taken back first
            out.adopt = before_the_roll(m)
        events: list[Event] = [RemoteActed(REMOTE, "resign", now, fact.level)]
        if fact.level != "backgammon":
            events.append(ActionRequested(LOCAL, "accept", now))
        return events

    def _score_check(self, fact: ScoreCheck, m: Match, out: Reaction) -> list[Event] | None:
        """After the table's game has ended too, the server's score must be the board's,
        or the board's scored the server's way (a drop); otherwise play stops."""
        if m.phase not in ("opening", "over"):
            return None
        scored = as_server_scored(m, fact.score) if m.score != fact.score else None
        if scored is not None:  # the server scored a drop its own way: the record is kept
            out.adopt = scored
            out.notes.append(f"the server's score {fact.score[0]}-{fact.score[1]}: "
                             f"{scored.history[-1 if scored.is_over else -2].end.note}")  # type: ignore[union-attr]
        elif m.score != fact.score:
            self._stop(f"the server's score {fact.score[0]}-{fact.score[1]} differs from the "
                       f"board's {m.score[0]}-{m.score[1]}", out)
            out.commands.append(commands.BOARD)
        return []

    @staticmethod
    def _cube_event(fact: RemoteCube, m: Match, now: float) -> Event | None:
        if fact.action == "double" and m.phase == "roll" and m.turn == REMOTE:
            return RemoteActed(REMOTE, "double", now)
        if fact.action in ("take", "drop") and m.phase == "doubled" and m.turn == LOCAL:
            return RemoteActed(REMOTE, fact.action, now)
        if fact.action == "accept" and m.phase == "resigning" and m.turn == LOCAL:
            return RemoteActed(REMOTE, "accept", now)
        if fact.action == "rematch" and m.phase == "over" and m.rematch_offer != REMOTE:
            return RemoteActed(REMOTE, "rematch" if m.rematch_offer is None else "accept", now)
        return None

    def _remote_move(self, fact: RemoteMoved, c: TableStatus, out: Reaction) -> list[Event] | None:
        """The remote player's move (the board when their turn passed) into the table."""
        m = c.match
        if m.phase == "move" and m.turn == REMOTE and c.carried_out is None:
            target = position_of_board(fact.board, "remote")
            move = next((x for x in m.legal_moves() if x.result == target), None)
            if move is None:
                assert m.dice is not None
                self.refused += 1
                self._stop(f"refused {self._opponent()}'s move: no legal {m.dice[0]}-{m.dice[1]} "
                           "move reaches the position the server shows", out)
                out.commands.append(commands.BOARD)
                return []
            return [BotMoved(move, c.now, c.bot_token)]
        if m.turn == LOCAL and m.last_move is not None and m.last_move.side == REMOTE \
                and not m.last_move.steps:
            # the remote player could not move: the engine passed by itself already
            if board_of_position(m.position, "local") != tuple(fact.board):
                self._stop("the server's position differs from the board's after a pass", out)
            return []
        return None
