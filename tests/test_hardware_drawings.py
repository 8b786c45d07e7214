"""The 1:1 drawings (hardware/drawings/*.svg) are what the geometry and the module layout
say, print at true size, and show every recess, LED window and part where it belongs."""
from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET

import pytest

from hardware.design import drawings, geometry, layout, outputs

SVG = "{http://www.w3.org/2000/svg}"
DRAWINGS = outputs.HARDWARE / "drawings"


def test_committed_drawings_are_the_generated_ones() -> None:
    generated = drawings.files()
    assert sorted(p.name for p in DRAWINGS.glob("*.svg")) == sorted(generated)
    for name, text in generated.items():
        assert (DRAWINGS / name).read_text(encoding="utf-8") == text, f"{name}: run python -m hardware.design"


@pytest.mark.parametrize("name", sorted(drawings.files()))
def test_one_unit_is_one_millimetre(name: str) -> None:
    root = ET.fromstring(drawings.files()[name])
    width, height = root.get("width", ""), root.get("height", "")
    assert width.endswith("mm") and height.endswith("mm")
    _, _, vw, vh = map(float, root.get("viewBox", "").split())
    assert float(width[:-2]) == pytest.approx(vw) and float(height[:-2]) == pytest.approx(vh)


def test_the_surface_shows_every_recess_at_its_slot() -> None:
    board = geometry.default_board()
    root = ET.fromstring(drawings.surface())
    circles = [c for c in root.iter(f"{SVG}circle") if float(c.get("r", 0)) == geometry.RECESS / 2]
    assert len(circles) == len(board.slots)
    # the drawing's y runs down from the frame's top edge; x from its left edge
    x0 = -geometry.FRAME - 30.0
    y1 = geometry.DEPTH + geometry.FRAME + 30.0
    drawn = sorted((float(c.get("cx", 0)) + x0, y1 - float(c.get("cy", 0))) for c in circles)
    slots = sorted((s.x, s.y) for s in board.slots)
    for (dx, dy), (sx, sy) in zip(drawn, slots):
        assert dx == pytest.approx(sx, abs=0.01) and dy == pytest.approx(sy, abs=0.01)
    windows = [r for r in root.iter(f"{SVG}rect") if "#ffe9a0" in (r.get("fill") or "")]
    assert len(windows) == len(board.led_windows)


def test_module_parts_stay_on_the_board_and_apart() -> None:
    for m in geometry.default_board().modules:
        placed = layout.place(m)
        for p in placed:
            assert m.outline.contains(p.rect.x0, p.rect.y0) and m.outline.contains(p.rect.x1, p.rect.y1), (m.name, p)
        for a, b in itertools.combinations(placed, 2):
            assert not a.rect.overlaps(b.rect), (m.name, a.ref, b.ref)
        refs = {p.ref for p in placed}
        assert {"J1", "J3", "U1"} <= refs and {f"HS{s}" for s in m.sensors} <= refs


def test_every_module_has_a_drawing_naming_its_sensors() -> None:
    for m in geometry.default_board().modules:
        text = (DRAWINGS / f"module-{m.name}.svg").read_text(encoding="utf-8")
        for s in m.sensors:
            assert f">HS{s}<" in text, (m.name, s)
