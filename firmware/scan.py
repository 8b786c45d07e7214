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


def decode_chain(buf: bytes | bytearray, n_sensors: int) -> list[int]:
    """Sensor values 0..3 (empty, white, black, fault) from the raw chain bytes."""
    out = [0] * n_sensors
    for i in range(n_sensors):
        k = 2 * i
        north = (buf[k >> 3] >> (7 - (k & 7))) & 1
        k += 1
        south = (buf[k >> 3] >> (7 - (k & 7))) & 1
        out[i] = north | (south << 1)
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
