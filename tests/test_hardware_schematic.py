"""The modules' and the carrier's pin-level schematics (hardware/design/modules.py) pass
an electrical rules check, read the sensors in the order the firmware decodes, use the
profile's Pico pins, and are what hardware/schematics.md and hardware/bom.md say.

The rules check is itself tested on broken netlists: a check that finds nothing wrong in a
floating input, two outputs on a net or a missing decoupling capacitor is no check.
"""
from __future__ import annotations

import copy

import pytest

from firmware import scan
from hardware.design import bom, geometry, modules, netlist, parts, schematics_doc
from hardware.design.outputs import HARDWARE


def test_every_netlist_passes_the_rules_check() -> None:
    for n, _ in modules.all_netlists():
        assert netlist.check(n) == [], n.name


def _broken(mutate: str) -> list[str]:
    n = copy.deepcopy(modules.module_netlist("P1-2"))
    if mutate == "floating input":                       # SR1's CLK INH off its net
        n.nets["CLKINH"].remove(("SR1", 15))
    elif mutate == "two outputs":                        # two sensors' outputs joined
        n.connect("S0", "HS1", 3)
        n.nets["S1"].remove(("HS1", 3))
    elif mutate == "no decoupling":
        cap = next(c for c, owner in n.decoupling.items() if owner == "SR2")
        del n.decoupling[cap]
    elif mutate == "no pull-up":                         # SR1 input H loses its resistor
        n.nets["N0"].remove(("RN1", 2))
        n.unused.add(("RN1", 2))
    elif mutate == "supply on ground":
        n.nets["+5V"].remove(("WC1", 3))
        n.connect("GND", "WC1", 3)
    elif mutate == "undriven net":                       # the buffer's input loses J1
        n.nets["SCK_IN"].remove(("J1", 3))
        n.unused.add(("J1", 3))
    return netlist.check(n)


@pytest.mark.parametrize("mutate, expect", [
    ("floating input", "SR1.15 (CLK INH) is not connected"),
    ("two outputs", "net S0 has 2 drivers"),
    ("no decoupling", "SR2 has no decoupling capacitor"),
    ("no pull-up", "open-collector net N0 has no pull-up"),
    ("supply on ground", "WC1 supply pin 3 on GND"),
    ("undriven net", "net SCK_IN has inputs but nothing drives it"),
])
def test_the_rules_check_finds_each_fault(mutate: str, expect: str) -> None:
    problems = _broken(mutate)
    assert any(expect in p for p in problems), problems


def _reaches(sensor: int, letter: str) -> tuple[int, str]:
    """Follow a comparator output (N = north, B = south) across modules, through the
    ribbon's AUX pins if it must, to the 74HC165 input that reads it: (register, input)."""
    for module in geometry.default_board().modules:
        n = modules.module_netlist(module.name)
        for ref, pin in n.nets.get(f"{letter}{sensor}", []):
            if ref.startswith("SR"):
                return int(ref[2:]), parts.HC165.pin(pin).name
    raise AssertionError(f"{letter}{sensor} reaches no shift register")


def test_each_sensor_reaches_the_bit_the_firmware_decodes() -> None:
    """Chain bit k (the k-th bit shifted out toward the Pico) is sensor k // 2, north when
    k is even (firmware/scan.py); SR1 is the register next to the Pico, H leaves first."""
    count = len(geometry.default_board().slots)
    for sensor in range(count):
        for letter, value in (("N", scan.WHITE), ("B", scan.BLACK)):
            register, name = _reaches(sensor, letter)
            bit = (register - 1) * 8 + "HGFEDCBA".index(name)
            values = [scan.EMPTY] * count
            values[sensor] = value
            encoded = scan.encode_chain(values)
            assert encoded[bit // 8] == 1 << (7 - bit % 8), (sensor, letter, register, name)


def test_the_chain_is_one_line_from_the_pico_to_the_last_register() -> None:
    """Following SER <- QH register by register, across the ribbon's DATA pin between
    modules, visits SR1..SR46 in order and ends at a grounded SER."""
    order = []
    for module in geometry.default_board().modules:
        n = modules.module_netlist(module.name)
        regs = modules.registers_on(module)
        assert n.net_of(f"SR{regs[0]}", 9) == "DATA_UP"
        for a, b in zip(regs, regs[1:]):
            assert n.net_of(f"SR{a}", 10) == n.net_of(f"SR{b}", 9)
        tail = n.net_of(f"SR{regs[-1]}", 10)
        assert tail == ("GND" if module is geometry.default_board().modules[-1] else "DATA_DOWN")
        order += regs
    assert order == list(range(1, scan.chain_bytes(len(geometry.default_board().slots)) + 1))


def test_the_carrier_uses_the_profiles_pico_pins() -> None:
    pico = geometry.default_board().profile.pico
    n = modules.carrier_netlist()
    named = {pin.name: n.net_of("U1", pin.number) for pin in parts.PICO.pins}
    assert named[f"GP{pico.sck}"] == "SCK" and named[f"GP{pico.load}"] == "SHLD"
    assert named[f"GP{pico.clock_inhibit}"] == "CLKINH" and named[f"GP{pico.miso}"] == "DATA"


def test_schematics_and_bom_are_the_netlists() -> None:
    assert (HARDWARE / "schematics.md").read_text(encoding="utf-8") == schematics_doc.render(), \
        "run: python -m hardware.design"
    assert (HARDWARE / "bom.md").read_text(encoding="utf-8") == bom.render(), "run: python -m hardware.design"


def test_the_sensor_fuse_carries_the_worst_case_and_the_star_feeds_every_module() -> None:
    worst = sum(schematics_doc.module_current(m) for m in geometry.default_board().modules)
    assert 0.7 < worst < 0.75 * 2.0           # 182 x 3.6 mA + 92 x 2 mA; a 2 A fuse at 75 %
    star = [r for r, part in modules.carrier_netlist().parts.items() if part is parts.STAR_OUT]
    assert len(star) == len(geometry.default_board().modules)
