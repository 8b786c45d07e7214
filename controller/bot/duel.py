"""Bot against bot: whole games and matches, for the bench and the strength tests.

Deliberately independent of the match state machine (`controller.engine.match`): a duel
needs only the rules of scoring (single, gammon, backgammon times the cube), the cube
exchange and the Crawford rule, and it must run thousands of games quickly.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass

from controller.analysis.match_context import MatchContext
from controller.bot.contract import Bot
from controller.engine import Position

ONE_POINT = MatchContext(length=1, bot_away=1, opponent_away=1)
"""A one-point game: only winning counts, so gammons weigh nothing."""


@dataclass(frozen=True, slots=True)
class GameResult:
    """Who won (0 or 1, the index of the bot) and how many points."""

    winner: int
    points: int
    moves: int


def game_value(winner_view: Position) -> int:
    """1, 2 or 3 for a finished game, `winner_view` from the winner (who has no checker left)."""
    loser = winner_view.theirs
    if sum(loser) < 15:
        return 1
    # the loser's checkers on the bar or in the winner's home board (loser's points 19..24)
    return 3 if sum(loser[18:25]) else 2


def opening_roll(rng: random.Random) -> tuple[int, tuple[int, int]]:
    """Who starts (0 or 1: the higher die) and the opening roll they play (never a double)."""
    while True:
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        if a != b:
            return (0 if a > b else 1), (a, b)


def play_game(bots: tuple[Bot, Bot], rng: random.Random, contexts: tuple[MatchContext, MatchContext] | None = None,
              max_turns: int = 2000) -> GameResult:
    """One game; `contexts[i]` is the match seen by bot i (cube centred at the start).

    Without contexts it is a one-point game: no cube."""
    turn, first = opening_roll(rng)
    dice: tuple[int, int] | None = first
    pos = Position.initial()
    ctx = list(contexts) if contexts else None
    cube_live = ctx is not None
    for n in range(max_turns):
        me, other = bots[turn], bots[1 - turn]
        if dice is None:
            if cube_live and ctx is not None and ctx[turn].bot_may_double() and me.should_double(pos, ctx[turn]):
                if not other.should_take(pos, ctx[1 - turn]):
                    return GameResult(turn, ctx[turn].cube, n)
                cube = ctx[turn].cube * 2
                ctx[turn] = _with_cube(ctx[turn], cube, "opponent")
                ctx[1 - turn] = _with_cube(ctx[1 - turn], cube, "bot")
            dice = (rng.randint(1, 6), rng.randint(1, 6))
        context = ctx[turn] if ctx else ONE_POINT
        move = me.choose_move(pos, dice, context)
        if move is not None:
            pos = move.result
            if sum(pos.mine) == 0:
                return GameResult(turn, game_value(pos) * context.cube, n + 1)
        pos = pos.swap()
        turn = 1 - turn
        dice = None
    raise RuntimeError(f"game did not end in {max_turns} turns")


def _with_cube(c: MatchContext, cube: int, owner: str) -> MatchContext:
    return MatchContext(c.length, c.bot_away, c.opponent_away, cube, owner, c.crawford)  # type: ignore[arg-type]


def play_match(bots: tuple[Bot, Bot], length: int, rng: random.Random) -> int:
    """A `length`-point match with cube and Crawford rule; returns the winner's index."""
    score = [0, 0]
    crawford_done = False
    while max(score) < length:
        away = (length - score[0], length - score[1])
        crawford = not crawford_done and 1 in away
        if crawford:
            crawford_done = True
        contexts = (MatchContext(length, away[0], away[1], 1, "center", crawford),
                    MatchContext(length, away[1], away[0], 1, "center", crawford))
        result = play_game(bots, rng, contexts)
        score[result.winner] += result.points
    return 0 if score[0] >= length else 1


@dataclass(frozen=True, slots=True)
class DuelFigures:
    """Wins of the first bot out of `played`, with its rate and 95% margin (normal approx.)."""

    wins: int
    played: int

    @property
    def rate(self) -> float:
        return self.wins / self.played if self.played else 0.0

    @property
    def margin95(self) -> float:
        p = self.rate
        return 1.96 * math.sqrt(p * (1 - p) / self.played) if self.played else 1.0


def duel(first: Bot, second: Bot, count: int, seed: int, match_length: int = 1) -> DuelFigures:
    """`count` games (length 1, no cube) or matches; who starts alternates fairly because
    the opening roll decides, and the seat (index) alternates every game too."""
    rng = random.Random(seed)
    wins = 0
    for i in range(count):
        pair = (first, second) if i % 2 == 0 else (second, first)
        if match_length == 1:
            w = play_game(pair, rng).winner
        else:
            w = play_match(pair, match_length, rng)
        if (w == 0) == (i % 2 == 0):
            wins += 1
    return DuelFigures(wins, count)
