"""The virtual board's cable in memory: no pseudo-terminal, no thread, no real time.

The board's end is what `VirtualBoard` writes its frames to and reads the host's from, as
with the pseudo-terminal (sim/vboard_pty.py); the host's end (`host_end()`) is a
`LinkInterface` (controller/link/interface.py) that hands the board's bytes to the link
the moment the firmware writes them, on the thread that runs the board, so the table
hears the board at the board's own simulated time. What the host sends waits here until
the firmware runs next (`read`), as it would in the board's USB buffer.

    vb = VirtualBoard(profile, cable=MemoryCable())
    table = open_table(profile, BackendChoice(port=vb.cable.host_end(), ...), clock=...)
    vb.advance(20)          # the firmware runs; its SCANs reach the table meanwhile

Pulling it (`unplug`) tells the link at once that the device went away; plugging it in
again tells it the port is back (the board boots afresh: HELLO). Bytes written while no
link listens are lost, as on a USB port nobody has open. The headless runner and the
tests of an assembled table run on it; the simulator page and `bgboard monitor --sim`
keep the pseudo-terminal, and a few tests keep pyserial on it as the serial line's
contract.
"""
from __future__ import annotations

from controller.link.interface import LinkHost
from sim.line_faults import FaultyLine

NAME = "virtual board (in memory)"


class MemoryCable(FaultyLine):
    """The board's end (see the module docstring)."""

    def __init__(self, *, seed: int = 0) -> None:
        super().__init__(seed)
        self.path = NAME
        self._plugged = True
        self._to_board = bytearray()
        self._host = _HostEnd(self)

    def host_end(self) -> _HostEnd:
        """The host's end: the link's interface to this cable."""
        return self._host

    @property
    def plugged(self) -> bool:
        return self._plugged

    def plug(self) -> None:
        if self._plugged:
            return
        self._plugged = True
        self._host.came_back()

    def unplug(self) -> None:
        if not self._plugged:
            return
        self._plugged = False
        self._to_board.clear()
        self._host.went_away()

    def close(self) -> None:
        self.unplug()

    # -- bytes ------------------------------------------------------------------------------
    def write(self, data: bytes) -> None:
        """Bytes from the board to the host: handed to the link at once (lost when no link
        listens, or unplugged)."""
        self._to_host(self.mangle(data))

    def noise(self, n_bytes: int) -> None:
        self._to_host(self.random_bytes(n_bytes))

    def read(self) -> bytes:
        """Bytes from the host, whatever has arrived since the last read."""
        data = bytes(self._to_board)
        self._to_board.clear()
        return data

    def _to_host(self, data: bytes) -> None:
        if data and self._plugged and not self._host.deliver(data):
            self.bytes_dropped += len(data)

    def from_host(self, data: bytes) -> bool:
        """Bytes from the host, kept for the firmware's next read; False when unplugged."""
        if not self._plugged:
            return False
        self._to_board += data
        return True


class _HostEnd:
    """The host's end of a `MemoryCable`: a `LinkInterface` without a thread."""

    threaded = False

    def __init__(self, cable: MemoryCable) -> None:
        self._cable = cable
        self.name = NAME
        self.reconnects = 0
        self._host: LinkHost | None = None

    def start(self, host: LinkHost) -> None:
        """Listen from now on; a cable pulled out is said at once (and waited for)."""
        if self._host is not None:
            raise RuntimeError(f"{self.name}: already started")
        self._host = host
        if self._cable.plugged:
            host.opened()
        else:
            host.lost(f"{self.name}: no such device; is the board plugged in?")

    def stop(self) -> None:
        self._host = None

    def write(self, data: bytes) -> bool:
        return self._host is not None and self._cable.from_host(data)

    # -- from the board's end -------------------------------------------------------------
    def deliver(self, data: bytes) -> bool:
        host = self._host
        if host is None:
            return False
        host.received(data)
        return True

    def went_away(self) -> None:
        if self._host is not None:
            self._host.lost(f"{self.name}: the device went away (cable pulled or board reset)")

    def came_back(self) -> None:
        if self._host is not None:
            self.reconnects += 1
            self._host.opened()
