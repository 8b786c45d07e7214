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
        ("hello", wire.HELLO, 0, wire.hello_payload(14, 13, "bgboard-fw 2.0")),
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
        # version 2
        ("levels-request", wire.LEVELS_REQ, 3, b""),
        ("levels-last", wire.LEVELS, 5, wire.levels_payloads([0] * 120 + [1018, 1795, 212, 0], 124)[1]),
        ("calibrate-two", wire.CALIBRATE, 4, wire.calibrate_payload(180, [1018, 1795, 212, 1031, 1620, 355])),
        ("cal-save", wire.CAL_SAVE, 5, (0xCBF43926).to_bytes(4, "little")),
        ("cal-status-request", wire.CAL_STATUS_REQ, 6, b""),
        ("cal-status-in-use", wire.CAL_STATUS, 6, wire.cal_status_payload(wire.CAL_IN_USE, 0xCBF43926, 182)),
        ("error-chain", wire.ERROR, 7, wire.error_payload(
            wire.ERR_CHAIN, "chain broken at module 13 (BAR-W): RET did not follow the token")),
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
