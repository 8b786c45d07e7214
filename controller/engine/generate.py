"""The fast legal-move generator: distinct legal moves as compact step records.

Why it is shaped like this (pure Python, so every attribute lookup and allocation counts):

- One flat board list is changed in place and undone after each step; no copies.
- Closed points never change during a turn (a hit only turns a blot into an own
  checker), so they are computed once per call as a list of flags.
- Doubles are enumerated with origins never increasing from one step to the next. Any
  legal order of a move can be sorted that way and stays legal, and for a single die
  size each checker-point has one successor, so every such sequence is a distinct
  multiset of steps and so a distinct result: no deduplication is needed at all.
- Non-doubles have at most two steps. In the usual case (no checker on the bar, no
  bearing off possible this turn) the moves are combined from the single steps of each
  die with duplicates ruled out by construction; otherwise both orders are searched and
  duplicates dropped by a small key of the move's net effect.
- The result is a flat tuple `(frm, die, frm, die, ...)`; `Step`s and `Position`s are
  built only when someone asks (see `moves.Move`).

Points are the mover's own numbers 1..24, 25 is the bar, 0 is off; `board[p]` holds the
mover's checkers on point p (`board[25]` the bar) and `closed[p]` says the opponent holds p.
"""
from __future__ import annotations

from collections.abc import Sequence

Raw = tuple[int, ...]


def _can_bear(board: list[int], frm: int, die: int) -> bool:
    """A bearing-off step (all checkers home already checked): exact, or from the highest point."""
    if frm == die:
        return True
    for p in range(frm + 1, 7):
        if board[p]:
            return False
    return True


def generate(mine: Sequence[int], theirs: Sequence[int], d1: int, d2: int) -> list[Raw]:
    """Every distinct legal move as `(frm, die, frm, die, ...)` in playing order; `[]`
    when nothing can be played."""
    board = [0, *mine]  # board[p] for points 1..24, board[25] = bar (mine[24])
    opp = (0, *theirs[23::-1], 0)  # opp[p]: opponent checkers on the mover's point p
    closed = [n > 1 for n in opp]
    outside = board[25] + sum(board[7:25])
    if d1 == d2:
        return _doubles(board, closed, outside, d1)
    hi, lo = (d1, d2) if d1 > d2 else (d2, d1)
    if outside > 1 and not board[25]:
        return _pair_contact(board, closed, opp, hi, lo)
    blot = [n == 1 for n in opp]
    return _pair(board, closed, blot, outside, hi, lo)


def _pair_contact(board: list[int], closed: list[bool], opp: tuple[int, ...], a: int, b: int) -> list[Raw]:
    """Non-doubles (`a` > `b`) with nobody on the bar and no bearing off possible this turn
    (two or more checkers outside home): a step's legality then depends only on the closed
    points and on a checker being there, so the moves are all pairs of single steps plus
    one checker moving twice, and duplicates can be ruled out directly:

    - two different checkers (x with a, y with b): distinct pairs leave distinct positions,
      except when one lands where the other starts (that is the one-checker move again);
    - one checker x -> x-a-b: once if neither stop is a blot, else once per stop.
    """
    origins = [p for p in range(24, 0, -1) if board[p]]
    sa = [x for x in origins if x > a and not closed[x - a]]
    sb = [y for y in origins if y > b and not closed[y - b]]
    out = _two_checkers(board, sa, sb, a, b)
    _one_checker_a_first(closed, opp, sa, a, b, out)
    _one_checker_b_first(closed, sb, a, b, out)
    if out:
        return out
    # one die only: the higher if it can be played
    if sa:
        return [(x, a) for x in sa]
    return [(y, b) for y in sb]


def _two_checkers(board: list[int], sa: list[int], sb: list[int], a: int, b: int) -> list[Raw]:
    """Two different steps, x with `a` and y with `b` (`sa`, `sb`: the origins each die can
    leave): every pair but those that are one checker moving twice (y lands on or starts
    from x's stop), and the same point twice only when it holds two checkers."""
    out: list[Raw] = []
    for x in sa:
        t = x - a
        for y in sb:
            if y == t or y - b == x:
                continue
            if x == y and board[x] < 2:
                continue
            out.append((x, a, y, b))
    return out


def _one_checker_a_first(closed: list[bool], opp: tuple[int, ...], sa: list[int], a: int, b: int,
                         out: list[Raw]) -> None:
    """One checker x -> x-a-b with `a` played first, appended to `out`; also b first when a
    blot on one of the stops makes the two orders different moves."""
    s = a + b
    for x in sa:
        u = x - s
        if u < 1 or closed[u]:
            continue
        t = x - a
        out.append((x, a, t, b))
        if opp[t] or opp[x - b]:  # a blot on one of the two stops: both ways differ
            if not closed[x - b]:
                out.append((x, b, x - b, a))


def _one_checker_b_first(closed: list[bool], sb: list[int], a: int, b: int, out: list[Raw]) -> None:
    """One checker y -> y-b-a where `a` first from y is not possible (its stop is closed),
    appended to `out`."""
    s = a + b
    for y in sb:  # b then a where a first from y is not possible
        u = y - s
        if u < 1 or closed[u] or not closed[y - a] or y <= a:
            continue
        out.append((y, b, y - b, a))


