"""gnubg's correction of a race network's backgammons (`EvalRaceBG`, eval.c): backgammon
chances from the bear-off databases where a side still has checkers in the other's home
board and the other has borne none off.

The backgammon chance comes from the chances that the trailing side's last checkers (at
most six, in the other's home board) are all out of it after exactly 1..5 rolls (gnubg's
`getRaceBGprobs` table, worked out here: `_escape`),
weighed by the bear-off distribution of the side bearing off; with more checkers back, it
is gnubg-nn's second way: the race out of the home board as a bear-off of its own.
"""
from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from controller.evaluation import bearoff_db
from controller.evaluation.bearoff_index import one_sided_index

WIN, WIN_GAMMON, WIN_BACKGAMMON, LOSE_GAMMON, LOSE_BACKGAMMON = range(5)


_HORIZON = 5
_ROLLS = tuple((a, b) for a in range(1, 7) for b in range(1, 7))


def _plays(state: tuple[int, ...], dice: tuple[int, ...]) -> set[tuple[int, ...]]:
    """The checkers still in the zone (distances to get out) after each way to play."""
    found = {state}
    for die in dice:
        nxt = set()
        for s in found:
            nxt.add(s)
            for i in range(len(s)):
                left = s[i] - die
                moved = s[:i] + s[i + 1:] + ((left,) if left > 0 else ())
                nxt.add(tuple(sorted(moved)))
        found = nxt
    return found


def _choices(state: tuple[int, ...], a: int, b: int) -> set[tuple[int, ...]]:
    """Where a roll can leave the checkers (the roll played in full, or not at all)."""
    if a == b:
        return _plays(state, (a,) * 4)
    return _plays(state, (a, b)) | _plays(state, (b, a))


@lru_cache(maxsize=None)
def _expected_rolls(state: tuple[int, ...]) -> float:
    """The average number of rolls to get every checker out, playing to make it least."""
    if not state:
        return 0.0
    total = 0.0
    for a, b in _ROLLS:
        plays = _choices(state, a, b)
        if len(plays) > 1:
            plays.discard(state)
        total += min(_expected_rolls(s) for s in plays)
    return 1.0 + total / 36.0


@lru_cache(maxsize=None)
def _rolls_needed(state: tuple[int, ...]) -> tuple[float, ...]:
    """Chances of needing exactly 0..HORIZON rolls, each roll played to make the average
    number of rolls least (the strategy gnubg's table was made with: it agrees with it)."""
    out = [0.0] * (_HORIZON + 1)
    if not state:
        out[0] = 1.0
        return tuple(out)
    for a, b in _ROLLS:
        best = min(_choices(state, a, b), key=lambda s: (_expected_rolls(s), sum(s), s))
        for t, p in enumerate(_rolls_needed(best)[:_HORIZON]):
            out[t + 1] += p / 36.0
    return tuple(out)


def _escape(zone: Sequence[int]) -> tuple[float, ...] | None:
    """Chances that the checkers in the other's home board (`zone[i]` on the point i + 1
    pips from getting out) are all out after exactly 1..5 rolls; None for more than six."""
    if sum(zone[:5]) > 6:
        return None
    state = tuple(sorted(d for i in range(5) for d in [i + 1] * zone[i]))
    return _rolls_needed(state)[1:]


def _backgammon_chance(board: Sequence[Sequence[int]], side: int) -> float:
    """The chance that `side` wins a backgammon (gnubg's `raceBGprob`)."""
    other = 1 - side
    men_home = sum(board[side][:6])
    pips_out = sum(board[other][i] * (i - 17) for i in range(18, 23))
    if pips_out == 0 or not ((men_home + 3) // 4 - (1 if side == 1 else 0) <= (pips_out + 2) // 3):
        return 0.0
    dummy: list[list[int]] = [[0] * 25, [0] * 25]
    dummy[side] = list(board[side])
    dummy[other][:6] = board[other][18:24]
    escape = _escape(dummy[other])
    db = bearoff_db.one_sided()
    if escape is not None and db is not None:
        bear = db.distributions(one_sided_index(board[side]))[0]
        chance = 0.0
        for j in range(1 - side, _HORIZON):
            chance += escape[j] * sum(bear[1:j + side + 1])
        return chance / 65535.0
    p = None
    if one_sided_index(dummy[0]) <= 923 and one_sided_index(dummy[1]) <= 923:
        p = bearoff_db.two_sided_eval(dummy)
    if p is None:
        p = bearoff_db.one_sided_eval(dummy)
    return p[WIN] if side == 1 else 1.0 - p[WIN]


def race_backgammons(board: Sequence[Sequence[int]], out: list[float]) -> None:
    """gnubg's `EvalRaceBG`, in place on the side on roll's race network outputs: where a
    side has borne nothing off and still has a checker in the other's home board, the
    chance that the other wins a backgammon replaces the network's (`_set_backgammon`).
    gnubg-nn's `raceImprovement` goes on to make gammons certain by its own count; the
    program leaves that to `sanity.sanity_check`, and so does this."""
    men0, men1 = sum(board[0][:24]), sum(board[1][:24])
    bg_possible = men0 == 15 and any(board[0][i] for i in range(18, 24))
    obg_possible = men1 == 15 and any(board[1][i] for i in range(18, 24))
    if bg_possible or obg_possible:
        _set_backgammon(board, out, 1 if bg_possible else 0)


def _set_backgammon(board: Sequence[Sequence[int]], out: list[float], side: int) -> None:
    """The chance that `side` (1: the side on roll) wins a backgammon replaces the
    network's, and the gammon chance is at least that."""
    pr = _backgammon_chance(board, side)
    if pr > 0.0:
        if side == 1:
            out[WIN_BACKGAMMON] = pr
            out[WIN_GAMMON] = max(out[WIN_GAMMON], pr)
        else:
            out[LOSE_BACKGAMMON] = pr
            out[LOSE_GAMMON] = max(out[LOSE_GAMMON], pr)
    elif side == 1:
        out[WIN_BACKGAMMON] = 0.0
    else:
        out[LOSE_BACKGAMMON] = 0.0
