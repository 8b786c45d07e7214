"""The board's one geometry (hardware/design/geometry.py) fits: modules tile the surface
without overlapping, every sensor sits inside its module and its cell, recesses and LED
windows fit, one board design serves every module of a kind (Black's half turned round),
and the stack under the top leaves the gap the margins assume.

The limits here are the parts' and the game's: a 30 mm checker, a SOT-23 hall sensor
(2.9 x 2.4 mm with its pads), a WS2812B (5 x 5 mm), the tallest part on a module's top face
(the parts' own heights), a cheap fab's largest board.
"""
from __future__ import annotations

import itertools
import math

import pytest

from hardware.design import geometry as g
from hardware.design import modules, sensing

FAB_LARGEST = (100.0, 250.0)     # a board a cheap fab assembles without a surcharge, mm (short, long)
SOT23_HALF = 1.5                 # half the SOT-23's footprint, rounded up
WALL = 1.0                       # least wood between two recesses


@pytest.fixture(scope="module")
def board() -> g.Board:
    return g.default_board()


def test_every_profile_sensor_has_one_slot_in_one_module(board: g.Board) -> None:
    sensors = [s.sensor for s in board.slots]
    assert sorted(sensors) == list(range(board.profile.sensors.count))
    owners = [m.name for m in board.modules for _ in m.sensors]
    assert len(owners) == len(sensors)
    assert sorted(s for m in board.modules for s in m.sensors) == sorted(sensors)


def test_modules_do_not_overlap_and_stay_inside_the_field(board: g.Board) -> None:
    field = g.Rect(0, 0, g.WIDTH, g.DEPTH)
    outlines = [(m.name, m.outline) for m in board.modules] + [("carrier", board.carrier)]
    for (a, ra), (b, rb) in itertools.combinations(outlines, 2):
        assert not ra.overlaps(rb), f"{a} overlaps {b}"
    for name, r in outlines:
        assert field.contains(r.x0, r.y0) and field.contains(r.x1, r.y1), name


def test_every_module_board_is_one_a_fab_makes(board: g.Board) -> None:
    for m in board.modules:
        short, long = sorted((m.outline.width, m.outline.height))
        assert short <= FAB_LARGEST[0] and long <= FAB_LARGEST[1], (m.name, short, long)


def test_one_board_design_serves_every_module_of_a_kind(board: g.Board) -> None:
    """Black's half is White's turned round: each module's slots, seen from its own board,
    sit where the first module of its kind has them, channel for channel."""
    first: dict[str, g.Module] = {}
    for m in board.modules:
        ref = first.setdefault(m.kind, m)
        assert (m.outline.width, m.outline.height) == pytest.approx((ref.outline.width, ref.outline.height))
        for a, b in zip(m.slots, ref.slots, strict=True):
            assert m.local(a.x, a.y) == pytest.approx(ref.local(b.x, b.y), abs=1e-9), (m.name, a)
            assert m.placed(*m.local(a.x, a.y)) == pytest.approx((a.x, a.y))
    assert {m.rotation for m in board.modules if m.slots[0].cell in ("13", "bar", "off-black")} >= {180}


def test_the_chain_order_numbers_the_sensors_as_the_profile_does(board: g.Board) -> None:
    """The firmware numbers a sensor by its module's place in the chain and its channel:
    the profile's numbering must be that, or the board reads cells in the wrong places."""
    base = 0
    for m, size in zip(board.modules, modules.module_sizes(), strict=True):
        assert list(m.sensors) == list(range(base, base + size)), m.name
        base += size


def test_the_stack_under_the_top_leaves_room_and_the_modelled_gap(board: g.Board) -> None:
    tallest = max(part.height for n, _ in modules.all_netlists() for part in n.parts.values()
                  if part.mount == "smd")
    assert max(tallest, g.PIN_PROTRUSION) + g.TOP_CLEARANCE <= g.STANDOFF
    headers = max(part.height for n, _ in modules.all_netlists() for part in n.parts.values()
                  if part.mount == "tht")
    assert g.STANDOFF + g.PCB + headers + g.PLUG_AND_BEND <= g.BAY_DEPTH
    assert sensing.GAP == pytest.approx(g.TOP - g.RECESS_DEPTH + g.STANDOFF - sensing.ELEMENT_HEIGHT)


def test_mounting_holes_keep_clear_of_every_sensor(board: g.Board) -> None:
    for m in board.modules:
        for hx, hy in m.holes:
            for s in m.slots:
                sx, sy = m.local(s.x, s.y)
                assert math.hypot(sx - hx, sy - hy) > g.HOLE_KEEPOUT / 2 + SOT23_HALF, (m.name, s)


def test_every_sensor_lies_inside_its_module_and_its_cell(board: g.Board) -> None:
    for m in board.modules:
        for s in m.slots:
            assert m.outline.contains(s.x, s.y, margin=SOT23_HALF), (m.name, s)
            assert board.cells[s.cell].contains(s.x, s.y, margin=g.CHECKER / 2), s


def test_recesses_hold_a_checker_and_keep_a_wall_between_them(board: g.Board) -> None:
    assert g.CHECKER < g.RECESS < g.TOP * 20
    assert g.RECESS_DEPTH < g.TOP
    for a, b in itertools.combinations(board.slots, 2):
        d = math.hypot(a.x - b.x, a.y - b.y)
        assert d >= g.RECESS + WALL, (a, b, d)


def test_the_chain_of_cells_fits_the_profile(board: g.Board) -> None:
    for cell, sensors in board.profile.cells:
        assert [s.sensor for s in board.slots if s.cell == cell] == list(sensors)
    # slot 0 of a point is at the board's edge, the last one nearest the middle
    for cell in map(str, range(1, 25)):
        ys = [s.y for s in board.slots if s.cell == cell]
        edge_first = ys == sorted(ys) if int(cell) <= 12 else ys == sorted(ys, reverse=True)
        assert edge_first, cell


def test_leds_fit_their_cell_and_are_not_under_a_module(board: g.Board) -> None:
    assert len(board.leds) == board.profile.leds.count
    for led in board.leds:
        assert board.cells[led.cell].contains(led.x, led.y, margin=0), led
        window = board.led_windows[led.cell]
        assert window.contains(led.x, led.y, margin=0), led
        for m in board.modules:
            body = g.Rect(led.x - g.LED_SIZE / 2, led.y - g.LED_SIZE / 2,
                          led.x + g.LED_SIZE / 2, led.y + g.LED_SIZE / 2)
            assert not body.overlaps(m.outline), (led, m.name)
    for cell, window in board.led_windows.items():
        assert board.cells[cell].contains(window.x0, window.y0)
        assert board.cells[cell].contains(window.x1, window.y1)
        for s in board.slots:              # a window never cuts into a recess
            nearest_x = min(max(s.x, window.x0), window.x1)
            nearest_y = min(max(s.y, window.y0), window.y1)
            assert math.hypot(s.x - nearest_x, s.y - nearest_y) > g.RECESS / 2, (cell, s)


def test_a_point_s_led_piece_is_narrower_than_the_point(board: g.Board) -> None:
    for cell, window in board.led_windows.items():
        if cell.isdigit():
            assert window.width < g.PITCH - 2, (cell, window.width)
