"""The 1:1 drawings (hardware/drawings/*.svg) are what the geometry and the netlists say,
print at true size, and show every recess, LED window and ribbon pin where it belongs."""
from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from hardware.design import drawings, geometry, outputs, parts

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


def test_the_ribbon_drawing_names_every_pin_with_its_signal() -> None:
    root = ET.fromstring(drawings.connector())
    texts = [t.text or "" for t in root.iter(f"{SVG}text")]
    for pin, (signal, _, _) in parts.RIBBON.items():
        assert str(pin) in texts and signal in texts, (pin, signal)
    assert any("13-14" in t for t in texts)            # the last module's shunt is told
