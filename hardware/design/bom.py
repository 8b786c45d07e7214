"""hardware/bom.md: every part of the schematics counted from the netlists, and the parts
that are not on a module (computers, LEDs, case) from the geometry and the profile."""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

from . import geometry as g
from . import modules
from .netlist import PartType


@dataclass(frozen=True)
class Item:
    section: str
    qty: int
    unit: str            # "" for pieces, "m" for metres
    description: str
    part_number: str
    each: float


SPARE_MAGNETS = 4
LEDS_PER_METRE = 144


def schematic_items() -> list[Item]:
    counts: Counter[str] = Counter()
    types: dict[str, PartType] = {}
    for netlist, boards in modules.all_netlists():
        for part in netlist.parts.values():
            if part.mount == "loose":
                continue
            counts[part.key] += boards
            types[part.key] = part
    return [Item(types[k].section, counts[k], "", types[k].description, types[k].part_number, types[k].price)
            for k in sorted(counts, key=lambda k: (types[k].section, -counts[k], k))]


#: a 2-layer 1.6 mm board from a cheap fab, per board, at these sizes and counts (euros)
PCB_PER_DM2 = 0.9
PCB_SETUP = 8.0
ASSEMBLY_PER_DESIGN = 25.0
BOARDS = "Boards (order from hardware/boards/)"


def pcb_items() -> list[Item]:
    """One line per board design: how many the board needs, its size and a rough price."""
    out = []
    for netlist, boards in modules.all_netlists():
        if netlist.name == "carrier":
            w, h = g.CARRIER
        else:
            m = next(x for x in g.default_board().modules if modules.kind_of(x) == netlist.name)
            w, h = m.outline.width, m.outline.height
        each = PCB_SETUP / boards + PCB_PER_DM2 * w * h / 1e4
        out.append(Item(BOARDS, boards, "",
                        f"PCB \"{netlist.name}\", 2 layers, 1.6 mm, {w:.0f} × {h:.0f} mm",
                        f"hardware/boards/{netlist.name}/", round(each, 2)))
    designs = len(modules.all_netlists())
    out.append(Item(BOARDS, designs, "", "Assembly of the SMD parts by the fab: setup, stencil and the "
                    "fee for each part not in its stock (per board design; the parts are counted below)",
                    "the fab's assembly service", ASSEMBLY_PER_DESIGN))
    return out


def ribbon_metres() -> float:
    """The ribbon from the carrier through every module in chain order: centre to centre
    along x and y, plus 0.15 m a cable for routing and the IDC sockets."""
    board = g.default_board()
    centres = [((r.x0 + r.x1) / 2, (r.y0 + r.y1) / 2)
               for r in [board.carrier, *(m.outline for m in board.modules)]]
    total = sum(abs(a[0] - b[0]) + abs(a[1] - b[1]) for a, b in zip(centres, centres[1:]))
    return total / 1000 + 0.15 * len(board.modules)


