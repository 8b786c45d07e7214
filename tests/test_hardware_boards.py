"""The KiCad boards of hardware/boards/ are what the geometry and the netlists say, pass
KiCad's own DRC, and are what `python -m hardware.design` makes again, byte for byte.

Everything here is read back from the committed files with KiCad 6 itself (Debian's
`kicad` package: its `pcbnew` runs under /usr/bin/python3; .ci/run installs it): the pads'
nets against the netlists (hardware/design/modules.py), the outline, holes and sensors
against the geometry (hardware/design/geometry.py), the assembly files against the board.
"""
from __future__ import annotations

import csv
import io
import tempfile
from functools import cache
from pathlib import Path

import pytest

from controller.json_value import json_object
from hardware.design import geometry as g
from hardware.design import modules
from hardware.design.netlist import Netlist
from hardware.design.pcb import kicad, make, placement
from hardware.design.pcb.design import Design, Placement
from hardware.design.pcb.rules import RULES
from hardware.design.pcb.shapes import Track

KINDS = placement.KINDS


@pytest.fixture(scope="module", autouse=True)
def kicad_here() -> None:
    problem = kicad.why_not()
    assert problem is None, f"the boards are checked with KiCad 6: {problem}"


def netlist_of(kind: str) -> Netlist:
    return modules.carrier_netlist() if kind == "carrier" else modules.module_netlist(kind)


def board_file(kind: str) -> Path:
    return make.folder(kind) / f"{kind}.kicad_pcb"


@cache
def saved(kind: str) -> kicad.Board:
    return kicad.read(board_file(kind))


def pad_net_mismatches(board: kicad.Board, n: Netlist) -> list[str]:
    """Each pad whose net on the board is not the netlist's, and each netlist part with a
    footprint that the board lacks, one line naming the net, the part and the pin."""
    expected = {(ref, str(pin)): net for net, pins in n.nets.items() for ref, pin in pins}
    problems = []
    for ref, part in sorted(n.parts.items()):
        if part.footprint and board.footprints.get(ref) != part.footprint:
            problems.append(f"{n.name}: {ref} is {board.footprints.get(ref)} on the board, {part.footprint} in the netlist")
    for pad in board.pads:
        if pad.ref in n.parts:
            want = expected.get((pad.ref, pad.pad), "")
            if pad.net != want:
                problems.append(f"{n.name}: net {want or '(none)'} at {pad.ref} pin {pad.pad}, "
                                f"the board has {pad.net or '(none)'}")
    return problems


@pytest.mark.parametrize("kind", KINDS)
def test_kicad_s_drc_finds_nothing(kind: str) -> None:
    findings = kicad.drc(board_file(kind))
    assert not findings, "\n".join(f.line() for f in findings)


@pytest.mark.parametrize("kind", KINDS)
def test_every_pad_is_on_the_netlist_s_net(kind: str) -> None:
    assert pad_net_mismatches(saved(kind), netlist_of(kind)) == []


def test_a_pad_on_the_wrong_net_is_named_with_its_part_and_pin() -> None:
    n = netlist_of("point")
    wrong = Netlist(n.name, dict(n.parts), {net: list(pins) for net, pins in n.nets.items()})
    wrong.nets["CH0"].remove(("U1", 9))
    wrong.nets["CH1"].append(("U1", 9))
    assert pad_net_mismatches(saved("point"), wrong) == ["point: net CH1 at U1 pin 9, the board has CH0"]


@pytest.mark.parametrize("kind", KINDS)
def test_the_outline_and_the_holes_are_the_geometry_s(kind: str) -> None:
    board = saved(kind)
    if kind == "carrier":
        width, height = g.CARRIER
        inset = g.HOLE_INSET
        holes = [(inset, inset), (width - inset, inset), (inset, height - inset), (width - inset, height - inset)]
    else:
        module = placement.first_module(kind)
        width, height = module.outline.width, module.outline.height
        holes = [(x + width / 2, y + height / 2) for x, y in module.holes]
    assert (board.width, board.height) == pytest.approx((width, height), abs=1e-3)
    mounting = [p for p in board.pads if p.ref[0] == "H" and p.ref[1:].isdigit()]     # H1..H4
    assert sorted((round(p.x, 3), round(p.y, 3)) for p in mounting) == sorted((round(x, 3), round(y, 3)) for x, y in holes)
    assert all(p.drill == pytest.approx(3.2) == p.w and not p.net for p in mounting)    # bare: no copper ring


