"""A small typed netlist and its electrical rules check.

A part type lists its pins with their pin numbers, names and kinds; a netlist places
parts (by reference, like U3) and joins their pins into named nets. `check()` is the
electrical rules check a schematic tool would run, with the rules this board needs:

- every pin is on a net, or explicitly left open (kind "nc", or listed as unused);
- every net joins at least two pins;
- every input has a driver: a push-pull or open-collector output, a connector pin that
  brings the signal in, a power or ground net, or a resistor from a driven net;
- no net has two push-pull drivers;
- an open-collector net has a pull-up resistor to a power net, or leaves the board
  through a connector to the pull-up on the other side;
- supply pins are on a power net, ground pins on GND, and every power net is fed;
- every part with a supply pin has its own decoupling capacitor between that supply and GND.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

PinKind = Literal["in", "out", "oc", "supply", "ground", "passive", "feed", "link", "nc"]
#: how a part reaches the board: "smd" placed by the fab's assembly on the top side, "tht"
#: soldered by the maker from the bottom (connectors, sockets), "loose" not on a board
Mount = Literal["smd", "tht", "loose"]
POWER_NETS = frozenset({"+5V", "+3V3", "+5V_IN"})
GROUND = "GND"


@dataclass(frozen=True)
class Pin:
    number: int
    name: str
    kind: PinKind


@dataclass(frozen=True)
class PartType:
    """One orderable part: what the BOM says about it, what its pins are and how it sits on
    a board. `conducts`: a resistor or fuse (DC passes from pin to pin); `capacitor`: may
    decouple; `footprint`: KiCad's own library and footprint ("Lib:Name"); `lcsc`: the
    assembly service's part number where known; `height`: mm above the board's face."""

    key: str
    description: str
    part_number: str
    price: float
    pins: tuple[Pin, ...]
    conducts: bool = False
    capacitor: bool = False
    section: str = "Sensor modules and carrier"
    footprint: str = ""
    lcsc: str = ""
    mount: Mount = "smd"
    height: float = 0.0
    value: str = ""

    def pin(self, number: int) -> Pin:
        return next(p for p in self.pins if p.number == number)

    def named(self, name: str) -> int:
        return next(p.number for p in self.pins if p.name == name)


@dataclass
class Netlist:
    name: str
    parts: dict[str, PartType] = field(default_factory=dict)
    nets: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    decoupling: dict[str, str] = field(default_factory=dict)     # capacitor -> part
    unused: set[tuple[str, int]] = field(default_factory=set)

    def add(self, ref: str, part: PartType) -> str:
        if ref in self.parts:
            raise ValueError(f"{self.name}: {ref} placed twice")
        self.parts[ref] = part
        return ref

    def connect(self, net: str, ref: str, pin: int | str) -> None:
        part = self.parts[ref]
        number = pin if isinstance(pin, int) else part.named(pin)
        part.pin(number)                                   # raises on a pin the part lacks
        self.nets.setdefault(net, []).append((ref, number))

    def net_of(self, ref: str, pin: int) -> str | None:
        return next((n for n, pins in self.nets.items() if (ref, pin) in pins), None)

    def kinds(self, net: str) -> list[PinKind]:
        return [self.parts[r].pin(p).kind for r, p in self.nets[net]]


def check(n: Netlist) -> list[str]:
    """Every rule the netlist breaks, one line each (empty: it passes)."""
    return [f"{n.name}: {problem}" for rule in RULES for problem in rule(n)]


def _where(n: Netlist) -> dict[tuple[str, int], list[str]]:
    where: dict[tuple[str, int], list[str]] = {}
    for net, pins in n.nets.items():
        for rp in pins:
            where.setdefault(rp, []).append(net)
    return where


def _single_pin_nets(n: Netlist) -> list[str]:
    return [f"net {net} joins only {pins}" for net, pins in n.nets.items() if len(pins) < 2]


def _pin_problems(pin: Pin, ref: str, nets: list[str], unused: bool) -> list[str]:
    """What is wrong with one pin on `nets`."""
    name = f"{ref}.{pin.number} ({pin.name})"
    out = []
    if len(nets) > 1:
        out.append(f"{name} is on {nets}")
    if pin.kind == "nc" and nets:
        out.append(f"{name} must stay open")
    if not nets and pin.kind != "nc" and not unused:
        out.append(f"{name} is not connected")
    if pin.kind == "supply" and nets and nets[0] not in POWER_NETS:
        out.append(f"{ref} supply pin {pin.number} on {nets[0]}")
    if pin.kind == "ground" and nets and nets[0] != GROUND:
        out.append(f"{ref} ground pin {pin.number} on {nets[0]}")
    return out


def _pins(n: Netlist) -> list[str]:
    where = _where(n)
    return [problem for ref, part in n.parts.items() for pin in part.pins
            for problem in _pin_problems(pin, ref, where.get((ref, pin.number), []),
                                         (ref, pin.number) in n.unused)]


def _drivers(n: Netlist) -> list[str]:
    out = []
    driven = _driven(n)
    for net in n.nets:
        kinds = n.kinds(net)
        drivers = kinds.count("out") + kinds.count("feed")
        if "in" in kinds and net not in driven:
            out.append(f"net {net} has inputs but nothing drives it")
        if drivers > 1 and net not in POWER_NETS | {GROUND}:
            out.append(f"net {net} has {drivers} drivers")
        if "oc" in kinds and "link" not in kinds and not _pulled_up(n, net):
            out.append(f"open-collector net {net} has no pull-up")
        if net in POWER_NETS and net not in driven:
            out.append(f"power net {net} is not fed")
    return out


def _decoupling(n: Netlist) -> list[str]:
    out = []
    for ref, part in n.parts.items():
        supplies = [p.number for p in part.pins if p.kind == "supply"]
        if not supplies:
            continue
        rail = n.net_of(ref, supplies[0])
        caps = [c for c, owner in n.decoupling.items() if owner == ref]
        if not any({n.net_of(c, p.number) for p in n.parts[c].pins} == {rail, GROUND} for c in caps):
            out.append(f"{ref} has no decoupling capacitor from {rail} to GND")
    return out


#: the rules, each a function from a netlist to its problems
RULES = (_single_pin_nets, _pins, _drivers, _decoupling)


def _driven(n: Netlist) -> set[str]:
    driven = {net for net, pins in n.nets.items()
              if net == GROUND or {"out", "oc", "feed"} & set(n.kinds(net))}
    changed = True
    while changed:
        changed = False
        for ref, part in n.parts.items():
            if not part.conducts:
                continue
            nets = {n.net_of(ref, p.number) for p in part.pins} - {None}
            if nets & driven and not nets <= driven:
                driven |= {x for x in nets if x is not None}
                changed = True
    return driven


def _pulled_up(n: Netlist, net: str) -> bool:
    for ref, pin in n.nets[net]:
        part = n.parts[ref]
        if part.conducts:
            others = {n.net_of(ref, p.number) for p in part.pins if p.number != pin}
            if others & POWER_NETS:
                return True
    return False
