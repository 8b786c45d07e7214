"""The board router (hardware/design/pcb/router.py) lays every net so that each net's pads
are joined by its own copper and no copper comes nearer another net's than the fab's
clearance, on small boards built here; a net that cannot be laid is named with its pads.

The checks below measure the laid copper with plain geometry (segment to rectangle and
segment to segment distances), not with the router's own grid; KiCad's DRC checks the real
boards (tests/test_hardware_boards.py).
"""
from __future__ import annotations

import itertools
import math

import pytest

from hardware.design.pcb.router import Job, Routed, RoutingError, route
from hardware.design.pcb.rules import RULES
from hardware.design.pcb.shapes import Hole, Pad, Track, Via

Point = tuple[float, float]


def smd(ref: str, pad: str, x: float, y: float, net: str, w: float = 0.6, h: float = 1.0) -> Pad:
    return Pad(ref, pad, x, y, w, h, "rect", ("F.Cu",), None, net)


def tht(ref: str, pad: str, x: float, y: float, net: str) -> Pad:
    return Pad(ref, pad, x, y, 1.7, 1.7, "circle", ("F.Cu", "B.Cu"), 1.0, net)


def _segment_point(p: Point, a: Point, b: Point) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2))
    return math.dist(p, (a[0] + t * dx, a[1] + t * dy))


def _segments_cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    def side(p: Point, q: Point, r: Point) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
    return side(a, b, c) * side(a, b, d) < 0 and side(c, d, a) * side(c, d, b) < 0


def _segment_segment(a: Point, b: Point, c: Point, d: Point) -> float:
    if _segments_cross(a, b, c, d):
        return 0.0
    return min(_segment_point(a, c, d), _segment_point(b, c, d), _segment_point(c, a, b), _segment_point(d, a, b))


def _rect_edges(p: Pad) -> list[tuple[Point, Point]]:
    x0, y0, x1, y1 = p.x - p.w / 2, p.y - p.h / 2, p.x + p.w / 2, p.y + p.h / 2
    corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    return list(zip(corners, corners[1:] + corners[:1]))


def _track_to_pad(t: Track, p: Pad) -> float:
    """Copper to copper: the track's edge to the pad's (a circle pad as its circle)."""
    a, b = (t.x1, t.y1), (t.x2, t.y2)
    if p.shape == "circle":
        return _segment_point((p.x, p.y), a, b) - p.w / 2 - t.width / 2
    if p.contains(*a) or p.contains(*b):
        return -1.0
    return min(_segment_segment(a, b, c, d) for c, d in _rect_edges(p)) - t.width / 2


def clearance_violations(job: Job, routed: Routed) -> list[str]:
    """Every pair of copper of two nets nearer than the rules' clearance."""
    gap = RULES.clearance - 1e-6
    found = []
    for t in routed.tracks:
        for p in job.pads:
            if p.net != t.net and t.layer in p.layers and _track_to_pad(t, p) < gap:
                found.append(f"track {t} near pad {p.name}")
        for v in routed.vias:
            if v.net != t.net and _segment_point((v.x, v.y), (t.x1, t.y1), (t.x2, t.y2)) - v.size / 2 - t.width / 2 < gap:
                found.append(f"track {t} near via {v}")
    for t, u in itertools.combinations(routed.tracks, 2):
        if t.net != u.net and t.layer == u.layer:
            d = _segment_segment((t.x1, t.y1), (t.x2, t.y2), (u.x1, u.y1), (u.x2, u.y2))
            if d - t.width / 2 - u.width / 2 < gap:
                found.append(f"tracks {t} and {u}")
    for v in routed.vias:
        for p in job.pads:
            if p.net != v.net:
                pad_gap = (math.dist((v.x, v.y), (p.x, p.y)) - p.w / 2 if p.shape == "circle" else
                           math.hypot(max(abs(v.x - p.x) - p.w / 2, 0), max(abs(v.y - p.y) - p.h / 2, 0)))
                if pad_gap - v.size / 2 < gap:
                    found.append(f"via {v} near pad {p.name}")
    return found


def _joined(a: Point, layer: str, t: Track) -> bool:
    return t.layer == layer and _segment_point(a, (t.x1, t.y1), (t.x2, t.y2)) < 1e-6


def unjoined(job: Job, routed: Routed) -> list[str]:
    """Each net whose pads are not all joined by that net's copper (ends meeting ends or
    a track's middle, a via joining its layers, a track's end on a pad)."""
    problems = []
    for net in sorted({p.net for p in job.pads if p.net and p.net != job.plane}):
        pads = [p for p in job.pads if p.net == net]
        tracks = [t for t in routed.tracks if t.net == net]
        vias = [v for v in routed.vias if v.net == net]
        items: list[object] = [*pads, *tracks, *vias]
        parent = list(range(len(items)))

        def find(k: int) -> int:
            while parent[k] != k:
                parent[k] = parent[parent[k]]
                k = parent[k]
            return k

        def touch(a: object, b: object) -> bool:
            if isinstance(a, Track) and isinstance(b, Pad):
                return b.contains(a.x1, a.y1) and a.layer in b.layers or b.contains(a.x2, a.y2) and a.layer in b.layers
            if isinstance(a, Track) and isinstance(b, Track):
                return any(_joined(e, a.layer, b) for e in ((a.x1, a.y1), (a.x2, a.y2))) or \
                    any(_joined(e, b.layer, a) for e in ((b.x1, b.y1), (b.x2, b.y2)))
            if isinstance(a, Track) and isinstance(b, Via):
                return (b.x, b.y) in ((a.x1, a.y1), (a.x2, a.y2))
            if isinstance(a, Via) and isinstance(b, Pad):
                return b.contains(a.x, a.y)
            return False

        for i, j in itertools.combinations(range(len(items)), 2):
            if touch(items[i], items[j]) or touch(items[j], items[i]):
                parent[find(i)] = find(j)
        if len({find(k) for k in range(len(pads))}) > 1:
            problems.append(net)
    return problems


