"""The page's words to the table that are not a hand on the board: a typed command
(`white double`, `black play expert`) and the dice (keyed in, a player's phrase, the
seed revealed). Each becomes one event for the table; a refusal answers it as the
table's own line (`LiveSim.act`).

They were methods of `LiveSim`; they read only the table and the loop's time.
"""
from __future__ import annotations

from controller.events import ActionRequested
from controller.table import Table
from sim.web.dice_panel import dice_event
from sim.web.protocol import PageAction


def command(table: Table, text: str, now: float) -> str | None:
    """`<white|black> <action> [level]` as the players' action; a bad one is one line."""
    parts = text.split()
    if len(parts) < 2 or parts[0] not in ("white", "black"):
        return f"ignored command {text!r}: say '<white|black> <action>'"
    level = parts[2] if len(parts) > 2 else None
    table.dispatch(ActionRequested(parts[0], parts[1], now, level))  # type: ignore[arg-type]
    return None  # a refusal answers it (`act`)


def dice(table: Table, action: PageAction, now: float) -> None:
    """Real dice keyed in, a player's phrase, or the seed revealed (verifiable dice)."""
    m = table.controller.status().match
    side = action.colour or m.turn or "white"
    table.dispatch(dice_event(action.kind, side, action.name or "", m, now))

