"""Where every part of each board kind sits, in the board's own coordinates (millimetres,
origin at the outline's lower-left corner, x right, y away from White, as the kind's first
module lies in White's half; the modules in Black's half are the same board turned round).

What comes from elsewhere, never copied: the outline, the slots and the mounting holes from
the geometry (the kind's first module), the parts and nets from the netlists. What is
decided here: the spots of the parts that are not sensors, and each sensor's turn.

- A sensor sits on its slot (its Hall element under the checker's centre), its OUT pin
  facing the multiplexer's side and its 100 nF on the other side beside its VCC pin.
- The multiplexer (rows facing up and down) and the token's logic sit in a free strip;
  decoupling capacitors beside the supply pin they serve, series resistors beside the
  part that drives them.
- The ribbon's IN header (J1) on the right, OUT (J2) on the left, both at the end toward
  the middle of the box (the chain runs right to left along White's half, and on along
  Black's half, turned round, left to right), the 5 V header (J3) between them; all three
  mounted from below.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache

from .. import geometry as g
from .. import modules, parts
from ..netlist import Netlist, PartType
from .design import Design, Label, Placement, Side
from .shapes import Hole

SENSOR_CAP = 2.75            # a sensor's capacitor, centre to the sensor's centre (x)
PIN_ROW = 0.94               # a SOT-23's pin 1 from its centre (across the rows)
CAP_PAD = 0.775              # an 0603's pad from its centre
PLANE = "GND"
WIDE = {"+5V": 0.4}          # nets laid wider than the rules' track


@dataclass(frozen=True)
class Spot:
    x: float
    y: float
    rotation: float = 0.0
    side: Side = "top"
    centred: bool = False


@dataclass(frozen=True)
class ModuleLayout:
    """A module kind's free spots: the multiplexer's centre (rows facing down and up), the
    token logic's centre, and the courtyard centres of J1 (IN), J2 (OUT) and J3 (5 V)."""

    mux: tuple[float, float]
    logic: tuple[float, float]
    header_in: tuple[float, float]
    header_out: tuple[float, float]
    power: tuple[float, float]


def first_module(kind: str) -> g.Module:
    return next(m for m in g.default_board().modules if modules.kind_of(m) == kind)


def _layout(kind: str, width: float, height: float) -> ModuleLayout:
    """The spots of each module kind: the headers in the outer strips beside the last
    row of slots, toward the middle of the box, clear of the corner holes."""
    top = height - g.HOLE_INSET - g.HOLE_KEEPOUT / 2 - 14.0        # a header's centre, under the hole
    if kind == "point":
        return ModuleLayout((width / 2, height - 32.0), (width / 2, height - 15.0),
                            (width - 6.5, top), (6.5, top), (width / 2, height - 5.5))
    if kind == "bar":
        return ModuleLayout((width / 2 + 12.0, height - 60.0), (width / 2 + 12.0, height - 40.0),
                            (width - 6.5, top), (6.5, top), (width / 2, height - 5.5))
    return ModuleLayout((width / 2 - 16.51, height - 33.0), (width / 2 - 16.51, height - 15.0),
                        (width - 6.5, top), (6.5, top), (width / 2 - 16.51, height - 5.5))


def _of_type(n: Netlist, part: PartType) -> list[str]:
    return sorted((ref for ref, p in n.parts.items() if p is part), key=_ref_order)


def _ref_order(ref: str) -> tuple[str, int]:
    letters = ref.rstrip("0123456789")
    return letters, int(ref[len(letters):] or 0)


def _net(n: Netlist, ref: str, pin: int) -> str:
    net = n.net_of(ref, pin)
    if net is None:
        raise ValueError(f"{n.name}: {ref}.{pin} is on no net")
    return net


def _driver(n: Netlist, net: str) -> str | None:
    """The part whose output pin drives `net` (None: no output on it)."""
    return next((ref for ref, pin in n.nets.get(net, []) if n.parts[ref].pin(pin).kind == "out"), None)


