"""The checkers' magnets against the calibrated sensors: the field model is physics
(checked against closed forms and the dipole limit), every case the board relies on keeps
its margin at every part's datasheet limits, the design's choices are the ones that do
(calibration, the RA option, the gap), and hardware/margins.md is what the model says.
"""
from __future__ import annotations

import math

import pytest

from hardware.design import margins_doc, sensing
from hardware.design.magnet import Disc, elliptic_ke
from hardware.design.outputs import HARDWARE


def test_elliptic_integrals_match_the_tables() -> None:
    # Abramowitz & Stegun, table 17.1: K and E at m = 0, 0.5, 0.9
    assert elliptic_ke(0.0) == pytest.approx((math.pi / 2, math.pi / 2), rel=1e-14)
    assert elliptic_ke(0.5) == pytest.approx((1.8540746773013719, 1.3506438810476755), rel=1e-12)
    assert elliptic_ke(0.9) == pytest.approx((2.5780921133481733, 1.1047747327040733), rel=1e-12)
    with pytest.raises(ValueError):
        elliptic_ke(1.0)


def test_off_axis_field_joins_the_closed_form_on_the_axis() -> None:
    disc = Disc(8.0, 2.0, 1300.0)
    for d in (2.0, 3.0, 5.0, 7.0):
        closed = 1300.0 / 2 * ((d + 2) / math.hypot(d + 2, 4) - d / math.hypot(d, 4))
        assert disc.bz(d, 1e-6) == pytest.approx(closed, rel=1e-4)
    # the figure the issue quotes: 8 x 2 mm N42 at 3 mm gives about 118 mT on the axis
    assert disc.on_axis(3.0) == pytest.approx(117.6, abs=0.1)


def test_far_away_the_disc_is_a_dipole() -> None:
    """m = Br V / mu0, so Bz = Br V (2z^2 - r^2) / (4 pi R^5): on the axis, and in the
    reversed lobe off it."""
    disc = Disc(6.0, 2.0, 1300.0)
    volume = math.pi * 3.0 ** 2 * 2.0
    for z, r in ((60.0, 0.0), (60.0, 40.0), (40.0, 90.0)):
        zc = z + 1.0                                     # from the disc's centre
        big_r = math.hypot(zc, r)
        dipole = 1300.0 * volume * (2 * zc * zc - r * r) / (4 * math.pi * big_r ** 5)
        assert disc.bz(z, r) == pytest.approx(dipole, rel=0.01)
    assert disc.bz(5.0, 15.0) < 0 < disc.bz(5.0, 4.0)   # the reversed lobe


def test_every_case_keeps_its_margin() -> None:
    for case in sensing.margins():
        assert case.margin >= sensing.MIN_MARGIN_MT, case


def _recompute() -> None:
    for cached in (sensing.margins, sensing.margins_without_calibration, sensing.worst_neighbourhood,
                   sensing.stray, sensing.reversed_lobe, sensing.field):
        cached.cache_clear()


def test_a_slot_turns_inside_what_every_sensor_can_output() -> None:
    """ENTER of the smallest calibrated swing, with every error, lies inside the output's
    range for every part (a saturated sensor still passes it), and LEAVE lies nearer empty
    than ENTER (hysteresis)."""
    assert 0 < sensing.LEAVE < sensing.ENTER < 1
    far = sensing.GAP + sensing.GAP_TOLERANCE
    weakest, _ = sensing.on_slot(far)
    for part in sensing.corners():
        for colour in ("white", "black"):
            t = sensing.threshold_field(part, colour, weakest, 1.0, sensing.ENTER)
            assert t < weakest, (part, colour)


def test_one_threshold_for_all_sensors_would_misread() -> None:
    """The reason the board calibrates: with the parts' spread, no single threshold keeps
    both a checker's and an empty slot's reading right."""
    assert min(c.margin for c in sensing.margins_without_calibration()) < 0


def test_the_va_option_would_lose_the_margins(monkeypatch: pytest.MonkeyPatch) -> None:
    """The reason the board uses the RA: the VA's sensitivity up to -140 mV/mT saturates its
    output 4.6 mT from its zero, too near a neighbourhood's and a reversed lobe's field."""
    monkeypatch.setattr(sensing, "SENSITIVITY", (45.0, 140.0))
    _recompute()
    try:
        assert min(c.margin for c in sensing.margins()) < sensing.MIN_MARGIN_MT
    finally:
        monkeypatch.undo()
        _recompute()


def test_a_much_farther_gap_would_lose_the_margins(monkeypatch: pytest.MonkeyPatch) -> None:
    """The standoff sets the gap: 3 mm more and a checker at the far end of every tolerance
    no longer reads."""
    monkeypatch.setattr(sensing, "GAP", sensing.GAP + 3.0)
    _recompute()
    try:
        assert min(c.margin for c in sensing.margins()) < sensing.MIN_MARGIN_MT
    finally:
        monkeypatch.undo()
        _recompute()


def test_the_old_design_would_fail_this_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """An 8 x 2 mm magnet 3 mm from the sensor (the first design) loses the margins the
    issue found: a checker 9-11 mm off a slot gives -4.6 mT in the reversed lobe."""
    old = Disc(8.0, 2.0, 1300.0)
    assert min(old.bz(3.0, r / 2) for r in range(18, 23)) == pytest.approx(-4.6, abs=0.1)
    monkeypatch.setattr(sensing, "MAGNET", old)
    monkeypatch.setattr(sensing, "GAP", 3.0)
    _recompute()
    try:
        assert min(c.margin for c in sensing.margins()) < sensing.MIN_MARGIN_MT
    finally:
        monkeypatch.undo()
        _recompute()


def test_margins_document_is_the_model() -> None:
    committed = (HARDWARE / "margins.md").read_text(encoding="utf-8")
    assert committed == margins_doc.render(), "run: python -m hardware.design"
