"""The `simple` level's light evaluation: a few dozen backgammon features, weighed linearly.

Features are the ones a club player counts (race, blots and the shots at them, made
points, primes, home boards, anchors, escapes, the bar, checkers still to bring home for
gammons), plus pubeval-style checker counts point by point, measured on the position
*after* the mover's move, while the opponent is about to roll. Each phase (race, opening,
later contact) has its own weights, fitted offline (`controller.bot.train_simple`) by least
squares to GNU Backgammon's 0-ply chances on the candidate moves of its own games, centred
per roll: the fit learns what makes one move better than another. So the features are
ours and the judgement of how much each matters is borrowed; at play time no network runs,
which keeps a move within milliseconds (see `bgboard bench`).
"""
from __future__ import annotations

import functools
import operator
from dataclasses import dataclass

from controller.engine import Position

# The 21 distinct rolls, doubles weigh 1/36 and others 2/36.
ROLLS: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(1, 7) for b in range(a, 7))
ROLL_WEIGHT: tuple[int, ...] = tuple(1 if a == b else 2 for a, b in ROLLS)


def _hit_paths() -> tuple[tuple[tuple[int, tuple[int, ...]], ...], ...]:
    """For each distance 1..24: (roll index, offsets of the landing points on the way)."""
    table: list[list[tuple[int, tuple[int, ...]]]] = [[] for _ in range(25)]
    for r, (a, b) in enumerate(ROLLS):
        if a == b:
            for k in range(1, 5):
                table[k * a].append((r, tuple(a * i for i in range(1, k))))
        else:
            table[a].append((r, ()))
            table[b].append((r, ()))
            table[a + b].append((r, (a,)))
            table[a + b].append((r, (b,)))
    return tuple(tuple(row) for row in table)


HIT_PATHS = _hit_paths()


def escape_rolls(side: tuple[int, ...], other: tuple[int, ...]) -> int:
    """Of 36 rolls, how many carry `side`'s rearmost checker past every point `other` has
    made in the 12 pips ahead of it (36 when nothing blocks or nothing is behind)."""
    back = 25 if side[24] else next((p for p in range(24, 0, -1) if side[p - 1]), 0)
    if back < 8:
        return 36
    mask = 0
    for x in range(1, back):
        if other[24 - x] >= 2:
            mask |= 1 << x
    return _escapes(back, mask)


#: `_escapes`' memo: its hits are among one move's candidates, which share the back
#: checker and most points, so a few hundred entries hit nearly as often (90.6 % against
#: 94 % over 30 games of the level against itself, the same CPU time) as 8,192 did, which
#: took some 80 games of a simulator's computer to fill (1.4 MB: a creep after the first
#: game in the soak); 256 are full after the first two games.
ESCAPES_MEMO = 256


@functools.lru_cache(maxsize=ESCAPES_MEMO)
def _escapes(back: int, blocked: int) -> int:
    """`escape_rolls` for a checker on `back` and `blocked` points (bit x: point x made):
    cached, because candidate moves share the opponent's points and the back checker."""
    made = [x for x in range(max(1, back - 12), back) if blocked >> x & 1]
    if not made:
        return 36
    lowest = min(made)
    ok = 0
    for r, (a, b) in enumerate(ROLLS):
        reached = False
        if a == b:
            x = back
            for _ in range(4):
                x -= a
                if x < 1 or blocked >> x & 1:
                    break
                if x < lowest:
                    reached = True
                    break
        else:
            for d1, d2 in ((a, b), (b, a)):
                x = back - d1
                if x >= 1 and not blocked >> x & 1:
                    if x < lowest:
                        reached = True
                        break
                    y = x - d2
                    if y >= 1 and not blocked >> y & 1 and y < lowest:
                        reached = True
                        break
        if reached:
            ok += ROLL_WEIGHT[r]
    return ok


