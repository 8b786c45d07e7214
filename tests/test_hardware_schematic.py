"""The boards' pin-level schematics (hardware/design/modules.py) pass an electrical rules
check, wire every sensor to the multiplexer channel the firmware reads it on, pass the
token, clock, address and analogue bus from module to module as hardware/front-end.md
says, drive the ribbon from the Pico pins the contract names, and are what
hardware/schematics.md and hardware/bom.md say.

The rules check is itself tested on broken netlists: a check that finds nothing wrong in a
floating input, two outputs on a net or a missing decoupling capacitor is no check.
"""
from __future__ import annotations

import copy

import pytest

from hardware.design import bom, geometry, modules, netlist, parts, schematics_doc, sensing
from hardware.design.outputs import HARDWARE

KINDS = ("point", "bar", "tray")


def test_every_netlist_passes_the_rules_check() -> None:
    for n, _ in modules.all_netlists():
        assert netlist.check(n) == [], n.name


def _broken(mutate: str) -> list[str]:
    n = copy.deepcopy(modules.module_netlist("point"))
    if mutate == "floating input":                       # the flip-flop's D off its net
        n.nets["TOKEN_IN"].remove(("U2", 2))
    elif mutate == "two outputs":                        # the buffer's output joins the token
        n.nets["TCLK"].remove(("U3", 4))
        n.connect("TOKEN", "U3", 4)
    elif mutate == "no decoupling":
        cap = next(c for c, owner in n.decoupling.items() if owner == "U1")
        del n.decoupling[cap]
    elif mutate == "supply on ground":
        n.nets["+3V3"].remove(("U1", 24))
        n.connect("GND", "U1", 24)
    elif mutate == "undriven net":                       # the token no longer arrives on J1
        n.nets["TOKEN_IN"].remove(("J1", 13))
        n.unused.add(("J1", 13))
    elif mutate == "sensor off its channel":
        n.nets["CH3"].remove(("HS3", 2))
    return netlist.check(n)


@pytest.mark.parametrize("mutate, expect", [
    ("floating input", "U2.2 (D) is not connected"),
    ("two outputs", "net TOKEN has 2 drivers"),
    ("no decoupling", "U1 has no decoupling capacitor"),
    ("supply on ground", "U1 supply pin 24 on GND"),
    ("undriven net", "net TOKEN_IN has inputs but nothing drives it"),
    ("sensor off its channel", "HS3.2 (OUT) is not connected"),
])
def test_the_rules_check_finds_each_fault(mutate: str, expect: str) -> None:
    problems = _broken(mutate)
    assert any(expect in p for p in problems), problems


@pytest.mark.parametrize("kind", KINDS)
def test_sensor_k_is_on_channel_k_and_the_rest_are_grounded(kind: str) -> None:
    n = modules.module_netlist(kind)
    count = modules.sensors_of(kind)
    for k, channel in enumerate(parts.MUX_CHANNELS):
        net = n.net_of("U1", parts.MUX.named(channel))
        if k < count:
            assert net == n.net_of(f"HS{k}", parts.DRV5053.named("OUT")), (kind, k)
            assert n.net_of(f"HS{k}", 1) == "+5V" and n.net_of(f"HS{k}", 3) == "GND"   # SOT-23: 1 VCC, 3 GND
        else:
            assert net == "GND", (kind, k)


