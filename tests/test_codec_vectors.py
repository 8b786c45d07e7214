"""The host codec against the golden vectors and the firmware's encoder: both ways."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.link import codec
from controller.link.codec import (
    BoardError,
    Config,
    Frame,
    FrameError,
    Hello,
    HelloRequest,
    MsgType,
    Ping,
    Pong,
    Scan,
    StreamDecoder,
)
from firmware import board as fwboard
from firmware import wire

VECTORS = json.loads((Path(__file__).parent / "vectors" / "frames.json").read_text())


@pytest.mark.parametrize("v", VECTORS, ids=[v["name"] for v in VECTORS])
def test_vector_encodes_byte_exact(v: dict) -> None:
    frame = Frame(v["type"], v["seq"], bytes.fromhex(v["payload"]))
    assert frame.pack().hex() == v["decoded"]
    assert frame.encode().hex() == v["wire"]


@pytest.mark.parametrize("v", VECTORS, ids=[v["name"] for v in VECTORS])
def test_vector_decodes(v: dict) -> None:
    frame = Frame.decode(bytes.fromhex(v["wire"]))
    assert (frame.type, frame.seq, frame.payload.hex()) == (v["type"], v["seq"], v["payload"])


def test_vectors_as_one_stream_decode_in_order() -> None:
    dec = StreamDecoder()
    stream = b"".join(bytes.fromhex(v["wire"]) for v in VECTORS)
    got = dec.feed(stream)
    assert [(f.type, f.seq) for f in got] == [(v["type"], v["seq"]) for v in VECTORS]
    assert dec.crc_errors == dec.framing_errors == 0


def test_typed_messages_of_vectors() -> None:
    by_name = {v["name"]: Frame.decode(bytes.fromhex(v["wire"])) for v in VECTORS}
    assert codec.parse(by_name["hello"]) == Hello(0, 1, 14, 13, "bgboard-fw 1.0")
    scan = codec.parse(by_name["scan-example"])
    assert isinstance(scan, Scan)
    sensors = scan.sensors(182)
    assert sensors[0:3] == (1, 1, 0) and sensors[72:78] == (2, 2, 2, 2, 2, 0) and sensors[150] == 3
    assert codec.parse(by_name["error-bad-config"]) == BoardError(4, 2, "CONFIG out of range")
    assert codec.parse(by_name["config-defaults"]) == Config(2, 10, 3, 500)
    assert codec.parse(by_name["pong"]) == Pong(3, b"\x00\x01\x02\xff")


def test_host_messages_are_understood_by_the_firmware() -> None:
    """The controller's HELLO?, PING and CONFIG drive the firmware's Board."""
    out = bytearray()
    now = [0]
    b = fwboard.Board(scanner=None, write=out.extend, ticks_ms=lambda: now[0],
                      ticks_diff=lambda a, c: a - c, rows=14, cols=13)
    stream = (codec.encode(HelloRequest(0)) + codec.encode(Ping(1, b"\x00hey"))
              + codec.encode(Config(2, 7, 4, 250)))
    b.receive(stream)
    got = [codec.parse(f) for f in StreamDecoder().feed(bytes(out))]
    assert got == [Hello(0, 1, 14, 13, fwboard.FIRMWARE_VERSION), Pong(1, b"\x00hey")]
    assert (b.scan_period, b.debouncer.count, b.heartbeat) == (7, 4, 250)


def test_firmware_frames_round_trip_through_the_codec_for_every_type_and_seq() -> None:
    for seq in range(256):
        for t in (wire.HELLO, wire.SCAN, wire.PONG, wire.ERROR):
            payload = bytes((seq, 0, t)) * (seq % 7)
            assert Frame.decode(wire.build_frame(t, seq, payload)) == Frame(t, seq, payload)
            assert wire.FrameReader().feed(Frame(t, seq, payload).encode()) == [(t, seq, payload)]


def test_sensor_packing_agrees_with_firmware() -> None:
    values = [(i * 7) % 4 for i in range(182)]
    assert codec.pack_sensors(values) == wire.pack_sensors(values)
    assert codec.unpack_sensors(wire.pack_sensors(values), 182) == tuple(values)


def test_rejects() -> None:
    with pytest.raises(FrameError):
        Frame.decode(b"\x00")
    with pytest.raises(FrameError, match="CRC"):
        Frame.unpack(b"\x01\x02\x03\x04\x05\x06")
    with pytest.raises(ValueError):
        Frame(1, 2, bytes(248))
    with pytest.raises(FrameError):
        Scan(0, b"\x00").sensors(5)
    with pytest.raises(ValueError):
        codec.to_frame(Ping(0, bytes(9)))
    assert codec.parse(Frame(0x55, 0, b"")) is None  # unknown types are ignored
    assert MsgType(0x83) is MsgType.CONFIG


def test_lost_frames_counted_by_seq_gap_and_hello_zero_restarts() -> None:
    dec = StreamDecoder()
    frames = [Frame(2, s, b"\x00") for s in (250, 251, 253, 2)]  # lost 252, 254, 255, 0, 1
    for f in frames:
        dec.feed(f.encode())
    assert dec.lost == 5
    dec.feed(Frame(1, 0, b"\x01\x0e\x0d").encode())  # the board booted again
    dec.feed(Frame(2, 1, b"").encode())
    assert dec.lost == 5 and dec.frames == 6


def test_idle_zeros_are_not_errors_and_overlong_runs_are() -> None:
    dec = StreamDecoder()
    good = Frame(3, 0, b"x").encode()
    assert dec.feed(b"\x00\x00\x00" + b"\x11" * 1000 + b"\x00" + good) == [Frame(3, 0, b"x")]
    assert dec.framing_errors == 1 and dec.crc_errors == 0
