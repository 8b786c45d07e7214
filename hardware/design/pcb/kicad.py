"""KiCad 6 from the project's side: kicad_script.py run by the Python that has `pcbnew`
(Debian's /usr/bin/python3 with `apt-get install kicad kicad-footprints`; the project's
venv cannot import it), a JSON object in, a JSON object back, every answer read into
typed values here before it is believed."""
from __future__ import annotations

import json
import os
import subprocess
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from controller.json_value import JsonObject, json_object

from .shapes import LAYERS, Layer, Pad, PadShape

SCRIPT = Path(__file__).with_name("kicad_script.py")
PYTHON = os.environ.get("BGBOARD_KICAD_PYTHON", "/usr/bin/python3")
INSTALL = "apt-get install kicad kicad-footprints"


class KicadError(RuntimeError):
    """KiCad is missing or refused: one line saying which and why."""


@cache
def why_not() -> str | None:
    """None when KiCad 6's pcbnew can be used here, else why not (one line)."""
    try:
        done = subprocess.run([PYTHON, "-c", "import pcbnew; print(pcbnew.Version())"],
                              capture_output=True, text=True, timeout=60, check=False)
    except OSError as error:
        return f"{PYTHON} cannot run ({error.strerror}): KiCad's Python is needed ({INSTALL})"
    if done.returncode != 0:
        return f"{PYTHON} cannot import pcbnew: {INSTALL}"
    if not done.stdout.startswith("6."):
        return f"KiCad {done.stdout.strip()} found, the boards are made with KiCad 6"
    return None


def run(command: str, spec: JsonObject) -> JsonObject:
    problem = why_not()
    if problem:
        raise KicadError(problem)
    with tempfile.TemporaryDirectory() as tmp:
        answer = Path(tmp) / "answer.json"
        done = subprocess.run([PYTHON, str(SCRIPT), command, str(answer)], input=json.dumps(spec),
                              capture_output=True, text=True, check=False)
        if done.returncode != 0 or not answer.exists():
            lines = [line for line in done.stderr.splitlines() if line.strip()]
            raise KicadError(f"KiCad's {command} failed: {lines[-1] if lines else 'no message'}")
        return json_object(json.loads(answer.read_text(encoding="utf-8")), f"KiCad's {command} answer")


def _number(value: object, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{what} is {value!r}, not a number")
    return float(value)


def _text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{what} is {value!r}, not text")
    return value


def _list(value: object, what: str) -> list[object]:
    if not isinstance(value, list):
        raise TypeError(f"{what} is {value!r}, not a list")
    return value


def pad(value: object) -> Pad:
    record = json_object(value, "a pad")
    name = f"pad {record.get('ref')}.{record.get('pad')}"
    shape = _text(record["shape"], name)
    if shape not in ("rect", "circle", "oval"):
        raise TypeError(f"{name}: shape {shape}")
    shapes: dict[str, PadShape] = {"rect": "rect", "circle": "circle", "oval": "oval"}
    layers: list[Layer] = [layer for layer in LAYERS if layer in _list(record["layers"], name)]
    drill = record.get("drill")
    return Pad(_text(record["ref"], name), _text(record["pad"], name), _number(record["x"], name),
               _number(record["y"], name), _number(record["w"], name), _number(record["h"], name),
               shapes[shape], tuple(layers),
               None if drill is None else _number(_list(drill, name)[0], name),
               _text(record.get("net", ""), name))


@dataclass(frozen=True)
class Placed:
    """What KiCad says of a board's parts once placed: every pad, every courtyard."""

    pads: tuple[Pad, ...]
    courtyards: dict[str, tuple[float, float, float, float]]


def placed(spec: JsonObject) -> Placed:
    answer = run("pads", spec)
    courts: dict[str, tuple[float, float, float, float]] = {}
    for ref, box in json_object(answer["courtyards"], "courtyards").items():
        if box is not None:
            x0, y0, x1, y1 = (_number(v, f"courtyard of {ref}") for v in _list(box, ref))
            courts[ref] = (x0, y0, x1, y1)
    return Placed(tuple(pad(p) for p in _list(answer["pads"], "pads")), courts)


@dataclass(frozen=True)
class Finding:
    """One item of KiCad's DRC report."""

    section: str          # "violation", "unconnected" or "footprint"
    kind: str             # KiCad's name: clearance, unconnected_items, ...
    message: str
    items: tuple[str, ...]

    def line(self) -> str:
        return f"{self.kind}: {self.message} ({'; '.join(self.items)})"


def findings(answer: JsonObject) -> tuple[Finding, ...]:
    out = []
    for value in _list(answer["violations"], "violations"):
        v = json_object(value, "a violation")
        out.append(Finding(_text(v["section"], "section"), _text(v["type"], "type"),
                           _text(v["message"], "message"),
                           tuple(_text(i, "item") for i in _list(v["items"], "items"))))
    return tuple(out)


def drc(path: Path) -> tuple[Finding, ...]:
    """KiCad's DRC of a saved board."""
    return findings(run("drc", {"path": str(path)}))


@dataclass(frozen=True)
class Board:
    """A saved .kicad_pcb as KiCad reads it back."""

    width: float
    height: float
    pads: tuple[Pad, ...]
    footprints: dict[str, str]       # ref -> "Lib:Name"
    sides: dict[str, str]            # ref -> "top" / "bottom"
    tracks: int
    vias: int


def read(path: Path) -> Board:
    answer = run("read", {"path": str(path)})
    outline = json_object(answer["outline"], "outline")
    parts = [json_object(p, "a part") for p in _list(answer["parts"], "parts")]
    return Board(_number(outline["width"], "width"), _number(outline["height"], "height"),
                 tuple(pad(p) for p in _list(answer["pads"], "pads")),
                 {_text(p["ref"], "ref"): _text(p["footprint"], "footprint") for p in parts},
                 {_text(p["ref"], "ref"): _text(p["side"], "side") for p in parts},
                 int(_number(answer["tracks"], "tracks")), int(_number(answer["vias"], "vias")))