def _module_spots(kind: str, n: Netlist, module: g.Module, width: float, height: float) -> dict[str, Spot]:
    lay = _layout(kind, width, height)
    spots: dict[str, Spot] = {}
    mux = _of_type(n, parts.MUX)[0]
    spots[mux] = Spot(*lay.mux, 90)
    for k, slot in enumerate(module.slots):
        lx, ly = module.local(slot.x, slot.y)
        x, y = lx + width / 2, ly + height / 2
        ref = _of_type(n, parts.DRV5053)[k]
        toward_right = lay.mux[0] > x
        # rotation 90: pin 1 (VCC) left and low, pin 2 (OUT) right; 270: the mirror image
        spots[ref] = Spot(x, y, 90 if toward_right else 270)
        side = -1 if toward_right else 1
        spots[_cap_of(n, ref)] = Spot(x + side * SENSOR_CAP, y + side * (PIN_ROW - CAP_PAD),
                                      90 if toward_right else 270)
    mx, my = lay.mux
    spots[_cap_of(n, mux)] = Spot(mx - 6.985 + CAP_PAD, my + 7.6, 0)          # beside VCC (pin 24)
    bus = next(r for r in _of_type(n, parts.R_BUS))
    spots[bus] = Spot(mx - 6.985 - CAP_PAD, my - 7.6, 180)                     # pin 1 under COM (pin 1)
    lx, ly = lay.logic
    flip_flop, schmitt = _of_type(n, parts.FLIP_FLOP)[0], _of_type(n, parts.SCHMITT)[0]
    spots[flip_flop] = Spot(lx - 4.0, ly, 0)
    spots[schmitt] = Spot(lx + 5.0, ly, 0)
    spots[_cap_of(n, flip_flop)] = Spot(lx - 4.0 + 1.55, ly + 2.8, 0)
    spots[_cap_of(n, schmitt)] = Spot(lx + 5.0 + 1.14, ly + 2.8, 0)
    for r in _of_type(n, parts.R_SERIES):
        owner = _driver(n, _net(n, r, 1))
        spots[r] = Spot(lx - 4.0 if owner == flip_flop else lx + 5.0, ly - 3.2, 0)
    spots["J1"] = Spot(*lay.header_in, 0, "bottom", True)
    spots["J2"] = Spot(*lay.header_out, 0, "bottom", True)
    spots[_of_type(n, parts.POWER_IN)[0]] = Spot(*lay.power, 0, "bottom", True)
    return spots


def _cap_of(n: Netlist, owner: str) -> str:
    return next(c for c, o in sorted(n.decoupling.items(), key=lambda item: _ref_order(item[0])) if o == owner)


def _design(name: str, title: str, n: Netlist, spots: dict[str, Spot], width: float, height: float,
            holes: tuple[Hole, ...], labels: tuple[Label, ...]) -> Design:
    placements = []
    for ref in sorted(n.parts, key=_ref_order):
        part = n.parts[ref]
        if not part.footprint:
            continue
        if ref not in spots:
            raise ValueError(f"{name}: no place for {ref} ({part.key})")
        s = spots[ref]
        placements.append(Placement(ref, part.footprint, round(s.x, 4), round(s.y, 4), s.rotation, s.side,
                                    part.value or part.key, part.part_number, part.lcsc, part.mount,
                                    centred=s.centred))
    pad_nets: dict[str, dict[str, str]] = {}
    for net, pins in n.nets.items():
        for ref, pin in pins:
            if n.parts[ref].footprint:
                pad_nets.setdefault(ref, {})[str(pin)] = net
    return Design(name, title, round(width, 4), round(height, 4), tuple(placements),
                  {ref: dict(sorted(pads.items())) for ref, pads in sorted(pad_nets.items())},
                  holes, PLANE, dict(WIDE), labels)


def _labels(name: str, title: str, width: float, height: float) -> tuple[Label, ...]:
    return (Label(f"bgboard {name}", width / 2, height / 2 + 4, "B.SilkS", 2.0),
            Label(title, width / 2, height / 2, "B.SilkS", 1.2),
            Label("top side faces the wood", width / 2, height / 2 - 3, "B.SilkS", 1.2))


@cache
def module_design(kind: str) -> Design:
    module = first_module(kind)
    n = modules.module_netlist(kind)
    width, height = module.outline.width, module.outline.height
    spots = _module_spots(kind, n, module, width, height)
    holes = tuple(Hole(round(x + width / 2, 4), round(y + height / 2, 4), 3.2, g.HOLE_KEEPOUT / 2)
                  for x, y in module.holes)
    count = sum(1 for m in g.default_board().modules if modules.kind_of(m) == kind)
    title = f"{len(module.slots)} sensors, {count} boards (J1 in, J2 out)"
    return _design(kind, title, n, spots, width, height, holes, _labels(kind, title, width, height))


# --- the carrier -------------------------------------------------------------------------

CARRIER_PITCH = 9.0          # between the star headers, along a column


