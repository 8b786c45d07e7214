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
from controller.engine.match_id import MatchIdFields, decode_match_id, encode_match_id
from controller.engine.moves import BAR_POINT, OFF, Move, Step, legal_moves, legal_results
from controller.engine.notation import format_move, parse_move
from controller.engine.position import Position
from controller.engine.turn import TurnPlan

__all__ = [
    "ALL_ROLLS", "BAR_POINT", "Dice", "EngineError", "IllegalMoveError", "InvalidDiceError",
    "InvalidMatchIdError", "InvalidPositionError", "MatchIdFields", "MatchStateError", "Move", "OFF",
    "Position", "Step", "TurnPlan", "decode_match_id", "encode_match_id", "format_move",
    "legal_moves", "legal_results", "parse_dice", "parse_move",
]
