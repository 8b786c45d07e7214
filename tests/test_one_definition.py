"""Facts of the game and the board are defined once and imported everywhere else.

The colours, the cells, the cube owner's names, the scene roles and LED patterns, the
languages, the resign levels and the match phases were once written out again in up to
eight modules, and drifted (the centred cube was "center" in one place and "centre" in
another). This reads every module of the package and checks that each of these values
is written in one place only, whatever name a copy would give it.
"""
from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

from controller.board.profile_sections import BUTTON_KEYS, PATTERNS, ROLES
from controller.engine.board_view import CELLS, COLOURS, CUBE_OWNERS
from controller.engine.clock import CLOCK_MODES
from controller.engine.match import LEVELS, PHASES
from controller.engine.match_settings import CONFIRM_MODES
from controller.show.texts import LANGUAGES

ROOT = Path(__file__).resolve().parents[1]
FACTS: dict[str, tuple[str, ...]] = {
    "colours": COLOURS, "cube owners": CUBE_OWNERS, "scene roles": ROLES, "LED patterns": PATTERNS,
    "languages": LANGUAGES, "resign levels": LEVELS, "phases": PHASES, "clock modes": CLOCK_MODES,
    "confirm modes": CONFIRM_MODES, "button names": BUTTON_KEYS,
}


def _literal_strings(node: ast.expr) -> tuple[str, ...] | None:
    """The strings of a tuple, list, set or `Literal[...]` made of string constants only."""
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == "Literal":
        node = node.slice
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("frozenset", "set") \
            and len(node.args) == 1:
        node = node.args[0]
    if isinstance(node, ast.Tuple | ast.List | ast.Set) and node.elts \
            and all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts):
        return tuple(e.value for e in node.elts)  # type: ignore[attr-defined]
    return None


@cache
def _modules() -> tuple[tuple[str, ast.Module], ...]:
    """Every module of the package (firmware/ is MicroPython and shares nothing), parsed."""
    paths = sorted([*ROOT.glob("controller/**/*.py"), *ROOT.glob("sim/**/*.py")])
    return tuple((str(p.relative_to(ROOT)), ast.parse(p.read_text(encoding="utf-8"))) for p in paths)


@cache
def _definitions() -> dict[frozenset[str], list[str]]:
    """Every module-level assignment of a constant string collection: its set of strings ->
    where it is written."""
    found: dict[frozenset[str], list[str]] = {}
    for name, tree in _modules():
        for node in tree.body:
            if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
                strings = _literal_strings(node.value)
                if strings is not None:
                    found.setdefault(frozenset(strings), []).append(f"{name}:{node.lineno}")
    return found


@pytest.mark.parametrize("fact", sorted(FACTS))
def test_each_fact_is_written_in_one_module(fact: str) -> None:
    places = _definitions().get(frozenset(FACTS[fact]), [])
    modules = {place.split(":")[0] for place in places}  # a Literal and its tuple side by side are one home
    assert len(modules) == 1, f"{fact} defined in {places}: import it from one home"


def test_the_cells_are_built_in_one_module() -> None:
    # the cell list is built, not written out: find its non-point part (a script's own
    # tokens, which add "off", are another thing)
    places = []
    for name, tree in _modules():
        for node in ast.walk(tree):
            strings = _literal_strings(node) if isinstance(node, ast.expr) else None
            if strings is not None and set(strings) == {"bar", "off-white", "off-black"}:
                places.append(f"{name}:{node.lineno}")  # type: ignore[attr-defined]
    assert len(places) == 1, f"the cells are built in {places}: import CELLS from controller.engine.board_view"
    assert CELLS[-3:] == ("bar", "off-white", "off-black") and len(CELLS) == 27
