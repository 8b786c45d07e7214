"""One board kind from nothing to its files: the parts placed (placement.py), KiCad asked
where their pads are, the placement checked, every net routed (router.py), the references
put where they can be read (silk.py), KiCad making the board, its Gerbers and drill files
and running its DRC, and the assembly files and the drawing written (fab.py, drawing.py).

Every file of a board's folder (hardware/boards/<kind>/) comes from `make(kind).files`;
`python -m hardware.design` writes them and `--check` compares them.
"""
from __future__ import annotations

import itertools
import math
import tempfile
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

from . import drawing, fab, kicad, placement, router, silk
from .design import Design
from controller.json_value import json_object

from .kicad import Finding
from .rules import RULES
from .shapes import Pad

GERBERS = "gerbers"
EDGE_MARGIN = 0.3            # a courtyard from the board's edge, at least


class PlacementError(ValueError):
    """Parts that overlap, leave the board or sit on a mounting hole's keep-out."""


@dataclass(frozen=True)
class Made:
    design: Design
    pads: tuple[Pad, ...]
    routed: router.Routed
    courtyards: dict[str, tuple[float, float, float, float]]
    drc: tuple[Finding, ...]
    files: dict[str, str]            # path in the board's folder -> text


def placement_problems(d: Design, courtyards: dict[str, tuple[float, float, float, float]]) -> list[str]:
    """Each part that leaves the board, overlaps another part on its side or reaches into a
    mounting hole's keep-out (the standoff's foot above, the screw's head below)."""
    problems = []
    sides = {p.ref: p.side for p in d.parts}
    boxes = {r: b for r, b in courtyards.items() if r in sides}
    for ref, (x0, y0, x1, y1) in sorted(boxes.items()):
        if x0 < EDGE_MARGIN or y0 < EDGE_MARGIN or x1 > d.width - EDGE_MARGIN or y1 > d.height - EDGE_MARGIN:
            problems.append(f"{d.name}: {ref} reaches over the board's edge")
        for h in d.holes:
            nx, ny = min(max(h.x, x0), x1), min(max(h.y, y0), y1)
            if math.dist((nx, ny), (h.x, h.y)) < h.keepout:
                problems.append(f"{d.name}: {ref} reaches into the keep-out of the hole at ({h.x:g}, {h.y:g})")
    for (a, ba), (b, bb) in itertools.combinations(sorted(boxes.items()), 2):
        if sides[a] == sides[b] and ba[0] < bb[2] and bb[0] < ba[2] and ba[1] < bb[3] and bb[1] < ba[3]:
            problems.append(f"{d.name}: {a} and {b} overlap on the {sides[a]} side")
    return problems


def recesses(kind: str, d: Design) -> tuple[tuple[float, float], ...]:
    if kind == "carrier":
        return ()
    module = placement.first_module(kind)
    return tuple((round(lx + d.width / 2, 4), round(ly + d.height / 2, 4))
                 for lx, ly in (module.local(s.x, s.y) for s in module.slots))


@cache
def make(kind: str) -> Made:
    d = placement.design(kind)
    placed = kicad.placed(d.spec())
    problems = placement_problems(d, placed.courtyards)
    if problems:
        raise PlacementError(problems[0] + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""))
    refs = {p.ref for p in d.parts}
    pads = tuple(p for p in placed.pads if p.ref in refs)
    routed = router.route(router.Job(d.width, d.height, pads, d.holes, d.plane, d.widths), RULES)
    keepouts = [(h.x - h.keepout, h.y - h.keepout, h.x + h.keepout, h.y + h.keepout) for h in d.holes]
    spots = silk.reference_spots(d.width, d.height, {p.ref: p.side for p in d.parts},
                                 {r: b for r, b in placed.courtyards.items() if r in refs}, pads, keepouts)
    d = replace(d, parts=tuple(replace(p, ref_at=spots.get(p.ref)) for p in d.parts))
    files: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as tmp:
        answer = kicad.run("build", d.build_spec(RULES, routed.tracks, routed.vias, tmp, GERBERS))
        for path in sorted(Path(tmp).rglob("*")):
            if path.is_file() and path.suffix != ".kicad_prl":
                files[path.relative_to(tmp).as_posix()] = path.read_text(encoding="utf-8")
    files[f"{kind}-bom.csv"] = fab.bom(d)
    files[f"{kind}-cpl.csv"] = fab.cpl(d)
    files[f"{kind}-tht.csv"] = fab.hand_soldered(d)
    courtyards = {r: b for r, b in placed.courtyards.items() if r in refs}
    files[f"{kind}-drawing.svg"] = drawing.render(d, pads, routed.tracks, routed.vias, courtyards, recesses(kind, d))
    return Made(d, pads, routed, courtyards, kicad.findings(json_object(answer["drc"], "KiCad's DRC")), files)


KINDS = placement.KINDS
BOARDS = Path(__file__).resolve().parents[2] / "boards"


def folder(kind: str) -> Path:
    return BOARDS / kind


def strays(files: dict[Path, str]) -> list[Path]:
    """Files in a board's folder that the generator no longer writes."""
    return sorted(p for kind in KINDS if folder(kind).exists() for p in folder(kind).rglob("*")
                  if p.is_file() and p not in files)


def all_files() -> dict[Path, str]:
    """Every generated file of hardware/boards/, by its path."""
    out: dict[Path, str] = {}
    for kind in placement.KINDS:
        for name, text in make(kind).files.items():
            out[folder(kind) / name] = text
    return out

