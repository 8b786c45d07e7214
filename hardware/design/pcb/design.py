"""A board as the generator hands it to KiCad: its outline, every part placed, which net
each pad is on, the mounting holes, and (once routed) the tracks, vias and the plane.

Made from the geometry (outline, holes, sensor positions) and a netlist (parts and nets) by
placement.py; nothing here is a second copy of those facts, only their arrangement.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from controller.json_value import JsonObject

from ..netlist import Mount
from . import silk
from .rules import Rules
from .shapes import Hole, Track, Via

Side = Literal["top", "bottom"]
HOLE_FOOTPRINT = "MountingHole:MountingHole_3.2mm_M3"


@dataclass(frozen=True)
class Placement:
    """One part on the board. `rotation` is KiCad's (degrees, counter-clockwise seen from
    the top) before a bottom part is turned over; `side` "bottom": mounted from below (a
    through-hole part whose body hangs under the board). `mount`: "smd" the fab assembles
    it, "tht" the maker solders it, "loose" copper only (a test pad). `ref_at`: where its
    reference is printed (None: on the fab layer only, not the silkscreen).
    `centred`: (x, y) is the centre of its courtyard, not the footprint's origin (a
    connector whose origin is its pin 1)."""

    ref: str
    footprint: str
    x: float
    y: float
    rotation: float
    side: Side
    value: str
    mpn: str
    lcsc: str
    mount: Mount
    ref_at: tuple[float, float] | None = None
    centred: bool = False

    @property
    def smd(self) -> bool:
        return self.mount == "smd"

    def as_json(self) -> JsonObject:
        spec: JsonObject = {"ref": self.ref, "footprint": self.footprint, "x": self.x, "y": self.y,
                            "rotation": self.rotation, "side": self.side, "value": self.value,
                            "ref_size": silk.SIZE}
        if self.ref_at is not None:
            spec["ref_at"] = list(self.ref_at)
        else:
            spec["ref_visible"] = False
        if self.centred:
            spec["anchor"] = "courtyard"
        return spec


@dataclass(frozen=True)
class Label:
    text: str
    x: float
    y: float
    layer: Literal["F.SilkS", "B.SilkS"]
    size: float = 1.5


@dataclass(frozen=True)
class Design:
    """One PCB: `name` is its kind (point, bar, tray, carrier); `pad_nets` maps each
    part's pad numbers to nets (a pad missing from it is on no net)."""

    name: str
    title: str
    width: float
    height: float
    parts: tuple[Placement, ...]
    pad_nets: dict[str, dict[str, str]]
    holes: tuple[Hole, ...]
    plane: str
    widths: dict[str, float]
    labels: tuple[Label, ...] = ()

    @property
    def nets(self) -> list[str]:
        return sorted({n for pads in self.pad_nets.values() for n in pads.values()})

    def placement(self, ref: str) -> Placement:
        return next(p for p in self.parts if p.ref == ref)

    def spec(self) -> JsonObject:
        """What KiCad needs to place the parts and name the pads' nets."""
        holes = [Placement(f"H{k + 1}", HOLE_FOOTPRINT, h.x, h.y, 0, "top", "M3", "", "", "loose")
                 for k, h in enumerate(self.holes)]
        return {"outline": {"width": self.width, "height": self.height},
                "parts": [p.as_json() for p in (*self.parts, *holes)],
                "pad_nets": {ref: dict(pads) for ref, pads in self.pad_nets.items()},
                "nets": list(self.nets)}

    def build_spec(self, rules: Rules, tracks: tuple[Track, ...], vias: tuple[Via, ...],
                   folder: str, fab_folder: str) -> JsonObject:
        """Everything KiCad needs to make the board and its fabrication files."""
        inset = rules.edge_clearance
        corners = [(inset, inset), (self.width - inset, inset), (self.width - inset, self.height - inset),
                   (inset, self.height - inset)]
        zone: JsonObject = {"net": self.plane, "layer": "B.Cu", "polygon": [list(c) for c in corners],
                            "clearance": 0.3, "min_width": 0.25, "thermal_gap": 0.4, "spoke_width": 0.5}
        spec = self.spec()
        spec.update({
            "rules": dict(rules.as_json()),
            "tracks": [{"net": t.net, "layer": t.layer, "x1": t.x1, "y1": t.y1, "x2": t.x2, "y2": t.y2,
                        "width": t.width} for t in tracks],
            "vias": [{"net": v.net, "x": v.x, "y": v.y, "size": v.size, "drill": v.drill} for v in vias],
            "zones": [zone],
            "texts": [{"text": t.text, "x": t.x, "y": t.y, "layer": t.layer, "size": t.size} for t in self.labels],
            "folder": folder, "fab_folder": fab_folder, "basename": self.name})
        return spec
