"""What carries the link's bytes: an interface object, as luma's `serial_interface` or
gpiozero's `pin_factory`.

`BoardLink` (board_link.py) runs the protocol (host_protocol.py) over any `LinkInterface`:
pyserial on a device path (`SerialPort`, serial_link.py: the Pi's /dev/bgboard, or a
pseudo-terminal the virtual board writes to), or an in-memory cable to the virtual board
(sim/memory_cable.py: the headless runner and the tests, no thread and no real time).

An interface tells its `LinkHost` (the link) what happens on the line: the port opened,
bytes arrived, the port was lost, nothing arrived for a while. One that reads on a thread
of its own says so (`threaded`): the link then hands what it decoded to the event loop;
one without a thread calls the host on the caller's thread, and the link hands the
messages on at once.
"""
from __future__ import annotations

from typing import Protocol


class LinkHost(Protocol):
    """What an interface tells the link (BoardLink implements it)."""

    def opened(self) -> None:
        """The port opened (again): the board may be asked HELLO?."""

    def received(self, data: bytes) -> None:
        """Bytes arrived from the board."""

    def lost(self, detail: str) -> None:
        """The port failed or vanished; `detail` says how, in one line with a hint."""

    def idle(self) -> None:
        """A read came back (with or without bytes): time to look for a silent board."""


class LinkInterface(Protocol):
    """A line to one board (see the module docstring)."""

    #: the port's name in every message (a device path, or what the cable is)
    name: str
    #: True when the host is called back from a thread of the interface's own
    threaded: bool
    #: times the port came back after it was lost
    reconnects: int

    def start(self, host: LinkHost) -> None:
        """Open the line and start telling `host`; LinkError (one line) if it cannot open."""

    def write(self, data: bytes) -> bool:
        """Send bytes to the board; False when the line is down."""

    def stop(self) -> None:
        """Stop telling the host and close the line; idempotent."""
