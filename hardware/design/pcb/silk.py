"""Where each part's reference is printed: beside its courtyard, on the side it is mounted,
clear of every pad and of every other part's outline and reference (a reference over a pad
is clipped by the solder mask, one over another part's outline cannot be read: KiCad's DRC
reports both). A part with no free place beside it keeps its reference on the fab layer
only (the 1:1 drawing names every part)."""
from __future__ import annotations

from .shapes import Pad

Box = tuple[float, float, float, float]

SIZE = 1.0                 # text height, mm: JLCPCB's standard silkscreen asks 1 mm, 0.15 mm strokes
GAP = 0.25                 # between a reference and what it must not touch
EDGE = 0.6                 # from the board's edge


def _text_box(x: float, y: float, text: str) -> Box:
    half_w = (len(text) * SIZE * 0.9 + 0.15) / 2
    half_h = (SIZE + 0.15) / 2
    return (x - half_w, y - half_h, x + half_w, y + half_h)


def _overlaps(a: Box, b: Box, gap: float = GAP) -> bool:
    return a[0] - gap < b[2] and b[0] - gap < a[2] and a[1] - gap < b[3] and b[1] - gap < a[3]


def reference_spots(width: float, height: float, sides: dict[str, str], courtyards: dict[str, Box],
                    pads: tuple[Pad, ...], keepouts: list[Box]) -> dict[str, tuple[float, float] | None]:
    """Each part's reference position (None: not on the silkscreen), largest parts first.
    `sides`: ref -> "top" or "bottom"; `keepouts`: boxes no text may enter (holes)."""
    spots: dict[str, tuple[float, float] | None] = {}
    taken: dict[str, list[Box]] = {"top": [], "bottom": []}
    order = sorted(courtyards, key=lambda r: (-(courtyards[r][2] - courtyards[r][0]) * (courtyards[r][3] - courtyards[r][1]), r))
    for ref in order:
        side = sides.get(ref)
        if side is None:
            continue
        layer = "F.Cu" if side == "top" else "B.Cu"
        blocked = [(p.x - p.w / 2, p.y - p.h / 2, p.x + p.w / 2, p.y + p.h / 2) for p in pads if layer in p.layers]
        blocked += [b for r, b in courtyards.items() if sides.get(r) == side and r != ref]
        blocked += taken[side] + keepouts
        x0, y0, x1, y1 = courtyards[ref]
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        half_h = (SIZE + 0.15) / 2
        half_w = (len(ref) * SIZE * 0.9 + 0.15) / 2
        candidates = [(cx, y1 + GAP + half_h), (cx, y0 - GAP - half_h),
                      (x1 + GAP + half_w, cy), (x0 - GAP - half_w, cy),
                      (x1 + GAP + half_w, y1 + GAP + half_h), (x0 - GAP - half_w, y1 + GAP + half_h),
                      (x1 + GAP + half_w, y0 - GAP - half_h), (x0 - GAP - half_w, y0 - GAP - half_h)]
        spots[ref] = None
        for x, y in candidates:
            box = _text_box(x, y, ref)
            inside = box[0] >= EDGE and box[1] >= EDGE and box[2] <= width - EDGE and box[3] <= height - EDGE
            if inside and not any(_overlaps(box, b) for b in blocked):
                spots[ref] = (round(x, 3), round(y, 3))
                taken[side].append(box)
                break
    return spots
