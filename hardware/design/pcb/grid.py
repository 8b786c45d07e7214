"""The router's grid and what blocks it.

The grid is a regular lattice (`STEP` apart) with the centre lines of narrow pads added, so
a track can leave a fine-pitch pad along its axis (a wider pad has lattice nodes enough). A node is a place a track's centre line
(or a via's centre) may pass; for each layer and each kind of copper the router lays (a
track of a given width, or a via) an owner map says, node by node, who may be there:
0 anyone, a net's number only that net (the node is within clearance of that net's copper
and of no other's), -1 no one (two nets' copper, the board's edge, a mounting hole).

Clearance is held at the nodes with a small margin (`MARGIN`): a straight step between two
free nodes stays clear of round copper by more than the chord's sagitta (under 0.01 mm at
these steps and radii). Distances are compared at a micrometre's resolution, so that a last
bit of difference between two machines' square roots cannot move a track (the boards are
made again in CI and compared byte for byte).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .rules import Rules
from .shapes import LAYERS, Hole, Layer, Pad, Track, Via

STEP = 0.25          # lattice pitch, mm
MERGE = 0.03         # a lattice line this close to a pad's centre line gives way to it
NARROW = 0.5         # a pad narrower than this gets its own centre line: its track must run
                     # along it (a 0.3 mm pad at 0.5 mm pitch leaves 0.025 mm to spare)
MARGIN = 0.01        # added to every clearance at the nodes

Owners = npt.NDArray[np.int32]
Floats = npt.NDArray[np.float64]
Mask = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class Lines:
    """The grid's x and y lines, ascending."""

    xs: Floats
    ys: Floats

    @property
    def shape(self) -> tuple[int, int]:
        return len(self.ys), len(self.xs)

    def span(self, lo: float, hi: float, axis: int) -> slice:
        """The index range of lines with lo <= value <= hi (axis 0: x, 1: y)."""
        values = self.xs if axis == 0 else self.ys
        return slice(int(np.searchsorted(values, lo, "left")), int(np.searchsorted(values, hi, "right")))


def lines(width: float, height: float, pads: list[Pad]) -> Lines:
    def axis(size: float, centres: set[float]) -> Floats:
        lattice = np.arange(0.0, size + 1e-9, STEP)
        fixed = np.array(sorted(c for c in centres if 0 <= c <= size))
        if len(fixed):
            near = np.abs(lattice[:, None] - fixed[None, :]).min(axis=1) < MERGE
            lattice = lattice[~near]
        return np.unique(np.round(np.concatenate([lattice, fixed]), 6))
    return Lines(axis(width, {p.x for p in pads if p.w < NARROW}),
                 axis(height, {p.y for p in pads if p.h < NARROW}))


def _segment_distance(xs: Floats, ys: Floats, a: tuple[float, float], b: tuple[float, float]) -> Floats:
    """Distance from every (x, y) of the block to the segment a-b."""
    px, py = xs[None, :] - a[0], ys[:, None] - a[1]
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    t = np.clip((px * dx + py * dy) / length2, 0.0, 1.0) if length2 > 0 else np.zeros_like(px * py)
    return np.asarray(np.hypot(px - t * dx, py - t * dy))


def _within(distances: Floats, reach: float) -> Mask:
    return np.asarray(np.round(distances, 6) < round(reach, 6))


@dataclass(frozen=True)
class Shape:
    """A piece of copper or a keep-out: a rectangle (half sizes hw, hh) or a stadium
    (a segment a-b grown by `radius`; a circle when a == b)."""

    layers: tuple[Layer, ...]
    box: tuple[float, float, float, float]          # x0, y0, x1, y1 of the copper
    rect: tuple[float, float, float, float] | None  # cx, cy, hw, hh
    segment: tuple[tuple[float, float], tuple[float, float], float] | None

    def distance(self, xs: Floats, ys: Floats) -> Floats:
        if self.rect is not None:
            cx, cy, hw, hh = self.rect
            dx = np.maximum(np.abs(xs[None, :] - cx) - hw, 0.0)
            dy = np.maximum(np.abs(ys[:, None] - cy) - hh, 0.0)
            return np.asarray(np.hypot(dx, dy))
        assert self.segment is not None
        a, b, radius = self.segment
        return _segment_distance(xs, ys, a, b) - radius


def stadium(layers: tuple[Layer, ...], a: tuple[float, float], b: tuple[float, float], radius: float) -> Shape:
    box = (min(a[0], b[0]) - radius, min(a[1], b[1]) - radius, max(a[0], b[0]) + radius, max(a[1], b[1]) + radius)
    return Shape(layers, box, None, (a, b, radius))


def pad_shape(pad: Pad) -> Shape:
    hw, hh = pad.w / 2, pad.h / 2
    if pad.shape == "rect":
        return Shape(pad.layers, (pad.x - hw, pad.y - hh, pad.x + hw, pad.y + hh), (pad.x, pad.y, hw, hh), None)
    r = min(hw, hh)
    a, b = (pad.x - (hw - r), pad.y - (hh - r)), (pad.x + (hw - r), pad.y + (hh - r))
    return stadium(pad.layers, a, b, r)


