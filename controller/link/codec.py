"""The wire protocol, version 2, on the host side: pure, no I/O.

COBS framing with a 0x00 terminator, CRC-32 (zlib) over type+seq+payload, typed
messages, and a `StreamDecoder` that resynchronises after garbage and counts what it
drops. The firmware has its own MicroPython-subset copy (`firmware/wire.py`); the
golden vectors in `tests/vectors/frames.json` keep the two byte-for-byte equal.
See `hardware/protocol.md` for the protocol as built.
"""
from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from enum import IntEnum

PROTOCOL_VERSION = 2
MAX_PAYLOAD = 247
LEVELS_PER_FRAME = 120     # LEVELS: first sensor, then up to 120 uint16 LE
CAL_ROWS_PER_FRAME = 40    # CALIBRATE: first sensor, then up to 40 (empty, white, black)
MAX_DECODED = 253          # type + seq + payload + crc
MAX_ENCODED = MAX_DECODED + 2  # COBS adds one code byte per 254 (plus the first)


class MsgType(IntEnum):
    """Frame types of protocol version 2 (LEVELS, CAL_* new in 2)."""

    HELLO = 0x01
    SCAN = 0x02
    PONG = 0x03
    LEVELS = 0x04
    CAL_STATUS = 0x05
    ERROR = 0x7F
    HELLO_REQUEST = 0x81
    PING = 0x82
    CONFIG = 0x83
    LEVELS_REQUEST = 0x84
    CALIBRATE = 0x85
    CAL_SAVE = 0x86
    CAL_STATUS_REQUEST = 0x87


class ErrorCode(IntEnum):
    """Codes of the board's ERROR frames (firmware/wire.py ERR_*)."""

    BAD_FRAME = 1
    BAD_CONFIG = 2
    WATCHDOG = 3
    SCAN = 4
    OVERFLOW = 5
    NO_CALIBRATION = 6
    CHAIN = 7
    SUPPLY = 8


class CalState(IntEnum):
    """CAL_STATUS's status byte (firmware/wire.py CAL_*)."""

    IN_USE = 0          # stored and in use
    NONE = 1            # none stored: the typical part's levels
    BAD_CRC = 2         # CAL_SAVE's CRC is not the staged table's
    INCOMPLETE = 3      # CAL_SAVE before every sensor was staged
    FLASH_FAILED = 4    # the flash write failed: the last good table stays
    REFUSED = 5         # a level outside 0.08-3.0 V, or white/black not beyond empty


class FrameError(ValueError):
    """A frame that cannot be decoded (bad COBS, length or CRC)."""


# -- COBS and CRC -----------------------------------------------------------------

def crc32(data: bytes) -> int:
    """zlib's CRC-32, as the protocol uses it."""
    return zlib.crc32(data) & 0xFFFFFFFF


def cobs_encode(data: bytes) -> bytes:
    """COBS-encode `data`; the result has no 0x00 (the terminator is added by the caller)."""
    out = bytearray()
    block = bytearray()
    for b in data:
        if b == 0:
            out.append(len(block) + 1)
            out += block
            block.clear()
            continue
        block.append(b)
        if len(block) == 254:
            out.append(255)
            out += block
            block.clear()
    out.append(len(block) + 1)
    out += block
    return bytes(out)


def cobs_decode(data: bytes) -> bytes:
    """Decode one COBS block (without its 0x00 terminator); `FrameError` if malformed."""
    if not data:
        raise FrameError("empty frame")
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            raise FrameError("zero byte inside a COBS block")
        end = i + code
        if end > n:
            raise FrameError("COBS block runs past the end of the frame")
        block = data[i + 1:end]
        if 0 in block:
            raise FrameError("zero byte inside a COBS block")
        out += block
        i = end
        if code < 255 and i < n:
            out.append(0)
    return bytes(out)


# -- frames -----------------------------------------------------------------------

