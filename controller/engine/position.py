"""Backgammon positions as small immutable values.

A position is seen from the player on roll ("mover"), as GNU Backgammon's TanBoard:
`mine[i]` is the number of the mover's checkers on their point i+1 (their own numbering,
1..24, moving towards 1), `mine[24]` their checkers on the bar; `theirs` the same for the
opponent in the opponent's own numbering. The mover's point p is the opponent's 25-p.
Checkers borne off are what is missing from 15. Who is White or Black is not part of a
position: the match knows whose turn it is and maps this to the board's numbering.
"""
from __future__ import annotations

from dataclasses import dataclass

from controller.engine.drawing import draw
from controller.engine.errors import InvalidPositionError
from controller.engine.ids import decode_position_id, encode_position_id
# BAR is imported from here too: the bar's index in a side's tuple is the position's layout
from controller.engine.step import BAR, Step, apply_step

CHECKERS = 15
_START = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)


@dataclass(frozen=True, slots=True)
class Position:
    """A board from the mover's point of view; hashable, so moves are compared by result."""

    mine: tuple[int, ...]
    theirs: tuple[int, ...]

    # -- construction -------------------------------------------------------------------
    @classmethod
    def initial(cls) -> "Position":
        """The starting position (167 pips each)."""
        return cls(_START, _START)

    @classmethod
    def from_id(cls, position_id: str) -> "Position":
        """Decode a GNU Backgammon Position ID such as '4HPwATDgc/ABMA'."""
        mine, theirs = decode_position_id(position_id)
        return cls.checked(mine, theirs)

    @classmethod
    def checked(cls, mine: tuple[int, ...] | list[int], theirs: tuple[int, ...] | list[int]) -> "Position":
        """Build a position after checking it is one (raises InvalidPositionError)."""
        position = cls(tuple(mine), tuple(theirs))
        problems = position.problems()
        if problems:
            raise InvalidPositionError(problems[0])
        return position

    @classmethod
    def from_points(cls, mine: dict[int, int], theirs: dict[int, int]) -> "Position":
        """A position from {point: count} per side, each in its own numbering (25 = the
        bar), checked: `Position.from_points({6: 5, 8: 3}, {24: 2})`."""
        sides: list[list[int]] = [[0] * 25, [0] * 25]
        for side, points in zip(sides, (mine, theirs)):
            for point, count in points.items():
                if not 1 <= point <= 25:
                    raise InvalidPositionError(f"point {point} is not 1..24 or 25 (the bar)")
                side[point - 1] = count
        return cls.checked(*sides)

    @classmethod
    def for_play(cls, position_id: str) -> "Position":
        """Decode a Position ID to start a game from: a valid position in which the game is
        not already over (raises InvalidPositionError with one line)."""
        position = cls.from_id(position_id)
        problem = position.game_problem()
        if problem is not None:
            raise InvalidPositionError(f"position {position_id}: {problem}")
        return position

    def game_problem(self) -> str | None:
        """Why a game cannot be played from this position (None when it can): not a valid
        position, or a finished one (RULES.md "End of a game": the first player to bear off
        all 15 has won; the side on roll, or the opponent, has no checker left)."""
        problems = self.problems()
        if problems:
            return problems[0]
        if not sum(self.mine):
            return "the side on roll has no checkers left: that game is already over"
        if not sum(self.theirs):
            return "the opponent has no checkers left: that game is already over"
        return None

    def problems(self) -> list[str]:
        """Why this is not a valid position, as flags in words; empty when it is valid."""
        found: list[str] = []
        for name, side in (("mover", self.mine), ("opponent", self.theirs)):
            if len(side) != 25:
                found.append(f"the {name} needs 25 counts (24 points and the bar), got {len(side)}")
                continue
            if any((not isinstance(n, int)) or n < 0 for n in side):
                found.append(f"the {name} has a negative or non-integer count")
            elif sum(side) > CHECKERS:
                found.append(f"the {name} has {sum(side)} checkers on the board, more than {CHECKERS}")
        if not found:
            for p in range(1, 25):
                if self.mine[p - 1] and self.theirs[24 - p]:
                    found.append(f"both colours on the mover's point {p}")
                    break
        return found

    # -- views --------------------------------------------------------------------------
    @property
    def id(self) -> str:
        """GNU Backgammon Position ID (14 characters)."""
        return encode_position_id(self.mine, self.theirs)

    def swap(self) -> "Position":
        """The same board seen by the other player (as when the turn passes)."""
        return Position(self.theirs, self.mine)

    def after(self, step: Step) -> "Position":
        """The board after one step of the mover, still seen by the mover (a hit sends
        the blot to the bar). The step is not checked: legality is `legal_moves`' job."""
        mine, theirs = apply_step(self.mine, self.theirs, step.frm, step.to, step.hit)
        return Position(tuple(mine), tuple(theirs))

    @property
    def off(self) -> tuple[int, int]:
        """Checkers borne off: (mover, opponent)."""
        return CHECKERS - sum(self.mine), CHECKERS - sum(self.theirs)

    def pips(self) -> tuple[int, int]:
        """Pip counts (mover, opponent); a checker on the bar counts 25."""
        return (sum(n * (i + 1) for i, n in enumerate(self.mine)),
                sum(n * (i + 1) for i, n in enumerate(self.theirs)))

    def opponent_on(self, point: int) -> int:
        """Opponent checkers on the mover's point `point` (1..24)."""
        return self.theirs[24 - point]

    def __repr__(self) -> str:
        return f"Position.from_id({self.id!r})"

    def __str__(self) -> str:
        return draw(self)
