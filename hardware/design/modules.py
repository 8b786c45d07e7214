"""The pin-level schematic of each sensor module and of the Pico carrier, as netlists
built from the geometry (which sensors a module holds) and the parts (their pins).

Per module: a DRV5053VA per slot with its 10 nF; half an LM339 per sensor (north: sensor
to IN+ through R_IN, IN- = VHI; south: sensor to IN-, IN+ = VLO through R_IN; each with
R_FEEDBACK from its output back to IN+ for hysteresis); one 74HC165 with its 47 kΩ
pull-up network per four sensors; one threshold divider; a 74HC14 whose two inverters in
series re-time SCK and SH/LD (Schmitt inputs, fresh edges for the next ribbon through
33 Ω); the IN header from the Pico's side, the OUT header to the next module, and a screw
terminal for 5 V and GND from the star point on the carrier.
"""
from __future__ import annotations

from functools import cache

from . import geometry as g
from . import parts as p
from .netlist import GROUND, Netlist

SENSORS_PER_REGISTER = 4


def register_of(sensor: int) -> int:
    """The 74HC165 (1-based, SR1 nearest the Pico) that reads `sensor`."""
    return sensor // SENSORS_PER_REGISTER + 1


def registers_on(module: g.Module) -> list[int]:
    """The shift registers a module carries: those whose first sensor is on it (SR42 reads
    the last three off-white sensors and the first off-black one, and sits on TRAY-W)."""
    return sorted({register_of(s) for s in module.sensors if _first_sensor_here(register_of(s), module)})


def _first_sensor_here(register: int, module: g.Module) -> bool:
    first = (register - 1) * SENSORS_PER_REGISTER
    board = g.default_board()
    existing = [s for s in range(first, first + SENSORS_PER_REGISTER) if s < len(board.slots)]
    return existing[0] in module.sensors


def _decouple(n: Netlist, ref: str, rail: str, cap: p.PartType) -> None:
    c = n.add(f"C{len([r for r in n.parts if r.startswith('C')]) + 1}", cap)
    n.connect(rail, c, 1)
    n.connect(GROUND, c, 2)
    n.decoupling[c] = ref


def _resistor(n: Netlist, part: p.PartType, a: str, b: str) -> str:
    r = n.add(f"R{len([x for x in n.parts if x.startswith('R') and not x.startswith('RN')]) + 1}", part)
    n.connect(a, r, 1)
    n.connect(b, r, 2)
    return r


@cache
def module_netlist(name: str) -> Netlist:
    board = g.default_board()
    modules = list(board.modules)
    module = next(m for m in modules if m.name == name)
    last = module is modules[-1]
    n = Netlist(name)
    n.add("J1", p.HEADER_IN)
    for pin, (signal, _, _) in p.RIBBON.items():
        if signal in ("AUX N", "AUX S"):
            continue
        n.connect({"SCK": "SCK_IN", "SH/LD": "SHLD_IN", "DATA": "DATA_UP", "CLK INH": "CLKINH"}
                  .get(signal, signal), "J1", pin)
    if not last:
        n.add("J2", p.HEADER_OUT)
        for pin, (signal, _, _) in p.RIBBON.items():
            if signal in ("AUX N", "AUX S"):
                continue
            n.connect({"SCK": "SCK_OUT", "SH/LD": "SHLD_OUT", "DATA": "DATA_DOWN", "CLK INH": "CLKINH"}
                      .get(signal, signal), "J2", pin)
    n.add("J3", p.POWER_IN)
    n.connect("+5V", "J3", 1)
    n.connect(GROUND, "J3", 2)
    # the buffer: two Schmitt inverters in series for each of SCK and SH/LD
    n.add("U1", p.HC14)
    for a, y1, a2, y2, net_in, mid, net_local in (("1A", "1Y", "2A", "2Y", "SCK_IN", "SCK_N", "SCK"),
                                                   ("3A", "3Y", "4A", "4Y", "SHLD_IN", "SHLD_N", "SHLD")):
        n.connect(net_in, "U1", a)
        n.connect(mid, "U1", y1)
        n.connect(mid, "U1", a2)
        n.connect(net_local, "U1", y2)
    for unused_in in ("5A", "6A"):
        n.connect(GROUND, "U1", unused_in)
    n.unused |= {("U1", p.HC14.named("5Y")), ("U1", p.HC14.named("6Y"))}
    n.connect("+3V3", "U1", "VCC")
    n.connect(GROUND, "U1", "GND")
    _decouple(n, "U1", "+3V3", p.C100N)
    if not last:
        _resistor(n, p.R_SERIES, "SCK", "SCK_OUT")
        _resistor(n, p.R_SERIES, "SHLD", "SHLD_OUT")
    # the threshold divider
    _resistor(n, p.R_TOP, "+3V3", "VHI")
    _resistor(n, p.R_MID, "VHI", "VLO")
    _resistor(n, p.R_BOTTOM, "VLO", GROUND)
    for node in ("VHI", "VLO"):
        c = n.add(f"C{len([r for r in n.parts if r.startswith('C')]) + 1}", p.C100N)
        n.connect(node, c, 1)
        n.connect(GROUND, c, 2)
    # sensors and comparators
    for k, slot in enumerate(module.slots):
        s = slot.sensor
        hs = n.add(f"HS{s}", p.DRV5053)
        n.connect("+5V", hs, "VCC")
        n.connect(GROUND, hs, "GND")
        n.connect(f"S{s}", hs, "OUT")
        _decouple(n, hs, "+5V", p.C10N)
        chip = f"WC{k // 2 + 1}"
        if k % 2 == 0:
            n.add(chip, p.LM339)
            n.connect("+5V", chip, "VCC")
            n.connect(GROUND, chip, "GND")
            _decouple(n, chip, "+5V", p.C100N)
        north, south = p.LM339_UNITS[2 * (k % 2)], p.LM339_UNITS[2 * (k % 2) + 1]
        n.connect("VHI", chip, north[1])
        n.connect(f"S{s}_NP", chip, north[2])
        n.connect(f"N{s}", chip, north[0])
        _resistor(n, p.R_IN, f"S{s}", f"S{s}_NP")
        _resistor(n, p.R_FEEDBACK, f"N{s}", f"S{s}_NP")
        n.connect(f"S{s}", chip, south[1])
        n.connect(f"S{s}_SP", chip, south[2])
        n.connect(f"B{s}", chip, south[0])
        _resistor(n, p.R_IN, "VLO", f"S{s}_SP")
        _resistor(n, p.R_FEEDBACK, f"B{s}", f"S{s}_SP")
    if len(module.slots) % 2:                      # the last half LM339 is unused
        chip = f"WC{len(module.slots) // 2 + 1}"
        for out, minus, plus in p.LM339_UNITS[2:]:
            n.connect("VHI", chip, minus)
            n.connect(GROUND, chip, plus)
            n.unused.add((chip, out))
    _registers(n, module, last)
    return n


