"""Where the Pico image is built and run from, and which firmware it froze: one definition
for build-uf2.sh (which runs this file with the system's python3) and for the emulated
Pico's tests (tests/pico_emulator.py), so a firmware changed since its image was built is
never tested through that stale image unnoticed.

The cache is a directory the user owns: BGBOARD_PICO_CACHE, else
$XDG_CACHE_HOME/bgboard/pico, else ~/.cache/bgboard/pico. It holds the MicroPython tree
(`micropython/`, firmware/README.md says how to get it), the build tree, the image and the
RP2040 bootrom. Beside the image, `bgboard-pico.uf2.sources` records the digest of what
was frozen into it (manifest.py and every firmware file it names).

    python3 firmware/image/frozen.py dir                  the cache directory
    python3 firmware/image/frozen.py digest               the digest of the sources now
    python3 firmware/image/frozen.py stamp IMAGE DIGEST   record DIGEST beside IMAGE
    python3 firmware/image/frozen.py check                exit 1 with one line when the
                                                          image is missing or stale

build-uf2.sh takes the digest before it builds and records it after, so a file changed
during the build leaves the image stale, as it is.

Standard library only: it runs before any virtual environment exists.
"""
from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Mapping
from pathlib import Path

HERE = Path(__file__).resolve().parent
MANIFEST = HERE / "manifest.py"
IMAGE_NAME = "bgboard-pico.uf2"
BOOTROM_NAME = "rp2040-bootrom-b1.ts"
STAMP_SUFFIX = ".sources"


def cache_dir(env: Mapping[str, str] = os.environ) -> Path:
    """The directory the image, its build, the MicroPython tree and the bootrom live in."""
    if env.get("BGBOARD_PICO_CACHE"):
        return Path(env["BGBOARD_PICO_CACHE"]).expanduser()
    xdg = env.get("XDG_CACHE_HOME", "")
    base = Path(xdg) if os.path.isabs(xdg) else Path(env.get("HOME", "~")).expanduser() / ".cache"
    return base / "bgboard" / "pico"


def image_path(env: Mapping[str, str] = os.environ) -> Path:
    """The image the emulated Pico runs: BGBOARD_PICO_IMAGE, else the one build-uf2.sh made."""
    return Path(env["BGBOARD_PICO_IMAGE"]) if env.get("BGBOARD_PICO_IMAGE") \
        else cache_dir(env) / IMAGE_NAME


def bootrom_path(env: Mapping[str, str] = os.environ) -> Path:
    return Path(env["BGBOARD_PICO_BOOTROM"]) if env.get("BGBOARD_PICO_BOOTROM") \
        else cache_dir(env) / BOOTROM_NAME


def micropython_dir(env: Mapping[str, str] = os.environ) -> Path:
    return cache_dir(env) / "micropython"


def frozen_sources(manifest: Path = MANIFEST) -> list[Path]:
    """The firmware files manifest.py freezes, in its order (MicroPython's own modules,
    `$(PORT_DIR)/...`, are MicroPython's tree and not recorded)."""
    found: list[Path] = []

    def freeze(path: str, script: tuple[str, ...] | None = None) -> None:
        if path.startswith("$("):
            return
        base = (manifest.parent / path).resolve()
        found.extend(sorted(base.rglob("*.py")) if script is None else [base / s for s in script])

    exec(compile(manifest.read_text(), str(manifest), "exec"), {"freeze": freeze})  # noqa: S102
    return found


def sources_digest(manifest: Path = MANIFEST) -> str:
    """SHA-256 over the manifest and each frozen file's name and bytes."""
    h = hashlib.sha256()
    for path in [manifest, *frozen_sources(manifest)]:
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def stamp_path(image: Path) -> Path:
    return image.with_name(image.name + STAMP_SUFFIX)


def write_stamp(image: Path, digest: str, manifest: Path = MANIFEST) -> None:
    names = " ".join(p.name for p in frozen_sources(manifest))
    stamp_path(image).write_text(f"{digest}\n{names}\n")


def why_stale(image: Path, manifest: Path = MANIFEST) -> str | None:
    """One line when `image` is missing or was not built from the firmware here, else None."""
    if not image.is_file():
        return f"no image at {image} (firmware/image/build-uf2.sh makes one; or set BGBOARD_PICO_IMAGE)"
    try:
        recorded = stamp_path(image).read_text().split()
    except OSError:
        recorded = []
    if not recorded or recorded[0] != sources_digest(manifest):
        return "image is stale (built from other firmware): rebuild with firmware/image/build-uf2.sh"
    return None


def main(argv: list[str]) -> int:
    usage = "usage: frozen.py dir | digest | stamp IMAGE DIGEST | check"
    if argv == ["dir"]:
        print(cache_dir())
        return 0
    if argv == ["digest"]:
        print(sources_digest())
        return 0
    if len(argv) == 3 and argv[0] == "stamp":
        write_stamp(Path(argv[1]), argv[2])
        return 0
    if argv == ["check"]:
        reason = why_stale(image_path())
        if reason:
            print(reason)
        return 1 if reason else 0
    print(usage, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
