"""The 1:1 drawings of hardware/drawings/: SVG in millimetres (width="…mm", one user unit
a millimetre), from the geometry and the netlists. Print at 100 % (no "fit to page"); the
100 mm scale bar on each drawing checks the print. The module boards themselves are
KiCad projects (hardware/boards/)."""
from __future__ import annotations

from functools import cache
from xml.sax.saxutils import escape

from . import geometry as g
from . import modules, parts, schematics_doc
from .pcb import placement
from .geometry import Rect

FONT = 'font-family="DejaVu Sans, Arial, sans-serif"'


class Svg:
    """A drawing in board coordinates (y up), written as SVG (y down)."""

    def __init__(self, x0: float, y0: float, x1: float, y1: float, title: str) -> None:
        self.x0, self.y1 = x0, y1
        self.w, self.h = x1 - x0, y1 - y0
        self.items: list[str] = []
        self.title = title

    def _p(self, x: float, y: float) -> tuple[float, float]:
        return round(x - self.x0, 2), round(self.y1 - y, 2)

    def rect(self, r: Rect, style: str) -> None:
        x, y = self._p(r.x0, r.y1)
        self.items.append(f'<rect x="{x}" y="{y}" width="{r.width:.2f}" height="{r.height:.2f}" {style}/>')

    def circle(self, cx: float, cy: float, radius: float, style: str) -> None:
        x, y = self._p(cx, cy)
        self.items.append(f'<circle cx="{x}" cy="{y}" r="{radius:g}" {style}/>')

    def line(self, a: tuple[float, float], b: tuple[float, float], style: str) -> None:
        (x1, y1), (x2, y2) = self._p(*a), self._p(*b)
        self.items.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" {style}/>')

    def text(self, x: float, y: float, s: str, size: float = 3.0, anchor: str = "middle",
             extra: str = "") -> None:
        px, py = self._p(x, y)
        self.items.append(f'<text x="{px}" y="{py}" font-size="{size:g}" text-anchor="{anchor}" {FONT}{extra}>'
                          f'{escape(s)}</text>')

    def scale_bar(self, x: float, y: float) -> None:
        self.line((x, y), (x + 100, y), 'stroke="black" stroke-width="0.5"')
        for t in range(0, 101, 10):
            self.line((x + t, y), (x + t, y + (3 if t % 50 == 0 else 1.5)), 'stroke="black" stroke-width="0.3"')
        self.text(x + 50, y + 4, "100 mm: measure this on the print", 3, "middle")

    def render(self) -> str:
        head = (f'<?xml version="1.0" encoding="UTF-8"?>\n'
                f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.w:.2f}mm" height="{self.h:.2f}mm" '
                f'viewBox="0 0 {self.w:.2f} {self.h:.2f}">\n<title>{escape(self.title)}</title>\n'
                f'<rect x="0" y="0" width="{self.w:.2f}" height="{self.h:.2f}" fill="white"/>\n')
        return head + "\n".join(self.items) + "\n</svg>\n"


THIN = 'fill="none" stroke="black" stroke-width="0.25"'
DASHED = 'fill="none" stroke="#0050c0" stroke-width="0.4" stroke-dasharray="3 2"'