CONTACT_FEATURES: tuple[str, ...] = (
    "bias", "pip_lead", "shots", "shots_x_their_board", "my_blots", "their_blots",
    "my_board", "their_board", "my_prime", "their_prime", "my_anchors", "their_anchors",
    "their_bar", "their_bar_x_my_board", "my_bar", "my_back", "their_back", "my_off",
    "their_off", "my_golden", "my_stack", "my_outside", "their_outside", "my_blot_cost",
    "my_trapped", "their_trapped", "my_builders", "my_escape", "their_escape",
    "their_enter_fail", "my_enter_fail", "shots_x_pips",
)
RACE_FEATURES: tuple[str, ...] = (
    "bias", "pip_lead", "my_off", "their_off", "my_outside", "their_outside",
    "my_stack", "my_gaps", "their_stack", "my_pips_sq",
)


PHASES: tuple[str, ...] = ("race", "contact", "opening")
"""Each phase has its own weights: a linear fit cannot bend, several fits can."""
OPENING_PIPS = 250
"""Contact positions with more pips than this on the board (both sides) are the opening."""
HEADS: tuple[str, ...] = ("win", "gammon", "lose_gammon")


@dataclass(frozen=True, slots=True)
class Weights:
    """Per phase, three linear heads: win chance, gammon win and gammon loss, each over
    the phase's features followed by the point-by-point RAW_FEATURES."""

    heads: dict[str, tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]]]


def is_contact(position: Position) -> bool:
    """Some checkers still have to pass each other."""
    mine, theirs = position.mine, position.theirs
    if mine[24] or theirs[24]:
        return True
    back = 0
    for p in range(24, 0, -1):
        if mine[p - 1]:
            back = p
            break
    for q in range(24, 0, -1):
        if theirs[q - 1]:
            return 25 - q < back
    return False


_HIT_MASKS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((r, sum(1 << h for h in hops)) for r, hops in row) for row in HIT_PATHS)
"""HIT_PATHS with the landing points on the way as a bit mask (bit h: h pips from the start)."""


def shot_rolls(position: Position) -> int:
    """Of 36 rolls, how many let the opponent (to roll) hit at least one of the mover's blots."""
    mine, theirs = position.mine, position.theirs
    blots = [p for p in range(1, 25) if mine[p - 1] == 1]
    if not blots:
        return 0
    if theirs[24]:
        sources = [0]
    else:
        sources = [25 - q for q in range(1, 25) if theirs[q - 1]]
    blocked = 0  # bit y: the mover holds point y
    for y in range(1, 25):
        if mine[y - 1] >= 2:
            blocked |= 1 << y
    hit = 0  # bitmask over ROLLS
    for p in blots:
        for x in sources:
            d = p - x
            if d < 1 or d > 24:
                continue
            ahead = blocked >> x
            for r, hops in _HIT_MASKS[d]:
                if not ahead & hops:
                    hit |= 1 << r
    total = 0
    r = 0
    while hit:
        if hit & 1:
            total += ROLL_WEIGHT[r]
        hit >>= 1
        r += 1
    return total


def _trapped_from(side: tuple[int, ...], length: int, start: int) -> float:
    """Checkers of `side` behind the other side's prime of `length` starting at index
    `start` (the other side's numbering), scaled by how much longer than 3 it is."""
    if length < 4:
        return 0.0
    low = 25 - (start + length)  # side's lowest point of the prime
    return (side[24] + sum(side[low + length - 1:24])) * (length - 3) / 15.0


