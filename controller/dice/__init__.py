"""The dice: board, entered, verifiable and the server's (README.md here describes the
three a match may choose and the verifiable construction with its test vectors)."""
from controller.dice.secret import DiceSecret
from controller.dice.state import DICE_SOURCES, DiceError, DiceMode, DiceNeeded, DiceSource, DiceState
from controller.engine.match_settings import DICE_MODES

__all__ = ["DICE_MODES", "DICE_SOURCES", "DiceError", "DiceMode", "DiceNeeded", "DiceSecret", "DiceSource",
           "DiceState"]
