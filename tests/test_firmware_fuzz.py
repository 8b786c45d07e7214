"""Fuzzing the firmware's own reader (host -> board direction) on CPython."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware import wire
from firmware.board import Board
from firmware.calstore import Store
from firmware.levels import TYPICAL_LEVELS_MV
from sim.vboard_flash import MemoryFlash

FUZZ = settings(max_examples=300, deadline=None)
frames = st.tuples(st.integers(0, 255), st.integers(0, 255), st.binary(max_size=wire.MAX_PAYLOAD))


@FUZZ
@given(st.binary(max_size=2000))
def test_random_bytes_never_crash_the_reader(data: bytes) -> None:
    reader = wire.FrameReader()
    assert reader.feed(data) == []


@FUZZ
@given(st.lists(st.one_of(frames.map(lambda f: ("ok", f)),
                          st.binary(min_size=1, max_size=300).map(lambda b: ("bad", b))),
                max_size=10))
def test_intact_frames_after_terminated_garbage_decode(items: list) -> None:
    stream = b""
    want = []
    for kind, x in items:
        if kind == "ok":
            stream += wire.build_frame(*x)
            want.append(x)
        else:
            stream += x + b"\x00"  # the board resynchronises at the next 0x00
    got = wire.FrameReader().feed(stream)
    assert [g for g in got if g in want] == want
    assert all(g in want for g in got)


@FUZZ
@given(st.binary(max_size=600))
def test_board_survives_any_input(data: bytes) -> None:
    out = bytearray()
    b = Board(sensors=None, write=out.extend, ticks_ms=lambda: 0,  # type: ignore[arg-type]
              ticks_diff=lambda a, c: a - c, rows=14, cols=13)
    b.receive(data)
    for ftype, _seq, payload in wire.FrameReader().feed(bytes(out)):
        assert ftype in (wire.HELLO, wire.PONG, wire.ERROR, wire.LEVELS, wire.CAL_STATUS)


host_frames = st.tuples(
    st.sampled_from((wire.HELLO_REQ, wire.PING, wire.CONFIG, wire.LEVELS_REQ, wire.CALIBRATE,
                     wire.CAL_SAVE, wire.CAL_STATUS_REQ, 0x88, 0x04)),
    st.integers(0, 255), st.binary(max_size=wire.MAX_PAYLOAD))


@FUZZ
@given(st.lists(host_frames, max_size=12))
def test_any_host_frames_leave_the_calibration_alone_unless_a_save_succeeded(items: list) -> None:
    """Random frames of every type, the calibration ones included: the board answers,
    never raises, and the table in use (and on the flash) changes only with a CAL_STATUS
    saying 0 (stored and in use)."""
    flash = MemoryFlash()
    store = Store(flash.open, flash.rename, flash.remove)
    store.save(list(TYPICAL_LEVELS_MV) * 182)
    before = dict(flash.files)
    out = bytearray()
    b = Board(sensors=None, write=out.extend, ticks_ms=lambda: 0,  # type: ignore[arg-type]
              ticks_diff=lambda a, c: a - c, rows=14, cols=13, store=store)
    crc = b.cal_crc
    b.receive(b"".join(wire.build_frame(*item) for item in items))
    statuses = [p[0] for t, _s, p in wire.FrameReader().feed(bytes(out)) if t == wire.CAL_STATUS]
    if wire.CAL_IN_USE not in statuses or not any(t == wire.CAL_SAVE for t, _s, _p in items):
        assert b.cal_crc == crc and flash.files == before