def _landing(board: list[int], closed: list[bool], outside: int, x: int, die: int) -> int | None:
    """Where a checker from `x` lands with `die` (0: borne off), or None if it cannot."""
    t = x - die
    if t > 0:
        return None if closed[t] else t
    if outside or not _can_bear(board, x, die):
        return None
    return 0


def _net_key(x: int, y: int, t: int, u: int, hits: int) -> tuple[int, int, int, int, int]:
    """What two steps x->t, y->u do to the board, whatever their order: two sequences
    leave the same position exactly when their keys are equal."""
    if y == t:  # the same checker on: x -> u
        return (x, -1, u, -1, hits)
    if u == x:  # y takes x's place: y -> t
        return (y, -1, t, -1, hits)
    key = (x, y, t, u, hits) if x > y else (y, x, u, t, hits)
    if key[0] == key[1] and key[2] < key[3]:
        key = (x, y, key[3], key[2], hits)
    return key


def _pair(board: list[int], closed: list[bool], blot: list[bool], outside: int, a: int, b: int) -> list[Raw]:
    """Non-doubles (`a` > `b`): both orders, duplicates dropped by the move's net effect
    (`_net_key`); if no move uses both dice, the single steps of the first order that has
    any (the higher die first: it must be played if either can)."""
    on_bar = board[25]
    origins = [25] if on_bar else [p for p in range(24, 0, -1) if board[p]]
    seen: set[tuple[int, int, int, int, int]] = set()
    out: list[Raw] = []
    singles: tuple[list[Raw], list[Raw]] = ([], [])
    for first, second, singles_here in ((a, b, singles[0]), (b, a, singles[1])):
        for x in origins:
            t = _landing(board, closed, outside, x, first)
            if t is None:
                continue
            board[x] -= 1
            board[t] += 1
            after = outside - 1 if x > 6 >= t else outside
            played = False
            for y in _second_origins(board, origins, x, t):
                if not board[y]:
                    continue
                u = _landing(board, closed, after, y, second)
                if u is None:
                    continue
                played = True
                key = _net_key(x, y, t, u, (1 << t if blot[t] else 0) | (1 << u if blot[u] else 0))
                if key not in seen:
                    seen.add(key)
                    out.append((x, first, y, second))
            if not played:
                singles_here.append((x, first))
            board[x] += 1
            board[t] -= 1
    if out:
        return out
    return singles[0] or singles[1]


def _second_origins(board: list[int], origins: list[int], x: int, t: int) -> list[int]:
    """Where the second step may start once the first went x -> t."""
    if board[25]:
        return [25]
    if x == 25:
        return [p for p in range(24, 0, -1) if board[p]]
    if t and board[t] == 1:
        return origins + [t]
    return origins


def _doubles(board: list[int], closed: list[bool], outside: int, d: int) -> list[Raw]:
    """Doubles: checkers on the bar enter first (forced, all the same step), then the rest
    of the four steps depth-first with origins never increasing; no duplicates arise."""
    if not board[25]:
        return _doubles_free(board, closed, outside, d, 4, ())
    e = 25 - d
    if closed[e]:
        return []
    n = board[25] if board[25] < 4 else 4
    prefix = (25, d) * n
    if n == 4 or board[25] > n:
        return [prefix]
    board[25] -= n
    board[e] += n  # the entry point is outside home, so `outside` does not change
    try:
        return _doubles_free(board, closed, outside, d, 4 - n, prefix)
    finally:
        board[25] += n
        board[e] -= n


def _doubles_free(board: list[int], closed: list[bool], outside: int, d: int, steps: int,
                  prefix: Raw) -> list[Raw]:
    """Up to `steps` steps of `d` with nobody on the bar; the longest sequences win."""
    # points whose step can ever be legal: an open destination, or bearing off
    cand = [x for x in range(24, d, -1) if not closed[x - d]]
    cand.extend(range(min(d, 6), 0, -1))
    ncand = len(cand)
    full: list[Raw] = []
    partial: list[list[Raw]] = [[] for _ in range(steps)]

    def rec(i0: int, left: int, outside: int, path: Raw) -> None:
        moved = False
        for i in range(i0, ncand):
            x = cand[i]
            if not board[x]:
                continue
            t = x - d
            if t <= 0:
                if outside:
                    break  # every later candidate bears off too
                if t:
                    if board[x + 1] or board[x + 2] or any(board[p] for p in range(x + 3, 7)):
                        continue  # a higher die only from the highest point
                    t = 0
            moved = True
            board[x] -= 1
            board[t] += 1
            step = path + (x, d)
            if left > 1:
                rec(i, left - 1, outside - 1 if x > 6 >= t else outside, step)
            else:
                full.append(step)
            board[x] += 1
            board[t] -= 1
        if not moved and not full:
            partial[steps - left].append(path)

    rec(0, steps, outside, prefix)
    if full:
        return full
    for found in reversed(partial):
        if found and found[0]:
            return found
    return []
