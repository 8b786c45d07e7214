"""The field of a checker's disc magnet at a hall sensor, from the physics alone.

A uniformly magnetised cylinder (radius a, length L, remanence Br along its axis) is,
for its field outside, a solenoid: a surface current Br/mu0 per metre of length around
its side. The axial field of one circular loop at any point is closed-form in the complete
elliptic integrals K(k) and E(k), computed here by the arithmetic-geometric mean (no
scipy); the disc's field is that loop field integrated over the disc's length (Simpson).
On the axis the closed form Br/2 * [(d+L)/sqrt((d+L)^2+a^2) - d/sqrt(d^2+a^2)] holds,
and the loop sum must agree with it (tests/test_hardware_field.py checks).

Units: millimetres and millitesla. Positive is the field a magnet's near pole gives on its
own axis; off the axis it turns negative past about 1.4 times the distance (the reversed
lobe, where the field lines return).
"""
from __future__ import annotations

import math
from dataclasses import dataclass


def elliptic_ke(m: float) -> tuple[float, float]:
    """Complete elliptic integrals K(m) and E(m) of parameter m = k^2 (0 <= m < 1), by the
    arithmetic-geometric mean: K = pi / (2 AGM(1, sqrt(1-m))), E = K (1 - sum 2^(n-1) c_n^2)."""
    if not 0.0 <= m < 1.0:
        raise ValueError(f"elliptic parameter {m} outside [0, 1)")
    a, b = 1.0, math.sqrt(1.0 - m)
    total, power = m / 2, 0.5
    while abs(a - b) > 1e-15 * a:
        a, b, c = (a + b) / 2, math.sqrt(a * b), (a - b) / 2
        power *= 2
        total += power * c * c
    k = math.pi / (2 * a)
    return k, k * (1 - total)


def loop_bz(radius: float, rho: float, z: float) -> float:
    """Axial field of a circular loop (radius, in the plane z = 0, centred on the axis)
    at radius rho and height z, in units of mu0*I/(2 pi) (Smythe's formula)."""
    q = (radius + rho) ** 2 + z * z
    m = 4 * radius * rho / q
    k, e = elliptic_ke(m)
    return (k + (radius * radius - rho * rho - z * z) / ((radius - rho) ** 2 + z * z) * e) / math.sqrt(q)


@dataclass(frozen=True)
class Disc:
    """An axially magnetised disc magnet: diameter and thickness in mm, remanence in mT."""

    diameter: float
    thickness: float
    br: float

    def on_axis(self, d: float) -> float:
        """The closed-form axial field on the axis, d mm from the pole face."""
        a, length = self.diameter / 2, self.thickness
        return self.br / 2 * ((d + length) / math.hypot(d + length, a) - d / math.hypot(d, a))

    def bz(self, d: float, offset: float, steps: int = 48) -> float:
        """Axial field d mm below the pole face and `offset` mm off the axis."""
        if offset == 0.0:
            return self.on_axis(d)
        a, length = self.diameter / 2, self.thickness
        h = length / steps
        total = 0.0
        for i in range(steps + 1):
            weight = 1 if i in (0, steps) else (4 if i % 2 else 2)
            total += weight * loop_bz(a, offset, d + i * h)
        # Br/mu0 per metre of length, mu0*I/(2 pi) per loop: Br/(2 pi) * integral dz
        return self.br / (2 * math.pi) * total * h / 3
