"""Regenerate tests/vectors/frames.json (run on purpose only: the vectors are the contract).

    .venv/bin/python tests/vectors/make_vectors.py

Encodes with the firmware's wire.py; the tests check that the controller's codec
produces and reads the very same bytes, under CPython and under MicroPython.
"""
from __future__ import annotations

import json
from pathlib import Path

from firmware import wire

HERE = Path(__file__).resolve().parent


def sensors_example() -> list[int]:
    v = [0] * 182
    v[0:2] = [1, 1]          # point 1: two white
    v[72:77] = [2] * 5       # point 13: five black
    v[150] = 3               # a faulty sensor on the bar
    return v


def cases() -> list[tuple[str, int, int, bytes]]:
    return [
        ("hello", wire.HELLO, 0, wire.hello_payload(14, 13, "bgboard-fw 1.0")),
        ("scan-empty-board", wire.SCAN, 1, wire.pack_sensors([0] * 182)),
        ("scan-example", wire.SCAN, 2, wire.pack_sensors(sensors_example())),
        ("pong", wire.PONG, 3, b"\x00\x01\x02\xff"),
        ("error-bad-config", wire.ERROR, 4, wire.error_payload(wire.ERR_BAD_CONFIG, "CONFIG out of range")),
        ("hello-request", wire.HELLO_REQ, 0, b""),
        ("ping", wire.PING, 1, b"ping"),
        ("config-defaults", wire.CONFIG, 2, wire.config_payload(10, 3, 500)),
        ("seq-wraps", wire.SCAN, 255, b"\x00"),
        ("max-payload", wire.PONG, 0x80, bytes(range(247))),
        ("zeros-payload", wire.PONG, 0, bytes(8)),
    ]


def main() -> None:
    vectors = []
    for name, ftype, seq, payload in cases():
        vectors.append({
            "name": name,
            "type": ftype,
            "seq": seq,
            "payload": payload.hex(),
            "decoded": wire.pack_frame(ftype, seq, payload).hex(),
            "wire": wire.build_frame(ftype, seq, payload).hex(),
        })
    (HERE / "frames.json").write_text(json.dumps(vectors, indent=1) + "\n")


if __name__ == "__main__":
    main()
