"""Board readings for the controller's tests: the starting position as the sensors read it,
with some checkers added or taken away per cell."""
from __future__ import annotations

from controller.board.reconcile import BoardState
from controller.engine import Position
from controller.engine.board_view import cell_counts

START = Position.initial()


def board(changes: dict[str, tuple[int, int]] | None = None) -> BoardState:
    """The starting position read, with `changes` as (white, black) added per cell."""
    counts = cell_counts(START, "white")
    for cell, (dw, db) in (changes or {}).items():
        w, b = counts[cell]
        counts[cell] = (w + dw, b + db)
    return BoardState.of(counts)
