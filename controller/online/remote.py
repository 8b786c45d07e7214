"""The remote player as an opponent of the table, like the computer.

The server is the truth online. `RemoteOpponent` reads its events and turns them into
*facts* (a roll, the remote player's move, a double, a take, a resignation...), kept in the
order they happened. A fact is fed to the controller only when the table has caught up
with it: the remote player's move waits until the person has carried out everything
before it; the local player's dice wait until the board is right. Each fact enters as the
computer's answers do (`BotMoved` shows the move with bot-from/bot-to and counts when it
has been carried out; `RemoteActed` for rolls, cube and resignations). The engine checks
everything it is told: a move no legal move of that roll explains is refused.

The other way, every action of the local player that the match records (a turn played,
a double, a take, a drop, a resignation, a rematch) becomes the server's commands: the
turn's steps one `move` each, then `ok` (after a `reset` when the server holds steps of
an earlier try). Rolls are the server's: when the person rolls, the table's dice (the
`server` source, controller/dice/state.py) have none yet and count the ask, and `roll` is sent.

After every turn the positions are compared (the one the server shows when the turn
passes against the engine's). A disagreement, or a command the server refuses, stops
play: nothing more is sent, and the table adopts the server's state, its board first set
up to it (the `setup` role guides the hands).

The local player is White on the table, the remote player Black (each board plays its own
person as White); `perspective` turns the server's view into the engine's.
"""
from __future__ import annotations

from collections import deque

from controller.engine.match import LEVELS, Match
from controller.engine.match_history import GameRecord
from controller.bgammon import commands
from controller.online.events import (Board, Failed, GameState, Joined, Left,
                                      Notice, ProtocolError, Rolled, Say, ServerEvent, Win)
from controller.online.facts import (LOCAL, REMOTE, DiceRolled, Fact, OpeningRolled, Reaction, RemoteCube,
                                     RemoteMoved, RemoteResigned, ScoreCheck)
from controller.online.intake import Intake
from controller.online.outbox import Outbox
from controller.online.perspective import board_of_position
from controller.online.scoring import server_win_level
from controller.online.server_match import match_from_state
from controller.play.status import TableStatus

REMATCH_NOTICE = "Your opponent would like to play again."
#: how the server's refusals say that the opponent is away (the command is sent again)
OPPONENT_AWAY = "until your opponent rejoins the match"
#: the refusals of a move of the game (a refused create, join or leave is the session's)
PLAY = ("roll", "move", "ok")


