"""A random player for match tests: drives a Match through random legal commands."""
from __future__ import annotations

import random
from collections.abc import Callable

from controller.engine.board_view import other
from controller.engine.match import LEVELS, Match, Transition
from controller.engine.match_settings import MatchSettings


def random_settings(rng: random.Random) -> MatchSettings:
    return MatchSettings(
        length=rng.randint(1, 7), cube=rng.random() < 0.8, crawford=rng.random() < 0.8,
        confirm=rng.choice(("auto", "button")), auto_roll_white=rng.random() < 0.15,
        auto_roll_black=rng.random() < 0.15,
    )


def dice(rng: random.Random) -> tuple[int, int]:
    return rng.randint(1, 6), rng.randint(1, 6)


def random_command(m: Match, rng: random.Random, step_share: float = 0.05, now: float = 0.0) -> Transition:
    """One random allowed command for the match's current state."""
    if rng.random() < 0.0005:
        return m.forfeit(rng.choice(("white", "black")), now=now)
    side = m.turn
    if m.phase == "opening":
        return m.roll(rng.choice(("white", "black")), dice(rng), now=now)
    assert side is not None
    if m.phase == "roll":
        r = rng.random()
        if m.may_double(side) and r < 0.08:
            return m.double(side, now=now)
        if r > 0.99 and m.declined < 3:
            return m.resign(side, LEVELS[rng.randint(m.declined, 2)], now=now)
        return m.roll(side, dice(rng), now=now)
    if m.phase == "doubled":
        return m.take(other(side), now=now) if rng.random() < 0.7 else m.drop(other(side), now=now)
    if m.phase == "resigning":
        return m.accept(other(side), now=now) if rng.random() < 0.5 else m.decline(other(side), now=now)
    if m.phase == "move":
        assert m.dice is not None
        if m.steps or rng.random() < step_share:
            plan = m.plan
            assert plan is not None
            if m.move_complete:
                return m.done(side, now=now)
            if m.steps and rng.random() < 0.2:
                return m.undo(side, now=now)
            return m.step(side, rng.choice(plan.next_steps(m.partial)), now=now)
        return m.play(side, rng.choice(m.legal_moves()), now=now)
    raise AssertionError(f"no command in phase {m.phase}")


def play_match(m: Match, rng: random.Random, check: Callable[[Match, Match, Transition], None] | None = None,
               limit: int = 100_000) -> Match:
    """Random commands until the match is over; `check(before, after, transition)` after each."""
    for _ in range(limit):
        if m.is_over:
            return m
        t = random_command(m, rng)
        if check is not None:
            check(m, t.match, t)
        m = t.match
    raise AssertionError("the match did not end")
