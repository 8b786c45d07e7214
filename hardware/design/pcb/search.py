"""A* over the router's grid on two layers: eight directions on a layer (diagonals only
where the grid is square there and neither corner is blocked), a via to the other layer
where one may go, a cost per millimetre for each layer, a cost for a via and for each turn.

Nodes are numbered layer-major: layer * (nx * ny) + y * nx + x. The search is pure Python
over bytes (which node is free) and is deterministic: the same board routes the same way.
"""
from __future__ import annotations

import heapq
import math
from dataclasses import dataclass

ROOT2 = math.sqrt(2.0)
DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


@dataclass(frozen=True)
class Costs:
    layer: tuple[float, float] = (1.0, 2.5)   # per mm on F.Cu, on B.Cu
    via: float = 3.0                          # a via, in mm of F.Cu
    turn: float = 1.0                         # a change of direction
    weight: float = 1.5                       # the heuristic's weight (over 1: faster, a little longer)
    budget: int = 1_500_000                   # nodes settled before giving up


@dataclass(frozen=True)
class Field:
    """What one search may use: free[node] (1: a track of this net may pass) and
    via[y * nx + x] (1: a via of this net may go)."""

    xs: list[float]
    ys: list[float]
    free: bytes
    via: bytes

    @property
    def nx(self) -> int:
        return len(self.xs)

    @property
    def ny(self) -> int:
        return len(self.ys)


def search(field: Field, sources: set[int], targets: set[int], goal: tuple[float, float, float],
           costs: Costs, budget: int | None = None) -> list[int] | None:
    """The cheapest path (node numbers) from any source to any target, or None.
    `goal` (x, y, r): the targets lie within r of (x, y), for the heuristic.
    `budget`: nodes settled before giving up (the costs' own budget unless given)."""
    return _Search(field, goal, costs).run(sources, targets, costs.budget if budget is None else budget)


class _Search:
    """One A* search: the open heap, each node's cost so far, where it came from and the
    direction it arrived in (a turn costs extra)."""

    def __init__(self, field: Field, goal: tuple[float, float, float], costs: Costs) -> None:
        self.field, self.costs = field, costs
        self.nx, self.plane = field.nx, field.nx * field.ny
        gx, gy, self.reach = goal
        self.hx = [abs(x - gx) for x in field.xs]
        self.hy = [abs(y - gy) for y in field.ys]
        self.weight = costs.weight * min(costs.layer)
        self.g: dict[int, float] = {}
        self.came: dict[int, int] = {}
        self.heading: dict[int, int] = {}
        self.heap: list[tuple[float, int, int]] = []
        self.order = 0
        self.settled = bytearray(2 * self.plane)
        # (direction, di, dj, node offset) of the eight moves on a layer
        self.moves = [(d, di, dj, dj * self.nx + di) for d, (di, dj) in enumerate(DIRECTIONS)]

    def offer(self, node: int, cost: float, parent: int, heading: int, i: int, j: int) -> None:
        """Reach `node` (at column i, row j) at `cost` from `parent`, if that is cheaper."""
        if cost < self.g.get(node, math.inf):
            self.g[node] = cost
            self.came[node] = parent
            self.heading[node] = heading
            ex, ey = self.hx[i], self.hy[j]
            h = (ex + (ROOT2 - 1) * ey if ex > ey else ey + (ROOT2 - 1) * ex) - self.reach
            heapq.heappush(self.heap, (cost + self.weight * h if h > 0 else cost, self.order, node))
            self.order += 1

    def run(self, sources: set[int], targets: set[int], budget: int) -> list[int] | None:
        free = self.field.free
        for s in sorted(sources):
            if free[s]:
                j, i = divmod(s % self.plane, self.nx)
                self.offer(s, 0.0, -1, -1, i, j)
        self.came.clear()
        settled, heap, pop = self.settled, self.heap, heapq.heappop
        while heap:
            node = pop(heap)[2]
            if settled[node]:
                continue
            settled[node] = 1
            if node in targets:
                return _path(self.came, node)
            budget -= 1
            if budget == 0:
                return None
            self.expand(node)
        return None

    def expand(self, node: int) -> None:
        """Offer every neighbour of `node` on its layer, and the other layer through a via."""
        field, settled, free = self.field, self.settled, self.field.free
        xs, ys, nx, ny = field.xs, field.ys, self.nx, field.ny
        base, arrived = self.g[node], self.heading[node]
        layer, rest = divmod(node, self.plane)
        j, i = divmod(rest, nx)
        unit, turn = self.costs.layer[layer], self.costs.turn
        for d, di, dj, step in self.moves:
            ni, nj = i + di, j + dj
            nxt = node + step
            if ni < 0 or nj < 0 or ni >= nx or nj >= ny or settled[nxt] or not free[nxt]:
                continue
            length_x, length_y = abs(xs[ni] - xs[i]), abs(ys[nj] - ys[j])
            if di and dj:          # a diagonal only where the grid is square, past no blocked corner
                if abs(length_x - length_y) > 1e-6 or not free[node + di] or not free[node + dj * nx]:
                    continue
                length = length_x * ROOT2
            else:
                length = length_x + length_y
            self.offer(nxt, base + length * unit + (turn if 0 <= arrived != d else 0.0), node, d, ni, nj)
        if field.via[rest]:
            other = (1 - layer) * self.plane + rest
            if not settled[other] and free[other]:
                self.offer(other, base + self.costs.via, node, arrived, i, j)


def enclosed(field: Field, sources: set[int], budget: int) -> bool:
    """Whether every node reachable from `sources` is found within `budget` nodes: the
    sources are shut in (a cheap check before a search that would flood the board)."""
    plane = field.nx * field.ny
    nx, ny, free, via = field.nx, field.ny, field.free, field.via
    seen = {s for s in sources if free[s]}
    todo = list(seen)
    while todo:
        if len(seen) > budget:
            return False
        node = todo.pop()
        layer, rest = divmod(node, plane)
        j, i = divmod(rest, nx)
        near = [node + 1 if i + 1 < nx else -1, node - 1 if i > 0 else -1,
                node + nx if j + 1 < ny else -1, node - nx if j > 0 else -1,
                (1 - layer) * plane + rest if via[rest] else -1]
        for n in near:
            if n >= 0 and n not in seen and free[n]:
                seen.add(n)
                todo.append(n)
    return True


def _path(came: dict[int, int], node: int) -> list[int]:
    path = [node]
    while node in came:
        node = came[node]
        path.append(node)
    path.reverse()
    return path