def _carrier_spots(n: Netlist, width: float, height: float) -> dict[str, Spot]:
    """The Pico hangs under the middle on its sockets, USB toward the top edge; the star
    headers in two columns at the sides; the ribbon's OUT header at the bottom edge, the
    5 V input and the UART header at the top; the passives between, near the Pico's pins
    they serve."""
    spots: dict[str, Spot] = {}
    cx = width / 2
    pico_top = height - 18.0                      # the Pico's pin 1 and pin 40
    row = 17.78 / 2
    # seen from the top the Pico (hanging face down) is mirrored: pin 1 top right
    spots["J4"] = Spot(cx + row, pico_top, 180, "bottom")
    spots["J5"] = Spot(cx - row, pico_top - 19 * 2.54, 0, "bottom")
    stars = _of_type(n, parts.STAR_OUT)
    half = (len(stars) + 1) // 2
    for k, ref in enumerate(stars):
        column, place = divmod(k, half)
        x = 7.0 if column == 0 else width - 7.0
        y = height / 2 + (place - (half - 1) / 2) * CARRIER_PITCH
        spots[ref] = Spot(x, y, 0, "bottom", True)
    spots[_of_type(n, parts.HEADER_OUT)[0]] = Spot(cx, 9.5, 90, "bottom", True)
    spots[_of_type(n, parts.POWER_IN)[0]] = Spot(cx - 22.0, height - 8.0, 0, "bottom", True)
    spots[_of_type(n, parts.UART_HEADER)[0]] = Spot(cx + 22.0, height - 8.0, 90, "bottom", True)
    spots[_of_type(n, parts.POLYFUSE)[0]] = Spot(cx - 22.0, height - 17.0, 0)
    spots[_of_type(n, parts.SCHOTTKY)[0]] = Spot(cx - 22.0, height - 24.0, 0)
    bulk = next(c for c, p in n.parts.items() if p is parts.C22U)
    spots[bulk] = Spot(cx - 22.0, height - 30.0, 0)
    _carrier_passives(n, spots, cx, pico_top)
    for k, ref in enumerate(_of_type(n, parts.TEST_POINT)):
        spots[ref] = Spot(cx - 10.5 + 3.0 * k, 20.0, 0)
    return spots


def _carrier_passives(n: Netlist, spots: dict[str, Spot], cx: float, pico_top: float) -> None:
    """Each resistor and capacitor beside the socket pin its first net reaches (the
    Pico's side of a series resistor), in a column outside the Pico's rows."""
    taken: dict[str, list[float]] = {"J4": [], "J5": []}
    for ref in sorted(n.parts, key=_ref_order):
        part = n.parts[ref]
        if ref in spots or not part.footprint or part.mount != "smd":
            continue
        nets = [net for net, pins in n.nets.items() if any(r == ref for r, _ in pins)]
        socket = next(((r, pin) for net in nets for r, pin in n.nets[net] if r in ("J4", "J5")), None)
        if socket is None:
            raise ValueError(f"carrier: no place for {ref} ({part.key})")
        sref, spin = socket
        base = spots[sref]
        y = base.y - (spin - 1) * 2.54 if sref == "J4" else base.y + (spin - 1) * 2.54
        while any(abs(y - t) < 2.0 for t in taken[sref]):
            y -= 2.0
        taken[sref].append(y)
        x = base.x + (4.5 if sref == "J4" else -4.5)
        spots[ref] = Spot(x, y, 0 if sref == "J4" else 180)


@cache
def carrier_design() -> Design:
    n = modules.carrier_netlist()
    width, height = g.CARRIER
    spots = _carrier_spots(n, width, height)
    inset = g.HOLE_INSET
    holes = tuple(Hole(x, y, 3.2, g.HOLE_KEEPOUT / 2)
                  for x, y in ((inset, inset), (width - inset, inset), (inset, height - inset),
                               (width - inset, height - inset)))
    title = "the Pico (face down), the ribbon's start, the 5 V star"
    return _design("carrier", title, n, spots, width, height, holes,
                   (Label("bgboard carrier", width - 20.0, 2.6, "B.SilkS", 1.5),))


KINDS = ("point", "bar", "tray", "carrier")


def design(kind: str) -> Design:
    return carrier_design() if kind == "carrier" else module_design(kind)


def with_spot(d: Design, ref: str, x: float, y: float) -> Design:
    """The design with one part moved (for experiments and tests)."""
    return replace(d, parts=tuple(replace(p, x=x, y=y) if p.ref == ref else p for p in d.parts))
