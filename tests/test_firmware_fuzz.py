"""Fuzzing the firmware's own reader (host -> board direction) on CPython."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware import wire
from firmware.board import Board

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
    b = Board(scanner=None, write=out.extend, ticks_ms=lambda: 0, ticks_diff=lambda a, c: a - c,
              rows=14, cols=13)
    b.receive(data)
    for ftype, _seq, payload in wire.FrameReader().feed(bytes(out)):
        assert ftype in (wire.HELLO, wire.PONG, wire.ERROR)
