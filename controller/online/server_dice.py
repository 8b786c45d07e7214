"""The table's dice online: the server rolls them.

Kept apart from `RemoteOpponent` (remote.py) because the spectator's table
(watching.py) uses the same dice without any opponent.
"""
from __future__ import annotations

from controller.dice import DiceError, DiceNeeded, TableDice
from controller.engine.match import Match


class ServerDice(TableDice):
    """Online the server rolls: a roll is the one it sent (`deliver`), else DiceNeeded and
    `asked` remembers that the person wants to roll."""

    def __init__(self) -> None:
        super().__init__()
        self.mode = "server"
        self.asked = False

    def adopt(self, match: Match, secret: object = None) -> None:
        self.mode, self.secret = "server", None

    def begin(self, match: Match) -> None:
        self.adopt(match)

    def push(self, dice: tuple[int, int]) -> None:
        raise DiceError("online the server rolls the dice", "dice_server")

    def deliver(self, dice: tuple[int, int]) -> None:
        self.queue.clear()
        self.queue.append(dice)

    def roll(self, match: Match) -> tuple[int, int]:
        if self.queue:
            return self.queue.popleft()
        self.asked = True
        raise DiceNeeded("the server rolls the dice")
