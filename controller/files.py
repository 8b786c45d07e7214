"""Reading a file that someone else may have put there: bounded, and regular files only;
writing one where someone else may have put a link: `write_atomically`.

Every file bgboard reads (a saved match, the simulator's settings, a profile, a config, a
record to replay, analyse or verify) is small: the longest of 1,464 real match records is
21 KB. Read whole, `/dev/zero` was a MemoryError traceback and a 50 MB file 651 MB of
memory; opened plainly, a FIFO hung the start where Ctrl-C could not stop it. So every
read goes through :func:`read_bounded`: the file is opened without blocking, must be a
regular file, and is read up to :data:`MAX_BYTES`; what is not is an ``OSError`` whose
``strerror`` is the one line to show (``not a regular file``, ``larger than 4 MB``), so
callers keep their one ``except OSError`` and their one line.
"""
from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path

from controller.outside_text import printable

#: the most bytes bgboard reads of any one file
MAX_BYTES = 4 * 1024 * 1024


class FileTooLarge(OSError):
    """A file past the bound: not one of bgboard's files (nothing of it is used)."""


def read_bounded(path: str | Path, limit: int = MAX_BYTES) -> bytes:
    """The bytes of the regular file `path`, at most `limit` of them; OSError otherwise
    (FileNotFoundError as ``open`` raises it, FileTooLarge past the bound)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
            size += len(chunk)
        raise FileTooLarge(errno.EFBIG, f"larger than {limit // (1024 * 1024)} MB",
                           str(path))
    finally:
        os.close(fd)


def read_text_bounded(path: str | Path, limit: int = MAX_BYTES) -> str:
    """As :func:`read_bounded`, as UTF-8 text (a byte-order mark dropped; a byte that is
    not UTF-8 is a ValueError)."""
    return read_bounded(path, limit).decode("utf-8").lstrip("\ufeff")


def holder_of(path: str | Path) -> str:
    """Who else holds `path`, for the one line that says a table's state directory or
    serial port is taken: ``pid 4242 (bgboard sim --port 8081)``. The process holding a
    lock on it (/proc/locks) comes first, else one that has it open (/proc/*/fd; Linux, as
    the Pi); ``another process`` when neither can be seen."""
    target = os.path.realpath(path)
    pid = _locker(target) or _opener(target)
    if pid is None:
        return "another process"
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            command = handle.read(200).replace(b"\0", b" ").decode("utf-8", "replace").strip()
    except OSError:
        return f"pid {pid}"
    return f"pid {pid} ({printable(command)})"


def _locker(target: str) -> str | None:
    try:
        st = os.stat(target)
        with open("/proc/locks", encoding="ascii", errors="replace") as handle:
            locks = handle.read(1 << 20).splitlines()
    except OSError:
        return None
    inode = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    for line in locks:
        fields = line.split()
        if len(fields) > 5 and fields[5] == inode and fields[4] != str(os.getpid()):
            return fields[4]
    return None


def _opener(target: str) -> str | None:
    me = str(os.getpid())
    try:
        pids = [e.name for e in os.scandir("/proc") if e.name.isdigit() and e.name != me]
    except OSError:
        return None
    for pid in pids:
        try:
            if any(os.readlink(fd.path) == target for fd in os.scandir(f"/proc/{pid}/fd")):
                return pid
        except OSError:
            continue
    return None


def write_atomically(path: str | Path, data: bytes | str, *, mode: int = 0o644) -> None:
    """Write `data` to `path` whole or not at all, never through a link someone planted.

    The bytes go to a temporary file of a fresh random name beside `path` (created with
    O_EXCL: a file or link already there is never opened, never followed), are fsynced,
    and the temporary file is renamed over `path` (a rename replaces a link at `path`
    itself, it never writes where the link points), then the directory is fsynced. A
    fixed temporary name (`choices.tmp`) that was a symlink once made the table write its
    language into the link's target and `choices.json` become the link (issue 35.17). The
    directory is created when missing. OSError when it cannot be done; the old file, if
    any, is then as it was."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data.encode("utf-8") if isinstance(data, str) else data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _fsync_directory(target.parent)


def _fsync_directory(directory: Path) -> None:
    """Make a rename durable (POSIX); nothing where a directory cannot be opened."""
    try:
        fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
