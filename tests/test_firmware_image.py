"""The Pico image's bookkeeping (firmware/image/frozen.py, build-uf2.sh): where it is built
without root, what it froze, and that an image frozen from other firmware is never run by
the emulated-Pico test as if it were this firmware. No MicroPython tree or image needed."""
from __future__ import annotations

import ast
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from firmware.image import frozen

REPO = Path(__file__).resolve().parents[1]
FIRMWARE = REPO / "firmware"
BUILD = FIRMWARE / "image" / "build-uf2.sh"


def test_the_cache_is_the_users_own_unless_told_otherwise() -> None:
    home = {"HOME": "/home/maker"}
    assert frozen.cache_dir(home) == Path("/home/maker/.cache/bgboard/pico")
    assert frozen.cache_dir({**home, "XDG_CACHE_HOME": "/srv/cache"}) == Path("/srv/cache/bgboard/pico")
    # the XDG spec: a relative XDG_CACHE_HOME is invalid and ignored
    assert frozen.cache_dir({**home, "XDG_CACHE_HOME": "cache"}) == Path("/home/maker/.cache/bgboard/pico")
    told = {**home, "BGBOARD_PICO_CACHE": "/var/cache/bgboard"}
    assert frozen.cache_dir(told) == Path("/var/cache/bgboard")
    assert frozen.image_path(told) == Path("/var/cache/bgboard/bgboard-pico.uf2")
    assert frozen.bootrom_path(told) == Path("/var/cache/bgboard/rp2040-bootrom-b1.ts")
    assert frozen.micropython_dir(told) == Path("/var/cache/bgboard/micropython")
    assert frozen.image_path({**told, "BGBOARD_PICO_IMAGE": "/tmp/x.uf2"}) == Path("/tmp/x.uf2")


def _firmware_imports(path: Path) -> set[str]:
    """The firmware modules a file imports, flat (`import wire`) or as the package's
    (`from firmware import wire`), as every firmware file does both."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.module == "firmware":
                names.update(alias.name for alias in node.names)
            elif node.module:
                names.add(node.module.removeprefix("firmware."))
    return {n for n in names if (FIRMWARE / f"{n}.py").is_file()}


def test_the_image_freezes_every_module_main_needs() -> None:
    """A module main.py reaches that the manifest leaves out boots an image that stops at
    an ImportError on the Pico: only the emulated Pico would show it, and only when built."""
    needed, todo = set(), ["main"]
    while todo:
        name = todo.pop()
        if name not in needed:
            needed.add(name)
            todo.extend(_firmware_imports(FIRMWARE / f"{name}.py"))
    frozen_names = {p.stem for p in frozen.frozen_sources()}
    assert needed <= frozen_names, f"main.py needs {sorted(needed - frozen_names)}, not in manifest.py"
    assert all(p.parent == FIRMWARE for p in frozen.frozen_sources())


@pytest.fixture()
def firmware_copy(tmp_path: Path) -> Path:
    """A firmware directory of two files with its own manifest, as firmware/image lays it out."""
    (tmp_path / "image").mkdir()
    (tmp_path / "image" / "manifest.py").write_text(
        'freeze("$(PORT_DIR)/modules")\nfreeze("..", ("wire.py", "main.py"))\n')
    (tmp_path / "wire.py").write_text("VERSION = 1\n")
    (tmp_path / "main.py").write_text("import wire\n")
    return tmp_path / "image" / "manifest.py"


def test_an_image_is_stale_once_a_frozen_file_or_the_manifest_changes(firmware_copy: Path) -> None:
    image = firmware_copy.parent / "bgboard-pico.uf2"
    assert frozen.why_stale(image, firmware_copy) is not None and "no image" in str(frozen.why_stale(image, firmware_copy))
    image.write_bytes(b"UF2")
    stale = "image is stale (built from other firmware): rebuild with firmware/image/build-uf2.sh"
    assert frozen.why_stale(image, firmware_copy) == stale              # no record of its sources
    frozen.write_stamp(image, frozen.sources_digest(firmware_copy), firmware_copy)
    assert frozen.why_stale(image, firmware_copy) is None
    assert frozen.stamp_path(image).read_text().split("\n")[1] == "wire.py main.py"
    (firmware_copy.parents[1] / "wire.py").write_text("VERSION = 2\n")   # the firmware changed
    assert frozen.why_stale(image, firmware_copy) == stale
    frozen.write_stamp(image, frozen.sources_digest(firmware_copy), firmware_copy)
    firmware_copy.write_text(firmware_copy.read_text().replace('"main.py"', '"main.py", "wire.py"'))
    assert frozen.why_stale(image, firmware_copy) == stale              # the manifest changed


def test_the_stamp_is_what_build_uf2_writes_and_check_reads(tmp_path: Path) -> None:
    """frozen.py's command line, as build-uf2.sh and .ci/run call it with the system python3."""
    env = {**os.environ, "BGBOARD_PICO_CACHE": str(tmp_path)}
    env.pop("BGBOARD_PICO_IMAGE", None)
    run = [shutil.which("python3") or "python3", str(FIRMWARE / "image" / "frozen.py")]
    out = subprocess.run([*run, "dir"], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == str(tmp_path)
    check = subprocess.run([*run, "check"], env=env, capture_output=True, text=True)
    assert check.returncode == 1 and check.stdout.startswith(f"no image at {tmp_path}")
    (tmp_path / "bgboard-pico.uf2").write_bytes(b"UF2")
    digest = subprocess.run([*run, "digest"], env=env, capture_output=True, text=True, check=True).stdout.strip()
    assert digest == frozen.sources_digest()
    subprocess.run([*run, "stamp", str(tmp_path / "bgboard-pico.uf2"), digest], env=env, check=True)
    check = subprocess.run([*run, "check"], env=env, capture_output=True, text=True)
    assert (check.returncode, check.stdout) == (0, "")
    bad = subprocess.run([*run, "stale?"], env=env, capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1


def test_build_uf2_needs_no_root_and_says_where_the_tree_belongs(tmp_path: Path) -> None:
    """Without arguments it builds from the user's cache into it; with no MicroPython tree
    there it stops in one line naming the place (firmware/README.md says how to fill it)."""
    env = {**os.environ, "BGBOARD_PICO_CACHE": str(tmp_path / "cache")}
    run = subprocess.run(["sh", str(BUILD)], env=env, capture_output=True, text=True)
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and f"no MicroPython tree at {tmp_path}/cache/micropython" in run.stderr
    assert "/var/cache" not in run.stderr
