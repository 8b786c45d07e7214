"""One turn, step by step: which single steps are legal from a partly played roll.

Hints on the board and reconciling a physical board need more than the list of complete
moves: after each checker the player sets down, the controller must know which steps may
follow, which destinations to light, how to undo. RULES.md "Moving" says a step is legal
only if some full legal move starts with it, so this module builds the graph of partial
positions that lie on a legal step sequence (every ordering counts, none deduplicated),
and answers questions about it.

A node of the graph is a position plus the dice still to play (sorted, higher first):
the same partial position can be reached with different dice left (bearing off from the 3
with a 3 or with a 5), so the per-position answers are unions over those nodes.
"""
from __future__ import annotations

from collections import deque
from collections.abc import Callable

from controller.engine.dice import check_dice
from controller.engine.moves import Move, Step, legal_moves, step_destination
from controller.engine.position import BAR, Position

_Edge = tuple[Step, int]  # a step and the node it leads to


class TurnPlan:
    """Every legal way to play `dice` from `position`, as a graph of partial positions.

    Positions are seen by the player on roll throughout (as `Position` always is).
    Built eagerly in the constructor: well under a millisecond for most rolls, some tens
    of milliseconds for the largest doubles. Nodes are numbered internally so that a
    position is hashed once, not at every lookup.
    """

    def __init__(self, position: Position, dice: tuple[int, int] | list[int]) -> None:
        d1, d2 = check_dice(tuple(dice))  # type: ignore[arg-type]
        self._position = position
        self._dice: tuple[int, int] = (d1, d2)
        full = (d1,) * 4 if d1 == d2 else (max(d1, d2), min(d1, d2))
        nodes = _Nodes(position, full)
        children, longest = _explore(nodes, self._expand)
        best = longest[0]
        self._steps_needed = best
        good = _on_longest_paths(children, longest, _first_edges(children[0], longest, best, full))
        self._good = good
        self._parents: dict[int, list[_Edge]] | None = None  # built on first use (undo questions)
        positions, lefts = nodes.positions, nodes.lefts
        self._positions = positions
        self._lefts = lefts
        self._nodes: dict[Position, list[int]] = {}
        for i in good:
            self._nodes.setdefault(positions[i], []).append(i)
        done = len(full) - best
        self._complete = frozenset(positions[i] for i in good if len(lefts[i]) == done)
        self._moves: dict[Position, Move] | None = None
        self._partials: tuple[Position, ...] | None = None

    @staticmethod
    def _expand(position: Position, left: tuple[int, ...],
                node: Callable[[tuple[int, ...], tuple[int, ...], tuple[int, ...]], int],
                steps: dict[tuple[int, int, int, bool], Step]) -> list[_Edge]:
        """Every single step from a node (one per origin and distinct die), whether or
        not a full legal move goes on from it."""
        mine, theirs = position.mine, position.theirs
        origins = [25] if mine[BAR] else [p for p in range(24, 0, -1) if mine[p - 1]]
        edges: list[_Edge] = []
        for k, die in enumerate(left):
            if die in left[:k]:
                continue
            rest = left[:k] + left[k + 1:]
            for frm in origins:
                dest = step_destination(mine, theirs, frm, die)
                if dest is None:
                    continue
                to, hit = dest
                m = list(mine)
                m[BAR if frm == 25 else frm - 1] -= 1
                if to:
                    m[to - 1] += 1
                t = theirs
                if hit:
                    tl = list(theirs)
                    tl[24 - to] = 0
                    tl[BAR] += 1
                    t = tuple(tl)
                key = (frm, to, die, hit)
                step = steps.get(key)
                if step is None:
                    step = steps[key] = Step(frm, to, die, hit)
                edges.append((step, node(tuple(m), t, rest)))
        return edges

    # -- the whole turn -----------------------------------------------------------------
    @property
    def start(self) -> Position:
        """The position before the first step."""
        return self._position

    @property
    def dice(self) -> tuple[int, int]:
        """The roll as given."""
        return self._dice

    @property
    def steps_needed(self) -> int:
        """How many steps a complete move takes (0 when nothing can be played)."""
        return self._steps_needed

    @property
    def complete(self) -> frozenset[Position]:
        """The legal end positions; with no legal move, just the start."""
        return self._complete

    @property
    def partials(self) -> tuple[Position, ...]:
        """Every position some legal prefix of steps reaches (start and complete ones
        included), fewest steps played first; built on first use."""
        if self._partials is None:
            left: dict[Position, int] = {}  # the most dice left at a position: the fewest played
            for i in self._good:
                at = self._positions[i]
                left[at] = max(left.get(at, 0), len(self._lefts[i]))
            self._partials = tuple(sorted(left, key=lambda at: -left[at]))
        return self._partials

    def move_for(self, position: Position) -> Move | None:
        """The legal Move (as `legal_moves` gives it) leaving `position`; None if there is
        none (also when no checker can move at all)."""
        if self._moves is None:
            self._moves = {m.result: m for m in legal_moves(self._position, self._dice)}
        return self._moves.get(position)

    # -- a partly played turn ----------------------------------------------------------
    def is_partial(self, position: Position) -> bool:
        """Whether some legal prefix of steps (empty and complete ones included) reaches it."""
        return position in self._nodes

    def is_complete(self, position: Position) -> bool:
        """Whether `position` is a legal end position of the turn."""
        return position in self._complete

    def dice_left(self, position: Position) -> set[tuple[int, ...]]:
        """The dice still to play after reaching `position` (higher first); empty set when
        the position is not reachable, `{()}` when the dice are used up."""
        return {self._lefts[i] for i in self._nodes.get(position, ())}

    def next_steps(self, position: Position) -> list[Step]:
        """Every step that some legal full sequence takes from this partial position."""
        seen: dict[Step, None] = {}
        for i in self._nodes.get(position, ()):
            for step, _ in self._good[i]:
                seen.setdefault(step, None)
        return list(seen)

    def movable(self, position: Position) -> set[int]:
        """Points whose checker may move next (25 = bar)."""
        return {s.frm for s in self.next_steps(position)}

    def _edges_into(self, position: Position) -> list[_Edge]:
        """(step, parent node) of every legal step that ends at `position`. The reverse
        index is built on first use: most plans are never asked (building it with the
        plan made the largest doubles twice as slow)."""
        if self._parents is None:
            parents: dict[int, list[_Edge]] = {}
            for i, edges in self._good.items():
                for step, c in edges:
                    parents.setdefault(c, []).append((step, i))
            self._parents = parents
        return [e for i in self._nodes.get(position, ()) for e in self._parents.get(i, ())]

    def previous(self, position: Position) -> set[Position]:
        """Partial positions one legal step before `position` (for undo); empty for the start."""
        return {self._positions[p] for _, p in self._edges_into(position)}

    def steps_into(self, position: Position) -> set[Step]:
        """The legal steps that end at `position` (the last step of some legal prefix); a
        checker set back along one of them is an undo."""
        return {step for step, _ in self._edges_into(position)}

    def path(self, frm: Position, to: Position) -> tuple[Step, ...] | None:
        """The fewest legal steps that lead from the partial `frm` on to `to` (empty when
        they are equal), or None when `to` does not follow from `frm` in this turn."""
        if frm == to and frm in self._nodes:
            return ()
        goal = set(self._nodes.get(to, ()))
        came: dict[int, tuple[Step, int] | None] = {i: None for i in self._nodes.get(frm, ())}
        queue = deque(came)
        while queue and goal:
            i = queue.popleft()
            for step, c in self._good[i]:
                if c in came:
                    continue
                came[c] = (step, i)
                if c in goal:
                    steps: list[Step] = []
                    back = came[c]
                    while back is not None:
                        steps.append(back[0])
                        back = came[back[1]]
                    return tuple(reversed(steps))
                queue.append(c)
        return None

    def routes(self, position: Position, frm: int) -> dict[int, list[tuple[Step, ...]]]:
        """Destination -> every legal sequence of steps by which the checker on `frm`
        alone gets there next (one step, or several steps of the same checker)."""
        found: dict[int, list[tuple[Step, ...]]] = {}
        todo: list[tuple[int, int, tuple[Step, ...]]] = [(i, frm, ()) for i in self._nodes.get(position, ())]
        while todo:
            node, at, path = todo.pop()
            for step, child in self._good[node]:
                if step.frm != at:
                    continue
                route = path + (step,)
                found.setdefault(step.to, []).append(route)
                if step.to != 0:
                    todo.append((child, step.to, route))
        return found

    def targets(self, position: Position, frm: int) -> dict[int, str]:
        """Destinations the checker on `frm` can reach by itself next, labelled with the
        dice it uses in the order it uses them, as the checker travels: `"5"`, `"3+5"`
        (24/21/16 when 24/19 is blocked), `"2+2+2"`. Of several routes to one point the
        label names the one with the fewest dice, then the smallest dice (bearing off),
        then the higher die first (`"5+3"` when both orders are open). This is the one
        rule for hint labels: the scene and the display show exactly these strings."""
        labels: dict[int, str] = {}
        for to, routes in self.routes(position, frm).items():
            best = min(routes, key=lambda r: (len(r), sum(s.die for s in r), [-s.die for s in r]))
            labels[to] = "+".join(str(s.die) for s in best)
        return labels

    def __repr__(self) -> str:
        return f"TurnPlan({self._position!r}, {self._dice!r})"


