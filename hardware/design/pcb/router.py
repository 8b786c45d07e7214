"""The router: every net of a board laid as tracks and vias on two layers.

- The plane's net (GND, a filled zone on B.Cu) is reached from its SMD pads on the top:
  pads of one part that sit side by side are joined on F.Cu, and each such group gets a
  via to the plane nearby, kept clear of other nets' pads so they can still get out; its
  through-hole pads sit in the plane already.
- Every other net is a tree: from its first pad, each further pad (the nearest to what is
  already laid first, as Prim's tree grows) joins the copper laid so far by the cheapest
  path on the grid (search.py): F.Cu preferred, B.Cu dearer (it is the plane's layer).
- Nets go shortest first. A pad that cannot be reached is usually shut in by nets laid
  before it: those near it are ripped up and laid again after it (rip-up and reroute, a
  few times a net, with a wider reach each time). If that fails too, RoutingError names
  the net and the pads it could not join.

Deterministic: the same pads give the same tracks, so the generated files can be compared.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

from . import grid as g
from .rules import Rules
from .search import Costs, Field, enclosed, search
from .shapes import LAYERS, Hole, Layer, Pad, Track, Via

STITCH_REACH = 4.0           # mm from an SMD plane pad to its via, at most
STITCH_SPACE = 0.6           # extra room a stitching via leaves other nets' pads
NEIGHBOURS = 1.6             # plane pads of one part this close are joined before the via
RIP_REACH = (2.5, 5.0, 10.0)  # the nets near a failed pad that are laid again, mm
RIP_LIMIT = 60               # rip-ups a board may take in all
SHUT_IN = 4_000             # nodes: a pad's free surroundings smaller than this is shut in


class RoutingError(ValueError):
    """A net the router cannot lay: the message names it and its pads."""


@dataclass(frozen=True)
class Job:
    """What the router is asked: the board's size, every pad (with its net), the mounting
    holes, the plane's net (on B.Cu) and the track width of nets wider than the rules'."""

    width: float
    height: float
    pads: tuple[Pad, ...]
    holes: tuple[Hole, ...]
    plane: str
    widths: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Routed:
    tracks: tuple[Track, ...]
    vias: tuple[Via, ...]
    rip_ups: int


def route(job: Job, rules: Rules, costs: Costs = Costs()) -> Routed:
    return _Router(job, rules, costs).run()


def _span(pads: list[Pad]) -> float:
    """The length of the minimum spanning tree over the pads' centres."""
    points = [(p.x, p.y) for p in pads]
    inside, rest, total = [points[0]], points[1:], 0.0
    while rest:
        d, k = min((min(math.dist(a, b) for a in inside), k) for k, b in enumerate(rest))
        total += d
        inside.append(rest.pop(k))
    return total


@dataclass
class _Failure:
    net: str
    message: str
    near: tuple[Pad, ...]         # the pads whose surroundings are crowded