def other_items() -> list[Item]:
    board = g.default_board()
    n_modules = len(board.modules)
    leds = board.profile.leds.count
    strip_m = math.ceil(leds / LEDS_PER_METRE)
    c, m, led, ui, case = "Computers", "Module hardware", "LEDs", "Display, buttons, buzzer", "Case"
    return [
        Item(c, 1, "", "Raspberry Pi 4 Model B, 2 GB (or a Pi 3 B+, Pi 5 or Zero 2 W)",
             "Raspberry Pi 4 Model B 2GB", 50.00),
        Item(c, 1, "", "microSD card, 16 GB or more, A1", "SanDisk SDSQUA4-016G", 6.00),
        Item(c, 1, "", "Pi power supply, USB-C (27 W for a Pi 5)", "official Raspberry Pi 15 W USB-C", 9.00),
        Item(c, 1, "", "USB-A to micro-B cable, 0.5 m", "any", 3.00),
        Item(c, 1, "", "Raspberry Pi Pico with headers (on the carrier's sockets)",
             "Raspberry Pi SC0917 (Pico H)", 5.00),
        Item(m, n_modules, "", "14-way ribbon cable with two IDC sockets 2 × 7, keyed, cut to length "
             f"(about {ribbon_metres():.1f} m in all)",
             "3M 89114-0101 sockets on 1.27 mm ribbon", 1.60),
        Item(m, 1, "", "Jumper shunt, 2.54 mm (the last module's OUT header, pins 13-14)",
             "Sullins SPC02SYAN", 0.10),
        Item(m, n_modules + 1, "", "JST XH 2-way housing pairs with crimped 22 AWG leads, red/black, 1.5 m "
             "(the star to each module, the supply to the carrier)", "JST XHP-2 + SXH-001T-P0.6", 0.60),
        Item(m, 4 * (n_modules + 1), "", f"M3 hex standoff, {g.STANDOFF:g} mm, female-female, nylon (module to "
             "the top's underside: it sets the gap, margins.md)", "any M3 × 5 mm polyamide standoff", 0.10),
        Item(m, 8 * (n_modules + 1), "", "M3 × 6 mm nylon screw (module to standoff; standoff glued or "
             "screwed to the top: no steel within 50 mm of a sensor)", "any M3 × 6 polyamide screw", 0.05),
        Item(m, 30 + SPARE_MAGNETS, "", "Neodymium disc magnet 6 × 2 mm, N42 (+ spares)",
             "e.g. supermagnete S-06-02-N", 0.15),
        Item(m, 30, "", "Checkers, 30 mm, 15 of each colour, recessed underneath for the magnet",
             "any tournament set", 0.50),
        Item(m, 1, "", f"Wire 0.5 mm², red and black, {n_modules} pairs from the star to the modules, 10 m",
             "any", 3.00),
        Item(led, strip_m, "m", f"WS2812B strip, {LEDS_PER_METRE} LEDs a metre, 5 V ({leds} LEDs used, "
             "cut in pieces of 3 and 4)", "BTF-Lighting WS2812B 144/m IP30", 15.00),
        Item(led, 1, "", "Opal acrylic, 3 mm, 500 × 50 mm (LED window inserts, cut to the windows)",
             "any", 4.00),
        Item(led, 1, "", "Quad buffer, TTL inputs, 5 V (level shifter), DIP-14", "TI SN74AHCT125N", 0.60),
        Item(led, 1, "", "330 Ω resistor (data line)", "Yageo MFR-25FBF52-330R", 0.05),
        Item(led, 1, "", "1000 µF 10 V electrolytic capacitor (strip input)", "Panasonic EEU-FR1A102", 0.60),
        Item(led, 1, "", "5 V 6 A sealed desktop supply, class II (double insulated), 4-pin DIN plug: no "
             "mains inside the box", "Mean Well GST60A05-R7B", 22.00),
        Item(led, 1, "", "Panel socket for it, 4-pin power DIN, rated 7 A (the box's only power entry)",
             "Kycon KPJX-PM-4S", 3.00),
        Item(led, 3, "", "Blade fuse holder with 5 A fuse", "Littelfuse 01530008Z + 0287005.PXCN", 2.00),
        Item(led, 5, "m", "Wire 0.75 mm² (18 AWG), red and black", "any", 0.50),
        Item(ui, 1, "", "OLED 0.96\" 128 × 64, SSD1306, I2C module (address 0x3C)",
             "generic SSD1306 I2C module", 4.00),
        Item(ui, 5, "", "Push button, momentary, 12 mm", "Omron B3F-4055 with cap B32-1010", 0.60),
        Item(ui, 1, "", "Active buzzer, 5 V, 12 mm", "TMB12A05", 0.50),
        Item(ui, 1, "", "NPN transistor", "onsemi 2N3904BU", 0.10),
        Item(ui, 1, "", "1 kΩ resistor (transistor base)", "Yageo MFR-25FBF52-1K", 0.05),
        Item(ui, 1, "", "Diode (across the buzzer)", "onsemi 1N4148", 0.05),
        Item(ui, 1, "", "Female-female jumper wires, 20 cm, pack of 40", "any", 3.00),
        Item(case, 1, "", f"Playing surface, {g.TOP:g} mm plywood, {math.ceil(g.WIDTH + 2 * g.FRAME)} × "
             f"{math.ceil(g.DEPTH + 2 * g.FRAME)} mm, recesses and LED windows as drawings/surface.svg",
             "any", 15.00),
        Item(case, 1, "", "Box (frame, bottom, electronics bay), 18 mm wood or 3D-printed", "any", 40.00),
    ]


def render() -> str:
    items = pcb_items() + schematic_items() + other_items()
    board = g.default_board()
    lines = [
        "# Bill of materials: the default board",
        "",
        "Generated by `python -m hardware.design` from the schematics (`hardware/design/modules.py`,",
        "every part defined once in `parts.py`) and the geometry; `tests/test_hardware_schematic.py`",
        "regenerates it and compares. Do not edit by hand. Prices are approximate, in euros, from the",
        "usual distributors in small quantities; they move, so treat the total as an order of magnitude.",
        "Designators are the schematics' (`hardware/schematics.md`); each board's own assembly BOM and",
        f"placement file for the fab are in `hardware/boards/<board>/` ({len(board.slots)} sensors in all).",
    ]
    sections: list[str] = []
    for item in items:
        if item.section not in sections:
            sections.append(item.section)
    grand = 0.0
    totals: dict[str, float] = {}
    for section in sections:
        lines += ["", f"## {section}", "", "| Qty | Part | Part number | Each | Total |",
                  "| --- | --- | --- | --- | --- |"]
        for item in (i for i in items if i.section == section):
            total = item.qty * item.each
            qty = f"{item.qty} {item.unit}".strip()
            lines.append(f"| {qty} | {item.description} | {item.part_number} | {item.each:.2f} | {total:.2f} |")
            totals[section] = totals.get(section, 0.0) + total
            grand += total
    lines += ["", "## Total", "", f"About **€ {grand:.0f}** for the Pi 4 version: "
              + ", ".join(f"{s.lower()} €{t:.0f}" for s, t in totals.items()) + ".", ""]
    return "\n".join(lines)
