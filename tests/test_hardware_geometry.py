"""The board's one geometry (hardware/design/geometry.py) fits: modules tile the surface
without overlapping, every sensor sits inside its module and its cell, recesses and LED
windows fit, and a stripboard can put the sensors where the slots are.

The limits here are the parts' and the game's: a 30 mm checker, a TO-92 hall sensor laid
flat (4.0 x 3.15 mm), a WS2812B (5 x 5 mm), the 2.54 mm hole pitch of stripboard, a
Eurocard-sized stripboard (160 x 233 mm) to cut the modules from.
"""
from __future__ import annotations

import itertools
import math

import pytest

from hardware.design import geometry as g

STRIPBOARD = (160.0, 233.0)      # the largest common stripboard, mm
TO92_HALF = 2.5                  # half the TO-92 body's longer side, rounded up
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


def test_modules_can_be_cut_from_a_stock_stripboard(board: g.Board) -> None:
    for m in board.modules:
        short, long = sorted((m.outline.width, m.outline.height))
        assert short <= STRIPBOARD[0] and long <= STRIPBOARD[1], (m.name, short, long)


def test_every_sensor_lies_inside_its_module_and_its_cell(board: g.Board) -> None:
    for m in board.modules:
        for s in m.slots:
            assert m.outline.contains(s.x, s.y, margin=TO92_HALF), (m.name, s)
            assert board.cells[s.cell].contains(s.x, s.y, margin=g.CHECKER / 2), s


def test_sensors_on_a_module_sit_on_the_stripboard_grid(board: g.Board) -> None:
    for m in board.modules:
        x0, y0 = m.slots[0].x, m.slots[0].y
        for s in m.slots:
            for d in (s.x - x0, s.y - y0):
                assert math.isclose(d / g.GRID, round(d / g.GRID), abs_tol=1e-6), (m.name, s, d)


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
