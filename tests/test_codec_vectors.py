"""The host codec against the golden vectors and the firmware's encoder: both ways."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.link import codec
from controller.link.codec import (
    BoardError,
    Calibrate,
    CalSave,
    CalState,
    CalStatus,
    CalStatusRequest,
    Config,
    Frame,
    FrameError,
    Hello,
    HelloRequest,
    Levels,
    LevelsRequest,
    MsgType,
    Ping,
    Pong,
    Scan,
    StreamDecoder,
)
from firmware import board as fwboard
from firmware import wire
from firmware.calstore import Store
from sim.vboard_flash import MemoryFlash

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
    assert codec.parse(by_name["hello"]) == Hello(0, 2, 14, 13, "bgboard-fw 2.0")
    scan = codec.parse(by_name["scan-example"])
    assert isinstance(scan, Scan)
    sensors = scan.sensors(182)
    assert sensors[0:3] == (1, 1, 0) and sensors[72:78] == (2, 2, 2, 2, 2, 0) and sensors[150] == 3
    assert codec.parse(by_name["error-bad-config"]) == BoardError(4, 2, "CONFIG out of range")
    assert codec.parse(by_name["config-defaults"]) == Config(2, 10, 3, 500)
    assert codec.parse(by_name["pong"]) == Pong(3, b"\x00\x01\x02\xff")
    # version 2
    assert codec.parse(by_name["levels-request"]) == LevelsRequest(3)
    assert codec.parse(by_name["levels-last"]) == Levels(5, 120, (1018, 1795, 212, 0))
    assert codec.parse(by_name["calibrate-two"]) == Calibrate(4, 180, ((1018, 1795, 212),
                                                                      (1031, 1620, 355)))
    assert codec.parse(by_name["cal-save"]) == CalSave(5, 0xCBF43926)
    assert codec.parse(by_name["cal-status-request"]) == CalStatusRequest(6)
    status = codec.parse(by_name["cal-status-in-use"])
    assert status == CalStatus(6, 0, 0xCBF43926, 182) and status.state is CalState.IN_USE
    error = codec.parse(by_name["error-chain"])
    assert isinstance(error, BoardError) and error.code == codec.ErrorCode.CHAIN == wire.ERR_CHAIN


@pytest.mark.parametrize("v", VECTORS, ids=[v["name"] for v in VECTORS])
def test_every_typed_message_encodes_back_to_its_vector(v: dict) -> None:
    message = codec.parse(Frame.decode(bytes.fromhex(v["wire"])))
    assert message is not None
    assert codec.encode(message).hex() == v["wire"]


def test_codes_and_types_agree_with_the_firmware() -> None:
    assert codec.PROTOCOL_VERSION == wire.VERSION == 2
    for name in ("HELLO", "SCAN", "PONG", "LEVELS", "CAL_STATUS", "ERROR", "PING", "CONFIG",
                 "CALIBRATE", "CAL_SAVE"):
        assert MsgType[name] == getattr(wire, name), name
    assert (MsgType.HELLO_REQUEST, MsgType.LEVELS_REQUEST, MsgType.CAL_STATUS_REQUEST) == \
        (wire.HELLO_REQ, wire.LEVELS_REQ, wire.CAL_STATUS_REQ)
    for code in codec.ErrorCode:
        assert getattr(wire, "ERR_" + code.name) == code, code
    for state, name in ((CalState.IN_USE, "IN_USE"), (CalState.NONE, "NONE"), (CalState.BAD_CRC, "BAD_CRC"),
                        (CalState.INCOMPLETE, "INCOMPLETE"), (CalState.FLASH_FAILED, "FLASH_FAILED"),
                        (CalState.REFUSED, "REFUSED")):
        assert getattr(wire, "CAL_" + name) == state
    assert (codec.LEVELS_PER_FRAME, codec.CAL_ROWS_PER_FRAME) == (wire.LEVELS_PER_FRAME,
                                                                  wire.CAL_ROWS_PER_FRAME)


def test_host_messages_are_understood_by_the_firmware() -> None:
    """The controller's HELLO?, PING and CONFIG drive the firmware's Board."""
    out = bytearray()
    now = [0]
    b = fwboard.Board(sensors=None, write=out.extend, ticks_ms=lambda: now[0],  # type: ignore[arg-type]
                      ticks_diff=lambda a, c: a - c, rows=14, cols=13)
    stream = (codec.encode(HelloRequest(0)) + codec.encode(Ping(1, b"\x00hey"))
              + codec.encode(Config(2, 7, 4, 250)))
    b.receive(stream)
    got = [codec.parse(f) for f in StreamDecoder().feed(bytes(out))]
    assert got == [Hello(0, 2, 14, 13, fwboard.FIRMWARE_VERSION), Pong(1, b"\x00hey")]
    assert (b.scan_period, b.debouncer.count, b.heartbeat) == (7, 4, 250)


def test_the_controllers_calibration_frames_drive_the_firmware() -> None:
    """LEVELS? answered in two frames; CALIBRATE rows and CAL_SAVE with the codec's CRC of
    the table stored by the firmware and reported with the same CRC."""
    out = bytearray()
    flash = MemoryFlash()
    b = fwboard.Board(sensors=None, write=out.extend, ticks_ms=lambda: 0,  # type: ignore[arg-type]
                      ticks_diff=lambda a, c: a - c, rows=14, cols=13,
                      store=Store(flash.open, flash.rename, flash.remove))
    b.receive(codec.encode(LevelsRequest(0)) + codec.encode(CalStatusRequest(1)))
    got = [codec.parse(f) for f in StreamDecoder().feed(bytes(out))]
    assert [(m.first, len(m.levels)) for m in got if isinstance(m, Levels)] == [(0, 120), (120, 62)]
    assert got[-1] == CalStatus(2, CalState.NONE, 0, 0)
    rows = [(1000 + i, 1700 + i, 300 + i) for i in range(182)]
    stream = b"".join(codec.encode(Calibrate(2 + k, first, tuple(rows[first:first + 40])))
                      for k, first in enumerate(range(0, 182, 40)))
    crc = codec.crc32(codec.calibration_table(rows))
    out.clear()
    b.receive(stream + codec.encode(CalSave(9, crc)))
    (reply,) = [codec.parse(f) for f in StreamDecoder().feed(bytes(out))]
    assert reply == CalStatus(3, CalState.IN_USE, crc, 182)
    assert b.levels.empty[181] == 1181 and b.levels.span_white[0] == 700


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