class RemoteOpponent:
    """See the module docstring. `me` is the name the server gave us."""

    def __init__(self, me: str, state: GameState) -> None:
        self.me = me
        self.opponent = state.player2.name
        self.server = state
        self._asks_seen = 0  # the table's asks for the server's roll already answered (or forgotten)
        self.facts: deque[Fact] = deque()
        self.stopped: str | None = None
        self.chat: list[str] = []
        self.compared = 0  # turns whose positions were compared with the server's
        self._resync = False  # stopped: adopt the server's state at its next board
        self._adopt = False
        # resumed during the remote player's turn: the board so far is theirs
        self._remote_board: tuple[int, ...] | None = state.board if state.turn == 2 and state.roll1 else None
        self._expect: tuple[int, ...] | None = None
        self._seen: tuple[int, int] = (1, 0)  # (game number, actions) already sent
        self._match: Match | None = None
        self._rematch_sent = False
        self._won = False
        self._replay = False
        self._opening_rolled = False  # our opening die is rolled (the server shows no board yet)
        self._rejoined = False  # the connection is back: the next board decides on sending again
        self.outbox = Outbox(lambda: self.server, lambda: self._opening_rolled)
        self.intake = Intake(self.facts, self._stop, lambda: self.opponent)

    def took_up(self, match: Match) -> None:
        """The table plays on from `match` (the server's state, or the saved match a restart
        resumes, `resume.py`): the actions in its history are the server's already."""
        last = match.history[-1] if match.history else None
        self._seen = (1, 0) if last is None else (last.number, len(last.actions))
        self._match = match
        if match.turn == REMOTE and match.phase == "move" and self.server.turn == 1:
            # resumed at their move after the server passed their turn to us (resume.py):
            # the server's board is their move, then come our dice if it rolled them
            self.facts.append(RemoteMoved(self.server.board))
            if self.server.roll1 and self.server.roll2:
                self.facts.append(DiceRolled(LOCAL, (self.server.roll1, self.server.roll2)))

    def on_server(self, event: ServerEvent) -> Reaction:
        """What the table and the server are to be told after one event of the server."""
        out = Reaction()
        if isinstance(event, Board):
            self._board(event.state, out)
            if self._rejoined:
                self._rejoined = False
                self._send_again_if_lost(out)
            self._flush(out)
        elif isinstance(event, Rolled):
            self._rolled(event)
        elif isinstance(event, Win):
            self._win(event)
        elif isinstance(event, Say):
            self.chat.append(f"{event.player}: {event.message}")
            out.notes.append(f"chat {event.player}: {event.message}")
        elif isinstance(event, Notice):
            self._on_notice(event, out)
        elif isinstance(event, Joined):
            self._on_joined(event, out)
        elif isinstance(event, Left) and event.player != self.me:
            out.notes.append(f"{event.player} left the match; waiting for them to come back")
        elif isinstance(event, Failed):
            self._on_failed(event, out)
        return out

    def _on_notice(self, event: Notice, out: Reaction) -> None:
        """The opponent wants a rematch, or is away (what the server refused goes again later)."""
        if event.message == REMATCH_NOTICE:
            self.facts.append(RemoteCube("rematch"))
        if OPPONENT_AWAY in event.message:
            self._replay = True
        out.notes.append(f"server: {event.message}")

    def _on_joined(self, event: Joined, out: Reaction) -> None:
        """The opponent (re)joined: what the server refused while they were away goes again."""
        if event.player == self.me:
            return
        self.opponent = event.player
        out.notes.append(f"{event.player} joined match {event.game_id}")
        if self._replay:
            self._replay = False
            out.commands.extend(self.outbox.last_batch)
            out.notes.append(f"sent again: {', '.join(self.outbox.last_batch)}")

    def _on_failed(self, event: Failed, out: Reaction) -> None:
        """A refused move of play: again when the opponent is back; a roll: nothing; else stop."""
        if event.what not in PLAY:
            return
        if OPPONENT_AWAY in event.reason:
            self._replay = True
            out.notes.append(f"server: {event.reason}")
        elif event.what == "roll":
            out.notes.append(f"server: {event.reason}")  # a roll refused changes nothing there
        else:
            self._stop(f"the server refused: {event.reason}", out)
            out.commands.append(commands.RESET)

    def _board(self, state: GameState, out: Reaction) -> None:
        """The server's board changed: note what it says happened, and check our turn."""
        prev, self.server = self.server, state
        if state.turn != 0 or state.winner:
            self._opening_rolled = False  # the opening is over (or a new one is to come)
        if state.player2.name:
            self.opponent = state.player2.name
        if self._resync:
            if not state.moves:
                self._resync, self._adopt = False, True
            return
        self.facts.extend(_board_facts(prev, state))
        if state.turn == 2 and state.roll1:
            self._remote_board = state.board
        if prev.turn == 2 and state.turn != 2:
            self._close_remote_turn()
        if prev.turn == 1 and state.turn == 2 and self._expect is not None:
            self._compare_our_turn(state, out)
        if self._won and (state.turn == 0 or state.winner):
            self._won = False
            self.facts.append(ScoreCheck((state.player1.points, state.player2.points)))

    def _compare_our_turn(self, state: GameState, out: Reaction) -> None:
        """After our turn the server's position must be the board's (the server is the truth)."""
        expected, self._expect = self._expect, None
        self.compared += 1
        if tuple(state.board) != expected:
            self._stop("the server's position differs from the board's after our turn", out)

    def _rolled(self, event: Rolled) -> None:
        if self.server.turn == 0:
            # an opening die (the board that follows has both); ours is rolled: not again
            self._opening_rolled = self._opening_rolled or event.player == self.me
            return
        if not (1 <= event.roll1 <= 6 and 1 <= event.roll2 <= 6):
            # only an opening die may be 0 (the other one not rolled yet): nothing is changed
            raise ProtocolError("server sent a rolled event whose Roll1 and Roll2 are not two dice 1..6 in a turn")
        side = LOCAL if event.player == self.me else REMOTE
        if side == LOCAL:
            self._close_remote_turn()
        self.facts.append(DiceRolled(side, (event.roll1, event.roll2)))

    def _close_remote_turn(self) -> None:
        if self._remote_board is not None:
            self.facts.append(RemoteMoved(self._remote_board))
            self._remote_board = None

    def _win(self, event: Win) -> None:
        self._won = True
        fact = _win_fact(event, self.me, self.server)
        if fact is None:
            self._close_remote_turn()
            return
        if event.resigned and event.resigned != self.me:
            self._remote_board = None  # steps before a resignation do not count
        self.facts.append(fact)

    def _stop(self, reason: str, out: Reaction) -> None:
        self.stopped = reason
        self._resync = True
        self.facts.clear()
        self.outbox.held.clear()
        out.stopped = reason
        out.notes.append(f"stopped: {reason}")

    def pump(self, controller: TableStatus) -> Reaction:
        """Feed the next facts the table is ready for; send what the local player did."""
        out = Reaction()
        if self._adopt:
            self._adopt = False
            self.stopped = None
            adopted = match_from_state(self.server, controller.match.settings)
            out.adopt = self._match = adopted
            out.notes.append("playing on from the server's position: set up the board")
            self._seen, self._expect, self._remote_board = (1, 0), None, None
            return out
        if self.stopped is not None:
            return out
        self._outgoing(controller, out)
        self._flush(out)
        if self.stopped is None:
            self.intake.feed(controller, out)
            if out.adopt is not None:  # the intake took a roll back, or kept the server's score
                self._match = out.adopt
        return out

    @property
    def refused(self) -> int:
        """Server moves the engine refused."""
        return self.intake.refused

    def _outgoing(self, c: TableStatus, out: Reaction) -> None:
        """Commands for what the local player did since the last look."""
        m = c.match
        self._send_roll_if_asked(m, c.dice.asked, out)
        if m is self._match:
            return
        previous, self._match = self._match, m
        if _rematch_began(previous, m):
            if not self._rematch_sent:
                out.commands.append(commands.REMATCH)  # we accepted the remote player's rematch
            self._seen, self._rematch_sent = (1, 0), False
            return
        if m.is_over and m.rematch_offer == LOCAL and not self._rematch_sent:
            self._rematch_sent = True
            out.commands.append(commands.REMATCH)
        self._send_new_actions(m, previous, out)

    def _send_roll_if_asked(self, m: Match, asked: int, out: Reaction) -> None:
        """`roll` once the server waits for it, when the table asked for a roll since the
        last one sent (`asked`: the table's count); forgotten when the match went past rolling."""
        if asked > self._asks_seen and m.phase not in ("opening", "roll"):
            self._asks_seen = asked
        if asked > self._asks_seen and self.outbox.awaits_roll():
            self._asks_seen = asked
            if not any(isinstance(f, (OpeningRolled, DiceRolled)) for f in self.facts):
                out.commands.append(commands.ROLL)
                self.outbox.sent("rolling", [commands.ROLL])

    def _send_new_actions(self, m: Match, previous: Match | None, out: Reaction) -> None:
        """The match's actions not sent yet go to the outbox; a game we forfeited is left."""
        game_no, count = self._seen
        for record in m.history:
            if record.number < game_no:
                continue
            start = count if record.number == game_no else 0
            for action in record.actions[start:]:
                if self.outbox.hold(action):  # our turn: the server's position after it is checked
                    self._expect = _expected_board(m)
            if _left_by_forfeit(record, self._seen, previous):
                out.commands.append(commands.LEAVE)
            self._seen = (record.number, len(record.actions))
            game_no, count = self._seen

    def rejoined(self) -> None:
        """The connection is back (the session rejoined): commands written while it was down,
        or into a dead connection, never reached the server, which would wait for them for
        ever; at the next board the last batch goes again if the server stands as it stood."""
        self._rejoined = True

    def _send_again_if_lost(self, out: Reaction) -> None:
        """The last batch again, when the server shows it did not arrive (`Outbox.lost`)."""
        lost = self.outbox.lost() if self.stopped is None else None
        if lost is not None:
            out.commands.extend(lost)
            out.notes.append(f"sent again after rejoining: {', '.join(lost)}")

    def _flush(self, out: Reaction) -> None:
        """Send the held commands whose moment has come on the server, in order."""
        if self.stopped is None:
            out.commands.extend(self.outbox.flush())


