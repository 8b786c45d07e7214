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

from controller.engine.dice import check_dice
from controller.engine.moves import Move, Step, apply_step, legal_moves, step_destination
from controller.engine.position import BAR, Position

_Node = tuple[Position, tuple[int, ...]]
_Edge = tuple[Step, _Node]


def _children(node: _Node) -> list[_Edge]:
    """Every single step from a node (one per origin and distinct die), legal or not for the plan."""
    position, left = node
    mine, theirs = position.mine, position.theirs
    origins = [25] if mine[BAR] else [p for p in range(24, 0, -1) if mine[p - 1]]
    edges: list[_Edge] = []
    for i, die in enumerate(left):
        if die in left[:i]:
            continue
        rest = left[:i] + left[i + 1:]
        for frm in origins:
            dest = step_destination(mine, theirs, frm, die)
            if dest is None:
                continue
            to, hit = dest
            m, t = apply_step(mine, theirs, frm, to, hit)
            edges.append((Step(frm, to, die, hit), (Position(tuple(m), tuple(t)), rest)))
    return edges


class TurnPlan:
    """Every legal way to play `dice` from `position`, as a graph of partial positions.

    Positions are seen by the player on roll throughout (as `Position` always is).
    Built eagerly in the constructor; the largest doubles take some tens of milliseconds.
    """

    def __init__(self, position: Position, dice: tuple[int, int] | list[int]) -> None:
        d1, d2 = check_dice(tuple(dice))  # type: ignore[arg-type]
        self._position = position
        self._dice: tuple[int, int] = (d1, d2)
        full = (d1,) * 4 if d1 == d2 else (max(d1, d2), min(d1, d2))
        start: _Node = (position, full)
        # depth-first: all children, and the longest number of steps playable from a node
        children: dict[_Node, list[_Edge]] = {}
        longest: dict[_Node, int] = {}
        stack: list[tuple[_Node, bool]] = [(start, False)]
        while stack:
            node, expanded = stack.pop()
            if expanded:
                longest[node] = max((1 + longest[c] for _, c in children[node]), default=0)
                continue
            if node in children:
                continue
            edges = _children(node)
            children[node] = edges
            stack.append((node, True))
            for _, child in edges:
                if child not in children:
                    stack.append((child, False))
        best = longest[start]
        self._steps_needed = best
        # keep only edges on a longest path; one die only: the higher when it can be played
        good: dict[_Node, list[_Edge]] = {}
        parents: dict[Position, set[Position]] = {}
        first = [e for e in children[start] if 1 + longest[e[1]] == best]
        if best == 1 and d1 != d2 and any(s.die == full[0] for s, _ in first):
            first = [e for e in first if e[0].die == full[0]]
        todo = [start]
        good[start] = first
        while todo:
            node = todo.pop()
            for step, child in good[node]:
                parents.setdefault(child[0], set()).add(node[0])
                if child not in good:
                    good[child] = [e for e in children[child] if 1 + longest[e[1]] == longest[child]]
                    todo.append(child)
        self._good = good
        self._parents = parents
        self._nodes: dict[Position, list[_Node]] = {}
        for node in good:
            self._nodes.setdefault(node[0], []).append(node)
        done = len(full) - best
        self._complete = frozenset(n[0] for n in good if len(n[1]) == done)
        self._moves: dict[Position, Move] | None = None

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
        return {left for _, left in self._nodes.get(position, ())}

    def next_steps(self, position: Position) -> list[Step]:
        """Every step that some legal full sequence takes from this partial position."""
        seen: dict[Step, None] = {}
        for node in self._nodes.get(position, ()):
            for step, _ in self._good[node]:
                seen.setdefault(step, None)
        return list(seen)

    def movable(self, position: Position) -> set[int]:
        """Points whose checker may move next (25 = bar)."""
        return {s.frm for s in self.next_steps(position)}

    def previous(self, position: Position) -> set[Position]:
        """Partial positions one legal step before `position` (for undo); empty for the start."""
        return set(self._parents.get(position, ()))

    def routes(self, position: Position, frm: int) -> dict[int, list[tuple[Step, ...]]]:
        """Destination -> every legal sequence of steps by which the checker on `frm`
        alone gets there next (one step, or several steps of the same checker)."""
        found: dict[int, list[tuple[Step, ...]]] = {}
        todo: list[tuple[_Node, int, tuple[Step, ...]]] = [
            (node, frm, ()) for node in self._nodes.get(position, ())
        ]
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
        dice used: `"5"`, `"5+3"`, `"2+2+2"` (fewest dice first, then the smallest dice, then
        the higher die first)."""
        labels: dict[int, str] = {}
        for to, routes in self.routes(position, frm).items():
            best = min(routes, key=lambda r: (len(r), sum(s.die for s in r), [-s.die for s in r]))
            labels[to] = "+".join(str(s.die) for s in best)
        return labels

    def __repr__(self) -> str:
        return f"TurnPlan({self._position!r}, {self._dice!r})"