@pytest.mark.parametrize("kind", ["point", "bar", "tray"])
def test_each_sensor_sits_under_its_slot(kind: str) -> None:
    """Channel k's sensor (HSk) is centred under the module's k-th slot: its Hall element
    is in the middle of the SOT-23 (the datasheet: ± 0.1 mm), the footprint's origin."""
    module = placement.first_module(kind)
    board = saved(kind)
    for k, slot in enumerate(module.slots):
        lx, ly = module.local(slot.x, slot.y)
        pads = [p for p in board.pads if p.ref == f"HS{k}"]
        assert len(pads) == 3, f"HS{k}"
        cx = (max(p.x for p in pads) + min(p.x for p in pads)) / 2
        cy = (max(p.y for p in pads) + min(p.y for p in pads)) / 2
        assert (cx, cy) == pytest.approx((lx + board.width / 2, ly + board.height / 2), abs=0.01), f"HS{k}"


@pytest.mark.parametrize("kind", KINDS)
def test_smd_parts_sit_on_the_top_and_connectors_hang_below(kind: str) -> None:
    board, n = saved(kind), netlist_of(kind)
    for ref, part in n.parts.items():
        if part.footprint and part.mount != "loose":
            assert board.sides[ref] == ("top" if part.mount == "smd" else "bottom"), ref


def _rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


@pytest.mark.parametrize("kind", KINDS)
def test_the_assembly_files_name_every_smd_part_where_the_board_has_it(kind: str) -> None:
    folder, n = make.folder(kind), netlist_of(kind)
    smd = {ref for ref, part in n.parts.items() if part.mount == "smd"}
    bom = _rows((folder / f"{kind}-bom.csv").read_text(encoding="utf-8"))
    listed = [ref for row in bom for ref in row["Designator"].split(",")]
    assert sorted(listed) == sorted(smd)
    for row in bom:
        parts = {n.parts[ref] for ref in row["Designator"].split(",")}
        assert len(parts) == 1, row
        part = parts.pop()
        assert (row["Comment"], row["LCSC Part #"], row["Footprint"]) == \
            (part.value, part.lcsc, part.footprint.split(":")[1]), row
    cpl = _rows((folder / f"{kind}-cpl.csv").read_text(encoding="utf-8"))
    assert sorted(row["Designator"] for row in cpl) == sorted(smd)
    board = saved(kind)
    for row in cpl:
        pads = [p for p in board.pads if p.ref == row["Designator"]]
        x, y = float(row["Mid X"].removesuffix("mm")), float(row["Mid Y"].removesuffix("mm"))
        assert min(p.x for p in pads) <= x <= max(p.x for p in pads), row
        assert min(p.y for p in pads) <= y <= max(p.y for p in pads), row
        assert row["Layer"] == "Top", row
    tht = _rows((folder / f"{kind}-tht.csv").read_text(encoding="utf-8"))
    assert sorted(row["Designator"] for row in tht) == sorted(r for r, p in n.parts.items() if p.mount == "tht")


def test_the_boards_are_what_the_generator_makes_now() -> None:
    """`python -m hardware.design --check` in the suite: every board made again from the
    geometry and the netlists, compared byte for byte with the committed files."""
    files = make.all_files()
    stale = [str(path) for path, text in files.items() if not path.exists() or path.read_text(encoding="utf-8") != text]
    assert stale == [], "run python -m hardware.design"
    assert make.strays(files) == [], "files no longer generated: run python -m hardware.design"
    for kind in KINDS:
        assert not make.make(kind).drc, kind


def test_kicad_s_drc_is_heard_when_it_finds_a_short_and_an_open_net() -> None:
    """The DRC's answer is read, not assumed: a small board with a track through another
    net's pad and a net left open comes back with both findings."""
    parts = (Placement("R1", "Resistor_SMD:R_0603_1608Metric", 5, 5, 0, "top", "1k", "", "", "smd"),
             Placement("R2", "Resistor_SMD:R_0603_1608Metric", 10, 5, 0, "top", "1k", "", "", "smd"))
    d = Design("test", "test", 15.0, 10.0, parts, {"R1": {"1": "A", "2": "B"}, "R2": {"1": "A", "2": "B"}},
               (), "GND", {})
    track = Track("A", "F.Cu", 4.225, 5.0, 9.225, 5.0, 0.25)          # R1.1 to R2.1, through R1.2
    with tempfile.TemporaryDirectory() as tmp:
        spec = d.build_spec(RULES, (track,), (), tmp, "gerbers")
        spec["zones"] = []
        answer = kicad.findings(json_object(kicad.run("build", spec)["drc"], "drc"))
    kinds = {f.kind for f in answer}
    assert "clearance" in kinds or "shorting_items" in kinds, answer
    assert any(f.section == "unconnected" for f in answer), answer


def test_a_part_off_the_board_or_on_another_is_caught_before_routing() -> None:
    d = placement.design("bar")
    courtyards = dict(make.make("bar").courtyards)
    courtyards["U2"] = courtyards["U3"]                    # onto U3
    courtyards["R1"] = (-1.0, 10.0, 1.0, 11.0)             # over the edge
    problems = make.placement_problems(d, courtyards)
    assert any("U2 and U3 overlap" in p for p in problems), problems
    assert any("R1 reaches over the board's edge" in p for p in problems), problems
