"""The copper a board carries, as the router and the drawings see it: pads as KiCad placed
them, and the tracks and vias the router lays. Board coordinates in millimetres, x to the
right and y up, the origin at the board's lower-left corner."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Layer = Literal["F.Cu", "B.Cu"]
LAYERS: tuple[Layer, Layer] = ("F.Cu", "B.Cu")
PadShape = Literal["rect", "circle", "oval"]


@dataclass(frozen=True)
class Pad:
    """One pad of a placed footprint, as KiCad reports it: `w` and `h` along the board's
    x and y (rounded rectangles count as their rectangle), its copper layers, its drill
    (None on an SMD pad) and the net the netlist puts on it ("" for none)."""

    ref: str
    pad: str
    x: float
    y: float
    w: float
    h: float
    shape: PadShape
    layers: tuple[Layer, ...]
    drill: float | None
    net: str

    @property
    def name(self) -> str:
        return f"{self.ref}.{self.pad}"

    def contains(self, x: float, y: float) -> bool:
        """Whether (x, y) lies on this pad's copper."""
        dx, dy = abs(x - self.x), abs(y - self.y)
        if self.shape == "rect":
            return dx <= self.w / 2 and dy <= self.h / 2
        r = min(self.w, self.h) / 2
        ex, ey = max(dx - (self.w / 2 - r), 0.0), max(dy - (self.h / 2 - r), 0.0)
        return ex * ex + ey * ey <= r * r


@dataclass(frozen=True)
class Track:
    net: str
    layer: Layer
    x1: float
    y1: float
    x2: float
    y2: float
    width: float

    @property
    def length(self) -> float:
        return float(((self.x2 - self.x1) ** 2 + (self.y2 - self.y1) ** 2) ** 0.5)


@dataclass(frozen=True)
class Via:
    net: str
    x: float
    y: float
    size: float
    drill: float


@dataclass(frozen=True)
class Hole:
    """A mounting hole: unplated, with a keep-out for the standoff and the screw's head
    (no copper of any net nearer its centre than `keepout`)."""

    x: float
    y: float
    drill: float
    keepout: float