@dataclass(frozen=True)
class Frame:
    """One intact frame: its type byte, sequence number and payload."""

    type: int
    seq: int
    payload: bytes = b""

    def __post_init__(self) -> None:
        if not 0 <= self.type <= 255 or not 0 <= self.seq <= 255:
            raise ValueError("type and seq are bytes (0..255)")
        if len(self.payload) > MAX_PAYLOAD:
            raise ValueError(f"payload of {len(self.payload)} bytes; at most {MAX_PAYLOAD}")

    def pack(self) -> bytes:
        """The decoded form: type, seq, payload, CRC-32 little-endian."""
        body = bytes((self.type, self.seq)) + bytes(self.payload)
        return body + crc32(body).to_bytes(4, "little")

    def encode(self) -> bytes:
        """The bytes on the wire, 0x00 terminator included."""
        return cobs_encode(self.pack()) + b"\x00"

    @classmethod
    def unpack(cls, decoded: bytes) -> Frame:
        """The frame of a COBS-decoded block; `FrameError` if its length or CRC is wrong."""
        if len(decoded) < 6:
            raise FrameError(f"frame of {len(decoded)} bytes; at least 6")
        if len(decoded) > MAX_DECODED:
            raise FrameError(f"frame of {len(decoded)} bytes; at most {MAX_DECODED}")
        body, tail = decoded[:-4], decoded[-4:]
        if crc32(body) != int.from_bytes(tail, "little"):
            raise FrameError("CRC mismatch")
        return cls(body[0], body[1], bytes(body[2:]))

    @classmethod
    def decode(cls, wire: bytes) -> Frame:
        """The frame of one wire block (with or without its trailing 0x00)."""
        if wire.endswith(b"\x00"):
            wire = wire[:-1]
        return cls.unpack(cobs_decode(wire))


# -- typed messages -----------------------------------------------------------------

@dataclass(frozen=True)
class Hello:
    """HELLO (board -> host): protocol version, matrix size, firmware version."""

    seq: int
    version: int
    rows: int
    cols: int
    firmware: str


@dataclass(frozen=True)
class Scan:
    """SCAN (board -> host): the debounced sensor matrix, row-major.

    `packed` is the payload as sent; `sensors(count)` unpacks it (values 0 empty,
    1 white, 2 black, 3 fault). The count comes from HELLO or the profile, since a
    payload of ceil(n/4) bytes does not say n.
    """

    seq: int
    packed: bytes

    def sensors(self, count: int) -> tuple[int, ...]:
        if count > 4 * len(self.packed):
            raise FrameError(f"SCAN of {len(self.packed)} bytes holds fewer than {count} sensors")
        return unpack_sensors(self.packed, count)


@dataclass(frozen=True)
class Pong:
    """PONG (board -> host): the PING payload echoed."""

    seq: int
    payload: bytes


@dataclass(frozen=True)
class BoardError:
    """ERROR (board -> host): a code and a text."""

    seq: int
    code: int
    text: str


@dataclass(frozen=True)
class HelloRequest:
    seq: int = 0


@dataclass(frozen=True)
class Ping:
    seq: int = 0
    payload: bytes = b""


@dataclass(frozen=True)
class Config:
    """CONFIG (host -> board): scan period, debounce scans, heartbeat."""

    seq: int = 0
    scan_period_ms: int = 10
    debounce_scans: int = 3
    heartbeat_ms: int = 500


@dataclass(frozen=True)
class Levels:
    """LEVELS (board -> host): sensors `first`.. averaged levels in mV."""

    seq: int
    first: int
    levels: tuple[int, ...]


@dataclass(frozen=True)
class CalStatus:
    """CAL_STATUS (board -> host): how the board stands with its calibration."""

    seq: int
    status: int
    crc: int
    count: int

    @property
    def state(self) -> CalState | None:
        try:
            return CalState(self.status)
        except ValueError:
            return None


@dataclass(frozen=True)
class LevelsRequest:
    seq: int = 0


@dataclass(frozen=True)
class Calibrate:
    """CALIBRATE (host -> board): (empty, white, black) mV of sensors `first`.., staged."""

    seq: int = 0
    first: int = 0
    rows: tuple[tuple[int, int, int], ...] = ()


@dataclass(frozen=True)
class CalSave:
    """CAL_SAVE (host -> board): the CRC-32 of the whole staged table."""

    seq: int = 0
    crc: int = 0


