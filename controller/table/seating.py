"""Who plays at a table: the match, its dice and its store, as one value that online
play, watching and the practice hand to `Table.seat` and get back."""
from __future__ import annotations

from dataclasses import dataclass

from controller.dice import DiceState
from controller.engine.match import Match
from controller.records.store import TableStore


@dataclass(frozen=True)
class Seating:
    """Who plays at the table: the match, the dice it is rolled with and the store it is
    saved in. Online play seats the server's match (server dice, the online directory)
    with `Table.seat`, and gives the local seating back with `seat` again; so does the
    practice of a marked decision (`practice`: its key; controller/table/practice.py)."""

    match: Match
    dice: DiceState
    store: TableStore
    practice: str | None = None
