"""GNU Backgammon move notation: `24/18 13/9`, `8/5(2) 6/5(2)`, `bar/22*`, `13/7*/4`.

Formatting follows gnubg's FormatMove so that our strings equal the ones gnubg prints:
steps sorted by origin then destination (both descending), consecutive steps of one
checker merged (an intermediate point is kept only where it hit), identical checker
moves grouped with `(n)`, a `*` once per point where a blot was hit.

Parsing accepts what people and other programs write: `25/22` and `bar/22`, `6/0` and
`6/off`, missing or extra `*`, one token for a whole checker move (`22/13`), `(2)`
repeats, steps in any order. The text is matched against the legal moves, so the result
is always one of `legal_moves(position, dice)`.
"""
from __future__ import annotations

import re

from controller.engine.dice import check_dice
from controller.engine.errors import IllegalMoveError
# the formatting is written from the steps alone, below `moves` (which spells its moves)
from controller.engine.move_text import format_move, format_path
from controller.engine.moves import Move, legal_moves
from controller.engine.position import Position
from controller.engine.step import BAR, BAR_POINT, OFF, step_destination

__all__ = ["format_move", "format_path", "parse_move"]

_TOKEN = re.compile(
    r"^(?P<path>(?:bar|b|off|o|\d{1,2})\*?(?:/(?:bar|b|off|o|\d{1,2})\*?)+)(?:\((?P<n>[1-4])\))?$",
    re.IGNORECASE,
)


def _parse_point(text: str) -> int:
    t = text.lower().rstrip("*")
    if t in ("bar", "b"):
        return BAR_POINT
    if t in ("off", "o"):
        return OFF
    n = int(t)
    if not 0 <= n <= 25:
        raise ValueError(t)
    return n


def _tokens(text: str) -> tuple[list[list[int]], set[int]]:
    """Checker paths (each a list of explicit points) and the starred points of `text`."""
    paths: list[list[int]] = []
    starred: set[int] = set()
    for token in text.replace(",", " ").split():
        match = _TOKEN.match(token)
        if not match:
            raise ValueError(f"cannot read {token!r}")
        parts = match.group("path").split("/")
        points = [_parse_point(p) for p in parts]
        for raw, p in zip(parts, points):
            if raw.endswith("*"):
                starred.add(p)
        if points[0] == OFF or BAR_POINT in points[1:] or OFF in points[:-1]:
            raise ValueError(f"{token!r} moves from off or to the bar")
        if any(a <= b for a, b in zip(points, points[1:])):
            raise ValueError(f"{token!r} does not move forward")
        paths.extend([points] * int(match.group("n") or 1))
    return paths, starred


def parse_move(position: Position, dice: tuple[int, int] | list[int], text: str) -> Move:
    """The legal move that `text` describes, e.g. `parse_move(p, (3, 1), "8/5 6/5")`.

    Raises IllegalMoveError (a ValueError) naming the move and the dice when the text is
    not readable, not legal, or could mean two different moves.
    """
    d1, d2 = check_dice(tuple(dice))  # type: ignore[arg-type]
    roll = f"{d1}-{d2}"
    try:
        paths, starred = _tokens(text)
    except ValueError as exc:
        raise IllegalMoveError(f"cannot read the move {text!r} (dice {roll}): {exc}") from None
    moves = legal_moves(position, (d1, d2))
    if not paths:
        if not moves:
            return Move((), position)
        raise IllegalMoveError(f"no move given for dice {roll}, but a legal move exists")
    by_result = {m.result: m for m in moves}
    full = [d1] * 4 if d1 == d2 else [d1, d2]
    found: dict[Position, int] = {}

    def search(mine: list[int], theirs: list[int], left: list[int], todo: list[list[int]],
               hits: frozenset[int]) -> None:
        if not todo:
            result = Position(tuple(mine), tuple(theirs))
            if result in by_result:
                found[result] = min(found.get(result, 99), len(hits ^ starred))
            return
        for k, path in enumerate(todo):
            if k and path == todo[k - 1]:
                continue
            frm = path[0]
            if mine[BAR if frm == BAR_POINT else frm - 1] == 0 or (mine[BAR] and frm != BAR_POINT):
                continue
            for i, die in enumerate(left):
                if die in left[:i]:
                    continue
                dest = step_destination(mine, theirs, frm, die)
                if dest is None:
                    continue
                to, hit = dest
                nxt = path[1]
                if to < nxt or (to == OFF and nxt != OFF):
                    continue  # overshoots the next explicit stop
                m = mine.copy()
                m[BAR if frm == BAR_POINT else frm - 1] -= 1
                t = theirs
                if to != OFF:
                    m[to - 1] += 1
                    if hit:
                        t = theirs.copy()
                        t[24 - to] = 0
                        t[BAR] += 1
                rest = [to] + path[2:] if to == nxt else [to] + path[1:]
                todo2 = todo[:k] + ([rest] if len(rest) > 1 else []) + todo[k + 1:]
                search(m, t, left[:i] + left[i + 1:], todo2, hits | {to} if hit else hits)

    search(list(position.mine), list(position.theirs), full, sorted(paths, reverse=True), frozenset())
    if not found:
        raise IllegalMoveError(f"illegal move {text!r} for dice {roll}")
    best = min(found.values())
    results = [r for r, miss in found.items() if miss == best]
    if len(results) > 1:
        options = " or ".join(sorted(by_result[r].notation for r in results))
        raise IllegalMoveError(f"ambiguous move {text!r} for dice {roll}: {options}")
    return by_result[results[0]]