def surface() -> str:
    """The playing surface seen from above: recesses, LED windows, module outlines."""
    b = g.default_board()
    margin = 30.0
    svg = Svg(-g.FRAME - margin, -g.FRAME - margin, g.WIDTH + g.FRAME + margin, g.DEPTH + g.FRAME + margin,
              "bgboard surface, 1:1")
    svg.rect(Rect(-g.FRAME, -g.FRAME, g.WIDTH + g.FRAME, g.DEPTH + g.FRAME), 'fill="none" stroke="black" stroke-width="0.5"')
    for r in (Rect(0, 0, g.QUARTER, g.DEPTH), Rect(g.X_RIGHT, 0, g.X_RIGHT + g.QUARTER, g.DEPTH)):
        svg.rect(r, THIN)
    for cell in (c for c in b.cells if c.isdigit()):
        r = b.cells[cell]
        base, tip = (0.0, g.POINT_LENGTH) if int(cell) <= 12 else (g.DEPTH, g.DEPTH - g.POINT_LENGTH)
        pts = [(r.x0, base), (r.x1, base), ((r.x0 + r.x1) / 2, tip)]
        svg.items.append('<polygon points="' + " ".join("%g,%g" % svg._p(x, y) for x, y in pts)
                         + '" fill="#f3ead8" stroke="#b09060" stroke-width="0.2"/>')
        svg.text((r.x0 + r.x1) / 2, base + (-g.FRAME + 3 if base == 0 else g.FRAME - 5), cell, 5)
    for m in b.modules:
        svg.rect(m.outline, DASHED)
        svg.text((m.outline.x0 + m.outline.x1) / 2, m.outline.y0 + 3, m.name, 3.5,
                 extra=' fill="#0050c0"')
    svg.rect(b.carrier, DASHED)
    svg.text((b.carrier.x0 + b.carrier.x1) / 2, (b.carrier.y0 + b.carrier.y1) / 2, "Pico carrier", 3.5,
             extra=' fill="#0050c0"')
    for s in b.slots:
        svg.circle(s.x, s.y, g.RECESS / 2, 'fill="none" stroke="black" stroke-width="0.35"')
        svg.line((s.x - 2, s.y), (s.x + 2, s.y), THIN)
        svg.line((s.x, s.y - 2), (s.x, s.y + 2), THIN)
        svg.text(s.x, s.y - 7, f"{s.cell}/{s.slot}  HS{s.sensor}", 2.5)
    for cell, w in b.led_windows.items():
        svg.rect(w, 'fill="#ffe9a0" stroke="#c08000" stroke-width="0.35"')
    for led in b.leds:
        svg.text(led.x, led.y - 1, str(led.index), 1.8)
    svg.text(-g.FRAME, g.DEPTH + g.FRAME + 10, f"Playing surface {g.TOP:g} mm plywood, "
             f"{g.WIDTH + 2 * g.FRAME:.1f} × {g.DEPTH + 2 * g.FRAME:.1f} mm. Circles: Ø{g.RECESS:g} mm recesses, "
             f"{g.RECESS_DEPTH:g} mm deep, cross = sensor centre. Yellow: LED windows cut through, "
             "3 mm opal acrylic inserts. Dashed: module boards underneath (hardware/boards/).", 4, "start")
    svg.text(-g.FRAME, g.DEPTH + g.FRAME + 17, f"Slot pitch {g.PITCH:.2f} mm (13 × 2.54) on points and trays, "
             f"{g.BAR_PITCH:.2f} mm (16 × 2.54) on the bar. White's side at the bottom.", 4, "start")
    svg.scale_bar(-g.FRAME, -g.FRAME - 20)
    return svg.render()


def power() -> str:
    """The power distribution: the fused star on the carrier, one pair from each of its
    star headers to each module's J3, drawn where the boards put them."""
    b = g.default_board()
    svg = Svg(-g.FRAME - 30, -g.FRAME - 40, g.WIDTH + g.FRAME + 30, g.DEPTH + g.FRAME + 30,
              "bgboard sensor power distribution, 1:1")
    svg.rect(Rect(-g.FRAME, -g.FRAME, g.WIDTH + g.FRAME, g.DEPTH + g.FRAME), THIN)
    star = ((b.carrier.x0 + b.carrier.x1) / 2, (b.carrier.y0 + b.carrier.y1) / 2)
    svg.rect(b.carrier, 'fill="#fff0f0" stroke="black" stroke-width="0.4"')
    svg.circle(*star, 3, 'fill="black"')
    svg.text(star[0], star[1] + 6, "star: F1 1.1 A polyfuse, +5V / GND", 3)
    for m, (header, start) in zip(b.modules, _star_headers(b.carrier)):
        svg.rect(m.outline, DASHED)
        end = _power_header(m)
        svg.line(start, end, 'stroke="#c00000" stroke-width="0.8"')
        svg.circle(*end, 1.5, 'fill="#c00000"')
        svg.circle(*start, 0.8, 'fill="#c00000"')
        svg.text(end[0], end[1] - 4, f"{m.name} J3 ({header}) {schematics_doc.module_current(m) * 1000:.0f} mA", 3)
    svg.text(-g.FRAME, g.DEPTH + g.FRAME + 12, "Red: one red/black pair (JST XH, 0.3 mm² / 22 AWG) from "
             "the carrier's star headers J10-J25 to each module's J3 (5 V, GND). The sensors' 5 V enters the "
             "carrier at J1 through F1; its GND, the Pico's and every module's meet at the star only.", 4, "start")
    svg.scale_bar(-g.FRAME, -g.FRAME - 25)
    return svg.render()


