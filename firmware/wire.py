# bgboard firmware: the wire protocol, version 2 (hardware/protocol.md).
#
# Frames are COBS-encoded and end with one 0x00 byte. A decoded frame is
# type (1 byte), seq (1 byte), payload (0..247 bytes), CRC-32 of type+seq+payload
# (zlib's CRC-32), 4 bytes little-endian.
#
# Written in the subset shared by MicroPython and CPython: no dataclasses, typing,
# enum or functools, no int.bit_length, no str.rjust, no byteorder= keyword.
# The controller has its own typed codec (controller/link/codec.py); the golden
# vectors in tests/vectors/ prove the two agree byte for byte.

try:
    from binascii import crc32 as _native_crc32
except ImportError:  # a MicroPython build without binascii.crc32
    _native_crc32 = None  # type: ignore[assignment]

VERSION = 2

# board -> host
HELLO = 0x01
SCAN = 0x02
PONG = 0x03
LEVELS = 0x04        # version 2: first sensor, then levels (uint16 LE mV)
CAL_STATUS = 0x05    # version 2: status, CRC-32 of the table in use, sensors calibrated
ERROR = 0x7F
# host -> board
HELLO_REQ = 0x81
PING = 0x82
CONFIG = 0x83
LEVELS_REQ = 0x84    # version 2: the board answers LEVELS frames
CALIBRATE = 0x85     # version 2: first sensor, then (empty, white, black) uint16 LE, staged
CAL_SAVE = 0x86      # version 2: CRC-32 of the staged table: check, store, use
CAL_STATUS_REQ = 0x87

LEVELS_PER_FRAME = 120
CAL_ROWS_PER_FRAME = 40

# CAL_STATUS status byte
CAL_IN_USE = 0       # stored and in use
CAL_NONE = 1         # none stored: typical levels
CAL_BAD_CRC = 2      # CAL_SAVE's CRC is not the staged table's
CAL_INCOMPLETE = 3   # CAL_SAVE before every sensor was staged
CAL_FLASH_FAILED = 4 # writing the flash failed: the last good table stays
CAL_REFUSED = 5      # a level outside 0.08-3.0 V, or white/black not beyond empty

MAX_PAYLOAD = 247
MAX_DECODED = 253  # type + seq + payload + crc

# ERROR codes sent by the board
ERR_BAD_FRAME = 1    # a frame from the host failed its CRC or COBS check
ERR_BAD_CONFIG = 2   # a CONFIG with a wrong length or values out of range
ERR_WATCHDOG = 3     # the board restarted after a watchdog reset
ERR_SCAN = 4         # reading the shift-register chain failed
ERR_OVERFLOW = 5     # the host sent more than a frame's worth without a 0x00
ERR_NO_CALIBRATION = 6  # no calibration stored: typical levels (after the boot HELLO)
ERR_CHAIN = 7        # the sensor chain failed its checks: the text names where
ERR_SUPPLY = 8       # the sensors' supply is low

_TABLE = None


def _table() -> list[int]:
    global _TABLE
    if _TABLE is None:
        t = []
        for n in range(256):
            c = n
            for _ in range(8):
                if c & 1:
                    c = 0xEDB88320 ^ (c >> 1)
                else:
                    c = c >> 1
            t.append(c)
        _TABLE = t
    return _TABLE


