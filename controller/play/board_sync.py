"""The board kept in step with the match: one job of the controller.

Readings are settled on the event's time (a reading counts when it has been quiet for the
settling time); the settled board is reconciled with the match (controller.play.tracker,
controller.board.reconcile) and what it shows is played: the steps of a person's move (undo
included, as one transition), the end of setting up, the computer's move carried out. The
job owns the board's tracker and is the one writer of what it knows (its frozen
`BoardReading`): the others ask it through `forget`, `keep` and `confirm`. The match changes
only through the match's flow (controller.play.match_flow).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from controller.board.reconcile import Matched, Mismatch
from controller.engine.match import Match, Transition
from controller.engine.match_events import Event as MatchEvent
from controller.engine.match_events import Stepped
from controller.engine.match_settings import HUMAN
from controller.engine.position import Position
from controller.engine.turn import TurnPlan
from controller.events import Announce, Buzz, Effect, ReadingReceived, Refused, Tick
from controller.play.actions import PlayerActions
from controller.play.match_flow import MatchFlow
from controller.play.seat import MatchSeat
from controller.play.tracker import BoardTracker
from controller.play.tutor import Tutor


class SyncSeat(MatchSeat, Protocol):
    """What the board's sync reads of the table."""

    @property
    def tutor(self) -> Tutor: ...
    @property
    def flow(self) -> MatchFlow: ...
    @property
    def actions(self) -> PlayerActions: ...
    def turn_plan(self) -> TurnPlan | None: ...


class BoardSync:
    """The board's tracker and what its readings do (see the module docstring).
    `settle_s` is the settling time (the table's setting)."""

    def __init__(self, seat: SyncSeat, now: float, *, settle_s: Callable[[], float]) -> None:
        self._seat = seat
        self._settle_s = settle_s
        self._board = BoardTracker(raw_since=now)

    @property
    def board(self) -> BoardTracker:
        """The board as read, settled and reconciled."""
        return self._board

    def forget(self) -> None:
        """The match moved on (a new phase, turn, step, game or match): the board is read afresh."""
        self._board.forget()

    def keep(self, event: ReadingReceived | Tick) -> None:
        """While a server match is watched: readings are kept and settle (to set the board up
        afterwards) but nothing is read from them."""
        if isinstance(event, ReadingReceived):
            self._board.observe(event.board, event.at)
        elif self._board.due(self._seat.now, self._settle_s()):
            self._board.settle()

    def confirm(self, choice: Position, out: list[Effect]) -> None:
        """The player said the ambiguous reading is `choice` (controller.play.board_questions)."""
        self._board.judge(Matched(choice))
        out.append(Announce("the player confirmed the reading"))
        self.sync(choice, out)

    def reading(self, event: ReadingReceived) -> None:
        """A reading of the board: kept, and what is lifted told (not while setting up)."""
        seat = self._seat
        if self._board.observe(event.board, event.at):
            self._board.lift(None if seat.setting_up else self._board.lifted(event.board, seat.match, seat.bot))

    def tick(self, out: list[Effect]) -> None:
        """A reading quiet for the settling time is settled and reconciled."""
        seat = self._seat
        if self._board.due(seat.now, self._settle_s()):
            self._board.settle()
            self.reconcile(out)

    def reconcile(self, out: list[Effect]) -> None:
        """Reconcile the settled board with the match and act on what it shows."""
        seat = self._seat
        settled = self._board.settled
        if settled is None:
            return
        m = seat.match
        current, verdict = self._board.read(settled, m, seat.bot)
        previous = self._board.verdict
        self._board.judge(verdict)
        seat.tutor.board_shows(verdict.position if isinstance(verdict, Matched) and verdict.is_exact else None)
        if isinstance(verdict, Mismatch) and not isinstance(previous, Mismatch) and not seat.setting_up:
            out.append(Buzz("error"))
        if not isinstance(verdict, Matched):
            return
        if verdict.is_exact:
            seat.flow.set_up(out)
        if verdict.in_hand is not None or verdict.position != current or not verdict.is_exact:
            seat.flow.board_moved_on()
        if not verdict.is_exact:
            return
        if seat.bot is not None:
            if verdict.position == seat.bot.move.result:
                seat.flow.carried_out(out)
            return
        if m.phase == "move" and m.turn is not None and verdict.position != m.partial \
                and seat.player(m.turn) == HUMAN:
            self.sync(verdict.position, out)  # the computer's moves are played whole

    def sync(self, target: Position, out: list[Effect], judge: bool = True) -> None:
        """Play (or take back) the steps that bring the match's partial to `target`, as one
        transition: however many steps one settled reading implies, the match is saved
        once and the board read once more against the result. With confirm ``auto`` and
        the tutor warning about the move `target` completes, the step that would end the
        turn is held back (controller.play.tutor) until the player keeps the move."""
        seat = self._seat
        plan = seat.turn_plan()
        if plan is None or seat.match.turn is None:
            return
        side = seat.match.turn
        now = seat.now
        warning = seat.tutor.move(seat.match, target) if judge and seat.match.settings.confirm == "auto" \
            and plan.is_complete(target) else None

        def walk(mm: Match) -> Transition:
            events: list[MatchEvent] = []
            path = plan.path(mm.partial, target)
            while path is None and mm.steps:
                mm, said = mm.undo(side, now)
                events += said
                path = plan.path(mm.partial, target)
            for step in path or ():
                if mm.phase != "move":
                    break  # the turn ended (the last step completed the move)
                after, said = mm.step(side, step, now)
                if warning is not None and any(isinstance(e, Stepped) and e.complete for e in said):
                    break  # the tutor holds the move before it is confirmed
                mm = after
                events += said
            return Transition(mm, tuple(events))

        seat.flow.apply(walk, out)
        if warning is not None and seat.match.phase == "move" and seat.match.turn == side:
            seat.tutor.hold_move(seat.match, target, warning)
            out.append(Announce(f"tutor: {side}'s move loses {warning.loss:.3f} ({warning.mark}): keep or undo"))

    def reread(self, out: list[Effect]) -> None:
        """After the match changed, read the same settled board against the new state
        (without acting again on it: only the verdict and hints change). A board being set
        up that already stands as the new match says is set up (a rematch after a forfeit
        before any checker moved: nobody need touch a checker for the board to count)."""
        seat = self._seat
        if self._board.settled is not None:
            self._board.judge(self._board.read(self._board.settled, seat.match, seat.bot)[1])
            verdict = self._board.verdict
            if isinstance(verdict, Matched) and verdict.is_exact:
                seat.flow.set_up(out)

    def landed_on_full(self, out: list[Effect]) -> bool:
        """The main button while the board may hold the checker in hand unseen on a full
        point (controller.board.reconcile): it has landed. The step it completes is played
        (a move it completes is done: one press, as the prompt says), or a checker too
        many on the full point is told as a correction."""
        seat = self._seat
        landed, side = self._board.landed(seat.match, seat.bot), seat.match.turn
        if landed is None or side is None:
            return False
        self._board.judge(landed)
        if isinstance(landed, Matched):
            self.sync(landed.position, out)
            if seat.match.phase == "move" and seat.match.turn == side and seat.match.move_complete \
                    and seat.tutor.hold(seat.match) is None:
                seat.actions.act(side, "done", None, out)
        elif isinstance(landed, Mismatch):
            ins = landed.instructions[0]
            out.append(Refused.of(f"one {ins.colour} checker too many on {ins.frm}: put it on {ins.to}",
                                  "too_many", colour=ins.colour, n=ins.n, **{"from": ins.frm or "", "to": ins.to or ""}))
            out.append(Buzz("error"))
        return True
