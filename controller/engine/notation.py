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
from collections.abc import Sequence
from typing import TYPE_CHECKING

from controller.engine.errors import IllegalMoveError

if TYPE_CHECKING:
    from controller.engine.moves import Move, Step
    from controller.engine.position import Position

_BAR, _OFF = 25, 0


def _point(p: int) -> str:
    return "bar" if p == _BAR else "off" if p == _OFF else str(p)


def format_move(steps: Sequence["Step"]) -> str:
    """gnubg's text for a move given as its steps (in any order); `""` for no steps."""
    hits = {s.to for s in steps if s.hit}
    # rows: [origin, destinations...]; gnubg sorts by origin, then destination, descending
    rows: list[list[int] | None] = [[s.frm, s.to] for s in sorted(steps, key=lambda s: (-s.frm, -s.to))]
    for i, row in enumerate(rows):
        if row is None:
            continue
        for j in range(i + 1, len(rows)):
            other = rows[j]
            if other is not None and row[-1] == other[0]:
                if row[-1] in hits:  # a hit on the way: keep the intermediate point
                    row.append(other[1])
                else:
                    row[-1] = other[1]
                rows[j] = None
    merged = [r for r in rows if r is not None]
    groups: list[tuple[list[int], int]] = []
    for row in merged:
        for k, (seen, count) in enumerate(groups):
            if seen == row:
                groups[k] = (seen, count + 1)
                break
        else:
            groups.append((row, 1))
    starred: set[int] = set()
    parts: list[str] = []
    for row, count in groups:
        text = _point(row[0])
        for mid in row[1:-1]:
            text += f"/{_point(mid)}*"
            starred.add(mid)
        dest = row[-1]
        text += f"/{_point(dest)}"
        if dest != _OFF and dest in hits and dest not in starred:
            text += "*"
            starred.add(dest)
        if count > 1:
            text += f"({count})"
        parts.append(text)
    return " ".join(parts)


def format_path(steps: Sequence["Step"]) -> str:
    """Every step written out, a checker's consecutive steps chained with each point it
    touched (`5/4/off`, `13/10*/8`), in the order played: the spelling that tells apart
    moves gnubg writes alike (`5/off` is both the 6 alone and 1-6 bearing off from the 5)."""
    chains: list[list["Step"]] = []
    for step in steps:
        chain = next((c for c in chains if c[-1].to == step.frm and c[-1].to != _OFF), None)
        if chain is None:
            chains.append([step])
        else:
            chain.append(step)
    return " ".join(_point(c[0].frm) + "".join(f"/{_point(s.to)}{'*' if s.hit else ''}" for s in c)
                    for c in chains)


# -- parsing --------------------------------------------------------------------------
_TOKEN = re.compile(
    r"^(?P<path>(?:bar|b|off|o|\d{1,2})\*?(?:/(?:bar|b|off|o|\d{1,2})\*?)+)(?:\((?P<n>[1-4])\))?$",
    re.IGNORECASE,
)


def _parse_point(text: str) -> int:
    t = text.lower().rstrip("*")
    if t in ("bar", "b"):
        return _BAR
    if t in ("off", "o"):
        return _OFF
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
        if points[0] == _OFF or _BAR in points[1:] or _OFF in points[:-1]:
            raise ValueError(f"{token!r} moves from off or to the bar")
        if any(a <= b for a, b in zip(points, points[1:])):
            raise ValueError(f"{token!r} does not move forward")
        paths.extend([points] * int(match.group("n") or 1))
    return paths, starred


def parse_move(position: "Position", dice: tuple[int, int] | list[int], text: str) -> "Move":
    """The legal move that `text` describes, e.g. `parse_move(p, (3, 1), "8/5 6/5")`.

    Raises IllegalMoveError (a ValueError) naming the move and the dice when the text is
    not readable, not legal, or could mean two different moves.
    """
    from controller.engine.dice import check_dice
    from controller.engine.moves import Move, legal_moves, step_destination
    from controller.engine.position import BAR

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
    found: dict["Position", int] = {}

    def search(mine: list[int], theirs: list[int], left: list[int], todo: list[list[int]],
               hits: frozenset[int]) -> None:
        if not todo:
            from controller.engine.position import Position

            result = Position(tuple(mine), tuple(theirs))
            if result in by_result:
                found[result] = min(found.get(result, 99), len(hits ^ starred))
            return
        for k, path in enumerate(todo):
            if k and path == todo[k - 1]:
                continue
            frm = path[0]
            if mine[BAR if frm == _BAR else frm - 1] == 0 or (mine[BAR] and frm != _BAR):
                continue
            for i, die in enumerate(left):
                if die in left[:i]:
                    continue
                dest = step_destination(mine, theirs, frm, die)
                if dest is None:
                    continue
                to, hit = dest
                nxt = path[1]
                if to < nxt or (to == _OFF and nxt != _OFF):
                    continue  # overshoots the next explicit stop
                m = mine.copy()
                m[BAR if frm == _BAR else frm - 1] -= 1
                t = theirs
                if to != _OFF:
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