@dataclass(frozen=True)
class CalStatusRequest:
    seq: int = 0


Message = (Hello | Scan | Pong | BoardError | HelloRequest | Ping | Config | Levels | CalStatus
           | LevelsRequest | Calibrate | CalSave | CalStatusRequest)


def u16s(values: tuple[int, ...] | list[int]) -> bytes:
    """uint16 little-endian, as LEVELS and CALIBRATE carry millivolts."""
    return b"".join(v.to_bytes(2, "little") for v in values)


def from_u16s(data: bytes) -> tuple[int, ...]:
    return tuple(int.from_bytes(data[i:i + 2], "little") for i in range(0, len(data) - 1, 2))


def calibration_table(rows: tuple[tuple[int, int, int], ...] | list[tuple[int, int, int]]) -> bytes:
    """The table whose CRC-32 CAL_SAVE carries: every sensor's (empty, white, black)."""
    return u16s([v for row in rows for v in row])


def pack_sensors(values: tuple[int, ...] | list[int]) -> bytes:
    """Four sensors a byte, the first in the lowest two bits."""
    out = bytearray((len(values) + 3) // 4)
    for i, v in enumerate(values):
        if not 0 <= v <= 3:
            raise ValueError(f"sensor value {v} out of 0..3")
        out[i >> 2] |= v << ((i & 3) << 1)
    return bytes(out)


def unpack_sensors(packed: bytes, count: int) -> tuple[int, ...]:
    return tuple((packed[i >> 2] >> ((i & 3) << 1)) & 3 for i in range(count))


def parse(frame: Frame) -> Message | None:
    """The typed message of a frame; None for unknown types (ignored in version 1)."""
    t, s, p = frame.type, frame.seq, frame.payload
    if t == MsgType.HELLO:
        if len(p) < 3:
            raise FrameError("HELLO shorter than 3 bytes")
        return Hello(s, p[0], p[1], p[2], p[3:].decode("ascii", "replace"))
    if t == MsgType.SCAN:
        return Scan(s, p)
    if t == MsgType.PONG:
        return Pong(s, p)
    if t == MsgType.ERROR:
        if not p:
            raise FrameError("ERROR without a code")
        return BoardError(s, p[0], p[1:].decode("ascii", "replace"))
    if t == MsgType.HELLO_REQUEST:
        return HelloRequest(s)
    if t == MsgType.PING:
        return Ping(s, p)
    if t == MsgType.CONFIG:
        if len(p) != 5:
            raise FrameError("CONFIG needs 5 bytes")
        return Config(s, int.from_bytes(p[0:2], "little"), p[2], int.from_bytes(p[3:5], "little"))
    return _parse_v2(t, s, p)


def _parse_v2(t: int, s: int, p: bytes) -> Message | None:
    """The frames protocol version 2 added; None for unknown types."""
    if t == MsgType.LEVELS:
        if len(p) < 1 or len(p) % 2 != 1:
            raise FrameError("LEVELS needs a first sensor and whole uint16 levels")
        return Levels(s, p[0], from_u16s(p[1:]))
    if t == MsgType.CAL_STATUS:
        if len(p) != 7:
            raise FrameError("CAL_STATUS needs 7 bytes")
        return CalStatus(s, p[0], int.from_bytes(p[1:5], "little"), int.from_bytes(p[5:7], "little"))
    if t == MsgType.LEVELS_REQUEST:
        return LevelsRequest(s)
    if t == MsgType.CALIBRATE:
        if len(p) < 7 or (len(p) - 1) % 6:
            raise FrameError("CALIBRATE needs a first sensor and whole (empty, white, black) rows")
        values = from_u16s(p[1:])
        rows = tuple((values[i], values[i + 1], values[i + 2]) for i in range(0, len(values), 3))
        return Calibrate(s, p[0], rows)
    if t == MsgType.CAL_SAVE:
        if len(p) != 4:
            raise FrameError("CAL_SAVE needs 4 bytes")
        return CalSave(s, int.from_bytes(p, "little"))
    if t == MsgType.CAL_STATUS_REQUEST:
        return CalStatusRequest(s)
    return None


def to_frame(message: Message) -> Frame:
    """The frame that carries `message` (its `seq` included)."""
    m = message
    if isinstance(m, Hello):
        return Frame(MsgType.HELLO, m.seq,
                     bytes((m.version, m.rows, m.cols)) + m.firmware.encode("ascii"))
    if isinstance(m, Scan):
        return Frame(MsgType.SCAN, m.seq, m.packed)
    if isinstance(m, Pong):
        return Frame(MsgType.PONG, m.seq, m.payload)
    if isinstance(m, BoardError):
        return Frame(MsgType.ERROR, m.seq, bytes((m.code,)) + m.text.encode("ascii"))
    if isinstance(m, HelloRequest):
        return Frame(MsgType.HELLO_REQUEST, m.seq)
    if isinstance(m, Ping):
        if len(m.payload) > 8:
            raise ValueError("PING carries at most 8 bytes")
        return Frame(MsgType.PING, m.seq, m.payload)
    if isinstance(m, Config):
        return Frame(MsgType.CONFIG, m.seq,
                     m.scan_period_ms.to_bytes(2, "little") + bytes((m.debounce_scans,))
                     + m.heartbeat_ms.to_bytes(2, "little"))
    return _frame_v2(m)


def _frame_v2(m: Message) -> Frame:
    """The frames protocol version 2 added."""
    if isinstance(m, Levels):
        if len(m.levels) > LEVELS_PER_FRAME:
            raise ValueError(f"LEVELS carries at most {LEVELS_PER_FRAME} levels")
        return Frame(MsgType.LEVELS, m.seq, bytes((m.first,)) + u16s(m.levels))
    if isinstance(m, CalStatus):
        return Frame(MsgType.CAL_STATUS, m.seq, bytes((m.status,)) + m.crc.to_bytes(4, "little")
                     + m.count.to_bytes(2, "little"))
    if isinstance(m, LevelsRequest):
        return Frame(MsgType.LEVELS_REQUEST, m.seq)
    if isinstance(m, Calibrate):
        if not 1 <= len(m.rows) <= CAL_ROWS_PER_FRAME:
            raise ValueError(f"CALIBRATE carries 1 to {CAL_ROWS_PER_FRAME} sensors")
        return Frame(MsgType.CALIBRATE, m.seq, bytes((m.first,)) + calibration_table(m.rows))
    if isinstance(m, CalSave):
        return Frame(MsgType.CAL_SAVE, m.seq, m.crc.to_bytes(4, "little"))
    if isinstance(m, CalStatusRequest):
        return Frame(MsgType.CAL_STATUS_REQUEST, m.seq)
    raise TypeError(f"not a message: {m!r}")


def encode(message: Message) -> bytes:
    """The wire bytes of a message."""
    return to_frame(message).encode()


class _CrcError(FrameError):
    pass


def _decoded_checked(block: bytes) -> bytes:
    """COBS-decode a block and check its length; _CrcError when only the CRC is wrong."""
    decoded = cobs_decode(block)
    if not 6 <= len(decoded) <= MAX_DECODED:
        raise FrameError(f"frame of {len(decoded)} bytes")
    body, tail = decoded[:-4], decoded[-4:]
    if crc32(body) != int.from_bytes(tail, "little"):
        raise _CrcError("CRC mismatch")
    return decoded


def _salvage(block: bytes) -> Frame | None:
    """The intact frame that a damaged block ends with, if any (the longest tail that is
    valid COBS and passes the CRC).

    A tail starting at `i` decodes to the data of its first code group followed by the
    decoding of the tail the code points to, so all tails are decoded in one pass from
    the end, each from the next (`decoded[i]`, None where the code chain misses the end
    or the frame would be too long), and only then CRC-checked from the longest. That is
    one step per byte; decoding every tail afresh from the front took a step per code
    byte of each, and blocks of 255 bytes of 0x01 were decoded at 46 KB/s.
    """
    n = len(block)
    decoded: list[bytes | None] = [None] * (n + 1)
    decoded[n] = b""
    for i in range(n - 1, 0, -1):
        code = block[i]
        end = i + code
        rest = decoded[end] if end <= n else None
        if rest is None:
            continue
        tail = block[i + 1:end] + (b"\x00" if code < 255 and end < n else b"") + rest
        if len(tail) <= MAX_DECODED:
            decoded[i] = tail
    for i in range(1, n - 6):
        candidate = decoded[i]
        if candidate is not None and len(candidate) >= 6 \
                and crc32(candidate[:-4]) == int.from_bytes(candidate[-4:], "little"):
            return Frame.unpack(candidate)
    return None


# -- the stream decoder ---------------------------------------------------------------

@dataclass(frozen=True)
class LinkStats:
    """Counters of a stream: intact frames, dropped ones, frames lost by seq gaps."""

    frames: int = 0
    crc_errors: int = 0
    framing_errors: int = 0
    lost: int = 0
    bytes: int = 0

    def as_dict(self) -> dict[str, int]:
        return {"frames": self.frames, "crc_errors": self.crc_errors,
                "framing_errors": self.framing_errors, "lost": self.lost}


@dataclass
class StreamDecoder:
    """Turns a byte stream into intact frames; resynchronises at every 0x00.

    A block (the bytes between two 0x00) that is not one intact frame counts as a
    framing error (bad COBS, a length outside 6..253 bytes, more than `MAX_ENCODED`
    bytes) or, when it decodes but fails its CRC, as a CRC error. A damaged block may
    still end with an intact frame: noise without a trailing 0x00, a truncated frame,
    a flipped terminator all glue their garbage onto the next frame. The decoder then
    recovers that frame from the block's tail (the longest tail that is valid COBS and
    passes the CRC; see `_salvage`), so an intact frame is never lost to the garbage
    before it.
    `seq` gaps between intact frames count as lost frames. A HELLO with seq 0 is the
    board starting afresh and does not count as a gap; `reset_seq()` forgets the last
    seq (call it on reconnect).
    """

    _buf: bytearray = field(default_factory=bytearray)
    _overflow: bool = False
    _last_seq: int | None = None
    frames: int = 0
    crc_errors: int = 0
    framing_errors: int = 0
    lost: int = 0
    bytes_in: int = 0

    def feed(self, data: bytes) -> list[Frame]:
        """Feed any number of bytes; return the intact frames completed, in order."""
        out: list[Frame] = []
        self.bytes_in += len(data)
        start = 0
        while True:
            zero = data.find(b"\x00", start)
            if zero < 0:
                self._append(data[start:])
                return out
            self._append(data[start:zero])
            start = zero + 1
            frame = self._finish()
            if frame is not None:
                out.append(frame)

    def _append(self, chunk: bytes) -> None:
        if not chunk:
            return
        self._buf += chunk
        if len(self._buf) > MAX_ENCODED:  # keep the tail: it may still end in a frame
            del self._buf[:len(self._buf) - MAX_ENCODED]
            self._overflow = True

    def _finish(self) -> Frame | None:
        block = bytes(self._buf)
        self._buf.clear()
        overflow, self._overflow = self._overflow, False
        if not block:
            return None  # back-to-back zeros: an idle line, not an error
        crc_failed = False
        if not overflow:
            try:
                frame = Frame.unpack(_decoded_checked(block))
            except _CrcError:
                crc_failed = True
            except FrameError:
                pass
            else:
                return self._accept(frame)
        salvaged = _salvage(block)
        if salvaged is not None or not crc_failed:
            self.framing_errors += 1
        else:
            self.crc_errors += 1
        return self._accept(salvaged) if salvaged is not None else None

    def _accept(self, frame: Frame) -> Frame:
        self._count_seq(frame)
        self.frames += 1
        return frame

    def _count_seq(self, frame: Frame) -> None:
        restarted = frame.type == MsgType.HELLO and frame.seq == 0
        if self._last_seq is not None and not restarted:
            self.lost += (frame.seq - self._last_seq - 1) % 256
        self._last_seq = frame.seq

    def reset_seq(self) -> None:
        self._last_seq = None
        self._buf.clear()
        self._overflow = False

    @property
    def stats(self) -> LinkStats:
        return LinkStats(self.frames, self.crc_errors, self.framing_errors, self.lost,
                         self.bytes_in)
