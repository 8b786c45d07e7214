"""The `simple` level: the light evaluation over every legal move, pip-count cube.

Light enough for a Raspberry Pi Zero 2 (see `bgboard bench`): no lookahead, one linear
evaluation per candidate move. Gammons count as the match score says they do: a gammon
win is worth nothing extra when a single win already ends the match, and so on.
Ties (rare) are broken by the injected `random.Random`, so a seeded game replays exactly.
"""
from __future__ import annotations

import functools
import random
from collections.abc import Mapping
from types import MappingProxyType

from controller.analysis.match_context import MatchContext
from controller.bot.cube_rules import (
    accepts_resignation_by_race,
    should_double_by_pips,
    should_take_by_pips,
)
from controller.bot.evaluation import Scorer, Weights
from controller.engine import Move, Position, legal_moves


def gammon_values(context: MatchContext) -> tuple[float, float]:
    """How much a gammon won and a gammon lost add to a single game's worth, 0..1.

    Money: 1 each. Match: nothing extra once a single game at this cube already reaches
    the match for that side; otherwise the full extra point (no match-equity table here:
    this level is meant to stay light)."""
    if context.is_money:
        return 1.0, 1.0
    win = 0.0 if context.bot_away <= context.cube else 1.0
    lose = 0.0 if context.opponent_away <= context.cube else 1.0
    return win, lose


#: Every pair `gammon_values` gives: a gammon won and a gammon lost each worth 0 or 1.
GAMMON_VALUE_PAIRS: tuple[tuple[float, float], ...] = ((0.0, 0.0), (0.0, 1.0), (1.0, 0.0), (1.0, 1.0))


@functools.cache
def fitted_scorers() -> Mapping[tuple[float, float], Scorer]:
    """The fitted weights' scorer for each of `GAMMON_VALUE_PAIRS`, built together once a
    process (50 ms here) and shared by every simple bot: built as each score first needed
    them, the four (~330 KB) filled over a simulator's first matches, a creep after its
    first game in the soak (issue 35), and each bot held its own."""
    from controller.bot.simple_weights import WEIGHTS

    return MappingProxyType({values: Scorer(WEIGHTS, *values) for values in GAMMON_VALUE_PAIRS})


class SimpleBot:
    """The light level; `weights` default to the fitted ones in `simple_weights`."""

    name = "simple"

    def __init__(self, rng: random.Random | None = None, weights: Weights | None = None) -> None:
        self._scorers: dict[tuple[float, float], Scorer] = {}
        if weights is None:
            from controller.bot.simple_weights import WEIGHTS

            weights = WEIGHTS
            self._scorers.update(fitted_scorers())
        self._weights = weights
        self._rng = rng if rng is not None else random.Random(0)

    def scorer(self, context: MatchContext) -> Scorer:
        """The move scorer for this score's gammon values (built once per pair)."""
        values = gammon_values(context)
        if values not in self._scorers:
            self._scorers[values] = Scorer(self._weights, *values)
        return self._scorers[values]

    def rank(self, position: Position, dice: tuple[int, int], context: MatchContext) -> list[tuple[float, Move]]:
        """Every legal move with its score, best first (for tests and explanations)."""
        score = self.scorer(context)
        scored = [(score(move.result), move) for move in legal_moves(position, dice)]
        scored.sort(key=lambda sm: -sm[0])
        return scored

    def choose_move(self, position: Position, dice: tuple[int, int], context: MatchContext) -> Move | None:
        scored = self.rank(position, dice, context)
        if not scored:
            return None
        top = scored[0][0]
        best = [m for s, m in scored if s >= top - 1e-12]
        return best[0] if len(best) == 1 else self._rng.choice(best)

    def should_double(self, position: Position, context: MatchContext) -> bool:
        return should_double_by_pips(position, context)

    def should_take(self, position: Position, context: MatchContext) -> bool:
        return should_take_by_pips(position, context)

    def accepts_resignation(self, position: Position, level: int, context: MatchContext) -> bool:
        return accepts_resignation_by_race(position, level)

    def close(self) -> None:
        """Nothing to release."""