def track_shape(t: Track) -> Shape:
    return stadium((t.layer,), (t.x1, t.y1), (t.x2, t.y2), t.width / 2)


def via_shape(v: Via) -> Shape:
    return stadium(LAYERS, (v.x, v.y), (v.x, v.y), v.size / 2)


class Obstacles:
    """The owner maps: one per layer for each track width the router lays, one per layer
    for vias, and one map of where no via may go at all (near any hole, on any pad)."""

    def __init__(self, grid: Lines, rules: Rules, widths: tuple[float, ...], width: float, height: float) -> None:
        self.grid, self.rules = grid, rules
        self.radii = {w: w / 2 for w in widths}
        shape = (len(LAYERS),) + grid.shape
        self.tracks = {w: np.zeros(shape, np.int32) for w in widths}
        self.vias = np.zeros(shape, np.int32)
        self.no_via = np.zeros(grid.shape, np.bool_)
        self._edge(width, height)

    def _edge(self, width: float, height: float) -> None:
        """Nothing within the edge clearance (plus the copper's own half width) of the edge."""
        xs, ys = self.grid.xs, self.grid.ys
        for owners, radius in [(self.tracks[w], r) for w, r in self.radii.items()] + [(self.vias, self.rules.via / 2)]:
            keep = self.rules.edge_clearance + radius + MARGIN
            outside = (xs[None, :] < keep) | (xs[None, :] > width - keep) | \
                      (ys[:, None] < keep) | (ys[:, None] > height - keep)
            owners[:, outside] = -1

    def _mark(self, owners: Owners, layer: int, shape: Shape, reach: float, net: int) -> None:
        x0, y0, x1, y1 = shape.box
        sx = self.grid.span(x0 - reach, x1 + reach, 0)
        sy = self.grid.span(y0 - reach, y1 + reach, 1)
        if sx.start >= sx.stop or sy.start >= sy.stop:
            return
        near = _within(shape.distance(self.grid.xs[sx], self.grid.ys[sy]), reach)
        block = owners[layer, sy, sx]
        if net < 0:
            block[near] = -1
            return
        clash = near & (block != 0) & (block != net)
        block[near & (block == 0)] = net
        block[clash] = -1

    def add(self, shape: Shape, net: int, clearance: float | None = None) -> None:
        """Copper of `net` (-1: of no net, or a keep-out) that every other net keeps
        `clearance` from (the rules' clearance unless given)."""
        gap = (self.rules.clearance if clearance is None else clearance) + MARGIN
        for layer in shape.layers:
            index = LAYERS.index(layer)
            for w, radius in self.radii.items():
                self._mark(self.tracks[w], index, shape, gap + radius, net)
            self._mark(self.vias, index, shape, gap + self.rules.via / 2, net)

    def forbid_vias(self, shape: Shape, reach: float) -> None:
        x0, y0, x1, y1 = shape.box
        sx = self.grid.span(x0 - reach, x1 + reach, 0)
        sy = self.grid.span(y0 - reach, y1 + reach, 1)
        if sx.start < sx.stop and sy.start < sy.stop:
            self.no_via[sy, sx] |= _within(shape.distance(self.grid.xs[sx], self.grid.ys[sy]), reach)

    def add_pad(self, pad: Pad, net: int) -> None:
        shape = pad_shape(pad)
        self.add(shape, net)
        self.forbid_vias(shape, self.rules.clearance + self.rules.via / 2 + MARGIN)   # no via in or at a pad
        if pad.drill is not None:
            self.forbid_vias(stadium(LAYERS, (pad.x, pad.y), (pad.x, pad.y), pad.drill / 2),
                             self.rules.hole_to_hole + self.rules.via_drill / 2 + MARGIN)

    def add_hole(self, hole: Hole) -> None:
        centre = (hole.x, hole.y)
        self.add(stadium(LAYERS, centre, centre, hole.keepout), -1, clearance=0.0)
        self.forbid_vias(stadium(LAYERS, centre, centre, hole.keepout), self.rules.via / 2 + MARGIN)

    def add_via(self, via: Via, net: int) -> None:
        self.add(via_shape(via), net)
        self.forbid_vias(stadium(LAYERS, (via.x, via.y), (via.x, via.y), via.drill / 2),
                         self.rules.hole_to_hole + self.rules.via_drill / 2 + MARGIN)

    def free(self, net: int, width: float) -> Mask:
        """Where a track of `width` of `net` may run: (layer, y, x)."""
        owners = self.tracks[width]
        return np.asarray((owners == 0) | (owners == net))

    def via_free(self, net: int) -> Mask:
        """Where a via of `net` may go: (y, x)."""
        ok = (self.vias == 0) | (self.vias == net)
        return np.asarray(ok[0] & ok[1] & ~self.no_via)
