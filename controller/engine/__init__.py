"""The pure rules engine: positions, dice, legal moves, notation, GNU Backgammon IDs.

Imports nothing of the rest of the project and does no I/O; the match's time and dice
come in from outside.
"""
from controller.engine.dice import ALL_ROLLS, Dice, parse_dice
from controller.engine.errors import (
    EngineError,
    IllegalMoveError,
    InvalidDiceError,
    InvalidMatchIdError,
    InvalidPositionError,
    MatchStateError,
)
from controller.engine.moves import BAR_POINT, OFF, Move, Step, legal_moves
from controller.engine.position import Position

__all__ = [
    "ALL_ROLLS", "BAR_POINT", "Dice", "EngineError", "IllegalMoveError", "InvalidDiceError",
    "InvalidMatchIdError", "InvalidPositionError", "MatchStateError", "Move", "OFF",
    "Position", "Step", "legal_moves", "parse_dice",
]
