"""The design rules of every board: what a cheap two-layer fab makes (1.6 mm FR-4, 1 oz
copper; JLCPCB's and PCBWay's standard service: 0.127 mm track and space, 0.3 mm drill,
0.13 mm annular ring, 0.3 mm copper to a routed edge), kept with a margin, and what the
router lays (0.25 mm tracks 0.2 mm apart, 0.6 / 0.3 mm vias)."""
from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Rules:
    thickness: float = 1.6            # board, mm
    clearance: float = 0.2            # copper to copper of another net
    track: float = 0.25               # the router's signal track
    track_min: float = 0.2
    via: float = 0.6                  # via pad
    via_drill: float = 0.3
    via_min: float = 0.5
    annular_min: float = 0.13
    drill_min: float = 0.3
    hole_clearance: float = 0.25      # copper to a hole of another net
    hole_to_hole: float = 0.5         # drill edge to drill edge
    edge_clearance: float = 0.5       # copper to the board's edge
    silk_clearance: float = 0.0
    mask_min_width: float = 0.0

    def as_json(self) -> dict[str, float]:
        return asdict(self)


RULES = Rules()