def _win_fact(event: Win, me: str, server: GameState) -> Fact | None:
    """What a game won on the server means at our table: the opponent dropped our cube or
    resigned (at the level its points say), or accepted our resignation; None: the game was
    won on the board, by the last move."""
    if event.resigned and event.resigned != me:
        if server.double_offered and server.turn == 1:
            return RemoteCube("drop")
        cube = max(1, server.double_value)
        if not event.points:  # a 1-point match: the server counts the board (scoring.py)
            return RemoteResigned(server_win_level(server.board, 1))
        return RemoteResigned(LEVELS[min(3, max(1, event.points // cube)) - 1])
    if event.resigned == me and not server.double_offered:
        return RemoteCube("accept")
    return None


def _rematch_began(previous: Match | None, m: Match) -> bool:
    """Whether `m` is the fresh first game of a rematch after `previous` was over."""
    return previous is not None and previous.is_over and not m.is_over and len(m.history) == 1 \
        and not m.history[0].actions


def _expected_board(m: Match) -> tuple[int, ...] | None:
    """The board the server is to show once our turn has passed to the remote player;
    None when the turn has not passed."""
    if m.turn == REMOTE and m.phase in ("roll", "doubled", "move"):
        return board_of_position(m.position, "remote")
    return None


def _left_by_forfeit(record: GameRecord, seen: tuple[int, int], previous: Match | None) -> bool:
    """Whether the game `record` newly ends with our forfeit (the remote player wins by
    it), so the server is to be told we leave: it is new since `seen`, or the match was
    still on at the last look."""
    forfeited = record.end is not None and record.end.how == "forfeit" and record.end.winner == REMOTE
    return forfeited and (record.number, len(record.actions)) != seen or \
        forfeited and previous is not None and not previous.is_over


def _board_facts(prev: GameState, state: GameState) -> list[Fact]:
    """The facts a change of the server's board shows: a rematch started, the opening
    rolled, the remote player doubled, or took our double."""
    facts: list[Fact] = []
    if prev.winner and not state.winner and state.turn == 0:
        facts.append(RemoteCube("rematch"))  # the server started the rematch
    if prev.turn == 0 and state.turn and state.roll1 and state.roll2 and not state.winner:
        high, low = max(state.roll1, state.roll2), min(state.roll1, state.roll2)
        facts.append(OpeningRolled((high, low) if state.turn == 1 else (low, high)))
    if state.double_offered and not prev.double_offered and state.turn == 2:
        facts.append(RemoteCube("double"))
    if prev.double_offered and prev.turn == 1 and not state.double_offered and state.turn == 1 \
            and state.double_value == 2 * prev.double_value:
        facts.append(RemoteCube("take"))
    return facts