def _power_header(m: g.Module) -> tuple[float, float]:
    """Where a module's J3 sits in the box: its place on the board (hardware/boards/),
    turned with the module."""
    kind = modules.kind_of(m)
    d = placement.module_design(kind)
    ref = next(r for r, p in modules.module_netlist(kind).parts.items() if p is parts.POWER_IN)
    header = d.placement(ref)
    return m.placed(header.x - d.width / 2, header.y - d.height / 2)


def _star_headers(carrier: Rect) -> list[tuple[str, tuple[float, float]]]:
    """Each star header of the carrier in module order, with its place in the box."""
    d = placement.carrier_design()
    refs = [r for r, p in modules.carrier_netlist().parts.items() if p is parts.STAR_OUT]
    stars = sorted((d.placement(r) for r in refs), key=lambda p: int(p.ref[1:]))
    return [(p.ref, (carrier.x0 + p.x, carrier.y0 + p.y)) for p in stars]


def connector() -> str:
    """The 14-way ribbon header seen from above, pins numbered, key marked, drawn 4:1 (a
    header is 25 mm long), with each pin's signal and direction beside it."""
    k = 4.0
    columns = len(parts.RIBBON) // 2
    svg = Svg(0, 0, 240, 140, "bgboard ribbon header pinout, 4:1")
    body = Rect(10, 40, 10 + (columns * 2.54 + 7.6) * k, 40 + 8.9 * k)
    svg.rect(body, 'fill="#e0e4ff" stroke="black" stroke-width="0.6"')
    mid = (body.x0 + body.x1) / 2
    svg.rect(Rect(mid - 10, body.y1 - 4, mid + 10, body.y1), 'fill="white" stroke="black" stroke-width="0.6"')
    svg.text(mid, body.y1 + 3, "key (polarising notch)", 3.5)
    for pin in parts.RIBBON:
        col, row = (pin - 1) // 2, (pin - 1) % 2          # odd pins on the keyed side
        x = mid + (col - (columns - 1) / 2) * 2.54 * k
        y = (body.y0 + body.y1) / 2 + (0.5 - row) * 2.54 * k
        svg.rect(Rect(x - 3, y - 3, x + 3, y + 3), 'fill="#333"' if pin == 1 else 'fill="#999"')
        svg.text(x, y - 1.3, str(pin), 3.5, extra=' fill="white"')
    tx = body.x1 + 12
    svg.text(tx, 128, "Pin  Signal     IN header   OUT header", 3.2, "start", extra=' font-weight="bold"')
    for pin, (signal, inward, outward) in parts.RIBBON.items():
        y = 128 - 6 * pin
        svg.text(tx, y, str(pin), 3.2, "start")
        svg.text(tx + 8, y, signal, 3.2, "start")
        svg.text(tx + 30, y, schematics_doc.direction(inward), 3.2, "start")
        svg.text(tx + 52, y, schematics_doc.direction(outward), 3.2, "start")
    svg.text(5, 30, "Box header 2 × 7, 2.54 mm, seen from its open side, drawn 4:1.", 3.2, "start")
    svg.text(5, 25, "Pin 1: dark square, the header's triangle and the cable's red stripe.", 3.2, "start")
    svg.text(5, 20, "IN takes the cable from the Pico's side, OUT feeds the next module;", 3.2, "start")
    svg.text(5, 15, "in/out as seen from the module (schematics.md, \"The ribbon\"). The chain's last", 3.2, "start")
    svg.text(5, 10, "module: a jumper shunt on its OUT header's pins 13-14 (TOKEN to RET).", 3.2, "start")
    return svg.render()


@cache
def files() -> dict[str, str]:
    return {"surface.svg": surface(), "power.svg": power(), "ribbon-header.svg": connector()}