@pytest.mark.parametrize("kind", KINDS)
def test_a_module_passes_the_token_clock_address_and_bus_on(kind: str) -> None:
    n = modules.module_netlist(kind)

    def on(ref: str, pin: str | int) -> str | None:
        number = pin if isinstance(pin, int) else n.parts[ref].named(pin)
        return n.net_of(ref, number)

    rib = parts.ribbon_pin
    # the token: J1 -> D; Q -> 33 ohm -> J2; /Q enables the multiplexer
    assert on("J1", rib("TOKEN")) == on("U2", "D")
    series = [r for r, part in n.parts.items() if part is parts.R_SERIES]
    joins = {frozenset((n.net_of(r, 1), n.net_of(r, 2))) for r in series}
    assert frozenset((on("U2", "Q"), on("J2", rib("TOKEN")))) in joins
    assert on("U2", "/Q") == on("U1", "/E")
    # the clock: J1 -> Schmitt buffer -> the flip-flop, and on through 33 ohm
    assert on("J1", rib("TCLK")) == on("U3", "A")
    assert on("U3", "Y") == on("U2", "CLK")
    assert frozenset((on("U3", "Y"), on("J2", rib("TCLK")))) in joins
    # the address and the return pass straight through; the bus through 1 kohm from COM
    for bit in range(4):
        assert on("J1", rib(f"S{bit}")) == on("J2", rib(f"S{bit}")) == on("U1", f"S{bit}")
    assert on("J1", rib("RET")) == on("J2", rib("RET"))
    assert on("J1", rib("AOUT")) == on("J2", rib("AOUT")) == "AOUT"
    bus = [r for r, part in n.parts.items() if part is parts.R_BUS]
    assert len(bus) == 1 and {n.net_of(bus[0], 1), n.net_of(bus[0], 2)} == {on("U1", "COM"), "AOUT"}


def test_the_modules_hold_every_sensor_of_the_profile_in_chain_order() -> None:
    board = geometry.default_board()
    assert sum(modules.module_sizes()) == board.profile.sensors.count
    assert all(size <= len(parts.MUX_CHANNELS) for size in modules.module_sizes())


def test_the_carrier_drives_the_ribbon_from_the_contracts_pico_pins() -> None:
    n = modules.carrier_netlist()

    def gpio(g: int | str) -> str | None:
        return n.net_of(*parts.pico_pin(g))

    def through(a: str | None, part: netlist.PartType) -> set[str | None]:
        return {n.net_of(r, 2) if n.net_of(r, 1) == a else n.net_of(r, 1)
                for r, p in n.parts.items() if p is part and a in (n.net_of(r, 1), n.net_of(r, 2))}

    for bit, g in enumerate(parts.ADDRESS_GPIOS):
        assert n.net_of("J2", parts.ribbon_pin(f"S{bit}")) in through(gpio(g), parts.R_SERIES)
    assert n.net_of("J2", parts.ribbon_pin("TCLK")) in through(gpio(parts.TCLK_GPIO), parts.R_SERIES)
    assert n.net_of("J2", parts.ribbon_pin("TOKEN")) in through(gpio(parts.TOKEN_GPIO), parts.R_SERIES)
    assert gpio(parts.RET_GPIO) == n.net_of("J2", parts.ribbon_pin("RET"))
    assert "AOUT" in through(gpio(parts.AOUT_ADC_GPIO), parts.R_ADC)
    assert "GND" in through("AOUT", parts.R_BUS_PULL)               # an undriven bus reads 0 V
    assert {"+5V", "GND"} <= through(gpio(parts.SUPPLY_ADC_GPIO), parts.R_DIVIDER)
    assert gpio("3V3 OUT") == n.net_of("J2", parts.ribbon_pin("+3V3")) == "+3V3"


def test_schematics_and_bom_are_the_netlists() -> None:
    assert (HARDWARE / "schematics.md").read_text(encoding="utf-8") == schematics_doc.render(), \
        "run: python -m hardware.design"
    assert (HARDWARE / "bom.md").read_text(encoding="utf-8") == bom.render(), "run: python -m hardware.design"


def test_the_sensor_fuse_carries_the_worst_case_and_the_star_feeds_every_module() -> None:
    worst = sum(schematics_doc.module_current(m) for m in geometry.default_board().modules)
    assert worst == pytest.approx(geometry.default_board().profile.sensors.count * sensing.ICC_MAX / 1000)
    assert worst < 1.1                        # the polyfuse's hold current
    star = [r for r, part in modules.carrier_netlist().parts.items() if part is parts.STAR_OUT]
    assert len(star) == len(geometry.default_board().modules)


def test_every_part_on_a_board_has_a_kicad_footprint_and_says_how_it_is_mounted() -> None:
    for n, _ in modules.all_netlists():
        for ref, part in n.parts.items():
            lib, _, name = part.footprint.partition(":")
            assert lib and name, (n.name, ref)
            assert part.mount in ("smd", "tht", "loose"), (n.name, ref)
