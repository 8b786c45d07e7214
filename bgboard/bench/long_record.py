"""A long match record made up for memory figures: `length` points, up to `games` games of
random legal play (no cube), each scored as its end gives it (a gammon 2, a backgammon 3),
stopped where a player reaches the length. Random play makes long games full of hits and
contact: a hard case for the analysis, which keeps figures per game. The record replays
(`bgboard replay`), so `bgboard analyze` accepts it as it accepts any record.
"""
from __future__ import annotations

import random

from controller.engine import Position, legal_moves
from controller.engine.position import CHECKERS
from controller.records.model import Action, Game, MatchRecord, Roll


def _game(rng: random.Random, number: int, score: tuple[int, int], crawford: bool) -> Game:
    while True:
        first, second = rng.randint(1, 6), rng.randint(1, 6)
        if first != second:
            break
    player = 0 if first > second else 1
    dice = (first, second)
    position = Position.initial()
    actions: list[Action] = []
    while True:
        moves = legal_moves(position, dice)
        move = rng.choice(moves) if moves else None
        actions.append(Roll(player, dice, move.steps if move else ()))
        if move is not None:
            position = move.result
        if position.off[0] == CHECKERS:
            loser = position.swap()  # the loser's checkers on its 19..24 points or the bar: a backgammon
            level = 1 if loser.off[0] else 3 if any(loser.mine[18:25]) else 2
            return Game(number, score, crawford, tuple(actions), winner=player, points=level)
        position = position.swap()
        player = 1 - player
        dice = (rng.randint(1, 6), rng.randint(1, 6))


def long_record(length: int = 25, games: int = 25, seed: int = 8) -> MatchRecord:
    """The record (see the module); the default seed plays all 25 games (2,840 actions)."""
    rng = random.Random(seed)
    out: list[Game] = []
    score = (0, 0)
    crawford_done = False
    for number in range(1, games + 1):
        crawford = not crawford_done and length - 1 in score
        crawford_done = crawford_done or crawford
        game = _game(rng, number, score, crawford)
        out.append(game)
        won = list(score)
        won[game.winner or 0] += game.points
        score = (won[0], won[1])
        if max(score) >= length:
            break
    return MatchRecord(length, ("Random_1", "Random_2"), tuple(out))
