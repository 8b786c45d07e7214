"""The link's interface on a serial port, over pyserial: the Pi's /dev/bgboard, or the
pseudo-terminal of a virtual board (`bgboard monitor --sim`, the simulator page).

A reader thread owns the port: it opens it, reads, and tells the link (`LinkHost`) what
it read, from the thread; when the port fails or vanishes (USB unplugged) it closes it
and reopens it with exponential backoff until it comes back. The protocol itself is not
here (controller/link/host_protocol.py does no I/O); `BoardLink` hands what it decodes to the
event loop.

    port = SerialPort("/dev/ttyACM0", baudrate=115200)
    link = BoardLink(port, on_frame=handle)      # or BoardLink("/dev/ttyACM0", ...)

OS errors become `controller.errors.LinkError` naming the device and a hint, e.g. the
`dialout` group for a permission error.
"""
from __future__ import annotations

import errno
import fcntl
import os
import threading

import serial

from controller.errors import LinkError
from controller.files import holder_of
from controller.link.interface import LinkHost

#: the pauses between two attempts to reopen a lost port: the first, doubled up to the last
DEFAULT_BACKOFF = (0.05, 0.5)

def link_error(port: str, exc: BaseException) -> LinkError:
    """One clear message for an OS or pyserial error on `port`, with a hint."""
    code = getattr(exc, "errno", None)
    reason = getattr(exc, "strerror", None) or str(exc)
    if code in (errno.EACCES, errno.EPERM):
        return LinkError(f"{port}: permission denied; add the user to the dialout group "
                         "(sudo usermod -aG dialout $USER) and log in again")
    if code in (errno.ENOENT, errno.ENODEV, errno.ENXIO):
        return LinkError(f"{port}: no such device; is the board plugged in? "
                         "(ls /dev/ttyACM* /dev/ttyUSB*)")
    if code in (errno.EBUSY, errno.EAGAIN):  # EAGAIN: the exclusive lock another table holds
        return LinkError(f"{port}: busy; another program has the port open ({holder_of(port)}): "
                         "one table per port")
    if code == errno.ENOTTY or "Inappropriate ioctl" in reason:
        return LinkError(f"{port}: not a serial port; pass the board's device, e.g. /dev/ttyACM0")
    if code == errno.EIO or "returned no data" in reason:
        return LinkError(f"{port}: the device went away (cable pulled or board reset)")
    return LinkError(f"{port}: {reason}; check the cable and the --port path")


def check_port(port: str) -> None:
    """Before a table starts on `port`: LinkError (one line) when it is there but can never
    be the board's (not a serial port: /dev/null, a file) or another table holds it; a
    port not there yet is fine (the board may be plugged in later)."""
    try:
        fd = os.open(port, os.O_RDWR | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise link_error(port, exc) from None
    try:
        if not os.isatty(fd):
            raise link_error(port, OSError(errno.ENOTTY, "not a tty"))
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            raise link_error(port, exc) from None
    finally:
        os.close(fd)  # the lock goes with it; the link takes its own (exclusive=True)


class SerialPort:
    """A `LinkInterface` on a device path, read by a thread (see the module docstring)."""

    threaded = True

    def __init__(self, path: str, *, baudrate: int = 115200, read_timeout: float = 0.02,
                 backoff: tuple[float, float] = DEFAULT_BACKOFF) -> None:
        self.name = path
        self.baudrate = baudrate
        self.read_timeout = read_timeout
        self.backoff = backoff
        self.reconnects = 0
        self._serial: serial.Serial | None = None
        self._write_lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._host: LinkHost | None = None

    def start(self, host: LinkHost) -> None:
        """Open the port (LinkError if that fails) and start reading on a thread."""
        if self._thread is not None:
            raise RuntimeError(f"{self.name}: already started")
        self._host = host
        self._open()
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name=f"SerialPort {self.name}", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=2)
        self._thread = None
        self._close_port()

    def write(self, data: bytes) -> bool:
        with self._write_lock:
            ser = self._serial
            if ser is None:
                return False
            try:
                ser.write(data)
            except (serial.SerialException, OSError):
                return False  # the reader thread notices and reconnects
            return True

    def _open(self) -> None:
        try:
            ser = serial.Serial(self.name, self.baudrate, timeout=self.read_timeout,
                                write_timeout=1.0, exclusive=True)
        except (serial.SerialException, OSError, ValueError) as exc:
            raise link_error(self.name, exc) from None
        with self._write_lock:
            self._serial = ser
        assert self._host is not None
        self._host.opened()

    def _close_port(self) -> None:
        with self._write_lock:
            ser, self._serial = self._serial, None
        if ser is not None:
            try:
                ser.close()
            except (serial.SerialException, OSError):
                pass  # closing a port that already vanished: nothing left to release

    def _run(self) -> None:
        host = self._host
        assert host is not None
        delay = self.backoff[0]
        while not self._stop.is_set():
            ser = self._serial
            if ser is None:
                try:
                    self._open()
                except LinkError as exc:
                    host.lost(str(exc))
                    self._stop.wait(delay)
                    delay = min(delay * 2, self.backoff[1])
                    continue
                self.reconnects += 1
                delay = self.backoff[0]
                continue
            try:
                data = ser.read(ser.in_waiting or 1)
            except (serial.SerialException, OSError, TypeError) as exc:
                # TypeError: pyserial reading a port closed under it by stop()
                if self._stop.is_set():
                    break
                self._close_port()
                host.lost(str(link_error(self.name, exc)))
                continue
            if data:
                host.received(data)
            host.idle()
