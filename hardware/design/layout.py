"""Where each part sits on a module board: the sensors under their slots, the ICs and
connectors stacked in the free strips between the sensor columns. The drawings print
this at 1:1; tests/test_hardware_drawings.py checks nothing overlaps or leaves the board.
Passives (hysteresis resistors, capacitors, the divider) go next to the IC they serve."""
from __future__ import annotations

from dataclasses import dataclass

from . import geometry as g
from . import modules
from .geometry import Rect

#: footprint, long axis first (mm, pads included): from each package's drawing
FOOTPRINT = {"TO-92": (4.0, 3.2), "DIP-14": (19.5, 10.2), "DIP-16": (20.8, 10.2),
             "SIP-9": (23.2, 2.6), "IDC10": (20.3, 8.9), "TB2": (10.2, 7.6)}
GAP = 3.0                     # between stacked parts


@dataclass(frozen=True)
class Placed:
    ref: str
    label: str
    package: str
    rect: Rect                # absolute board coordinates, mm


def _sensor(s: g.Slot) -> Placed:
    w, h = FOOTPRINT["TO-92"]
    return Placed(f"HS{s.sensor}", f"HS{s.sensor}", "TO-92", Rect(s.x - w / 2, s.y - h / 2, s.x + w / 2, s.y + h / 2))


def _strips(m: g.Module) -> list[tuple[float, float]]:
    """x ranges free of sensors, full module height, widest first."""
    xs = sorted({round(s.x, 3) for s in m.slots})
    half = FOOTPRINT["TO-92"][0] / 2 + 0.5
    edges = [m.outline.x0 + 1.0] + [v for x in xs for v in (x - half, x + half)] + [m.outline.x1 - 1.0]
    strips = [(edges[i], edges[i + 1]) for i in range(0, len(edges), 2)]
    return sorted((s for s in strips if s[1] - s[0] > 8), key=lambda s: s[0] - s[1])


def _parts(m: g.Module) -> list[tuple[str, str, str]]:
    """(ref, label, package) of everything but the sensors, in stacking order."""
    n = modules.module_netlist(m.name)
    out = [("J1", "J1 IN", "IDC10"), ("U1", "U1 74HC14", "DIP-14")]
    for r in modules.registers_on(m):
        out += [(f"SR{r}", f"SR{r} 74HC165", "DIP-16"), (f"RN{r}", f"RN{r}", "SIP-9")]
    out += [(ref, f"{ref} LM339", "DIP-14") for ref in n.parts if ref.startswith("WC")]
    out.append(("J3", "J3 5V GND", "TB2"))
    if "J2" in n.parts:
        out.append(("J2", "J2 OUT", "IDC10"))
    return out


HOLE_INSET, HOLE_KEEPOUT = 4.0, 6.5     # M3 mounting holes and the standoff's foot


def holes(m: g.Module) -> list[Placed]:
    o, k = m.outline, HOLE_KEEPOUT / 2
    return [Placed(f"H{i + 1}", "M3", "hole", Rect(x - k, y - k, x + k, y + k))
            for i, (x, y) in enumerate([(o.x0 + HOLE_INSET, o.y0 + HOLE_INSET), (o.x1 - HOLE_INSET, o.y0 + HOLE_INSET),
                                        (o.x0 + HOLE_INSET, o.y1 - HOLE_INSET), (o.x1 - HOLE_INSET, o.y1 - HOLE_INSET)])]


def place(m: g.Module) -> list[Placed]:
    """Every sensor, IC, connector and mounting hole of a module, in board coordinates."""
    placed = [_sensor(s) for s in m.slots] + holes(m)
    strips = _strips(m)
    cursor = [m.outline.y0 + 2.0 for _ in strips]
    i = 0
    for ref, label, package in _parts(m):
        long, short = FOOTPRINT[package]
        while True:
            x0, x1 = strips[i]
            across = long <= x1 - x0        # lay it across the strip if it fits
            w, h = (long, short) if across else (short, long)
            y = _free_y(placed, x0, x1, w, h, cursor[i])
            if y + h <= m.outline.y1 - 2.0:
                break
            i += 1
            if i == len(strips):
                raise ValueError(f"{m.name}: no room for {ref}")
        cx = (x0 + x1) / 2
        placed.append(Placed(ref, label, package, Rect(cx - w / 2, y, cx + w / 2, y + h)))
        cursor[i] = y + h + GAP
    return placed


def _free_y(placed: list[Placed], x0: float, x1: float, w: float, h: float, y: float) -> float:
    """The lowest y from `y` up where a w x h part centred in the strip hits nothing."""
    cx = (x0 + x1) / 2
    while True:
        r = Rect(cx - w / 2, y, cx + w / 2, y + h)
        hit = [p.rect for p in placed if p.rect.inset(-GAP / 2).overlaps(r)]
        if not hit:
            return y
        y = max(h_.y1 for h_ in hit) + GAP / 2 + 0.01