def _registers(n: Netlist, module: g.Module, last: bool) -> None:
    board = g.default_board()
    count = len(board.slots)
    regs = registers_on(module)
    for i, r in enumerate(regs):
        u, rn = f"SR{r}", f"RN{r}"
        n.add(u, p.HC165)
        n.add(rn, p.SIP_47K)
        n.connect("+3V3", rn, "COM")
        n.connect("+3V3", u, "VCC")
        n.connect(GROUND, u, "GND")
        _decouple(n, u, "+3V3", p.C100N)
        n.connect("SHLD", u, "SH/LD")
        n.connect("SCK", u, "CLK")
        n.connect("CLKINH", u, "CLK INH")
        n.connect("DATA_UP" if i == 0 else f"Q{r}", u, "QH")
        if i + 1 < len(regs):
            n.connect(f"Q{regs[i + 1]}", u, "SER")
        else:
            n.connect(GROUND if last else "DATA_DOWN", u, "SER")
        for j, letter in enumerate(p.HC165_INPUTS):
            sensor = (r - 1) * SENSORS_PER_REGISTER + j // 2
            net = f"{'N' if j % 2 == 0 else 'B'}{sensor}"
            if sensor >= count:
                net = GROUND
            elif sensor not in module.sensors:     # read here, sensed on the next module
                aux = "AUX N" if j % 2 == 0 else "AUX S"
                pin = next(k for k, v in p.RIBBON.items() if v[0] == aux)
                if n.net_of("J2", pin) is None:
                    n.connect(net, "J2", pin)
            n.connect(net, u, letter)
            n.connect(net, rn, j + 2)
    # a sensor whose register is on the previous module leaves through the IN header
    for s in module.sensors:
        if register_of(s) not in regs:
            for letter, aux in (("N", "AUX N"), ("B", "AUX S")):
                pin = next(k for k, v in p.RIBBON.items() if v[0] == aux)
                n.connect(f"{letter}{s}", "J1", pin)
    for ref in ("J1", "J2"):
        if ref in n.parts:
            for pin, (signal, _, _) in p.RIBBON.items():
                if signal.startswith("AUX") and n.net_of(ref, pin) is None:
                    n.unused.add((ref, pin))


@cache
def carrier_netlist() -> Netlist:
    """The Pico carrier: the Pico, 33 Ω in its clock, load and inhibit lines, the OUT
    header to the first module; the sensors' 5 V enters here through the fuse and leaves
    to every module from one star terminal, and the star's GND is the board's one ground
    point (the LED supply's GND, the Pico's GND through the ribbon, the modules' GND)."""
    n = Netlist("carrier")
    n.add("U1", p.PICO)
    for pin in (3, 8, 38):
        n.connect(GROUND, "U1", pin)
    n.connect("+3V3", "U1", "3V3 OUT")
    n.add("J2", p.HEADER_OUT)
    for pin, (signal, _, _) in p.RIBBON.items():
        if signal.startswith("AUX"):
            n.unused.add(("J2", pin))
            continue
        n.connect({"SCK": "SCK_OUT", "SH/LD": "SHLD_OUT", "DATA": "DATA", "CLK INH": "CLKINH_OUT"}
                  .get(signal, signal), "J2", pin)
    for gp, net in (("GP18", "SCK"), ("GP17", "SHLD"), ("GP19", "CLKINH")):
        n.connect(net, "U1", gp)
        _resistor(n, p.R_SERIES, net, f"{net}_OUT")
    n.connect("DATA", "U1", "GP16")
    n.add("J1", p.POWER_IN)
    n.connect("+5V_IN", "J1", 1)
    n.connect(GROUND, "J1", 2)
    n.add("F1", p.FUSE)
    n.connect("+5V_IN", "F1", 1)
    n.connect("+5V", "F1", 2)
    c = n.add("C1", p.C100U)
    n.connect("+5V", c, 1)
    n.connect(GROUND, c, 2)
    for i, module in enumerate(g.default_board().modules):
        ref = n.add(f"J{10 + i}", p.STAR_OUT)
        n.connect("+5V", ref, 1)
        n.connect(GROUND, ref, 2)
    return n


def all_netlists() -> list[tuple[Netlist, int]]:
    """Each distinct netlist and how many boards are built from it (every module is
    its own netlist: they differ in their sensors' numbers)."""
    return [(module_netlist(m.name), 1) for m in g.default_board().modules] + [(carrier_netlist(), 1)]
