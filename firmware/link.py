# bgboard firmware: the byte link to the host, USB CDC or the UART, as a plain class.
#
# Why its own piece: a write on the Pico's USB serial port waits (up to 500 ms a call in
# MicroPython's rp2 port) while a host holds the port open without reading. Several frames
# in one loop step (PONGs for a burst of PINGs, an ERROR, a SCAN) could then wait longer
# than the 2 s watchdog and the board would restart itself because of the host. Link
# writes a frame only when the port can take bytes now and drops it otherwise: the host
# sees the gap in seq (lost frames), the board keeps scanning and feeding its watchdog.
#
# Plain module (no `machine`): main.py passes sys.stdin/sys.stdout or a machine.UART and
# select.poll objects; the tests pass fakes. Same Python subset as wire.py.

MYPY = False
if MYPY:  # type checkers only: MicroPython has no typing module
    from typing import Protocol

    class Poller(Protocol):
        def poll(self, timeout: int) -> list[object]: ...

    class Reader(Protocol):
        def read(self, n: int) -> bytes | None: ...

    class Writer(Protocol):
        def write(self, data: bytes) -> object: ...

READ_CHUNK = 64           # bytes taken from the host a loop step at most


class Link:
    """Non-blocking reads and writes on one port; counts the frames it had to drop."""

    def __init__(self, inp: "Reader", out: "Writer", readable: "Poller", writable: "Poller") -> None:
        self.inp = inp
        self.out = out
        self.readable = readable    # a poll object registered for POLLIN on inp
        self.writable = writable    # a poll object registered for POLLOUT on out
        self.dropped = 0            # frames not written: the port could take nothing
        self.written = 0

    def read(self) -> bytearray:
        """What the host sent so far (at most READ_CHUNK bytes); never waits."""
        got = bytearray()
        while len(got) < READ_CHUNK and self.readable.poll(0):
            byte = self.inp.read(1)
            if not byte:
                break
            got.extend(byte)
        return got

    def write(self, frame: bytes) -> None:
        """Send a frame if the port has room now, else drop it (never waits for the host)."""
        if self.writable.poll(0):
            self.out.write(frame)
            self.written += 1
        else:
            self.dropped += 1
