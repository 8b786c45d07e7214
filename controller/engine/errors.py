"""Errors of the pure rules engine; all subclass ValueError."""
from __future__ import annotations


class EngineError(ValueError):
    """Base of the engine's errors."""


class InvalidPositionError(EngineError):
    """A Position ID or board that is not a backgammon position (bad ID, >15 checkers,
    both colours on one point)."""


class InvalidDiceError(EngineError):
    """Dice that are not two numbers 1..6 (`07`, `3-x`)."""


class IllegalMoveError(EngineError):
    """A move or step that the rules do not allow in this position and roll."""


class InvalidMatchIdError(EngineError):
    """A Match ID that cannot be decoded."""


class MatchStateError(EngineError):
    """A match command that is not allowed in the current state."""
