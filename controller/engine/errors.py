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


#: a parameter of a refusal's reason: a side ("white"/"black"), a number, dice, a word key
ReasonParam = str | int | tuple[int, ...]


class MatchStateError(EngineError):
    """A match command that is not allowed in the current state.

    The message is the engine's one English line (logs, scripts, the command line). `key`
    names the reason for the players, with `params` (`side` a colour, `dice` a tuple, ...):
    the table shows it as the message `refused.<key>` of `controller.show.texts`, in the
    match's language. None where no player can meet the error (a side that is not a
    colour, a caller's own mistake)."""

    def __init__(self, message: str, key: str | None = None, **params: ReasonParam) -> None:
        super().__init__(message)
        self.key = key
        self.params = params
