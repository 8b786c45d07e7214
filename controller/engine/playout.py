"""Positions reached by random play: test data and benchmark samples.

The engine owns no randomness: the caller passes the `random.Random` to use.
"""
from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import islice

from controller.engine.moves import legal_moves
from controller.engine.position import CHECKERS, Position


def random_walk(rng: random.Random) -> Iterator[Position]:
    """An endless series of positions, each the one after a random legal move of the
    previous one (seen by the side on roll); a new game starts when one ends."""
    position = Position.initial()
    while True:
        yield position
        moves = legal_moves(position, (rng.randint(1, 6), rng.randint(1, 6)))
        if moves:
            position = rng.choice(moves).result
        position = position.swap()
        if CHECKERS in position.off:
            position = Position.initial()


def played_positions(count: int, seed: int) -> list[Position]:
    """The first `count` positions of a random walk with this seed."""
    return list(islice(random_walk(random.Random(seed)), count))