def _two_nets_crossing() -> Job:
    """A and B must cross: A from left to right, B from bottom to top, with a pad of each
    in the other's way, on a 30 x 30 mm board."""
    pads = (smd("R1", "1", 3, 15, "A"), smd("R2", "1", 27, 15, "A"),
            smd("R3", "1", 15, 3, "B", 1.0, 0.6), smd("R4", "1", 15, 27, "B", 1.0, 0.6),
            smd("R5", "1", 15, 15, "C", 2.0, 2.0), smd("R6", "1", 10, 10, "C", 1.0, 1.0))
    return Job(30.0, 30.0, pads, (), "GND")


def test_crossing_nets_are_joined_and_kept_apart() -> None:
    job = _two_nets_crossing()
    routed = route(job, RULES)
    assert unjoined(job, routed) == []
    assert clearance_violations(job, routed) == []
    assert routed.vias, "two nets that must cross need a via"


def test_the_same_pads_route_the_same_way() -> None:
    assert route(_two_nets_crossing(), RULES) == route(_two_nets_crossing(), RULES)


def test_a_fine_pitch_pad_is_left_along_its_axis() -> None:
    """A VSSOP's 0.3 mm pads 0.5 mm apart leave 0.2 mm between them: a 0.25 mm track keeps
    the clearance only on the pad's centre line, until it is past the neighbours."""
    pitch = 0.5
    pads = tuple(smd("U1", str(k + 1), 10.07, 10.13 + k * pitch, f"N{k}", 0.8, 0.3) for k in range(4))
    pads += tuple(smd("R1", str(k + 1), 2.0, 4.0 + 4.0 * k, f"N{k}", 1.0, 1.0) for k in range(4))
    job = Job(20.0, 20.0, pads, (), "GND")
    routed = route(job, RULES)
    assert unjoined(job, routed) == []
    assert clearance_violations(job, routed) == []


def test_plane_pads_on_the_top_get_a_via_to_the_plane_nearby() -> None:
    pads = (smd("C1", "2", 10.0, 10.0, "GND"), smd("C2", "2", 20.0, 10.0, "GND"),
            tht("J1", "2", 15.0, 25.0, "GND"))
    job = Job(30.0, 30.0, pads, (), "GND")
    routed = route(job, RULES)
    for pad in pads[:2]:
        nearest = min(math.dist((v.x, v.y), (pad.x, pad.y)) for v in routed.vias)
        assert nearest < 4.0, pad.name
    assert not any(math.dist((v.x, v.y), (15.0, 25.0)) < 4.0 for v in routed.vias), \
        "a through-hole pad is in the plane already"


def test_copper_keeps_off_the_edge_and_out_of_a_hole_s_keep_out() -> None:
    """A goes round the hole; B's shortest way past R5 would hug the board's edge."""
    hole = Hole(15.0, 15.0, 3.2, 3.5)
    pads = (smd("R1", "1", 3, 15, "A"), smd("R2", "1", 27, 15, "A"),
            smd("R3", "1", 3, 1.2, "B"), smd("R4", "1", 27, 1.2, "B"), smd("R5", "1", 15, 2.2, "C", 4.0, 3.0))
    job = Job(30.0, 30.0, pads, (hole,), "GND")
    routed = route(job, RULES)
    assert unjoined(job, routed) == []
    for t in routed.tracks:
        assert _segment_point((15.0, 15.0), (t.x1, t.y1), (t.x2, t.y2)) >= 3.5 + t.width / 2 - 1e-6, t
        for x, y in ((t.x1, t.y1), (t.x2, t.y2)):
            margin = RULES.edge_clearance + t.width / 2 - 1e-6
            assert margin <= x <= 30.0 - margin and margin <= y <= 30.0 - margin, t


def test_a_pad_shut_in_by_another_net_fails_naming_the_net_and_its_pads() -> None:
    """R1 inside a closed ring of N2's pads on both layers (through-hole): no way out."""
    ring = tuple(tht("J1", str(k), 15 + 4 * math.cos(k * math.pi / 8), 15 + 4 * math.sin(k * math.pi / 8), "N2")
                 for k in range(16))
    ring = tuple(Pad(p.ref, p.pad, p.x, p.y, 2.4, 2.4, "circle", p.layers, p.drill, p.net) for p in ring)
    pads = ring + (smd("R1", "1", 15, 15, "N1"), smd("R2", "1", 3, 3, "N1"))
    with pytest.raises(RoutingError, match=r"net N1: .*R[12]\.1"):
        route(Job(30.0, 30.0, pads, (), "GND"), RULES)


def test_the_checks_themselves_find_a_short_and_a_gap() -> None:
    """The geometry used above is no check if it passes anything: a track through another
    net's pad is a violation, and a net missing its track is unjoined."""
    job = Job(30.0, 30.0, (smd("R1", "1", 5, 5, "A"), smd("R2", "1", 25, 5, "A"), smd("R3", "1", 15, 5, "B")), (), "GND")
    through = Routed((Track("A", "F.Cu", 5, 5, 25, 5, 0.25),), (), 0)
    assert clearance_violations(job, through) and unjoined(job, through) == []
    assert unjoined(job, Routed((), (Via("A", 1, 1, 0.6, 0.3),), 0)) == ["A"]
