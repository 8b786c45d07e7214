"""The pin-level schematic of each board kind, as netlists built from the geometry (how
many sensors a kind holds) and the parts (their pins): hardware/front-end.md drawn out.

A module: a DRV5053RA per slot with its 100 nF; sensor k on the multiplexer's channel k,
the unused channels to GND; the multiplexer's common pin through 1 kΩ onto the analogue
bus; a Schmitt buffer that re-times the token clock for the flip-flop and, through 33 Ω,
for the next ribbon; the flip-flop that holds the token (its /Q enables the multiplexer,
its Q through 33 Ω is the next module's token); the ribbon's IN and OUT headers and the
5 V input. One netlist per kind: every module of a kind is the same board (the sensors'
numbers come from the module's place in the chain, not from its wiring).
"""
from __future__ import annotations

from functools import cache

from . import geometry as g
from . import parts as p
from .netlist import GROUND, Netlist, PartType

#: board kind of each geometry module kind, in the order the BOM lists them
KINDS = {"point-pair": "point", "bar-half": "bar", "tray": "tray"}


def kind_of(module: g.Module) -> str:
    return KINDS[module.kind]


def sensors_of(kind: str) -> int:
    """How many sensors a board of this kind carries (the first module of the kind)."""
    return len(next(m for m in g.default_board().modules if kind_of(m) == kind).slots)


def module_sizes() -> tuple[int, ...]:
    """Sensors per module in chain order: the firmware's MODULE_SIZES."""
    return tuple(len(m.slots) for m in g.default_board().modules)


def _cap(n: Netlist, owner: str, rail: str, part: PartType = p.C100N) -> str:
    ref = n.add(f"C{sum(1 for r in n.parts if r.startswith('C')) + 1}", part)
    n.connect(rail, ref, 1)
    n.connect(GROUND, ref, 2)
    if owner:
        n.decoupling[ref] = owner
    return ref


def _resistor(n: Netlist, part: PartType, a: str, b: str) -> str:
    ref = n.add(f"R{sum(1 for r in n.parts if r.startswith('R')) + 1}", part)
    n.connect(a, ref, 1)
    n.connect(b, ref, 2)
    return ref


def _ribbon(n: Netlist, ref: str, part: PartType, names: dict[str, str]) -> None:
    """A ribbon header: every pin on the net of its signal, renamed by `names`."""
    n.add(ref, part)
    for pin, (signal, _, _) in p.RIBBON.items():
        n.connect(names.get(signal, signal), ref, pin)


@cache
def module_netlist(kind: str) -> Netlist:
    """The netlist of a module board of `kind` (point, bar or tray)."""
    count = sensors_of(kind)
    n = Netlist(kind)
    _ribbon(n, "J1", p.HEADER_IN, {"TCLK": "TCLK_IN", "TOKEN": "TOKEN_IN"})
    _ribbon(n, "J2", p.HEADER_OUT, {"TCLK": "TCLK_OUT", "TOKEN": "TOKEN_OUT"})
    n.add("J3", p.POWER_IN)
    n.connect("+5V", "J3", 1)
    n.connect(GROUND, "J3", 2)
    # the multiplexer: sensor k on channel k, the rest grounded
    n.add("U1", p.MUX)
    n.connect("+3V3", "U1", "VCC")
    n.connect(GROUND, "U1", "GND")
    for bit in range(4):
        n.connect(f"S{bit}", "U1", f"S{bit}")
    n.connect("/EN", "U1", "/E")
    n.connect("COM", "U1", "COM")
    _cap(n, "U1", "+3V3")
    _resistor(n, p.R_BUS, "COM", "AOUT")
    for k, channel in enumerate(p.MUX_CHANNELS):
        if k < count:
            ref = n.add(f"HS{k}", p.DRV5053)
            n.connect("+5V", ref, "VCC")
            n.connect(GROUND, ref, "GND")
            n.connect(f"CH{k}", ref, "OUT")
            n.connect(f"CH{k}", "U1", channel)
            _cap(n, ref, "+5V")
        else:
            n.connect(GROUND, "U1", channel)
    # the clock's re-timer and the token's flip-flop
    n.add("U3", p.SCHMITT)
    n.connect("+3V3", "U3", "VCC")
    n.connect(GROUND, "U3", "GND")
    n.connect("TCLK_IN", "U3", "A")
    n.connect("TCLK", "U3", "Y")
    _cap(n, "U3", "+3V3")
    _resistor(n, p.R_SERIES, "TCLK", "TCLK_OUT")
    n.add("U2", p.FLIP_FLOP)
    n.connect("+3V3", "U2", "VCC")
    n.connect(GROUND, "U2", "GND")
    n.connect("TCLK", "U2", "CLK")
    n.connect("TOKEN_IN", "U2", "D")
    n.connect("/EN", "U2", "/Q")
    n.connect("TOKEN", "U2", "Q")
    n.connect("+3V3", "U2", "/CLR")
    n.connect("+3V3", "U2", "/PRE")
    _cap(n, "U2", "+3V3")
    _resistor(n, p.R_SERIES, "TOKEN", "TOKEN_OUT")
    return n