class _Router:
    def __init__(self, job: Job, rules: Rules, costs: Costs) -> None:
        self.job, self.rules, self.costs = job, rules, costs
        self.grid = g.lines(job.width, job.height, list(job.pads))
        self.widths = tuple(sorted({rules.track, *job.widths.values()}))
        self.ids = {n: k + 1 for k, n in enumerate(sorted({p.net for p in job.pads if p.net}))}
        self.xs = [float(x) for x in self.grid.xs]
        self.ys = [float(y) for y in self.grid.ys]
        self.nx, self.ny = len(self.xs), len(self.ys)
        self.plane_size = self.nx * self.ny
        self.laid: dict[str, tuple[list[Track], list[Via]]] = {}
        self.rebuild()
        self.polite = self._polite_spots()

    # -- the obstacles -------------------------------------------------------------------

    def rebuild(self) -> None:
        """The owner maps from nothing: holes, pads, and every net laid so far."""
        self.obstacles = g.Obstacles(self.grid, self.rules, self.widths, self.job.width, self.job.height)
        for hole in self.job.holes:
            self.obstacles.add_hole(hole)
        for pad in self.job.pads:
            self.obstacles.add_pad(pad, self.ids.get(pad.net, -1))
        for net, (tracks, vias) in sorted(self.laid.items()):
            for t in tracks:
                self.obstacles.add(g.track_shape(t), self.ids[net])
            for v in vias:
                self.obstacles.add_via(v, self.ids[net])

    def _polite_spots(self) -> np.ndarray:
        """Where a stitching via leaves every other net's pad room to get out: (y, x)."""
        roomy = g.Obstacles(self.grid, self.rules, self.widths, self.job.width, self.job.height)
        for pad in self.job.pads:
            if pad.net != self.job.plane:
                roomy.add(g.pad_shape(pad), -1, clearance=self.rules.clearance + STITCH_SPACE)
        return np.asarray(roomy.vias[0] == 0)

    def width(self, net: str) -> float:
        return self.job.widths.get(net, self.rules.track)

    def field(self, net: str, layers: tuple[Layer, ...] = LAYERS, vias: bool = True) -> Field:
        free = self.obstacles.free(self.ids[net], self.width(net)).copy()
        for k, layer in enumerate(LAYERS):
            if layer not in layers:
                free[k] = False
        via = self.obstacles.via_free(self.ids[net]) if vias else np.zeros(self.grid.shape, np.bool_)
        return Field(self.xs, self.ys, free.astype(np.uint8).tobytes(), via.astype(np.uint8).tobytes())

    def terminals(self, pad: Pad, field: Field) -> set[int]:
        """The nodes on the pad's copper where a track of its net may end."""
        sx = self.grid.span(pad.x - pad.w / 2, pad.x + pad.w / 2, 0)
        sy = self.grid.span(pad.y - pad.h / 2, pad.y + pad.h / 2, 1)
        found = set()
        for layer in pad.layers:
            offset = LAYERS.index(layer) * self.plane_size
            for j in range(sy.start, sy.stop):
                for i in range(sx.start, sx.stop):
                    node = offset + j * self.nx + i
                    if field.free[node] and pad.contains(self.xs[i], self.ys[j]):
                        found.add(node)
        return found

    def point(self, node: int) -> tuple[int, float, float]:
        layer, rest = divmod(node, self.plane_size)
        j, i = divmod(rest, self.nx)
        return layer, self.xs[i], self.ys[j]

    def lay(self, net: str, path: list[int]) -> None:
        """Tracks and vias along a path, each added to the obstacles at once. Where the
        path ends on the middle of a track of its net, that track is split there: every
        joint is then two ends meeting (a T on a track's middle is not always a
        connection to KiCad's connectivity)."""
        width, number = self.width(net), self.ids[net]
        tracks, vias = self.laid.setdefault(net, ([], []))
        for end in {path[0], path[-1]}:
            layer, x, y = self.point(end)
            _split(tracks, LAYERS[layer], x, y)
        runs: list[tuple[int, list[tuple[float, float]]]] = []
        for node in path:
            layer, x, y = self.point(node)
            if runs and runs[-1][0] == layer:
                runs[-1][1].append((x, y))
                continue
            if runs:
                self.add_via(net, x, y)
            runs.append((layer, [(x, y)]))
        for layer, points in runs:
            for a, b in _corners(points):
                track = Track(net, LAYERS[layer], a[0], a[1], b[0], b[1], width)
                tracks.append(track)
                self.obstacles.add(g.track_shape(track), number)

    def add_via(self, net: str, x: float, y: float) -> None:
        via = Via(net, x, y, self.rules.via, self.rules.via_drill)
        self.laid.setdefault(net, ([], []))[1].append(via)
        self.obstacles.add_via(via, self.ids[net])

    # -- the plane -----------------------------------------------------------------------

    def stitch_plane(self) -> None:
        """Each group of side-by-side SMD plane pads joined on F.Cu, and a via to the plane
        beside it, as near as there is room."""
        net = self.job.plane
        if net not in self.ids:
            return
        for group in self._plane_groups():
            field = self.field(net, ("F.Cu",), vias=False)
            tree = self.terminals(group[0], field)
            for pad in group[1:]:
                path = search(field, tree, self.terminals(pad, field), (pad.x, pad.y, 0.0), self.costs, 20_000)
                if path is None:
                    raise RoutingError(f"net {net}: cannot join {pad.name} to {group[0].name} on F.Cu")
                self.lay(net, path)
                tree |= set(path)
                field = self.field(net, ("F.Cu",), vias=False)
            self._stitch(group, tree, field)

    def _plane_groups(self) -> list[list[Pad]]:
        pads = sorted((p for p in self.job.pads if p.net == self.job.plane and "B.Cu" not in p.layers),
                      key=lambda p: p.name)
        groups: list[list[Pad]] = []
        for pad in pads:
            home = next((grp for grp in groups if grp[0].ref == pad.ref
                         and any(math.dist((q.x, q.y), (pad.x, pad.y)) <= NEIGHBOURS for q in grp)), None)
            if home is None:
                groups.append([pad])
            else:
                home.append(pad)
        return groups

    def _stitch(self, group: list[Pad], tree: set[int], field: Field) -> None:
        net = self.job.plane
        spots = self.obstacles.via_free(self.ids[net])
        first = group[0]
        sx = self.grid.span(first.x - STITCH_REACH, first.x + STITCH_REACH, 0)
        sy = self.grid.span(first.y - STITCH_REACH, first.y + STITCH_REACH, 1)
        for polite in (True, False):
            targets = {j * self.nx + i for j in range(sy.start, sy.stop) for i in range(sx.start, sx.stop)
                       if spots[j, i] and field.free[j * self.nx + i] and (self.polite[j, i] or not polite)
                       and not any(p.contains(self.xs[i], self.ys[j]) for p in group)}
            path = search(field, tree, targets, (first.x, first.y, STITCH_REACH), self.costs, 50_000)
            if path is not None:
                self.lay(net, path)
                _, x, y = self.point(path[-1])
                self.add_via(net, x, y)
                return
        raise RoutingError(f"net {net}: no room for a via to the plane near {first.name}")

    # -- the nets ------------------------------------------------------------------------

    def run(self) -> Routed:
        self.stitch_plane()
        nets = sorted({p.net for p in self.job.pads if p.net and p.net != self.job.plane},
                      key=lambda n: (_span(self.pads(n)), n))
        queue = list(nets)
        rips: dict[str, int] = {}
        total = 0
        while queue:
            net = queue.pop(0)
            failure = self.connect(net)
            if failure is None:
                continue
            tries = rips.get(net, 0)
            blockers = self._blockers(failure, RIP_REACH[min(tries, len(RIP_REACH) - 1)])
            if not blockers or tries >= len(RIP_REACH) or total >= RIP_LIMIT:
                raise RoutingError(failure.message)
            rips[net] = tries + 1
            total += 1
            for n in [net, *blockers]:
                self.laid.pop(n, None)
            self.rebuild()
            queue = [net, *blockers] + [n for n in queue if n not in blockers]
        tracks = tuple(t for n in sorted(self.laid) for t in self.laid[n][0])
        vias = tuple(v for n in sorted(self.laid) for v in self.laid[n][1])
        return Routed(tracks, vias, total)

    def pads(self, net: str) -> list[Pad]:
        return sorted((p for p in self.job.pads if p.net == net), key=lambda p: p.name)

    def _blockers(self, failure: _Failure, reach: float) -> list[str]:
        """The nets (but the plane's stitching) laid within `reach` of the crowded pads."""
        near = set()
        for net, (tracks, vias) in self.laid.items():
            if net == failure.net or net == self.job.plane:
                continue
            for pad in failure.near:
                if any(_segment_distance((pad.x, pad.y), (t.x1, t.y1), (t.x2, t.y2)) < reach for t in tracks) or \
                        any(math.dist((pad.x, pad.y), (v.x, v.y)) < reach for v in vias):
                    near.add(net)
        return sorted(near)

    def crowding(self, pad: Pad) -> int:
        """How many other nets' pads sit within 4 mm: a search starts from the more
        crowded end (A* is cheap when the way out is near its start, dear near its goal)."""
        return sum(1 for p in self.job.pads if p.net != pad.net and math.dist((p.x, p.y), (pad.x, pad.y)) < 4.0)

    def connect(self, net: str) -> _Failure | None:
        pads = sorted(self.pads(net), key=lambda p: (self.crowding(p), p.name))
        joined = [pads[0]]
        waiting = pads[1:]
        tree = self.terminals(pads[0], self.field(net))
        while waiting:
            k = min(range(len(waiting)),
                    key=lambda n: (min(math.dist((waiting[n].x, waiting[n].y), (p.x, p.y)) for p in joined), n))
            pad = waiting.pop(k)
            field = self.field(net)
            targets = self.terminals(pad, field)
            nearest = min(joined, key=lambda p: (math.dist((p.x, p.y), (pad.x, pad.y)), p.name))
            if not targets or not tree:
                crowded = pad if not targets else joined[0]
                return _Failure(net, f"net {net}: no room for a {self.width(net)} mm track on {crowded.name}",
                                (crowded,))
            path = self._path(field, targets, tree, nearest)
            if path is None:
                names = ", ".join(p.name for p in joined)
                return _Failure(net, f"net {net}: cannot join {pad.name} to {names}", (pad, nearest))
            self.lay(net, path)
            tree |= set(path) | targets           # a via's node is on the path on both layers
            joined.append(pad)
        return None

    def _path(self, field: Field, start: set[int], tree: set[int], toward: Pad) -> list[int] | None:
        """From the new pad (`start`) to the net's copper so far; the heuristic aims at
        the nearest pad already joined."""
        if tree & start:
            return [min(tree & start)]
        if enclosed(field, start, SHUT_IN) or enclosed(field, tree, SHUT_IN):
            return None
        return search(field, start, tree, (toward.x, toward.y, 0.0), self.costs)


