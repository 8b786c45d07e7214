"""Fuzzing the stream decoder: garbage, truncations, bit flips, concatenations.

Properties (issue 4): the decoder never crashes, never yields a frame that was not sent
intact, and decodes every intact frame, whatever garbage came before it.
"""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.link.codec import MAX_PAYLOAD, Frame, StreamDecoder

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

frames = st.builds(Frame, type=st.integers(0, 255), seq=st.integers(0, 255),
                   payload=st.binary(max_size=MAX_PAYLOAD))


@st.composite
def damaged(draw: st.DrawFn) -> bytes:
    """A frame on the wire that is not intact: truncated, bit-flipped, or raw noise."""
    kind = draw(st.sampled_from(["noise", "truncated", "flipped", "noise-no-zero"]))
    if kind == "noise":
        return draw(st.binary(min_size=1, max_size=600))
    if kind == "noise-no-zero":
        return bytes(b or 1 for b in draw(st.binary(min_size=1, max_size=600)))
    wire = bytearray(draw(frames).encode())
    if kind == "truncated":
        return bytes(wire[:draw(st.integers(0, len(wire) - 1))])
    flips = draw(st.lists(st.integers(0, len(wire) * 8 - 1), min_size=1, max_size=4, unique=True))
    for bit in flips:
        wire[bit // 8] ^= 1 << (bit % 8)
    return bytes(wire)


items = st.lists(st.one_of(frames.map(lambda f: ("ok", f)), damaged().map(lambda b: ("bad", b))),
                 max_size=12)


def _feed_in_chunks(data: bytes, cuts: list[int]) -> tuple[list[Frame], StreamDecoder]:
    dec = StreamDecoder()
    out: list[Frame] = []
    points = sorted({c % (len(data) + 1) for c in cuts} | {0, len(data)})
    for a, b in zip(points, points[1:]):
        out += dec.feed(data[a:b])
    return out, dec


@FUZZ
@given(st.binary(max_size=3000), st.lists(st.integers(0, 4000), max_size=20))
def test_random_bytes_never_crash_and_yield_nothing(data: bytes, cuts: list[int]) -> None:
    out, dec = _feed_in_chunks(data, cuts)
    assert out == []  # a random block passing COBS and CRC-32 is a 2**-32 event
    assert dec.frames == 0


@FUZZ
@given(items, st.lists(st.integers(0, 10000), max_size=30))
def test_every_intact_frame_decoded_and_nothing_else(stream_items: list, cuts: list[int]) -> None:
    data = b"".join(x.encode() if kind == "ok" else x for kind, x in stream_items)
    sent = [x for kind, x in stream_items if kind == "ok"]
    out, dec = _feed_in_chunks(data, cuts)
    # every intact frame comes out, in order; damaged ones may only reappear when a
    # flip happened to leave them intact (then they *were* sent intact).
    damaged_intact = []
    for kind, x in stream_items:
        if kind == "bad":
            try:
                damaged_intact.append(Frame.decode(x))
            except ValueError:
                pass
    it = iter(out)
    for frame in sent:
        for got in it:
            if got == frame:
                break
            assert got in damaged_intact, f"decoded a frame never sent intact: {got}"
        else:
            raise AssertionError(f"intact frame not decoded: {frame}")
    for got in it:
        assert got in damaged_intact
    assert dec.frames == len(out)


@FUZZ
@given(st.lists(frames, min_size=1, max_size=8), st.data())
def test_truncated_stream_yields_the_complete_frames(fs: list[Frame], data: st.DataObject) -> None:
    wire = b"".join(f.encode() for f in fs)
    cut = data.draw(st.integers(0, len(wire)))
    out, dec = _feed_in_chunks(wire[:cut], [])
    ends = []
    pos = 0
    for f in fs:
        pos += len(f.encode())
        ends.append(pos)
    assert out == [f for f, end in zip(fs, ends) if end <= cut]
    assert dec.crc_errors == dec.framing_errors == 0  # the unfinished tail is still pending


@FUZZ
@given(frames, st.integers(0, 10_000))
def test_single_bit_flip_never_yields_the_damaged_frame(frame: Frame, bit: int) -> None:
    wire = bytearray(frame.encode())
    bit %= (len(wire) - 1) * 8  # flip inside the frame, not its terminator
    wire[bit // 8] ^= 1 << (bit % 8)
    out, dec = _feed_in_chunks(bytes(wire) + frame.encode(), [])
    assert out == [frame]  # CRC-32 catches every single-bit error; the copy after it survives
    assert dec.crc_errors + dec.framing_errors >= 1
