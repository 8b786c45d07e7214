"""The firmware's classification numbers are the sensing model's (one definition each:
hardware/design/sensing.py computes the margins with them, firmware/levels.py carries
them onto the Pico, where hardware.design cannot be imported)."""
from __future__ import annotations

from firmware import levels
from hardware.design import sensing


def test_the_fraction_and_the_hysteresis_are_the_models() -> None:
    assert levels.CLASSIFY_PERMILLE == round(sensing.CLASSIFY_FRACTION * 1000)
    assert levels.HYSTERESIS_PERMILLE == round(sensing.HYSTERESIS_FRACTION * 1000)
    assert levels.UP == round(sensing.ENTER * 1000) and levels.DOWN == round(sensing.LEAVE * 1000)


def test_the_fault_limits_typical_levels_and_tracking_are_the_models() -> None:
    assert (levels.FAULT_LOW_MV, levels.FAULT_HIGH_MV) == (sensing.FAULT_LOW_MV, sensing.FAULT_HIGH_MV)
    assert levels.TYPICAL_LEVELS_MV == sensing.TYPICAL_LEVELS_MV
    assert levels.TRACK_LIMIT_MV == sensing.TRACK_LIMIT_MV
