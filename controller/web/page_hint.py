"""The page's hint: what comes next for a person who has never played on the board, as a
key of the page's catalogue (`hint.<key>` in controller/web/static/i18n.js, in the match's language)
and the side it speaks to; the display's prompt says what the board itself would say.

A pure function of the table's `TableStatus` and whether checkers are in the hand: it was
one method of `LiveSim` with 28 branches (radon D); here the board's state, the tutor's
hold and the match's phase are asked in turn, each in its own small function.
"""
from __future__ import annotations

from controller.board.reconcile import Matched
from controller.engine.board_view import other
from controller.engine.match import Match
from controller.play.status import TableStatus

Hint = dict[str, str]
#: every key `page_hint` can give (the page's catalogue must speak each in every language:
#: tests/test_browser_i18n.py asks it, and checks this list against the source below)
HINT_KEYS = ("in_hand", "bot_move", "setup", "correction", "hit", "tutor_cube", "tutor_move",
             "opening", "roll_or_double", "roll", "done", "move", "take_or_drop",
             "accept_or_decline", "over", "enter_opening", "enter_or_double", "enter")


def page_hint(status: TableStatus, in_hand: bool) -> Hint | None:
    """The hint now (see the module docstring); None when there is nothing to say."""
    side = status.match.turn or ""
    key = "in_hand" if in_hand else _board_key(status)
    if key is not None:
        return {"key": key, "side": side}
    return _tutor_hint(status) or _match_hint(status.match)


def _board_key(status: TableStatus) -> str | None:
    """What the board itself asks first: the computer's move, setting up, a correction, a hit."""
    verdict = status.verdict
    if status.carried_out is not None:
        return "bot_move"
    if status.setting_up:
        return "setup"
    if verdict is not None and not isinstance(verdict, Matched):
        return "correction"
    if isinstance(verdict, Matched) and verdict.hits_pending:
        return "hit"
    return None


def _tutor_hint(status: TableStatus) -> Hint | None:
    """The tutor holds a move (undone on the board) or a cube action."""
    held = next((a for a in status.actions if a.action == "keep"), None)
    if held is None:
        return None
    undo = any(a.action == "undo" for a in status.actions)
    return {"key": "tutor_cube" if undo else "tutor_move", "side": held.side}


def _match_hint(m: Match) -> Hint | None:
    """What the match's phase asks of whom."""
    side = m.turn or ""
    entered = m.settings.dice == "entered"  # real dice keyed in: nothing rolls by itself (issue 35.10)
    if m.phase == "opening":
        return {"key": "enter_opening" if entered else "opening", "side": ""}
    if not side and m.phase != "over":
        return None
    if m.phase == "roll" and m.turn is not None:
        double = m.may_double(m.turn)
        key = ("enter_or_double" if double else "enter") if entered else "roll_or_double" if double else "roll"
        return {"key": key, "side": side}
    if m.phase == "move":
        done = m.move_complete and m.settings.confirm == "button"
        return {"key": "done" if done else "move", "side": side}
    opp = other(m.turn) if m.turn else ""
    answers = {"doubled": ("take_or_drop", opp), "resigning": ("accept_or_decline", opp), "over": ("over", "")}
    if m.phase in answers:
        key, whom = answers[m.phase]
        return {"key": key, "side": whom}
    return None
