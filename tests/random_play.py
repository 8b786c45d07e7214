"""Positions of seeded games of random legal moves: the boards the evaluation tests compare
with their oracle (the gnubg-nn wheel, the gnubg program), every class of position from the
opening to the last bear-off, without a record to read."""
from __future__ import annotations

import random

from controller.engine import Position, legal_moves

#: a board as the network's inputs take it: (the side not on roll, the side on roll)
Board = tuple[tuple[int, ...], tuple[int, ...]]


def random_positions(games: int, seed: int, turns: int) -> list[Board]:
    """Every position of `games` seeded games of at most `turns` turns, each once, in order."""
    rng = random.Random(seed)
    found: list[Board] = []
    for _ in range(games):
        position = Position.initial()
        for _turn in range(turns):
            found.append((position.theirs, position.mine))
            if not any(position.mine) or not any(position.theirs):
                break
            moves = legal_moves(position, (rng.randint(1, 6), rng.randint(1, 6)))
            position = (rng.choice(moves).result if moves else position).swap()
    return list(dict.fromkeys(found))
