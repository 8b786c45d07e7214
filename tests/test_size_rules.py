"""The house's size rules, beside import-linter's layers (tests/test_layers.py): small
modules with one job each, read from the source as a reviewer would.

- no function or method past radon's C (cyclomatic complexity 20) in any package;
- no class over 250 lines;
- no `Any` in a public signature (a parameter, a return or a public attribute of a public
  class or function): a module boundary names what it takes.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from radon.complexity import cc_rank, cc_visit

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("controller", "sim", "club", "firmware", "hardware/design")
MAX_CLASS_LINES = 250


def _sources() -> list[Path]:
    return sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py")
                  if "node_modules" not in p.parts)


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT))


@pytest.fixture(scope="module")
def trees() -> dict[Path, ast.Module]:
    return {path: ast.parse(path.read_text(), str(path)) for path in _sources()}


def test_no_function_is_past_radons_c() -> None:
    too_complex = [f"{_name(path)}:{block.lineno} {block.fullname} {cc_rank(block.complexity)} "
                   f"({block.complexity})"
                   for path in _sources() for block in cc_visit(path.read_text())
                   if cc_rank(block.complexity) not in "ABC"]
    assert not too_complex, "\n".join(too_complex)


def test_no_class_is_over_250_lines(trees: dict[Path, ast.Module]) -> None:
    long_classes = [f"{_name(path)}:{node.lineno} {node.name}: {node.end_lineno - node.lineno + 1} lines"
                    for path, tree in trees.items() for node in ast.walk(tree)
                    if isinstance(node, ast.ClassDef) and node.end_lineno is not None
                    and node.end_lineno - node.lineno + 1 > MAX_CLASS_LINES]
    assert not long_classes, "\n".join(long_classes)


def _mentions_any(annotation: ast.expr | None) -> bool:
    return annotation is not None and any(
        isinstance(n, ast.Name) and n.id == "Any" or isinstance(n, ast.Attribute) and n.attr == "Any"
        or isinstance(n, ast.Constant) and isinstance(n.value, str) and re.search(r"\bAny\b", n.value) is not None
        for n in ast.walk(annotation))


def _signature(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.expr | None]:
    args = fn.args
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
    return [a.annotation for a in every if a is not None] + [fn.returns]


def _public_anys(node: ast.AST, where: str) -> list[str]:
    """Public functions, methods and class attributes whose annotation names `Any`."""
    found = []
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
            public = not child.name.startswith("_") or child.name == "__init__"
            if public and any(_mentions_any(a) for a in _signature(child)):
                found.append(f"{where}{child.name}()")
        elif isinstance(child, ast.ClassDef) and not child.name.startswith("_"):
            found += _public_anys(child, f"{where}{child.name}.")
        elif (isinstance(child, ast.AnnAssign) and isinstance(child.target, ast.Name)
              and not child.target.id.startswith("_") and _mentions_any(child.annotation)):
            found.append(f"{where}{child.target.id}")
    return found


def test_no_public_signature_names_any(trees: dict[Path, ast.Module]) -> None:
    found = [f"{_name(path)}: {name}" for path, tree in trees.items()
             if not path.name.startswith("_") or path.name == "__init__.py"
             for name in _public_anys(tree, "")]
    assert not found, "\n".join(found)


def test_the_rules_see_a_breach() -> None:
    """Each rule finds what it looks for (a rule that sees nothing would pass anything)."""
    nested = "def f(x):\n" + "".join(f"    {'el' if i else ''}if x == {i}:\n        return {i}\n"
                                     for i in range(25))
    assert cc_rank(cc_visit(nested)[0].complexity) not in "ABC"
    tree = ast.parse("from typing import Any\nclass P:\n    size: Any\n    def get(self) -> int: ...\n"
                     "    def _own(self, x: Any) -> None: ...\ndef put(x: 'list[Any]') -> None: ...\n")
    assert _public_anys(tree, "") == ["P.size", "put()"]
