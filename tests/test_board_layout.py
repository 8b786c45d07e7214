"""The page draws the product's cells (DESIGN.md "Cells"), laid out once by the server.

controller/web/static/board.js kept its own list of cells, its own quadrants and its own Black
numbering (25 - p) beside the product's. Now controller/web/board_layout.py lays out
`board_view.CELLS` and the page imports the result (`/cells.js`): the browser test below
reads what the page drew (each cell's touch area, each point's two numbers, the checkers
on each cell) and holds it against the layout and the virtual board, so a page that drew
cells of its own would fail it.
"""
from __future__ import annotations

import json
from typing import Any

from browser_support import Page, needs_chromium
from controller.engine.board_view import CELLS, cell_counts, point_of_cell
from controller.engine.position import Position
from controller.web.board_layout import board_layout, layout_module
from sim.page.harness import ServerThread


def _overlap(a: dict[str, int], b: dict[str, int]) -> bool:
    return a["x"] < b["x"] + b["w"] and b["x"] < a["x"] + a["w"] and a["y"] < b["y"] + b["h"] and b["y"] < a["y"] + a["h"]


def test_the_layout_is_of_the_products_cells_with_both_sides_numbers() -> None:
    layout = board_layout()
    assert [c["cell"] for c in layout["cells"]] == list(CELLS)
    for c in layout["cells"]:
        if c["cell"].isdigit():
            assert c["labels"] == {"white": c["cell"], "black": str(point_of_cell(c["cell"], "black"))}
            assert int(c["labels"]["white"]) + int(c["labels"]["black"]) == 25  # RULES.md: Black's p is 25 - p
        else:
            assert c["point"] is None and c["labels"] == {}
    rects = {c["cell"]: c["rect"] for c in layout["cells"]}
    for a in CELLS:  # no two cells share an area where a pointer lands
        for b in CELLS:
            assert a == b or not _overlap(rects[a], rects[b]), (a, b)
    view = layout["view"]
    for cell, r in rects.items():
        assert view["x"] <= r["x"] and r["x"] + r["w"] <= view["x"] + view["w"], cell
        assert view["y"] <= r["y"] and r["y"] + r["h"] <= view["y"] + view["h"], cell


def test_the_points_lie_as_a_printed_board_from_whites_side() -> None:
    """1-12 along the bottom from right to left, 13-24 along the top from left to right
    (White moves from 24 towards 1, its home board 1-6 by its tray)."""
    boxes = {c["cell"]: c["point"] for c in board_layout()["cells"] if c["point"] is not None}
    bottom = sorted((b["x"], p) for p, b in boxes.items() if not b["top"])
    top = sorted((b["x"], p) for p, b in boxes.items() if b["top"])
    assert [p for _, p in bottom] == [str(p) for p in range(12, 0, -1)]
    assert [p for _, p in top] == [str(p) for p in range(13, 25)]


def test_the_module_the_page_imports_is_the_layout() -> None:
    text = layout_module()
    prefix = "export const LAYOUT = "
    body = next(line for line in text.splitlines() if line.startswith(prefix))
    assert json.loads(body.removeprefix(prefix).rstrip(";")) == board_layout()


@needs_chromium
def test_the_page_draws_exactly_the_layouts_cells(page: Page, sim: ServerThread) -> None:
    drawn: dict[str, Any] = page.page.evaluate("""() => {
        const rects = {}, labels = {}, checkers = {};
        for (const r of document.querySelectorAll('#hits rect')) {
          rects[r.dataset.cell] = ['x', 'y', 'width', 'height'].map((k) => Number(r.getAttribute(k)));
        }
        for (const t of document.querySelectorAll('#points text[data-label-cell]')) {
          const side = t.classList.contains('white-number') ? 'white' : 'black';
          (labels[t.dataset.labelCell] ??= {})[side] = t.textContent;
        }
        for (const c of document.querySelectorAll('#checkers [data-cell]')) {
          const k = `${c.dataset.cell}:${c.dataset.colour}`;
          checkers[k] = (checkers[k] ?? 0) + 1;
        }
        return { rects, labels, checkers };
    }""")
    layout = board_layout()
    assert drawn["rects"] == {c["cell"]: [c["rect"][k] for k in "xywh"] for c in layout["cells"]}
    assert drawn["labels"] == {c["cell"]: c["labels"] for c in layout["cells"] if c["labels"]}
    # the checkers of the starting position stand on the cells the layout names
    expected = {f"{cell}:{colour}": n for cell, (w, b) in cell_counts(Position.initial(), "white").items()
                for colour, n in (("white", w), ("black", b)) if n}
    assert drawn["checkers"] == expected
