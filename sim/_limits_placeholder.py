"""TEMPORARY: hardware/design/sensing.py's names until the lead lands them (never landed)."""
from hardware.design import geometry as g
from hardware.design.magnet import Disc

MAGNET = Disc(diameter=6.0, thickness=2.0, br=1300.0)
BR_RANGE = (1280.0, 1320.0)
BR_TEMPERATURE = -0.0012
ROOM = (10.0, 35.0)
ELEMENT_HEIGHT = 0.7
GAP = g.TOP - g.RECESS_DEPTH + 5.0 - ELEMENT_HEIGHT
GAP_TOLERANCE = 0.65
PLAY = (g.RECESS - g.CHECKER) / 2 + 0.5
SENSOR_OFFSET = 0.6
SENSITIVITY = (20.0, 70.0)
SENSITIVITY_TYPICAL = 45.0
SENSITIVITY_DRIFT = 0.10
VQ = (0.90, 1.15)
VQ_TYPICAL = 1.02
V_SAT_LOW = 0.2
V_SAT_HIGH = 1.8
NOISE_PP = 0.79
ADC_BITS = 12
ADC_REFERENCE = 3.3
ENTER = 0.52
LEAVE = 0.44
FAULT_BELOW = 0.08
FAULT_ABOVE = 3.0


def br_ratio() -> tuple[float, float]:
    lo = BR_RANGE[0] * (1 + BR_TEMPERATURE * (ROOM[1] - 20)) / MAGNET.br
    hi = BR_RANGE[1] * (1 + BR_TEMPERATURE * (ROOM[0] - 20)) / MAGNET.br
    return lo, hi


def sensitivity_ratio() -> tuple[float, float]:
    d = SENSITIVITY_DRIFT
    return (1 - d) / (1 + d), (1 + d) / (1 - d)