def _split(tracks: list[Track], layer: Layer, x: float, y: float) -> None:
    """The track of `tracks` on `layer` whose middle (x, y) is on, cut in two there."""
    for k, t in enumerate(tracks):
        if t.layer != layer or (x, y) in ((t.x1, t.y1), (t.x2, t.y2)):
            continue
        if _segment_distance((x, y), (t.x1, t.y1), (t.x2, t.y2)) < 1e-6:
            tracks[k:k + 1] = [replace(t, x2=x, y2=y), replace(t, x1=x, y1=y)]
            return


def _segment_distance(p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2))
    return math.dist(p, (a[0] + t * dx, a[1] + t * dy))


def _corners(points: list[tuple[float, float]]) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """The straight segments of a run of grid points: a segment ends where the direction turns."""
    if len(points) < 2:
        return []
    out = []
    start = points[0]
    heading = _direction(points[0], points[1])
    for a, b in zip(points[1:], points[2:]):
        d = _direction(a, b)
        if d != heading:
            out.append((start, a))
            start, heading = a, d
    out.append((start, points[-1]))
    return out


def _direction(a: tuple[float, float], b: tuple[float, float]) -> tuple[int, int]:
    return (int(np.sign(round(b[0] - a[0], 6))), int(np.sign(round(b[1] - a[1], 6))))