def contact_features(position: Position) -> list[float]:
    """CONTACT_FEATURES of a position after the mover's move (opponent to roll).

    One pass over the points for most counts: this runs for every candidate move."""
    mine, theirs = position.mine, position.theirs
    pm = pt = 0
    my_blots = their_blots = 0
    blot_cost = 0.0
    my_board = their_board = my_anchors = their_anchors = 0
    stack = builders = 0
    my_count = their_count = my_back = their_back = my_out = their_out = 0
    my_run = my_best = my_start = their_run = their_best = their_start = 0
    for i in range(24):
        n = mine[i]
        t = theirs[i]
        if n:
            pm += n * (i + 1)
            my_count += n
            if n == 1:
                my_blots += 1
                blot_cost += (24 - i) / 24.0
            elif n > 3:
                stack += n - 3
            if i >= 6:
                my_out += n
                if i >= 18:
                    my_back += n
                if i < 11:
                    builders += 1
        if t:
            pt += t * (i + 1)
            their_count += t
            if t == 1:
                their_blots += 1
            if i >= 6:
                their_out += t
                if i >= 18:
                    their_back += t
        if n >= 2:
            my_run += 1
            if my_run > my_best:
                my_best, my_start = my_run, i - my_run + 1
            if i < 6:
                my_board += 1
            elif i >= 18:
                my_anchors += 1
        else:
            my_run = 0
        if t >= 2:
            their_run += 1
            if their_run > their_best:
                their_best, their_start = their_run, i - their_run + 1
            if i < 6:
                their_board += 1
            elif i >= 18:
                their_anchors += 1
        else:
            their_run = 0
    my_bar, their_bar = mine[24], theirs[24]
    pm += 25 * my_bar
    pt += 25 * their_bar
    shots = shot_rolls(position) / 36.0
    golden = (mine[4] >= 2) * 1.0 + (mine[3] >= 2) * 0.7 + (mine[6] >= 2) * 0.8 + (mine[5] >= 2) * 0.5 \
        + (mine[7] >= 2) * 0.4 + (mine[8] >= 2) * 0.3
    return [
        1.0,
        (pt - pm) / 100.0,
        shots,
        shots * their_board / 6.0,
        my_blots / 5.0,
        their_blots / 5.0,
        my_board / 6.0,
        their_board / 6.0,
        my_best / 6.0,
        their_best / 6.0,
        float(my_anchors),
        float(their_anchors),
        float(their_bar),
        their_bar * my_board / 6.0,
        float(my_bar),
        (my_back + my_bar) / 15.0,
        (their_back + their_bar) / 15.0,
        (15 - my_count - my_bar) / 15.0,
        (15 - their_count - their_bar) / 15.0,
        golden,
        stack / 15.0,
        (my_out + my_bar) / 15.0,
        (their_out + their_bar) / 15.0,
        blot_cost * shots,
        _trapped_from(mine, their_best, their_start),
        _trapped_from(theirs, my_best, my_start),
        builders / 5.0,
        escape_rolls(mine, theirs) / 36.0,
        escape_rolls(theirs, mine) / 36.0,
        (my_board / 6.0) ** 2 * (their_bar > 0),
        (their_board / 6.0) ** 2 * (my_bar > 0),
        shots * (pt - pm) / 100.0,
    ]


def race_features(position: Position) -> list[float]:
    """RACE_FEATURES of a race position after the mover's move (opponent to roll)."""
    mine, theirs = position.mine, position.theirs
    pm = sum(n * (i + 1) for i, n in enumerate(mine))
    pt = sum(n * (i + 1) for i, n in enumerate(theirs))
    home_gaps = 0
    highest = max((i for i in range(6) if mine[i]), default=-1)
    for i in range(highest):
        if not mine[i]:
            home_gaps += 1
    return [
        1.0,
        (pt - pm) / 100.0,
        (15 - sum(mine)) / 15.0,
        (15 - sum(theirs)) / 15.0,
        sum(mine[6:24]) / 15.0,
        sum(theirs[6:24]) / 15.0,
        sum(n - 2 for n in mine[:6] if n > 2) / 15.0,
        home_gaps / 6.0,
        sum(n - 2 for n in theirs[:6] if n > 2) / 15.0,
        (pm / 100.0) ** 2,
    ]


RAW_FEATURES: tuple[str, ...] = tuple(
    f"{side}{p}_{k}" for side in ("my", "their") for p in range(1, 25) for k in ("blot", "made", "three", "more")
)


def raw_features(position: Position) -> list[float]:
    """Pubeval's kind of input, checker counts point by point, for both sides: lets the fit
    learn which points matter without a feature for each idea."""
    out: list[float] = []
    for side in (position.mine, position.theirs):
        for i in range(24):
            n = side[i]
            if n == 0:
                out += (0.0, 0.0, 0.0, 0.0)
            elif n == 1:
                out += (1.0, 0.0, 0.0, 0.0)
            elif n == 2:
                out += (0.0, 1.0, 0.0, 0.0)
            elif n == 3:
                out += (0.0, 1.0, 1.0, 0.0)
            else:
                out += (0.0, 1.0, 0.0, (n - 3) / 2.0)
    return out


_PIP_WEIGHTS: tuple[int, ...] = tuple(range(1, 26))


