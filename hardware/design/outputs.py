"""Every file of hardware/ that is generated, and the function that writes each."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from . import bom, drawings, margins_doc, schematics_doc, wiring

HARDWARE = Path(__file__).resolve().parents[1]

FILES: dict[Path, Callable[[], str]] = {
    HARDWARE / "margins.md": margins_doc.render,
    HARDWARE / "bom.md": bom.render,
    HARDWARE / "schematics.md": schematics_doc.render,
    HARDWARE / "wiring.svg": wiring.render,
}


def _drawing(name: str) -> Callable[[], str]:
    return lambda: drawings.files()[name]


for _name in drawings.files():
    FILES[HARDWARE / "drawings" / _name] = _drawing(_name)
