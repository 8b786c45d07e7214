"""The `#?` lines of a scenario script: the expectations a script carries after the line
they check (the CLI reads them as comments). tests/test_scenarios.py checks every script in
tests/scenarios with them, and hardware/pi/arm64_smoke.py the scripts it plays on arm64.

    #? match.state == roll          a JSON path equals a value (ints compared as ints)
    #? leds.7 == hit                a lit cell's role
    #? leds !~ error                no lit cell has this role (`~`: some cell has it)
    #? display ~ Put 1 white        some display line contains the text
    #? events ~ rejected:           some event contains the text
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from controller.json_value import JsonObject, json_object


def expectations(path: Path) -> dict[int, list[tuple[int, str]]]:
    """line number of a command -> the `#?` checks after it (with their own line numbers)."""
    checks: dict[int, list[tuple[int, str]]] = {}
    last = 0
    for number, raw in enumerate(path.read_text().splitlines(), start=1):
        text = raw.strip()
        if text.startswith("#?"):
            if not last:
                raise ValueError(f"{path.name}:{number}: a check before any command")
            checks.setdefault(last, []).append((number, text[2:].strip()))
        elif text and not text.startswith("#"):
            last = number
    return checks


def _get(record: JsonObject, path: str) -> Any:
    value: Any = record
    for part in path.split("."):
        if not isinstance(value, dict) or part not in value:
            return None
        value = value[part]
    return value


def check(record: JsonObject, expr: str) -> str | None:
    """None when `expr` holds for the record, else why not."""
    for op in (" !~ ", " == ", " != ", " ~ "):
        if op in expr:
            path, want = expr.split(op, 1)
            break
    else:
        return f"bad check {expr!r}"
    path, want, op = path.strip(), want.strip(), op.strip()
    if path == "display":
        have: Any = json_object(record["display"], "the record's display")["lines"]
    else:
        have = _get(record, path)
    if op in ("==", "!="):
        if isinstance(have, int) and not isinstance(have, bool) and want.lstrip("-").isdigit():
            equal = have == int(want)
        elif want == "null":
            equal = have is None
        elif want.startswith(("[", "{")):
            equal = have == json.loads(want)
        else:
            equal = str(have) == want
        ok = equal if op == "==" else not equal
    else:
        if isinstance(have, dict):
            items = [str(v) for v in have.values()]
            found = any(want == v for v in items)
        elif isinstance(have, list):
            found = any(want in str(v) for v in have)
        else:
            found = have is not None and want in str(have)
        ok = found if op == "~" else not found
    return None if ok else f"expected {expr!r}, got {path} = {have!r}"
