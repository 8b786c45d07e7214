"""The virtual board's end of the cable: a pseudo-terminal behind a stable symlink.

The controller opens `path` (a symlink in a private temp directory to the pty's slave)
with pyserial like a real `/dev/ttyACM0`. `unplug()` closes both ends and removes the
symlink, so the host's reads fail and reopening finds no device, as when USB goes away;
`plug()` makes a fresh pty at the same path. Bytes to the host pass a line model that
can add noise, drop and flip bytes, from a seeded random source.
"""
from __future__ import annotations

import errno
import os
import select
import tempfile
import termios
import tty
from pathlib import Path

from sim.line_faults import FaultyLine


class PtyCable(FaultyLine):
    def __init__(self, link_dir: str | Path | None = None, *, seed: int = 0,
                 write_timeout: float = 0.5) -> None:
        super().__init__(seed)
        self._own_dir = link_dir is None
        self.dir = Path(tempfile.mkdtemp(prefix="bgboard-vboard-")) if link_dir is None \
            else Path(link_dir)
        self.path = str(self.dir / "ttyBGBOARD")
        self.write_timeout = write_timeout
        self._master: int | None = None
        self._slave: int | None = None
        self._congested = False
        self.plug()

    @property
    def plugged(self) -> bool:
        return self._master is not None

    @property
    def slave_name(self) -> str | None:
        return os.ttyname(self._slave) if self._slave is not None else None

    def plug(self) -> None:
        if self._master is not None:
            return
        master, slave = os.openpty()
        tty.setraw(slave, termios.TCSANOW)   # no echo, no line editing: a binary line
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        tmp = self.path + ".new"
        if os.path.lexists(tmp):
            os.unlink(tmp)
        os.symlink(os.ttyname(slave), tmp)
        os.replace(tmp, self.path)
        self._congested = False

    def unplug(self) -> None:
        if os.path.lexists(self.path):
            os.unlink(self.path)
        for fd in (self._master, self._slave):
            if fd is not None:
                os.close(fd)
        self._master = self._slave = None

    def close(self) -> None:
        self.unplug()
        if self._own_dir:
            try:
                self.dir.rmdir()
            except OSError:
                pass  # someone left a file there; a temp dir, harmless

    # -- bytes --------------------------------------------------------------------------
    def write(self, data: bytes) -> None:
        """Bytes from the board to the host; lost when unplugged or nobody reads for long."""
        self._write_raw(self.mangle(data))

    def noise(self, n_bytes: int) -> None:
        self._write_raw(self.random_bytes(n_bytes))

    def _write_raw(self, data: bytes) -> None:
        view = memoryview(data)
        while view and self._master is not None:
            try:
                n = os.write(self._master, view)
            except BlockingIOError:
                n = 0
            except OSError as exc:
                if exc.errno in (errno.EIO, errno.EBADF):
                    break
                raise
            if n:
                view = view[n:]
                self._congested = False
                continue
            if self._congested:
                break  # nobody has read for a while: drop, like a full USB buffer
            _, ready, _ = select.select([], [self._master], [], self.write_timeout)
            if not ready:
                self._congested = True
                break
        self.bytes_dropped += len(view)

    def read(self) -> bytes:
        """Bytes from the host, whatever has arrived (non-blocking)."""
        if self._master is None:
            return b""
        try:
            return os.read(self._master, 4096)
        except (BlockingIOError, InterruptedError):
            return b""
        except OSError as exc:
            if exc.errno == errno.EIO:
                return b""
            raise
