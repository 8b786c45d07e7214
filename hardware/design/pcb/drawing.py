"""A board's 1:1 drawing (SVG in millimetres, print at 100 %): its outline and mounting
holes, every part's courtyard with its reference (solid: on the top side, assembled by the
fab; dashed: mounted from below by the maker), every pad, the copper, and on a module the
recesses above its sensors. Seen from the top side, the side that faces the wood."""
from __future__ import annotations

from .. import geometry as g
from ..drawings import Svg
from ..geometry import Rect
from .design import Design
from .shapes import Pad, Track, Via

TOP = 'fill="#fff4d8" stroke="black" stroke-width="0.15"'
BOTTOM = 'fill="none" stroke="#0050c0" stroke-width="0.25" stroke-dasharray="1.2 0.8"'
PAD = 'fill="#c08040"'
FRONT = 'stroke="#c02020" stroke-opacity="0.45" stroke-linecap="round"'
BACK = 'stroke="#2040c0" stroke-opacity="0.35" stroke-linecap="round"'


def render(d: Design, pads: tuple[Pad, ...], tracks: tuple[Track, ...], vias: tuple[Via, ...],
           courtyards: dict[str, tuple[float, float, float, float]],
           recesses: tuple[tuple[float, float], ...]) -> str:
    margin = 12.0
    svg = Svg(-margin, -margin - 30, max(d.width + margin, 125.0), d.height + margin + 22,
              f"bgboard {d.name} board, 1:1, top side")
    svg.rect(Rect(0, 0, d.width, d.height), 'fill="#e8f0e8" stroke="black" stroke-width="0.3"')
    for x, y in recesses:
        svg.circle(x, y, g.RECESS / 2, 'fill="none" stroke="#999" stroke-width="0.2" stroke-dasharray="1 1"')
    for t in tracks:
        svg.line((t.x1, t.y1), (t.x2, t.y2), f'{FRONT if t.layer == "F.Cu" else BACK} stroke-width="{t.width:g}"')
    for v in vias:
        svg.circle(v.x, v.y, v.size / 2, 'fill="#808080"')
    sides = {p.ref: p.side for p in d.parts}
    for ref, (x0, y0, x1, y1) in sorted(courtyards.items()):
        if ref in sides:
            svg.rect(Rect(x0, y0, x1, y1), TOP if sides[ref] == "top" else BOTTOM)
    for p in pads:
        if p.shape == "circle":
            svg.circle(p.x, p.y, p.w / 2, PAD)
        else:
            svg.rect(Rect(p.x - p.w / 2, p.y - p.h / 2, p.x + p.w / 2, p.y + p.h / 2), PAD)
    for h in d.holes:
        svg.circle(h.x, h.y, h.drill / 2, 'fill="white" stroke="black" stroke-width="0.2"')
        svg.circle(h.x, h.y, h.keepout, 'fill="none" stroke="black" stroke-width="0.15" stroke-dasharray="0.8 0.8"')
    halo = ' stroke="white" stroke-width="0.35" paint-order="stroke"'
    for part in d.parts:
        if part.ref in courtyards:
            x0, y0, x1, y1 = courtyards[part.ref]
            colour = "" if part.side == "top" else ' fill="#0050c0"'
            svg.text((x0 + x1) / 2, (y0 + y1) / 2 - 0.5, part.ref, 1.4, extra=halo + colour)
    lines = (f"{d.name} board, {d.width:.2f} × {d.height:.2f} mm: {d.title}",
             "seen from the top side (it faces the wood). Solid: SMD, assembled by the fab;",
             "dashed blue: through-hole, mounted from below by the maker. Red: F.Cu,",
             "blue: B.Cu (the GND plane fills the rest). Dashed circles: holes' keep-out, recesses.")
    for k, line in enumerate(lines):
        svg.text(0, d.height + 17 - 4 * k, line, 2.8 if k == 0 else 2.4, "start")
    svg.scale_bar(0, -margin - 20)
    return svg.render()
