"""The hand on the virtual board, the simulator's one: the page's and a script's.

A person at the simulator's page lifts checkers (they are then in the hand, shown in the
air), places them (a hit is one gesture: the blot goes to the bar as the checker goes
down), drops them outside the board (they go back), and may ask a helping hand: set the
board up as the match stands, carry out the computer's move, take back the last step,
play a checker by itself with a double-click, cover a point with two checkers. A scenario
script's lines (sim/script_lines.py) are gestures of the same hand: lift, place (its `hit`
line lays the blot on the bar itself), a checker put down from outside, a cell set, the
board laid out. Each works on the virtual board only, as a person would; the controller
sees the readings. The job keeps the hand; it reads the table's `TableStatus` and tells
its owner (the page) it changed.
"""
from __future__ import annotations

from collections.abc import Callable

from controller.board.reconcile import Matched
from controller.engine.board_view import CELLS, Colour, cell_of_point, other, point_of_cell, \
    position_from_cells, step_cells
from controller.engine.match import Match
from controller.engine.moves import Step
from controller.engine.position import Position
from controller.engine.turn import TurnPlan
from controller.play.status import TableStatus
from controller.web.protocol import Notice
from sim.virtual_board import VirtualBoard, lay_out


def steps_fit(vb: VirtualBoard, cells: list[tuple[str, str, bool]], colour: str) -> bool:
    """Whether every step can be carried out on the board as it stands (counted, not
    done): a helper that failed half-way left the board half moved, in English."""
    counts = {c: list(vb.counts(c)) for c in CELLS}
    mine, theirs = (0, 1) if colour == "white" else (1, 0)
    for frm, to, hit in cells:
        if hit and counts[to][theirs]:
            counts[to][theirs] -= 1
            counts["bar"][theirs] += 1
        if not counts[frm][mine]:
            return False
        counts[frm][mine] -= 1
        counts[to][mine] += 1
    return True


