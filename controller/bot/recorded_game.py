"""Bot against bot, recorded: one game at the start of a match as a `MatchRecord`, so the
analysis can judge how well a computer level plays (`bgboard bench --only bot`).

The game is the first of a `length`-point match (0-0, cube centred and alive), played
with the cube; every roll, double, take and pass is kept as the record model keeps a
`.mat` file's.
"""
from __future__ import annotations

import random

from controller.analysis.match_context import MatchContext
from controller.bot.contract import Bot
from controller.bot.duel import game_value, opening_roll
from controller.engine import Position
from controller.records.model import Action, Double, Drop, Game, MatchRecord, Roll, Take


def _context(length: int, cube: int, owner: str) -> MatchContext:
    return MatchContext(length, length, length, cube, owner, False)  # type: ignore[arg-type]


def play_recorded_game(bots: tuple[Bot, Bot], rng: random.Random, length: int = 5,
                       max_turns: int = 1000) -> MatchRecord:
    """One game of bots[0] (player 0) against bots[1], as a one-game match record."""
    turn, first = opening_roll(rng)
    dice: tuple[int, int] | None = first
    pos = Position.initial()
    cube, owner = 1, -1
    actions: list[Action] = []
    winner, points = None, 0
    for _ in range(max_turns):
        me, other = bots[turn], bots[1 - turn]
        mine = _context(length, cube, "center" if owner < 0 else "bot" if owner == turn else "opponent")
        if dice is None:
            if mine.bot_may_double() and me.should_double(pos, mine):
                actions.append(Double(turn, 2 * cube))
                if not other.should_take(pos, mine.flipped()):
                    actions.append(Drop(1 - turn))
                    winner, points = turn, cube
                    break
                actions.append(Take(1 - turn))
                cube, owner = 2 * cube, 1 - turn
                mine = _context(length, cube, "opponent")
            dice = (rng.randint(1, 6), rng.randint(1, 6))
        move = me.choose_move(pos, dice, mine)
        actions.append(Roll(turn, dice, move.steps if move else ()))
        if move is not None:
            pos = move.result
            if sum(pos.mine) == 0:
                winner, points = turn, game_value(pos) * cube
                break
        pos = pos.swap()
        turn = 1 - turn
        dice = None
    else:
        raise RuntimeError(f"game did not end in {max_turns} turns")
    game = Game(1, (0, 0), False, tuple(actions), winner, points, "drop" if isinstance(actions[-1], Drop)
                else "bearoff", cube)
    names = (bots[0].name, bots[1].name)
    return MatchRecord(length, names, (game,))
