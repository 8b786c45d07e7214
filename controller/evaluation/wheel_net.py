"""The gnubg-nn wheel holding one set of weights, as the numpy network calls it."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import numpy as np


@dataclass(frozen=True)
class WheelNet:
    """The wheel with one set of weights loaded (`net_load` of a text weight file): the
    wheel keeps one active set for all its callers, so each use makes these the active
    ones first."""

    module: ModuleType
    handle: object

    @classmethod
    def load(cls, module: ModuleType, text_weights: Path) -> WheelNet:
        """The wheel with the weights of `text_weights` (gnubg's text format, "1.01")."""
        return cls(module, module.net_load(str(text_weights), 0))  # no cache of its own: ours serve

    def activate(self) -> None:
        """Make these weights the wheel's active ones (its `gnubg` level uses them too)."""
        self.module.net_use(self.handle)

    def probabilities(self, boards: np.ndarray, plies: int) -> np.ndarray:
        """The wheel's `probabilities(board, plies)` of each board (n x 2 x 25) -> n x 5."""
        self.activate()
        chances = self.module.probabilities
        return np.array([chances(board, plies) for board in boards.tolist()], dtype=np.float64).reshape(-1, 5)
