"""From a settled reading of the physical board to what happened (pure).

The reconciler never guesses from differences alone: it compares the reading with the
boards the rules allow right now (the turn's start, every legal partial and complete
move, earlier partials for undo) and with their physical in-between states that a person
passes through: a checker in hand (one checker fewer than an allowed board), a hit blot
still on its point (it must go to the bar), a blot already put on the bar just before the
hitting checker lands. Anything else is a mismatch, explained as the fewest checker
movements that bring the board back to the last accepted position.

Saturated cells (every slot full) only give a lower bound; they are resolved from the 15
checkers each side has and from the allowed boards. Only when two different allowed
positions fit one reading is the reading ambiguous (the player is asked).

A checker put on a full point is not seen landing: the board reads the same whether it
is still in the hand or already on that point. Such a reading is read as a checker in
hand (its targets light, the full point among them) with the full cells it may already
stand on (`Matched.unseen`); the player's button says it has landed (`assume_landed`),
and a landing no move allows is then a checker too many on the full point (a `surplus`
correction), never a silent refusal.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Literal

from controller.engine.board_view import CELLS, Colour, cell_counts, point_of_cell
from controller.engine.position import BAR, CHECKERS, Position
from controller.engine.turn import TurnPlan

Counts = Mapping[str, tuple[int, int]]
Key = tuple[int, ...]
_CELL_INDEX: dict[str, int] = {cell: i for i, cell in enumerate(CELLS)}
_MAX_SATURATION_SPLITS = 4096


@dataclass(frozen=True)
class BoardState:
    """What the board reads: (white, black) per cell, the cells whose slots are all full,
    and the cells with a faulty sensor (`faults`: their counts are what the working
    sensors see, so a fault is never mistaken for an empty slot by whoever shows it).

    The controller's own view of a reading (`Reading.board_state()` converts to it);
    equal states compare equal, so settling can tell a change from a heartbeat.
    """

    counts: tuple[tuple[int, int], ...]
    saturated: frozenset[str] = frozenset()
    faults: frozenset[str] = frozenset()

    @classmethod
    def of(cls, counts: Counts, saturated: Iterable[str] = (),
           faults: Iterable[str] = ()) -> "BoardState":
        return cls(tuple(tuple(counts.get(c, (0, 0))) for c in CELLS),  # type: ignore[misc]
                   frozenset(saturated), frozenset(faults))

    @classmethod
    def of_position(cls, position: Position, mover: Colour) -> "BoardState":
        """The exact board of a position (no saturation: as if every cell had room)."""
        return cls.of(cell_counts(position, mover))

    def count(self, cell: str) -> tuple[int, int]:
        return self.counts[_CELL_INDEX[cell]]

    def as_dict(self) -> dict[str, tuple[int, int]]:
        return {cell: self.counts[i] for i, cell in enumerate(CELLS)}

    def key(self) -> Key:
        return tuple(n for pair in self.counts for n in pair)

    def totals(self) -> tuple[int, int]:
        return sum(w for w, _ in self.counts), sum(b for _, b in self.counts)


def position_key(position: Position, mover: Colour) -> Key:
    """The flat (white, black) counts of every cell, in `CELLS` order, for a lookup."""
    if mover == "white":
        white, black = position.mine, position.theirs
    else:
        white, black = position.theirs, position.mine
    out: list[int] = []
    for p in range(1, 25):
        out.append(white[p - 1])
        out.append(black[24 - p])
    out += [white[BAR], black[BAR], CHECKERS - sum(white), 0, 0, CHECKERS - sum(black)]
    return tuple(out)


# -- what a reading means ----------------------------------------------------------------

@dataclass(frozen=True)
class Matched:
    """The reading is an allowed board, possibly on the way to it.

    `position` is the allowed position (mover's view). `hits_pending`: cells where a blot
    that was hit still stands (it must go to the bar). `prehit`: cells whose blot is already
    on the bar although the hitting checker has not landed yet. `in_hand`: the cell and
    colour of a checker lifted off that board. `unseen`: the full cells where that checker
    may already stand as a legal step, unseen (see the module docstring).
    """

    position: Position
    hits_pending: tuple[str, ...] = ()
    prehit: tuple[str, ...] = ()
    in_hand: tuple[str, Colour] | None = None
    unseen: tuple[str, ...] = ()

    @property
    def is_exact(self) -> bool:
        """The board shows exactly `position`: nothing in hand, no hit half-done."""
        return not (self.hits_pending or self.prehit or self.in_hand)


@dataclass(frozen=True)
class Instruction:
    """One correction: `move` n checkers from `frm` back to `to`, `take` n off `frm`
    (surplus with nowhere to go), `put` n on `to` (missing, none to take them from), or
    `surplus`: the full point `frm` holds n too many, which belong on `to` (a count the
    board cannot see, told as such)."""

    kind: Literal["move", "take", "put", "surplus"]
    colour: Colour
    n: int
    frm: str | None = None
    to: str | None = None


@dataclass(frozen=True)
class Mismatch:
    """The reading fits no allowed board: the cells that differ from `reference` and the
    corrections, fewest checker movements first paired by least distance."""

    cells: tuple[str, ...]
    instructions: tuple[Instruction, ...]


@dataclass(frozen=True)
class Ambiguous:
    """Saturated cells leave more than one allowed position possible: ask the player."""

    positions: tuple[Position, ...]
    cells: tuple[str, ...]


Verdict = Matched | Mismatch | Ambiguous


# -- the allowed boards ------------------------------------------------------------------

@dataclass(frozen=True)
class _Candidate:
    position: Position
    hits_pending: tuple[str, ...] = ()
    prehit: tuple[str, ...] = ()


@dataclass
class Expectation:
    """Every board acceptable now, indexed by counts; built once per turn or phase.

    `positions` are the allowed positions (mover's view) in order of preference; `start`
    is the turn's start, whose opponent checkers tell which blots were hit since; `hits`
    maps a position to the cells its next steps hit (for the blot put on the bar first).
    """

    mover: Colour
    start: Position
    positions: tuple[Position, ...]
    next_hits: Mapping[Position, tuple[str, ...]] = field(default_factory=dict)
    index: dict[Key, list[_Candidate]] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        start_key = position_key(self.start, self.mover)
        opp = 1 if self.mover == "white" else 0
        for pos in self.positions:
            key = position_key(pos, self.mover)
            self._add(key, _Candidate(pos))
            # blots hit since the start: the opponent has fewer on a point than at the start
            hit_cells = [CELLS[i] for i in range(24) if key[2 * i + opp] < start_key[2 * i + opp]]
            for r in range(1, len(hit_cells) + 1):
                for subset in combinations(hit_cells, r):
                    variant = list(key)
                    for cell in subset:
                        variant[2 * _CELL_INDEX[cell] + opp] += 1
                        variant[2 * _CELL_INDEX["bar"] + opp] -= 1
                    self._add(tuple(variant), _Candidate(pos, hits_pending=subset))
            for cell in self.next_hits.get(pos, ()):
                variant = list(key)
                variant[2 * _CELL_INDEX[cell] + opp] -= 1
                variant[2 * _CELL_INDEX["bar"] + opp] += 1
                self._add(tuple(variant), _Candidate(pos, prehit=(cell,)))

    def _add(self, key: Key, candidate: _Candidate) -> None:
        self.index.setdefault(key, []).append(candidate)

    @classmethod
    def single(cls, position: Position, mover: Colour) -> "Expectation":
        """Only one board is right (before a roll, while set-up, waiting for the opponent)."""
        return cls(mover, position, (position,))


# -- reconciling -------------------------------------------------------------------------

def reconcile(state: BoardState, expectation: Expectation, current: Position,
              slots: Mapping[str, int] | None = None, *, assume_landed: bool = False) -> Verdict:
    """What `state` means given the allowed boards; `current` is the last accepted position
    (preferred when several readings fit, and the reference of a mismatch). A reading that
    is also `current` with a checker lifted reads as that checker in hand, possibly on a
    full point (`Matched.unseen`), unless `assume_landed` (the player said it landed)."""
    exact: list[Matched] = []
    in_hand: list[Matched] = []
    for key, totals in _resolutions(state):
        for cand in expectation.index.get(key, ()):
            exact.append(Matched(cand.position, cand.hits_pending, cand.prehit))
        for colour_index in (0, 1):
            if totals[colour_index] != CHECKERS - 1 or totals[1 - colour_index] != CHECKERS:
                continue
            colour: Colour = "white" if colour_index == 0 else "black"
            for i, cell in enumerate(CELLS):
                probe = list(key)
                probe[2 * i + colour_index] += 1
                for cand in expectation.index.get(tuple(probe), ()):
                    in_hand.append(Matched(cand.position, cand.hits_pending, cand.prehit, (cell, colour)))
    if exact:
        if not assume_landed and all(m.position != current for m in exact):
            lifted = [m for m in in_hand if m.position == current and m.in_hand is not None
                      and m.in_hand[1] == expectation.mover]
            if lifted:
                held = _choose(lifted, current, state)
                assert isinstance(held, Matched)
                return replace(held, unseen=_landings(exact, current, state, expectation.mover))
        return _choose(exact, current, state)
    if in_hand:
        return _choose(in_hand, current, state)
    return mismatch(state, BoardState.of_position(current, expectation.mover))


def _landings(exact: list[Matched], current: Position, state: BoardState,
              mover: Colour) -> tuple[str, ...]:
    """The full cells on which the allowed boards `exact` have more of the mover's
    checkers than `current`: where a checker in hand may have landed unseen."""
    ci = 0 if mover == "white" else 1
    now = position_key(current, mover)
    cells = {cell for m in exact for cell in state.saturated
             if position_key(m.position, mover)[2 * _CELL_INDEX[cell] + ci] > now[2 * _CELL_INDEX[cell] + ci]}
    return tuple(sorted(cells, key=_CELL_INDEX.__getitem__))


def surplus(state: BoardState, held: Matched) -> Mismatch | None:
    """The correction when the player says a checker in hand has landed but no allowed
    board has it where the board cannot see it: one too many on a full cell of its colour
    (the first such cell; None when no cell of that colour is full, so it is in hand)."""
    if held.in_hand is None:
        return None
    origin, colour = held.in_hand
    ci = 0 if colour == "white" else 1
    full = [cell for cell in CELLS if cell in state.saturated and state.count(cell)[ci]]
    if not full:
        return None
    return Mismatch((full[0], origin), (Instruction("surplus", colour, 1, frm=full[0], to=origin),))


def _pending(m: Matched) -> int:
    """How many hit blots this reading still waits for (they stand where they were hit)."""
    return len(m.hits_pending) + len(m.prehit)


def _choose(options: list[Matched], current: Position, state: BoardState) -> Verdict:
    """The reading's meaning. What stands on the board counts: a reading that matches a
    move with nothing pending beats one that waits for a hit blot to be carried to the bar
    (running 24/14 past a blot is 24/20/14, not 24/18*/14 with the blot left behind). Only
    several equally complete positions (from saturated points) ask the player."""
    positions = {m.position for m in options}
    if len(positions) > 1 and not any(m.in_hand for m in options) and current not in positions:
        least = min(_pending(m) for m in options)
        complete = {m.position for m in options if _pending(m) == least}
        if len(complete) > 1:
            cells = tuple(sorted(state.saturated, key=_CELL_INDEX.__getitem__))
            return Ambiguous(tuple(sorted(complete, key=lambda p: p.id)), cells)

    def rank(m: Matched) -> tuple[int, int, int, str]:
        return (m.position != current, _pending(m),
                m.in_hand[1] != "white" if m.in_hand else 0, m.in_hand[0] if m.in_hand else "")

    return min(options, key=rank)


def _resolutions(state: BoardState) -> Iterator[tuple[Key, tuple[int, int]]]:
    """Exact readings the state may stand for: itself when nothing is saturated, else every
    split of the missing checkers over the saturated cells (totals of 15, or 14 for one
    side with a checker in hand)."""
    base = state.key()
    totals = state.totals()
    if not state.saturated:
        yield base, totals
        return
    per_colour: list[list[int]] = [[], []]
    for cell in state.saturated:
        i = _CELL_INDEX[cell]
        w, b = state.counts[i]
        if w:
            per_colour[0].append(2 * i)
        if b:
            per_colour[1].append(2 * i + 1)
    options: list[list[tuple[tuple[int, int], ...]]] = [[], []]
    for colour in (0, 1):
        missing = CHECKERS - totals[colour]
        for hand in (0, 1):
            extra = missing - hand
            if extra < 0:
                continue
            if not per_colour[colour]:
                if extra == 0:
                    options[colour].append(())
                continue
            for split in _splits(extra, len(per_colour[colour])):
                options[colour].append(tuple(zip(per_colour[colour], split)))
    produced = 0
    for white_split in options[0]:
        for black_split in options[1]:
            key = list(base)
            for idx, add in (*white_split, *black_split):
                key[idx] += add
            tot = (sum(key[0::2]), sum(key[1::2]))
            if tot[0] + tot[1] < 2 * CHECKERS - 1:
                continue
            yield tuple(key), tot
            produced += 1
            if produced >= _MAX_SATURATION_SPLITS:
                return


def _splits(total: int, parts: int) -> Iterator[tuple[int, ...]]:
    if parts == 1:
        yield (total,)
        return
    for first in range(total + 1):
        for rest in _splits(total - first, parts - 1):
            yield (first, *rest)


# -- explaining a mismatch ---------------------------------------------------------------

def _distance(a: str, b: str, colour: Colour) -> int:
    return abs(point_of_cell(a, colour) - point_of_cell(b, colour))


def mismatch(state: BoardState, reference: BoardState) -> Mismatch:
    """The cells where `state` differs from `reference` and the corrections that fix it.

    Surplus and deficit of each colour are paired by least movement (greedily, shortest
    first): "put 1 white back on 13" moves a checker from the nearest surplus cell; what is
    left over is taken off or put on. A saturated cell that reference fills is no difference.
    """
    surplus: dict[Colour, list[str]] = {"white": [], "black": []}
    deficit: dict[Colour, list[str]] = {"white": [], "black": []}
    cells: list[str] = []
    for i, cell in enumerate(CELLS):
        have, want = state.counts[i], reference.counts[i]
        differs = False
        for ci, colour in ((0, "white"), (1, "black")):
            h, w = have[ci], want[ci]
            if cell in state.saturated and h > 0 and w >= h:
                continue
            if h > w:
                surplus[colour] += [cell] * (h - w)  # type: ignore[index]
                differs = True
            elif h < w:
                deficit[colour] += [cell] * (w - h)  # type: ignore[index]
                differs = True
        if differs:
            cells.append(cell)
    instructions: list[Instruction] = []
    for colour in ("white", "black"):
        instructions += _pair(surplus[colour], deficit[colour], colour)  # type: ignore[index,arg-type]
    return Mismatch(tuple(cells), tuple(_merge(instructions)))


def _pair(surplus: list[str], deficit: list[str], colour: Colour) -> list[Instruction]:
    pairs = sorted(((_distance(s, d, colour), si, di) for si, s in enumerate(surplus)
                    for di, d in enumerate(deficit)))
    used_s: set[int] = set()
    used_d: set[int] = set()
    out: list[Instruction] = []
    for _, si, di in pairs:
        if si in used_s or di in used_d:
            continue
        used_s.add(si)
        used_d.add(di)
        out.append(Instruction("move", colour, 1, surplus[si], deficit[di]))
    out += [Instruction("take", colour, 1, frm=s) for i, s in enumerate(surplus) if i not in used_s]
    out += [Instruction("put", colour, 1, to=d) for i, d in enumerate(deficit) if i not in used_d]
    return out


def _merge(instructions: list[Instruction]) -> list[Instruction]:
    """Equal corrections become one with a count ("put 2 white back on 13")."""
    merged: dict[tuple[str, str, str | None, str | None], int] = {}
    for ins in instructions:
        k = (ins.kind, ins.colour, ins.frm, ins.to)
        merged[k] = merged.get(k, 0) + ins.n
    return [Instruction(kind, colour, n, frm, to) for (kind, colour, frm, to), n in merged.items()]  # type: ignore[arg-type]


def turn_expectation(plan: TurnPlan, mover: Colour) -> Expectation:
    """The expectation of a turn in progress: every legal partial of the engine's plan,
    fewest steps played first."""
    next_hits: dict[Position, tuple[str, ...]] = {}
    for pos in plan.partials:
        hits = sorted({str(s.to if mover == "white" else 25 - s.to)
                       for s in plan.next_steps(pos) if s.hit})
        if hits:
            next_hits[pos] = tuple(hits)
    return Expectation(mover, plan.start, plan.partials, next_hits)


def path_expectation(start: Position, path: Iterable[Position], mover: Colour,
                     next_hits: Mapping[Position, tuple[str, ...]] | None = None) -> Expectation:
    """The expectation of a given move carried out by hand (the computer's or a remote
    player's): only its own partial positions."""
    return Expectation(mover, start, (start, *path), dict(next_hits or {}))
