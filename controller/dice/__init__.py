"""The dice: board, entered and verifiable (README.md here describes all three and the
verifiable construction with its test vectors)."""
from controller.dice.secret import DiceSecret
from controller.dice.table import DiceError, DiceNeeded, TableDice
from controller.engine.match_settings import DICE_MODES

__all__ = ["DICE_MODES", "DiceError", "DiceNeeded", "DiceSecret", "TableDice"]
