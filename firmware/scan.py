# bgboard firmware: reading the hall sensors through a chain of 74HC165 shift registers.
#
# Each sensor has two comparator outputs, north and south; white checkers carry their
# magnet north side down, black south side down. The chain is 2 bits a sensor:
# the k-th bit shifted out is sensor k // 2, north when k is even, south when odd.
# SPI shifts MSB first, so chain bit k is bit (7 - k % 8) of byte k // 8.
#
# Plain module: it takes an SPI-like object (readinto(buf)) and a load pin
# (value(v)); main.py and pins.py build the real ones, the simulator and the tests
# pass fakes. Same subset of Python as wire.py (runs on MicroPython and CPython).

MYPY = False
if MYPY:  # type checkers only: MicroPython has no typing module
    from typing import Protocol

    class SpiLike(Protocol):
        def readinto(self, buf: bytearray) -> object: ...

    class PinLike(Protocol):
        def value(self, v: int) -> object: ...

EMPTY = 0
WHITE = 1
BLACK = 2
FAULT = 3


def chain_bytes(n_sensors: int) -> int:
    """Bytes to read for n sensors (2 bits each), i.e. the number of 74HC165s."""
    return (2 * n_sensors + 7) // 8


_BYTE_VALUES = None  # type: list[tuple[int, int, int, int]] | None


def _byte_values() -> "list[tuple[int, int, int, int]]":
    """The four sensor values each chain byte holds, for all 256 bytes (made once)."""
    global _BYTE_VALUES
    if _BYTE_VALUES is None:
        table = []
        for b in range(256):
            table.append(tuple(((b >> (7 - 2 * m)) & 1) | (((b >> (6 - 2 * m)) & 1) << 1)
                               for m in range(4)))
        _BYTE_VALUES = table  # type: ignore[assignment]
    return _BYTE_VALUES  # type: ignore[return-value]


def decode_chain(buf: bytes | bytearray, n_sensors: int) -> list[int]:
    """Sensor values 0..3 (empty, white, black, fault) from the raw chain bytes.

    A table of the four values of each byte value: on the Pico this is a byte loop of
    46 steps, not a bit loop of 182 (4.8 ms of a 10 ms scan period before)."""
    table = _byte_values()
    out = []  # type: list[int]
    for j in range(chain_bytes(n_sensors)):
        out.extend(table[buf[j]])
    if len(out) > n_sensors:
        out = out[:n_sensors]
    return out


def changed_sensors(old: bytes | bytearray, new: bytes | bytearray, n_sensors: int) -> list[int]:
    """The sensors whose 2 chain bits differ between two reads of the chain."""
    out = []  # type: list[int]
    for j in range(chain_bytes(n_sensors)):
        diff = old[j] ^ new[j]
        if diff:
            for m in range(4):
                if diff & (0xC0 >> (2 * m)) and 4 * j + m < n_sensors:
                    out.append(4 * j + m)
    return out


def encode_chain(values: list[int]) -> bytearray:
    """The raw chain bytes that a list of sensor values would shift out (sim and tests)."""
    n = len(values)
    buf = bytearray(chain_bytes(n))
    for i in range(n):
        v = values[i]
        k = 2 * i
        if v & 1:
            buf[k >> 3] |= 1 << (7 - (k & 7))
        k += 1
        if v & 2:
            buf[k >> 3] |= 1 << (7 - (k & 7))
    return buf


class Scanner:
    """One scan: latch every sensor (SH/LD low then high), then shift the chain in."""

    def __init__(self, spi: "SpiLike", load: "PinLike", n_sensors: int) -> None:
        self.spi = spi
        self.load = load
        self.n = n_sensors
        self.buf = bytearray(chain_bytes(n_sensors))
        load.value(1)

    def read(self) -> bytearray:
        """Latch and shift in the chain; the raw bytes (one buffer, reused)."""
        self.load.value(0)   # parallel load: the 74HC165s latch their inputs
        self.load.value(1)   # back to shift mode
        self.spi.readinto(self.buf)
        return self.buf

    def decode(self, buf: bytes | bytearray) -> list[int]:
        return decode_chain(buf, self.n)

    def scan(self) -> list[int]:
        return decode_chain(self.read(), self.n)