def phase_of(position: Position) -> str:
    """Which weights judge a position: "race", "opening" (early contact) or "contact"."""
    if not is_contact(position):
        return "race"
    pips = sum(map(operator.mul, position.mine, _PIP_WEIGHTS)) + \
        sum(map(operator.mul, position.theirs, _PIP_WEIGHTS))
    return "opening" if pips > OPENING_PIPS else "contact"


def phase_features(phase: str) -> tuple[str, ...]:
    return RACE_FEATURES if phase == "race" else CONTACT_FEATURES


def features(phase: str, position: Position) -> list[float]:
    """The phase's own features (without the raw part)."""
    return race_features(position) if phase == "race" else contact_features(position)


def _dot(w: tuple[float, ...], f: list[float]) -> float:
    return sum(a * b for a, b in zip(w, f))


@dataclass(frozen=True, slots=True)
class Estimate:
    """The mover's chances after their move: win, win a gammon, lose a gammon."""

    win: float
    gammon: float
    lose_gammon: float

    def equity(self, gammon_value: float = 1.0, lose_gammon_value: float = 1.0) -> float:
        """Cubeless points per game, with gammons weighed by the match (1.0 for money)."""
        return 2.0 * self.win - 1.0 + gammon_value * self.gammon - lose_gammon_value * self.lose_gammon


_RAW_CODES: tuple[tuple[float, float, float, float], ...] = tuple(
    (0.0, 0.0, 0.0, 0.0) if n == 0 else (1.0, 0.0, 0.0, 0.0) if n == 1 else (0.0, 1.0, 0.0, 0.0) if n == 2
    else (0.0, 1.0, 1.0, 0.0) if n == 3 else (0.0, 1.0, 0.0, (n - 3) / 2.0) for n in range(16))


class Scorer:
    """One number per position for choosing moves: `equity()` of the three heads, folded
    into a single weight vector for given gammon values, with the point-by-point part
    turned into lookup tables (48 look-ups instead of a 192-long dot product)."""

    def __init__(self, weights: Weights, gammon_value: float, lose_gammon_value: float) -> None:
        self._tables: dict[str, tuple[tuple[float, ...], tuple[tuple[float, ...], ...]]] = {}
        for phase in PHASES:
            n = len(phase_features(phase))
            win, g, lg = weights.heads[phase]
            if not len(win) == len(g) == len(lg) == n + len(RAW_FEATURES):
                raise ValueError(f"the {phase} weights do not fit the features: re-run train_simple")
            folded = [2.0 * a + gammon_value * b - lose_gammon_value * c for a, b, c in zip(win, g, lg)]
            self._tables[phase] = self._split(folded, n)

    @staticmethod
    def _split(w: list[float], n: int) -> tuple[tuple[float, ...], tuple[tuple[float, ...], ...]]:
        raw = w[n:]
        tables = []
        for side in range(2):
            for i in range(24):
                base = (side * 24 + i) * 4
                ws = raw[base:base + 4]
                tables.append(tuple(sum(a * b for a, b in zip(ws, code)) for code in _RAW_CODES))
        return tuple(w[:n]), tuple(tables)

    def __call__(self, position: Position) -> float:
        mine, theirs = position.mine, position.theirs
        if sum(mine) == 0:
            return 3.0 if sum(theirs) == 15 else 1.0
        phase = phase_of(position)
        hand, raw = self._tables[phase]
        total = -1.0  # equity's "2p - 1"
        for a, b in zip(hand, features(phase, position)):
            total += a * b
        for i in range(24):
            total += raw[i][mine[i]] + raw[24 + i][theirs[i]]
        return total


def estimate(position: Position, weights: Weights) -> Estimate:
    """The mover's chances after a move, as the fitted linear heads see them (the heads
    are fitted on differences between moves, so compare estimates, do not trust levels)."""
    if sum(position.mine) == 0:
        return Estimate(1.0, 1.0 if sum(position.theirs) == 15 else 0.0, 0.0)
    phase = phase_of(position)
    f = features(phase, position) + raw_features(position)
    win, g, lg = weights.heads[phase]
    return Estimate(_dot(win, f), _dot(g, f), _dot(lg, f))
