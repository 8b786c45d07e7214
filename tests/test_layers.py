"""The package's layers and its import graph: no import climbs a layer, no module imports
itself in a circle.

The layers are import-linter contracts in pyproject.toml ([tool.importlinter]), drawn in
the README's "Where things are": engine -> evaluation -> bot and analysis -> play/show ->
table -> front ends and commands. A module that imports from a layer above its own (the
tutor reaching up to the table for the computer's view of the match) or a circle of
imports (the engine's position, moves and notation) made every part depend on every
other; `lint-imports` names the import that breaks a layer, and the cycle check here the
modules of each circle.
"""
from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import grimp
from importlinter.contracts.layers import LayersContract

ROOT = Path(__file__).resolve().parents[1]


def _config() -> dict[str, Any]:
    config: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return config["tool"]["importlinter"]


def _graph() -> grimp.ImportGraph:
    return grimp.build_graph(*_config()["root_packages"], cache_dir=None)


def _layers() -> dict[str, Any]:
    (layers,) = [c for c in _config()["contracts"] if c["type"] == "layers"]
    return layers


def _contract() -> LayersContract:
    layers = _layers()
    return LayersContract(name=layers["name"], session_options={"root_packages": _config()["root_packages"]},
                          contract_options={"layers": layers["layers"]})


def _cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for imported in graph.find_modules_directly_imported_by(module):
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in on_stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            group: list[str] = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10 * len(graph.modules)))
    try:
        for module in sorted(graph.modules):
            if module not in index:
                visit(module)
    finally:
        sys.setrecursionlimit(limit)
    return found


def test_lint_imports_keeps_every_contract() -> None:
    lint = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run([str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_part_of_the_package_has_a_layer() -> None:
    # a new package outside the layers would be checked by no contract
    named = {part.strip() for layer in _layers()["layers"] for part in layer.replace("|", ":").split(":")}
    graph = _graph()
    parts = graph.find_children("bgboard") | graph.find_children("controller") | {"sim", "club"}
    assert parts - named == set(), "give these a layer in pyproject.toml [tool.importlinter]"


def test_the_layers_contract_breaks_on_an_import_that_climbs() -> None:
    graph = _graph()
    assert _contract().check(graph, verbose=False).kept
    graph.add_import(importer="controller.engine.position", imported="controller.table.table",
                     line_number=1, line_contents="import controller.table.table")
    assert not _contract().check(graph, verbose=False).kept


def test_no_module_imports_itself_in_a_circle() -> None:
    # imports inside functions and under TYPE_CHECKING count: a circle of them still
    # ties the modules into one
    cycles = _cycles(_graph())
    assert cycles == [], "import cycles: " + "; ".join(" <-> ".join(c) for c in cycles)


def test_the_cycle_check_finds_a_circle() -> None:
    graph = _graph()
    graph.add_import(importer="controller.engine.step", imported="controller.engine.moves",
                     line_number=1, line_contents="import controller.engine.moves")
    assert any({"controller.engine.moves", "controller.engine.step"} <= set(c) for c in _cycles(graph))


#: The layers still written `a : b` (packages that import each other): online play with its
#: settings, and the computer levels with the analysis they play by. No other may join.
JOINED_NOT_YET_BROKEN = frozenset({
    "controller.online : controller.settings",
    "controller.analysis : controller.bot",
})


def test_no_layer_joins_packages_but_the_cycles_not_yet_broken() -> None:
    """A layer written `a : b` lets `a` and `b` import each other and hides their cycle
    from the contract: each such layer is a package cycle to break, and no new one comes."""
    joined = {layer for layer in _layers()["layers"] if ":" in layer}
    assert joined <= JOINED_NOT_YET_BROKEN, sorted(joined - JOINED_NOT_YET_BROKEN)


def test_the_controller_imports_nothing_from_the_simulator() -> None:
    """controller/ is what runs on the Pi; the simulator (sim/) sits above it, as one front end
    among others, and only the program (bgboard/) and the tests start it. Any chain of
    imports from controller/ into sim/, however indirect, is named."""
    graph = _graph()
    chains = graph.find_shortest_chains(importer="controller", imported="sim", as_packages=True)
    assert chains == set(), "controller/ imports sim/: " + "; ".join(" -> ".join(c) for c in sorted(chains))


def test_the_simulator_check_finds_an_import_into_sim() -> None:
    graph = _graph()
    graph.add_import(importer="controller.web.server", imported="sim.virtual_board",
                     line_number=1, line_contents="from sim.virtual_board import VirtualBoard")
    assert graph.find_shortest_chains(importer="controller", imported="sim", as_packages=True)
