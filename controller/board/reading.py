"""A reading of the physical board: per cell, how many white and black checkers stand there.

Built from one SCAN's sensor values and the profile's cell map. A cell is *saturated*
when every slot holds a checker: the true count may be higher (DESIGN.md "Cells") and
the controller works it out from the engine. Sensors reading fault (both comparators
on) are listed and counted in no cell. Readings are frozen values: equal when every
count, saturation and fault agree, and hashable, so a controller can keep the last
one and compare.
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from controller.board.profile import Profile
from controller.board.reconcile import BoardState

EMPTY, WHITE, BLACK, FAULT = 0, 1, 2, 3


@dataclass(frozen=True)
class CellReading:
    """One cell: white and black checkers seen, its slots, full or not, faulty sensors."""

    white: int = 0
    black: int = 0
    slots: int = 0
    faults: int = 0

    @property
    def saturated(self) -> bool:
        """Every slot holds a checker (the cell may hold more than it shows)."""
        return self.slots > 0 and self.white + self.black == self.slots

    @property
    def total(self) -> int:
        return self.white + self.black

    @property
    def is_empty(self) -> bool:
        return self.total == 0


@dataclass(frozen=True)
class Reading:
    """Counts per cell in `CELLS` order, plus the indices of faulty sensors."""

    cells: tuple[tuple[str, CellReading], ...]
    faults: tuple[int, ...] = ()

    @classmethod
    def from_sensors(cls, sensors: Sequence[int], profile: Profile) -> Reading:
        """The reading of one SCAN's sensor values (row-major, 0..3)."""
        if len(sensors) < profile.sensors.count:
            raise ValueError(f"{len(sensors)} sensor values; the profile has "
                             f"{profile.sensors.count}")
        cells: list[tuple[str, CellReading]] = []
        for cell, indices in profile.cells:
            white = black = faults = 0
            for i in indices:
                v = sensors[i]
                if v == WHITE:
                    white += 1
                elif v == BLACK:
                    black += 1
                elif v == FAULT:
                    faults += 1
            cells.append((cell, CellReading(white, black, len(indices), faults)))
        faults_all = tuple(i for i in range(profile.sensors.count) if sensors[i] == FAULT)
        return cls(tuple(cells), faults_all)

    @classmethod
    def empty(cls, profile: Profile) -> Reading:
        return cls(tuple((c, CellReading(0, 0, len(s), 0)) for c, s in profile.cells))

    def __getitem__(self, cell: str) -> CellReading:
        for name, value in self.cells:
            if name == cell:
                return value
        raise KeyError(cell)

    def __iter__(self) -> Iterator[tuple[str, CellReading]]:
        return iter(self.cells)

    @property
    def saturated(self) -> tuple[str, ...]:
        return tuple(c for c, r in self.cells if r.saturated)

    @property
    def has_faults(self) -> bool:
        return bool(self.faults)

    @property
    def fault_cells(self) -> tuple[str, ...]:
        """The cells with at least one sensor reading fault, in `CELLS` order."""
        return tuple(c for c, r in self.cells if r.faults)

    def board_state(self) -> BoardState:
        """The controller's view: counts per cell, saturated cells and faulty cells.
        The one conversion from a reading; every front end gets it from the session."""
        return BoardState.of(self.counts(), self.saturated, self.fault_cells)

    def counts(self) -> dict[str, tuple[int, int]]:
        """cell -> (white, black), every cell."""
        return {c: (r.white, r.black) for c, r in self.cells}

    def as_json(self) -> dict[str, object]:
        """The non-empty cells as {"cell": {"white": w, "black": b, "saturated": s}}."""
        return {
            "cells": {c: {"white": r.white, "black": r.black, "saturated": r.saturated}
                      for c, r in self.cells if r.total or r.faults},
            "faults": list(self.faults),
        }

    def __str__(self) -> str:
        parts = []
        for c, r in self.cells:
            if r.total:
                s = (f"{r.white}w" if r.white else "") + (f"{r.black}b" if r.black else "")
                parts.append(f"{c}:{s}{'+' if r.saturated else ''}")
        if self.faults:
            parts.append(f"faults:{','.join(map(str, self.faults))}")
        return " ".join(parts) or "(empty)"

