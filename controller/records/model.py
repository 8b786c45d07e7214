"""What a match record holds, as plain frozen values.

A record is what a `.mat` file says once every move has been checked against the rules
engine: the match length, the two players (index 0 is the left column of a `.mat` file,
"Player 1"; index 1 the right column), the file's tags, and each game with the score before
it, whether it was the Crawford game, every action in order and how it ended. Moves are
kept as the engine's `Step`s (hits found by the engine), so a writer never has to guess
and a reader of the record never has to replay the board again.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from controller.engine import Step

End = Literal["bearoff", "drop", "resign"]


@dataclass(frozen=True, slots=True)
class Roll:
    """A player rolled `dice` and played `steps` (empty: no legal move, or a dance)."""

    player: int
    dice: tuple[int, int]
    steps: tuple[Step, ...] = ()


@dataclass(frozen=True, slots=True)
class Double:
    """`player` turned the cube to `cube` before rolling."""

    player: int
    cube: int


@dataclass(frozen=True, slots=True)
class Take:
    """`player` took the double; they own the cube now."""

    player: int


@dataclass(frozen=True, slots=True)
class Drop:
    """`player` dropped the double and lost the game at the cube's old value."""

    player: int


@dataclass(frozen=True, slots=True)
class Resign:
    """`player` resigned `level` (1 single, 2 gammon, 3 backgammon) and it was accepted."""

    player: int
    level: int


Action = Roll | Double | Take | Drop | Resign


@dataclass(frozen=True, slots=True)
class Game:
    """One game: the score before it, its actions, and its result.

    `winner` is None while a game is unfinished (a record cut short); `points` is what the
    game was worth on the board (result x cube), even where a site wrote fewer because
    fewer were needed to win the match.
    """

    number: int
    score: tuple[int, int]
    crawford: bool
    actions: tuple[Action, ...]
    winner: int | None = None
    points: int = 0
    end: End | None = None
    cube: int = 1

    @property
    def finished(self) -> bool:
        return self.winner is not None

    @property
    def result_level(self) -> int:
        """1 single, 2 gammon, 3 backgammon (0 while unfinished)."""
        return self.points // self.cube if self.finished else 0


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A whole match as recorded: length (0 for money play), players, tags, games."""

    length: int
    players: tuple[str, str]
    games: tuple[Game, ...] = ()
    tags: tuple[tuple[str, str], ...] = field(default=())
    crawford_rule: bool = True

    @property
    def final_score(self) -> tuple[int, int]:
        """The score after the last finished game (the score before the first if none)."""
        score = (0, 0)
        for game in self.games:
            score = game.score
            if game.winner is not None:
                s = list(score)
                s[game.winner] += game.points
                score = (s[0], s[1])
        return score

    @property
    def winner(self) -> int | None:
        """The player who reached the match length, if one did."""
        if not self.length:
            return None
        s = self.final_score
        for i in (0, 1):
            if s[i] >= self.length:
                return i
        return None

    def tag(self, name: str) -> str | None:
        """The value of the first tag called `name` (case-insensitive), if any."""
        for key, value in self.tags:
            if key.lower() == name.lower():
                return value
        return None


def crawford_game(length: int, score: tuple[int, int], crawford_done: bool, rule: bool = True) -> bool:
    """Whether a game at `score` is the Crawford game: the first game in which exactly one
    player stands one point short of the target (RULES.md "Doubling cube")."""
    if not rule or crawford_done or length <= 1:
        return False
    return (score[0] == length - 1) != (score[1] == length - 1)
