# bgboard firmware: the sensors' calibration on the Pico's flash.
#
# The table is every sensor's (empty, white, black) level, uint16 little-endian mV,
# sensor by sensor; its CRC-32 is what CAL_SAVE carries and CAL_STATUS reports. The file
# holds MAGIC, the sensor count (uint16 LE), the table and the CRC (uint32 LE).
#
# Written atomically: the new table goes to TEMP_FILE first and is renamed over
# CAL_FILE only once it is whole (littlefs renames atomically). A power cut while
# writing leaves the old file as it was; one during the rename leaves a whole new
# temp file, which the next boot takes when the old one is gone. A file whose length,
# magic or CRC is wrong is never used.
#
# The file system comes in as three functions (open, rename, remove): the Pico's
# built-ins in main.py, a fake flash in the tests and the virtual board.
# Same Python subset as wire.py: it runs on MicroPython and CPython.

try:
    from firmware import wire
except ImportError:
    import wire  # type: ignore[import-not-found,no-redef,unused-ignore]

MYPY = False
if MYPY:  # type checkers only: MicroPython has no typing module
    from collections.abc import Callable

CAL_FILE = "cal.bin"
TEMP_FILE = "cal.tmp"
MAGIC = b"bgC1"


def table_bytes(table: "list[int]") -> bytes:
    return wire.u16_bytes(table, 0, len(table))


def table_crc(table: "list[int]") -> int:
    """The CRC-32 of a table as CAL_SAVE and CAL_STATUS carry it."""
    return wire.crc32(table_bytes(table))


def encode(table: "list[int]") -> bytes:
    n = len(table) // 3
    return MAGIC + bytes((n & 0xFF, n >> 8)) + table_bytes(table) + \
        table_crc(table).to_bytes(4, "little")


def decode(data: bytes, n: int) -> "list[int] | None":
    """The table of a file's bytes for n sensors, or None when it is not one."""
    if len(data) != 4 + 2 + 6 * n + 4 or data[:4] != MAGIC or (data[4] | (data[5] << 8)) != n:
        return None
    body = data[6:6 + 6 * n]
    if wire.crc32(body) != int.from_bytes(data[6 + 6 * n:], "little"):
        return None
    return [body[2 * k] | (body[2 * k + 1] << 8) for k in range(3 * n)]


class Store:
    """Reads and writes the calibration file; see the module comment."""

    def __init__(self, open_file: "Callable[[str, str], object]", rename: "Callable[[str, str], object]",
                 remove: "Callable[[str], object]") -> None:
        self.open_file = open_file
        self.rename = rename
        self.remove = remove

    def _read(self, name: str) -> "bytes | None":
        try:
            fh = self.open_file(name, "rb")
            try:
                return fh.read()  # type: ignore[attr-defined]
            finally:
                fh.close()  # type: ignore[attr-defined]
        except OSError:
            return None

    def load(self, n: int) -> "list[int] | None":
        """The stored table of n sensors, or None (none stored, or damaged)."""
        for name in (CAL_FILE, TEMP_FILE):
            data = self._read(name)
            if data is not None:
                table = decode(data, n)
                if table is not None:
                    return table
        return None

    def present(self) -> bool:
        """Whether a calibration file is there at all (used or not)."""
        return self._read(CAL_FILE) is not None or self._read(TEMP_FILE) is not None

    def save(self, table: "list[int]") -> bool:
        """Write `table` atomically; False (the old file untouched) when writing failed."""
        data = encode(table)
        try:
            fh = self.open_file(TEMP_FILE, "wb")
            try:
                fh.write(data)  # type: ignore[attr-defined]
            finally:
                fh.close()  # type: ignore[attr-defined]
            if self._read(TEMP_FILE) != data:
                return False
            try:
                self.rename(TEMP_FILE, CAL_FILE)
            except OSError:          # a file system that does not rename over a file
                self.remove(CAL_FILE)
                self.rename(TEMP_FILE, CAL_FILE)
        except OSError:
            return False
        return True