class Hands:
    """The hand over the virtual board and what it does (see the module docstring).
    `status` reads the table now, `changed` tells the page (a script needs no telling)."""

    def __init__(self, vb: VirtualBoard, *, status: Callable[[], TableStatus],
                 changed: Callable[[], None] = lambda: None) -> None:
        self._vb = vb
        self._status, self._changed = status, changed
        #: the checkers in the air, last lifted last: their colour and the cell they came from
        self.hand: list[dict[str, str]] = []
        #: the last checker was put down by a helping hand (a double-click, a cover, a step
        #: taken back): if it went onto a full point, the helper says it landed (`landed_unseen`)
        self._helped = False

    def set_board(self, match: Match) -> None:
        """Put the virtual board's checkers where the match stands (a fresh table)."""
        self.lay_out(*match.board())

    def lay_out(self, position: Position, mover: Colour) -> None:
        """Every checker where `position` has them, seen with `mover` on turn; a checker
        in the air is one of them, so the hand ends empty."""
        lay_out(self._vb, position, mover)
        self.hand.clear()

    def set_cell(self, cell: str, white: int, black: int) -> None:
        """A cell set to exactly these checkers (a script's `set`)."""
        self._vb.set_cell(cell, white, black)

    def put(self, cell: str, colour: str) -> None:
        """A checker that was in no hand put down on `cell` (a script's `place` of a colour
        not in the air adds one)."""
        self._vb.place(cell, colour)

    def lift(self, cell: str, colour: str | None) -> str | None:
        w, b = self._vb.counts(cell)
        if colour is None:
            colour = "white" if w else "black"
        if (w if colour == "white" else b) == 0:
            return f"there is no {colour} checker on {cell} to lift"
        self._vb.lift(cell, colour)
        self.hand.append({"colour": colour, "from": cell})
        self._helped = False
        self._changed()
        return None

    def place(self, cell: str, colour: str | None, hits: bool = True) -> str | Notice | None:
        if not self.hand:
            return Notice("no_hand", "no checker in hand to place")
        held = self.hand[-1] if colour is None else next(
            (h for h in reversed(self.hand) if h["colour"] == colour), None)
        if held is None:
            return f"no {colour} checker in hand"
        w, b = self._vb.counts(cell)
        if w + b >= 15 or (cell.startswith("off-") and held["colour"] != cell[4:]):
            return f"a {held['colour']} checker does not fit on {cell}"
        self.hand.remove(held)
        if hits and self._hits_blot(cell, held["colour"]):
            # a hit is one gesture: the hand lays the blot on the bar, then the checker down
            self._vb.lift(cell, other(held["colour"]))  # type: ignore[arg-type]
            self._vb.place("bar", other(held["colour"]))  # type: ignore[arg-type]
        self._vb.place(cell, held["colour"])
        self._helped = False
        self._changed()
        return None

    def _hits_blot(self, cell: str, colour: str) -> bool:
        """A checker of the side moving now put on a point where one opposing checker stands:
        a hand knocks that blot to the bar as it puts its own down."""
        m = self._status().match
        if not cell.isdigit() or m.phase != "move" or m.turn != colour:
            return False
        w, b = self._vb.counts(cell)
        mine, theirs = (w, b) if colour == "white" else (b, w)
        return mine == 0 and theirs == 1

    def drop_outside(self) -> str | Notice | None:
        if not self.hand:
            return None
        held = self.hand.pop()
        self._vb.place(held["from"], held["colour"])
        self._changed()
        return Notice("dropped", f"dropped outside the board: the {held['colour']} checker went back to {held['from']}",
                      {"colour": held["colour"], "cell": held["from"]})

    def landed_unseen(self) -> bool:
        """Whether the table waits for the main button to say that the checker a helping
        hand put down stands on a full point (TableStatus.awaits_landing): a person's own
        checker is theirs to confirm, a helper's is the helper's (issue 35.3). Once: the
        caller presses it."""
        if not self._helped or self.hand or not self._status().awaits_landing:
            return False
        self._helped = False
        return True

    def helpers(self) -> list[str]:
        """The simulator's helping hands that make sense now: `setup` (put every checker
        where the match stands, as a person setting up would) while the board is being set
        up or is wrong with nothing in hand, `bot_move` while the computer's move waits to
        be carried out."""
        status = self._status()
        found = []
        if status.carried_out is not None and not self.hand:
            found.append("bot_move")
        if not self.hand and (status.setting_up or (status.verdict is not None
                                                    and not isinstance(status.verdict, Matched))):
            found.append("setup")
        m = status.match
        if not self.hand and status.carried_out is None and m.phase == "move" and self._last_step() is not None:
            found.append("undo")
        return found

    def _last_step(self) -> Step | None:
        """The step a hand would take back now: the last one standing on the board (one
        the tutor holds back before it counts, else the match's last) during a move whose
        steps wait for the button or the tutor; None otherwise."""
        status = self._status()
        m = status.match
        held = any(a.action == "keep" for a in status.actions)
        if m.phase != "move" or m.turn is None or not (held or m.settings.confirm == "button"):
            return None
        found = self._plan()
        ahead = found[0].path(m.partial, self._standing(*found)) if found is not None else None
        if ahead:
            return ahead[-1]
        return m.steps[-1] if m.steps else None

    def undo(self) -> str | Notice | None:
        """Take back the turn's last step as a hand would: the checker back to where it came
        from, and a checker it hit back from the bar."""
        m = self._status().match
        step = self._last_step() if "undo" in self.helpers() else None
        if step is None or m.turn is None:
            return Notice("no_undo", "there is no step to take back now")
        frm, to = step_cells(step, m.turn)
        self._vb.lift(to, m.turn)
        self._vb.place(frm, m.turn)
        if step.hit:
            self._vb.lift("bar", other(m.turn))
            self._vb.place(to, other(m.turn))
        self._helped = True
        self._changed()
        return None

    def setup(self) -> str | Notice | None:
        if "setup" not in self.helpers():
            return Notice("board_right", "the board is already right")
        self.set_board(self._status().match)
        self._changed()
        return None

    def bot_move(self) -> str | Notice | None:
        plan = self._status().carried_out
        if plan is None or self.hand:
            return Notice("no_bot_move", "there is no computer move to play")
        left = self._bot_steps_left(plan.move.steps, plan.move.result, plan.side)
        off_the_move = Notice("bot_move_off", "the board is off the computer's move: take back what differs")
        if left is None:
            return off_the_move
        cells = [(*step_cells(step, plan.side), step.hit) for step in left]
        if not steps_fit(self._vb, cells, plan.side):
            return off_the_move  # told in the page's language, and nothing is moved
        for frm, to, hit in cells:
            self.carry_out(frm, to, plan.side, hit)
        self._changed()
        return None

    def _bot_steps_left(self, steps: tuple[Step, ...], result: Position, side: str) -> tuple[Step, ...] | None:
        """What remains of the computer's move from the board as it stands: part of it may
        have been carried out by hand, in any order (from the bar first); carrying out the
        whole move again then asked for checkers no longer there, for ever."""
        found = self._plan()
        if found is None or found[1] != side:
            return steps
        turn = found[0]
        return turn.path(self._standing(turn, side), result)

    def _plan(self) -> tuple[TurnPlan, str] | None:
        m = self._status().match
        plan = m.plan
        if m.phase != "move" or plan is None or m.turn is None or self.hand:
            return None
        return plan, m.turn

    def _standing(self, plan: TurnPlan, side: str) -> Position:
        """The turn's board as it stands on the virtual board: a helper's step carried out
        but not yet settled counts (two quick double-clicks must not both use the 5), as
        long as the board is one the dice can reach; else the controller's own view."""
        partial: Position = self._status().match.partial
        try:
            here = position_from_cells({c: self._vb.counts(c) for c in CELLS}, side)  # type: ignore[arg-type]
        except ValueError:
            return partial
        return here if plan.is_partial(here) else partial

    def carry_out(self, frm_cell: str, to_cell: str, colour: str, hit: bool) -> None:
        """One step carried out by hand: a blot hit goes to the bar first, unless a hand
        already put it there (a hit started and its checker taken back: issue 35.12)."""
        w, b = self._vb.counts(to_cell)
        if hit and (b if colour == "white" else w):
            self._vb.lift(to_cell, other(colour))  # type: ignore[arg-type]
            self._vb.place("bar", other(colour))  # type: ignore[arg-type]
        self._vb.lift(frm_cell, colour)
        self._vb.place(to_cell, colour)
        self._helped = True

    def auto_step(self, cell: str) -> str | Notice | None:
        if self.hand and self.hand[-1]["from"] == cell:
            held = self.hand.pop()  # the first click of the double-click lifted it: back first
            self._vb.place(cell, held["colour"])
        found = self._plan()
        if found is None:
            return Notice("not_in_move", "a checker plays by itself only during a move, with nothing in hand")
        plan, side = found
        frm = point_of_cell(cell, side)  # type: ignore[arg-type]
        steps = [s for s in plan.next_steps(self._standing(plan, side)) if s.frm == frm]
        if not steps:
            return Notice("cannot_move", f"the checker on {cell} cannot move now", {"cell": cell})
        step = max(steps, key=lambda s: s.die)
        self.carry_out(cell, cell_of_point(step.to, side), side, step.hit)  # type: ignore[arg-type]
        self._changed()
        return None

    def cover(self, cell: str) -> str | Notice | None:
        found = self._plan()
        if found is None or not cell.isdigit():
            return None
        plan, side = found
        standing = self._standing(plan, side)
        target = point_of_cell(cell, side)  # type: ignore[arg-type]
        for first in plan.next_steps(standing):
            if first.to != target:
                continue
            after = standing.after(first)
            for second in plan.next_steps(after):
                if second.to == target and second.frm != target:
                    self.carry_out(cell_of_point(first.frm, side), cell, side, first.hit)  # type: ignore[arg-type]
                    self.carry_out(cell_of_point(second.frm, side), cell, side, False)  # type: ignore[arg-type]
                    self._changed()
                    return None
        return Notice("no_cover", f"no two checkers can cover {cell} with these dice", {"cell": cell})

    def hand_back(self) -> None:
        """Checkers in the air go back where they were lifted (a new table starts empty-handed)."""
        for held in reversed(self.hand):
            self._vb.place(held["from"], held["colour"])
        self.hand.clear()
