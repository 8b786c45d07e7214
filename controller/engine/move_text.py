"""GNU Backgammon's text of a move's steps: `24/18 13/9`, `8/5(2) 6/5(2)`, `bar/22*`.

Written from the steps alone (no position), so `Move.notation` and `.mat` records can
spell a move below the parser in `notation`, which needs the legal moves.
"""
from __future__ import annotations

from collections.abc import Sequence

from controller.engine.step import BAR_POINT, OFF, Step


def _point(p: int) -> str:
    return "bar" if p == BAR_POINT else "off" if p == OFF else str(p)


def format_move(steps: Sequence[Step]) -> str:
    """gnubg's text for a move given as its steps (in any order); `""` for no steps."""
    hits = {s.to for s in steps if s.hit}
    starred: set[int] = set()
    return " ".join(_checker_text(row, count, hits, starred) for row, count in _grouped(_chained(steps, hits)))


def _chained(steps: Sequence[Step], hits: set[int]) -> list[list[int]]:
    """Each checker's points, [origin, destinations...]: gnubg sorts the steps by origin,
    then destination, descending, and merges consecutive steps of one checker."""
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
    return [r for r in rows if r is not None]


def _grouped(rows: list[list[int]]) -> list[tuple[list[int], int]]:
    """Identical checker moves once, with how many checkers make them, in first order."""
    groups: list[tuple[list[int], int]] = []
    for row in rows:
        for k, (seen, count) in enumerate(groups):
            if seen == row:
                groups[k] = (seen, count + 1)
                break
        else:
            groups.append((row, 1))
    return groups


def _checker_text(row: list[int], count: int, hits: set[int], starred: set[int]) -> str:
    """One group's text, `13/7*/4(2)`: a `*` once per point where a blot was hit (the
    points already starred are in `starred`, which this adds to)."""
    text = _point(row[0])
    for mid in row[1:-1]:
        text += f"/{_point(mid)}*"
        starred.add(mid)
    dest = row[-1]
    text += f"/{_point(dest)}"
    if dest != OFF and dest in hits and dest not in starred:
        text += "*"
        starred.add(dest)
    if count > 1:
        text += f"({count})"
    return text


def format_path(steps: Sequence[Step]) -> str:
    """Every step written out, a checker's consecutive steps chained with each point it
    touched (`5/4/off`, `13/10*/8`), in the order played: the spelling that tells apart
    moves gnubg writes alike (`5/off` is both the 6 alone and 1-6 bearing off from the 5)."""
    chains: list[list[Step]] = []
    for step in steps:
        chain = next((c for c in chains if c[-1].to == step.frm and c[-1].to != OFF), None)
        if chain is None:
            chains.append([step])
        else:
            chain.append(step)
    return " ".join(_point(c[0].frm) + "".join(f"/{_point(s.to)}{'*' if s.hit else ''}" for s in c)
                    for c in chains)
