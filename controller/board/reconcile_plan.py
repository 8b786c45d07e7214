"""Every position a turn may pass through, as a graph of single steps.

Reconciling a physical board needs more than the engine's list of distinct moves: a
person plays one checker at a time, in any order the rules allow, and may take steps back.
The engine's `TurnPlan` knows which steps are legal from each partial position; this
module lays them out once per turn as a graph the reconciler walks: every node a legal
partial position, every edge one step with its result, a parent pointer per node so a step
path from the start to any partial can be replayed into the match, and the targets a
lifted checker has with the dice each uses.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from controller.engine.moves import OFF, Move, Step
from controller.engine.position import Position
from controller.engine.turn import TurnPlan

Rem = tuple[int, ...]  # dice still to play, sorted high to low


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
        """The graph of the engine's plan for this roll, breadth first from the start
        (so each node's parent path is a shortest one)."""
        plan = TurnPlan(start, dice)
        graph = cls(start, (dice[0], dice[1]), plan.steps_needed)
        graph.nodes[start] = set(plan.dice_left(start))
        graph.parent[start] = None
        graph.depth[start] = 0
        queue: deque[Position] = deque([start])
        while queue:
            pos = queue.popleft()
            out = graph.edges.setdefault(pos, {})
            for step in plan.next_steps(pos):
                nxt = pos.after(step)
                out[step] = nxt
                if nxt not in graph.parent:
                    graph.parent[nxt] = (pos, step)
                    graph.depth[nxt] = graph.depth[pos] + 1
                    graph.nodes[nxt] = set(plan.dice_left(nxt))
                    queue.append(nxt)
        graph.complete = plan.complete
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
