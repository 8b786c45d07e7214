"""Regenerate every generated file of hardware/: `python -m hardware.design` (from the
repository's root). `--check` writes nothing and exits 1 if a committed file differs or
the profile (the default one, or `--profile F`) disagrees with the boards, one line each.

The boards (hardware/boards/<kind>/: KiCad projects, Gerbers, drill, BOM, CPL) are made
with KiCad 6 (Debian's `apt-get install kicad kicad-footprints`); a board whose DRC finds
anything is written and reported, and the run exits 1."""
from __future__ import annotations

import sys
from pathlib import Path

from controller.board.profile import load_profile
from controller.errors import ProfileError

from . import agreement, outputs
from .pcb import boards_doc, make
from .pcb.kicad import KicadError
from .pcb.router import RoutingError


def main(argv: list[str]) -> int:
    check = "--check" in argv
    if check or "--profile" in argv:
        at = argv.index("--profile") if "--profile" in argv else -1
        if at >= 0 and at + 1 >= len(argv):
            print("--profile needs a file")
            return 2
        name = argv[at + 1] if at >= 0 else "hardware/profiles/default.toml"
        try:
            problems = agreement.profile_problems(load_profile(argv[at + 1] if at >= 0 else None), name)
        except ProfileError as exc:
            print(exc)
            return 2
        if problems:
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            print(problems[0] + more)
            return 1
    files = {path: render() for path, render in outputs.FILES.items()}
    try:
        files.update(make.all_files())
        files[boards_doc.PATH] = boards_doc.render()
    except (KicadError, RoutingError, make.PlacementError) as exc:
        print(exc)
        return 1
    stale = _stale(files) if check else _write(files)
    for line in stale:
        print(line)
    drc = [f"{kind}: KiCad's DRC: {finding.line()}" for kind in make.KINDS for finding in make.make(kind).drc]
    for line in drc:
        print(line)
    return 1 if stale or drc else 0


def _stale(files: dict[Path, str]) -> list[str]:
    lines = [f"out of date: {path} (run python -m hardware.design)" for path, text in files.items()
             if not path.exists() or path.read_text(encoding="utf-8") != text]
    return lines + [f"not generated: {path} (run python -m hardware.design)" for path in make.strays(files)]


def _write(files: dict[Path, str]) -> list[str]:
    for path in make.strays(files):
        path.unlink()
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return []


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
