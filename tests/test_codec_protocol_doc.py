"""hardware/protocol.md's examples are the golden vectors, byte for byte."""
from __future__ import annotations

import json
import re
from pathlib import Path

from controller.link.codec import Frame

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "hardware" / "protocol.md").read_text()
VECTORS = {v["name"]: v for v in json.loads((ROOT / "tests" / "vectors" / "frames.json").read_text())}

EXAMPLE = re.compile(r"### `([\w-]+)`.*\n+```\npayload: (.*)\ndecoded: (.*)\nwire: +(.*)\n```")


def _hex(s: str) -> str:
    return "" if s == "(empty)" else s.replace(" ", "")


def test_every_example_is_a_vector_and_decodes() -> None:
    examples = EXAMPLE.findall(DOC)
    assert len(examples) >= 10
    for name, payload, decoded, wire in examples:
        v = VECTORS[name]
        assert (_hex(payload), _hex(decoded), _hex(wire)) == (v["payload"], v["decoded"], v["wire"]), name
        frame = Frame.decode(bytes.fromhex(_hex(wire)))
        assert frame.payload.hex() == _hex(payload)


def test_every_vector_but_the_longest_is_in_the_doc() -> None:
    names = {m[0] for m in EXAMPLE.findall(DOC)}
    assert set(VECTORS) - names == {"max-payload"}
