"""Every position a turn may pass through, as a graph of single steps.

Reconciling a physical board needs more than the engine's list of distinct moves: a
person plays one checker at a time, in any order the rules allow, and may take steps back.
This module builds, once per turn, the graph of legal partial positions: a node is a
position reached by a legal prefix of some full legal move (as many dice as possible, the
higher die when only one can be played), an edge is one step. From it the reconciler reads
which positions are acceptable, which steps lead on, which targets a lifted checker has,
and a step path from the start to any partial (to replay it into the match).

It is the controller's own small adapter (the engine's `TurnPlan` answers the same
questions); keeping it here lets the reconciler also ask for the path and the hits.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from controller.engine.moves import BAR_POINT, OFF, Move, Step
from controller.engine.position import BAR, Position

Rem = tuple[int, ...]  # dice still to play, sorted high to low


def _step_to(mine: tuple[int, ...], theirs: tuple[int, ...], frm: int, die: int) -> tuple[int, bool] | None:
    """Where a checker of the mover on `frm` lands with `die` and whether it hits; None if barred."""
    to = frm - die
    if to >= 1:
        opp = theirs[24 - to]
        if opp >= 2:
            return None
        return to, opp == 1
    if any(mine[i] for i in range(6, 25)):
        return None
    if to == 0:
        return OFF, False
    if any(mine[i] for i in range(frm, 6)):
        return None
    return OFF, False


def apply_step(position: Position, step: Step) -> Position:
    """The position after one step of the mover (a hit sends the blot to the bar)."""
    mine = list(position.mine)
    theirs = position.theirs
    mine[BAR if step.frm == BAR_POINT else step.frm - 1] -= 1
    if step.to != OFF:
        mine[step.to - 1] += 1
        if step.hit:
            t = list(theirs)
            t[24 - step.to] -= 1
            t[BAR] += 1
            theirs = tuple(t)
    return Position(tuple(mine), theirs)


def _origins(mine: tuple[int, ...]) -> Iterable[int]:
    if mine[BAR]:
        return (BAR_POINT,)
    return [p for p in range(24, 0, -1) if mine[p - 1]]


def _without(rem: Rem, die: int) -> Rem:
    i = rem.index(die)
    return rem[:i] + rem[i + 1:]


@dataclass
class TurnGraph:
    """The legal partial positions of one turn (`position` from the mover's view, `dice`).

    `nodes` maps each reachable partial position to the set of dice multisets that may
    still be left there (bear-off can reach one position with different dice left);
    `edges` maps a position to the legal steps out of it with their results.
    """

    start: Position
    dice: tuple[int, int]
    max_steps: int = 0
    nodes: dict[Position, set[Rem]] = field(default_factory=dict)
    edges: dict[Position, dict[Step, Position]] = field(default_factory=dict)
    parent: dict[Position, tuple[Position, Step] | None] = field(default_factory=dict)
    depth: dict[Position, int] = field(default_factory=dict)
    complete: frozenset[Position] = frozenset()

    @classmethod
    def build(cls, start: Position, dice: tuple[int, int]) -> "TurnGraph":
        d1, d2 = dice
        rem0: Rem = (d1,) * 4 if d1 == d2 else tuple(sorted((d1, d2), reverse=True))
        graph = cls(start, (d1, d2))
        memo: dict[tuple[Position, Rem], int] = {}

        def moves_from(pos: Position, rem: Rem) -> list[tuple[Step, Position, Rem]]:
            out = []
            for die in sorted(set(rem), reverse=True):
                left = _without(rem, die)
                for frm in _origins(pos.mine):
                    dest = _step_to(pos.mine, pos.theirs, frm, die)
                    if dest is None:
                        continue
                    step = Step(frm, dest[0], die, dest[1])
                    out.append((step, apply_step(pos, step), left))
            return out

        def best(pos: Position, rem: Rem) -> int:
            key = (pos, rem)
            if key in memo:
                return memo[key]
            value = 0
            if rem:
                for _, nxt, left in moves_from(pos, rem):
                    value = max(value, 1 + best(nxt, left))
                    if value == len(rem):
                        break
            memo[key] = value
            return value

        total = best(start, rem0)
        graph.max_steps = total
        graph.nodes[start] = {rem0}
        graph.parent[start] = None
        graph.depth[start] = 0
        graph.edges[start] = {}
        if total == 0:
            graph.complete = frozenset({start})
            return graph
        first = moves_from(start, rem0)
        if total == 1 and d1 != d2:
            high = max(d1, d2)
            if any(s.die == high for s, _, _ in first):
                first = [m for m in first if m[0].die == high]
        frontier: list[tuple[Position, Rem, int, list[tuple[Step, Position, Rem]]]] = [(start, rem0, 0, first)]
        seen: set[tuple[Position, Rem]] = {(start, rem0)}
        while frontier:
            pos, rem, depth, candidates = frontier.pop()
            for step, nxt, left in candidates:
                if 1 + best(nxt, left) != total - depth:
                    continue
                graph.edges.setdefault(pos, {})[step] = nxt
                graph.nodes.setdefault(nxt, set()).add(left)
                graph.edges.setdefault(nxt, {})
                if nxt not in graph.parent:
                    graph.parent[nxt] = (pos, step)
                    graph.depth[nxt] = depth + 1
                if (nxt, left) not in seen:
                    seen.add((nxt, left))
                    frontier.append((nxt, left, depth + 1, moves_from(nxt, left) if left else []))
        done = len(rem0) - total
        graph.complete = frozenset(p for p, rems in graph.nodes.items() if any(len(r) == done for r in rems))
        return graph

    # -- questions ------------------------------------------------------------------------
    @property
    def dice_at_start(self) -> Rem:
        d1, d2 = self.dice
        return (d1,) * 4 if d1 == d2 else tuple(sorted(self.dice, reverse=True))

    def is_complete(self, pos: Position) -> bool:
        """True when `pos` ends the turn: every die that can be played has been."""
        return pos in self.complete

    def next_steps(self, pos: Position) -> dict[Step, Position]:
        return self.edges.get(pos, {})

    def path_to(self, pos: Position) -> tuple[Step, ...]:
        """One legal step sequence from the start to the partial `pos`."""
        steps: list[Step] = []
        node = self.parent.get(pos)
        while node is not None:
            prev, step = node
            steps.append(step)
            node = self.parent.get(prev)
        return tuple(reversed(steps))

    def move_for(self, pos: Position) -> Move | None:
        """The move (steps and result) that ends the turn at `pos`, if `pos` is complete."""
        if pos not in self.complete:
            return None
        return Move(self.path_to(pos), pos)

    def targets(self, pos: Position, frm: int) -> dict[int, str]:
        """Points the checker on `frm` reaches by itself in one or more next steps,
        with the dice used (`"5"`, `"5+3"`, `"2+2+2"`)."""
        found: dict[int, str] = {}
        stack: list[tuple[Position, int, str]] = [(pos, frm, "")]
        visited: set[tuple[Position, int]] = set()
        while stack:
            p, at, label = stack.pop()
            for step, nxt in self.next_steps(p).items():
                if step.frm != at:
                    continue
                lab = f"{label}+{step.die}" if label else str(step.die)
                if step.to not in found or len(lab) < len(found[step.to]):
                    found[step.to] = "+".join(sorted(lab.split("+"), key=int, reverse=True))
                if step.to != OFF and (nxt, step.to) not in visited:
                    visited.add((nxt, step.to))
                    stack.append((nxt, step.to, lab))
        return found