def crc32_pure(data: bytes | bytearray, crc: int = 0) -> int:
    """zlib's CRC-32 in plain code, for builds without binascii.crc32."""
    t = _table()
    c = crc ^ 0xFFFFFFFF
    for b in data:
        c = t[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def crc32(data: bytes | bytearray) -> int:
    if _native_crc32 is not None:
        return _native_crc32(data) & 0xFFFFFFFF
    return crc32_pure(data)


def cobs_encode(data: bytes | bytearray) -> bytes:
    """COBS-encode `data` (no trailing 0x00). Block by block with find(), not byte by
    byte: on the Pico a SCAN frame takes a tenth of the time (see scan-loop figures)."""
    data = bytes(data)
    out = bytearray()
    n = len(data)
    start = 0
    while True:
        zero = data.find(b"\x00", start)
        end = n if zero < 0 else zero
        while end - start >= 254:
            out.append(255)
            out.extend(data[start:start + 254])
            start += 254
        out.append(end - start + 1)
        out.extend(data[start:end])
        if zero < 0:
            return bytes(out)
        start = zero + 1


def cobs_decode(data: bytes | bytearray) -> bytes | None:
    """Decode one COBS block (without its 0x00); None when it is not valid COBS."""
    out = bytearray()
    i = 0
    n = len(data)
    if n == 0:
        return None
    while i < n:
        code = data[i]
        if code == 0:
            return None
        end = i + code
        if end > n:
            return None
        for j in range(i + 1, end):
            if data[j] == 0:
                return None
        out.extend(data[i + 1:end])
        i = end
        if code < 255 and i < n:
            out.append(0)
    return bytes(out)


def pack_frame(ftype: int, seq: int, payload: bytes = b"") -> bytes:
    """The decoded frame: type, seq, payload, CRC-32 little-endian."""
    if len(payload) > MAX_PAYLOAD:
        raise ValueError("payload too long")
    body = bytes((ftype & 0xFF, seq & 0xFF)) + bytes(payload)
    return body + (crc32(body) & 0xFFFFFFFF).to_bytes(4, "little")


def build_frame(ftype: int, seq: int, payload: bytes = b"") -> bytes:
    """The bytes on the wire: COBS(type, seq, payload, crc) then 0x00."""
    return cobs_encode(pack_frame(ftype, seq, payload)) + b"\x00"


def unpack_frame(decoded: bytes) -> tuple[int, int, bytes] | None:
    """(type, seq, payload) of a decoded frame, or None when its length or CRC is wrong."""
    n = len(decoded)
    if n < 6 or n > MAX_DECODED:
        return None
    body = decoded[:n - 4]
    if int.from_bytes(decoded[n - 4:], "little") != crc32(body):
        return None
    return (body[0], body[1], bytes(body[2:]))


class FrameReader:
    """Splits an incoming byte stream at 0x00 and yields the intact frames.

    Garbage and damaged frames are dropped and counted; the reader always
    resynchronises at the next 0x00.
    """

    def __init__(self, limit: int = MAX_DECODED + 8) -> None:
        self.buf = bytearray()
        self.limit = limit
        self.overflow = False
        self.frames = 0
        self.bad = 0

    def feed(self, data: bytes | bytearray) -> list[tuple[int, int, bytes]]:
        """Feed bytes; return a list of (type, seq, payload) of the frames completed."""
        out = []
        for b in data:
            if b != 0:
                if len(self.buf) < self.limit:
                    self.buf.append(b)
                else:
                    self.overflow = True
                continue
            if self.overflow:
                self.bad += 1
            elif len(self.buf):
                raw = cobs_decode(self.buf)
                frame = unpack_frame(raw) if raw is not None else None
                if frame is None:
                    self.bad += 1
                else:
                    self.frames += 1
                    out.append(frame)
            self.buf = bytearray()
            self.overflow = False
        return out


def set_packed(buf: bytearray, i: int, value: int) -> None:
    """Put sensor i's value 0..3 into SCAN's packing: four to a byte, the first lowest."""
    shift = (i & 3) << 1
    buf[i >> 2] = (buf[i >> 2] & ~(3 << shift) & 0xFF) | ((value & 3) << shift)


def pack_sensors(values: list[int]) -> bytes:
    """Pack sensor values 0..3 four to a byte, the first in the lowest two bits."""
    n = len(values)
    out = bytearray((n + 3) // 4)
    for i in range(n):
        set_packed(out, i, values[i])
    return bytes(out)


def unpack_sensors(payload: bytes, count: int) -> list[int]:
    return [(payload[i >> 2] >> ((i & 3) << 1)) & 3 for i in range(count)]


def hello_payload(rows: int, cols: int, firmware: str) -> bytes:
    return bytes((VERSION, rows, cols)) + firmware.encode()


def error_payload(code: int, text: str) -> bytes:
    return bytes((code & 0xFF,)) + text.encode()[:MAX_PAYLOAD - 1]


def parse_config(payload: bytes) -> tuple[int, int, int] | None:
    """(scan_period_ms, debounce_scans, heartbeat_ms) of a CONFIG payload, or None."""
    if len(payload) != 5:
        return None
    period = payload[0] | (payload[1] << 8)
    count = payload[2]
    heartbeat = payload[3] | (payload[4] << 8)
    return (period, count, heartbeat)


def config_payload(period: int, count: int, heartbeat: int) -> bytes:
    return bytes((period & 0xFF, period >> 8, count, heartbeat & 0xFF, heartbeat >> 8))


def u16_bytes(values: "list[int]", start: int, count: int) -> bytes:
    """values[start:start + count] as uint16 little-endian."""
    out = bytearray(2 * count)
    for k in range(count):
        v = values[start + k]
        out[2 * k] = v & 0xFF
        out[2 * k + 1] = (v >> 8) & 0xFF
    return bytes(out)


def levels_payloads(levels: "list[int]", n: int) -> list:
    """The LEVELS payloads of n levels: first sensor, then up to 120 uint16 LE each."""
    out = []
    for first in range(0, n, LEVELS_PER_FRAME):
        count = n - first if n - first < LEVELS_PER_FRAME else LEVELS_PER_FRAME
        out.append(bytes((first,)) + u16_bytes(levels, first, count))
    return out


def parse_calibrate(payload: bytes) -> "tuple[int, list[int]] | None":
    """(first sensor, [empty, white, black, ...]) of a CALIBRATE payload, or None when its
    length is not 1 + 6k bytes with 1 <= k <= 40."""
    n = len(payload) - 1
    if n < 6 or n % 6 or n // 6 > CAL_ROWS_PER_FRAME:
        return None
    values = [payload[1 + 2 * k] | (payload[2 + 2 * k] << 8) for k in range(n // 2)]
    return (payload[0], values)


def calibrate_payload(first: int, values: "list[int]") -> bytes:
    """A CALIBRATE payload: first sensor, then the (empty, white, black) triples."""
    return bytes((first,)) + u16_bytes(values, 0, len(values))


def cal_status_payload(status: int, crc: int, count: int) -> bytes:
    return bytes((status,)) + (crc & 0xFFFFFFFF).to_bytes(4, "little") + bytes((count & 0xFF, count >> 8))
