"""The page's words to the table that are not a hand on the board: a typed command
(`white double`, `black play expert`), the dice (keyed in, a player's phrase, the
seed revealed) and the Hint. Each becomes one event for the table; a refusal answers it as the
table's own line (`LiveSim.act`).

They were methods of `LiveSim`; they read only the table and the loop's time. The board's
page (controller/web/board_page.py) makes the same events from the same messages.
"""
from __future__ import annotations

from controller.engine.match import Match
from controller.events import ActionRequested, Event, HintRequested
from controller.table import Table
from controller.web.dice_panel import dice_event
from controller.web.protocol import PageAction


def command_event(text: str, now: float) -> ActionRequested | None:
    """`<white|black> <action> [level]` as the players' action; None when it is not one
    (the simulator's page and the board's page each say so in their own line)."""
    parts = text.split()
    if len(parts) < 2 or parts[0] not in ("white", "black"):
        return None
    level = parts[2] if len(parts) > 2 else None
    return ActionRequested(parts[0], parts[1], now, level)  # type: ignore[arg-type]


def command(table: Table, text: str, now: float) -> str | None:
    """A typed command to the table; a bad one is one line."""
    event = command_event(text, now)
    if event is None:
        return f"ignored command {text!r}: say '<white|black> <action>'"
    table.dispatch(event)
    return None  # a refusal answers it (`act`)


def dice_action_event(m: Match, action: PageAction, now: float) -> Event:
    """Real dice keyed in, a player's phrase, or the seed revealed (verifiable dice), by
    the side the page names, else the one to play."""
    side = action.colour or m.turn or "white"
    return dice_event(action.kind, side, action.name or "", m, now)


def dice(table: Table, action: PageAction, now: float) -> None:
    """The page's dice message to the table."""
    table.dispatch(dice_action_event(table.controller.status().match, action, now))



def ask_hint(table: Table, now: float) -> None:
    """The page's Hint, as the menu's: shown on the display and the lights (a refusal
    answers it: no hint now)."""
    table.dispatch(HintRequested(now))
