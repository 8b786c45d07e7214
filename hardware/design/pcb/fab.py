"""The files a PCB fab's assembly service takes with the Gerbers, in JLCPCB's form (other
services read the same columns or map them on upload):

- `<kind>-bom.csv`: `Comment,Designator,Footprint,LCSC Part #`, one line per distinct
  part, the SMD parts only (the fab places them on the top side), and the manufacturer's
  part number in a fifth column for the parts the service must match by hand;
- `<kind>-cpl.csv`: `Designator,Mid X,Mid Y,Layer,Rotation`, each SMD part's centre in mm
  from the board's lower-left corner (the Gerbers' origin) and its rotation as the
  assembly service counts it;
- `<kind>-tht.csv`: the through-hole parts the maker solders from the bottom.

The service's rotation differs from KiCad's for some packages: its reels hold a SOT-23 or
an SOIC turned from KiCad's library orientation. The corrections below are those makers
report for KiCad's own footprints (the table JLCKicadTools keeps); check the placement
preview on the order page before paying: a part drawn turned there is turned on the board.
"""
from __future__ import annotations

import re

from .design import Design, Placement

#: KiCad footprint name pattern -> degrees added to KiCad's rotation for the service
ROTATION_CORRECTIONS: tuple[tuple[str, float], ...] = (
    (r"^SOT-223", 180.0), (r"^SOT-23", 180.0), (r"^TSOT-23", 180.0),
    (r"^SOIC-", 270.0), (r"^VSSOP-8_", 270.0), (r"^TSSOP-", 270.0),
)


def _natural(ref: str) -> tuple[str, int]:
    letters = ref.rstrip("0123456789")
    return letters, int(ref[len(letters):] or 0)


def footprint_name(p: Placement) -> str:
    return p.footprint.split(":", 1)[1]


def service_rotation(p: Placement) -> float:
    name = footprint_name(p)
    extra = next((deg for pattern, deg in ROTATION_CORRECTIONS if re.match(pattern, name)), 0.0)
    return (p.rotation + extra) % 360


def _csv(rows: list[list[str]]) -> str:
    def cell(value: str) -> str:
        return f'"{value}"' if any(c in value for c in ',"') else value
    return "".join(",".join(cell(v) for v in row) + "\n" for row in rows)


def assembled(d: Design) -> list[Placement]:
    return sorted((p for p in d.parts if p.smd), key=lambda p: _natural(p.ref))


def bom(d: Design) -> str:
    groups: dict[tuple[str, str, str, str], list[str]] = {}
    for p in assembled(d):
        groups.setdefault((p.value, footprint_name(p), p.lcsc, p.mpn), []).append(p.ref)
    rows = [["Comment", "Designator", "Footprint", "LCSC Part #", "Manufacturer Part"]]
    for (value, footprint, lcsc, mpn), refs in sorted(groups.items(), key=lambda item: _natural(item[1][0])):
        rows.append([value, ",".join(refs), footprint, lcsc, mpn])
    return _csv(rows)


def cpl(d: Design) -> str:
    rows = [["Designator", "Mid X", "Mid Y", "Layer", "Rotation"]]
    for p in assembled(d):
        rows.append([p.ref, f"{p.x:.4f}mm", f"{p.y:.4f}mm", "Top" if p.side == "top" else "Bottom",
                     f"{service_rotation(p):g}"])
    return _csv(rows)


def hand_soldered(d: Design) -> str:
    rows = [["Designator", "Value", "Manufacturer part", "Footprint", "Side"]]
    for p in sorted((p for p in d.parts if p.mount == "tht"), key=lambda p: _natural(p.ref)):
        rows.append([p.ref, p.value, p.mpn, footprint_name(p), "bottom (body under the board)"
                     if p.side == "bottom" else "top"])
    return _csv(rows)