_NodeKey = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]  # mine, theirs, dice left
_NodeOf = Callable[[tuple[int, ...], tuple[int, ...], tuple[int, ...]], int]
_Expand = Callable[[Position, tuple[int, ...], _NodeOf, dict[tuple[int, int, int, bool], Step]], list[_Edge]]


class _Nodes:
    """The numbered nodes of a plan under construction: a partial position with the dice
    left is hashed once, here, and known by its number from then on."""

    __slots__ = ("index", "positions", "lefts")

    def __init__(self, position: Position, full: tuple[int, ...]) -> None:
        self.index: dict[_NodeKey, int] = {(position.mine, position.theirs, full): 0}
        self.positions: list[Position] = [position]
        self.lefts: list[tuple[int, ...]] = [full]

    def number(self, mine: tuple[int, ...], theirs: tuple[int, ...], left: tuple[int, ...]) -> int:
        """The node's number, a new one (and a new `Position`) the first time it is seen."""
        key = (mine, theirs, left)
        found = self.index.get(key)
        if found is None:
            found = self.index[key] = len(self.positions)
            self.positions.append(Position(mine, theirs))
            self.lefts.append(left)
        return found


def _explore(nodes: _Nodes, expand: _Expand) -> tuple[dict[int, list[_Edge]], dict[int, int]]:
    """Every node reachable from node 0 by single steps, depth first: each node's edges,
    and (in post-order) the most steps that can still be played from it."""
    steps: dict[tuple[int, int, int, bool], Step] = {}
    node = nodes.number
    positions, lefts = nodes.positions, nodes.lefts
    children: dict[int, list[_Edge]] = {}
    longest: dict[int, int] = {}
    stack: list[tuple[int, bool]] = [(0, False)]
    while stack:
        i, expanded = stack.pop()
        if expanded:
            longest[i] = max((1 + longest[c] for _, c in children[i]), default=0)
            continue
        if i in children:
            continue
        edges = expand(positions[i], lefts[i], node, steps)
        children[i] = edges
        stack.append((i, True))
        for _, c in edges:
            if c not in children:
                stack.append((c, False))
    return children, longest


def _first_edges(edges: list[_Edge], longest: dict[int, int], best: int, full: tuple[int, ...]) -> list[_Edge]:
    """The first steps that start a longest sequence; when only one die can be played of
    a non-double, the higher one if it can be."""
    first = [e for e in edges if 1 + longest[e[1]] == best]
    if best == 1 and len(full) == 2 and any(st.die == full[0] for st, _ in first):
        first = [e for e in first if e[0].die == full[0]]
    return first


def _on_longest_paths(children: dict[int, list[_Edge]], longest: dict[int, int],
                      first: list[_Edge]) -> dict[int, list[_Edge]]:
    """The graph cut down to the edges on a longest path from the start (`first`: the
    start's own such edges)."""
    good: dict[int, list[_Edge]] = {0: first}
    todo = [0]
    while todo:
        i = todo.pop()
        for _, c in good[i]:
            if c not in good:
                need = longest[c] - 1
                good[c] = [e for e in children[c] if longest[e[1]] == need]
                todo.append(c)
    return good