@cache
def carrier_netlist() -> Netlist:
    """The Pico carrier: the Pico on two sockets driving the ribbon's address, clock and
    token lines through 33 Ω and reading the analogue bus (100 Ω and 1 nF at the ADC, 47 kΩ
    to GND) and RET (100 kΩ to GND); the sensors' 5 V in through a polyfuse to one star
    header per module, halved into the ADC's second input as the supply's monitor; a
    Schottky diode from it to VSYS for the UART link; test points for the bring-up."""
    n = Netlist("carrier")
    n.add("J4", p.PICO_LEFT)
    n.add("J5", p.PICO_RIGHT)

    def pico(gpio_or_name: int | str, net: str) -> None:
        ref, pin = p.pico_pin(gpio_or_name)
        n.connect(net, ref, pin)

    for number, name in p.PICO_PINS.items():
        if name in ("GND", "AGND"):
            n.connect(GROUND, *p.socket_pin(number))
    for bit, gpio in enumerate(p.ADDRESS_GPIOS):
        pico(gpio, f"GP_S{bit}")
        _resistor(n, p.R_SERIES, f"GP_S{bit}", f"S{bit}")
    pico(p.TCLK_GPIO, "GP_TCLK")
    _resistor(n, p.R_SERIES, "GP_TCLK", "TCLK")
    pico(p.TOKEN_GPIO, "GP_TOKEN")
    _resistor(n, p.R_SERIES, "GP_TOKEN", "TOKEN")
    pico(p.RET_GPIO, "RET")
    _resistor(n, p.R_RET_PULL, "RET", GROUND)
    pico(p.AOUT_ADC_GPIO, "ADC0")
    _resistor(n, p.R_ADC, "AOUT", "ADC0")
    _cap(n, "", "ADC0", p.C1N)
    _resistor(n, p.R_BUS_PULL, "AOUT", GROUND)
    pico(p.SUPPLY_ADC_GPIO, "ADC1")
    _resistor(n, p.R_DIVIDER, "+5V", "ADC1")
    _resistor(n, p.R_DIVIDER, "ADC1", GROUND)
    _cap(n, "", "ADC1")
    pico("3V3 OUT", "+3V3")
    pico("VSYS", "VSYS")
    n.add("J3", p.UART_HEADER)                     # the UART option: wired to the Pi's header
    for pin, gpio in zip((1, 2), p.UART_GPIOS):
        pico(gpio, f"UART_{'TX' if pin == 1 else 'RX'}")
        n.connect(f"UART_{'TX' if pin == 1 else 'RX'}", "J3", pin)
    n.connect(GROUND, "J3", 3)
    n.add("D1", p.SCHOTTKY)
    n.connect("VSYS", "D1", "K")
    n.connect("+5V", "D1", "A")
    _ribbon(n, "J2", p.HEADER_OUT, {})
    n.add("J1", p.POWER_IN)
    n.connect("+5V_IN", "J1", 1)
    n.connect(GROUND, "J1", 2)
    n.add("F1", p.POLYFUSE)
    n.connect("+5V_IN", "F1", 1)
    n.connect("+5V", "F1", 2)
    _cap(n, "", "+5V", p.C22U)
    for i, _module in enumerate(g.default_board().modules):
        ref = n.add(f"J{10 + i}", p.STAR_OUT)
        n.connect("+5V", ref, 1)
        n.connect(GROUND, ref, 2)
    for i, net in enumerate(("AOUT", "TCLK", "TOKEN", "RET", "+5V", "+3V3", GROUND, GROUND)):
        ref = n.add(f"TP{i + 1}", p.TEST_POINT)
        n.connect(net, ref, 1)
    used = {ref_pin for pins in n.nets.values() for ref_pin in pins}
    for ref in ("J4", "J5"):
        for socket_pin in n.parts[ref].pins:
            if (ref, socket_pin.number) not in used:
                n.unused.add((ref, socket_pin.number))
    return n


def all_netlists() -> list[tuple[Netlist, int]]:
    """Each board kind's netlist and how many boards of it the board needs."""
    counts: dict[str, int] = {}
    for m in g.default_board().modules:
        counts[kind_of(m)] = counts.get(kind_of(m), 0) + 1
    return [(module_netlist(kind), count) for kind, count in counts.items()] + [(carrier_netlist(), 1)]
