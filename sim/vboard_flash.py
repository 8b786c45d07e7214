"""The virtual board's flash: the files the firmware keeps (its calibration), in memory.

`MemoryFlash` gives the firmware's calibration store (firmware/calstore.py) the three
file functions it takes on the Pico (open, rename, remove). The files outlive a reboot
of the firmware, as the Pico's flash does. `cut_after(n)` makes the next writes stop
after n bytes, as a power cut would: the part written stays, the write raises OSError.
"""
from __future__ import annotations

import io


class _Writer(io.BytesIO):
    """A file being written: its bytes land in the flash as they are written."""

    def __init__(self, flash: MemoryFlash, name: str) -> None:
        super().__init__()
        self._flash = flash
        self._name = name
        flash.files[name] = b""

    def write(self, data: bytes) -> int:  # type: ignore[override]
        room = self._flash.take(len(data))
        self._flash.files[self._name] += bytes(data[:room])
        if room < len(data):
            raise OSError(5, "power cut while writing")
        return room


class MemoryFlash:
    """Files by name, in memory; see the module docstring."""

    def __init__(self, files: dict[str, bytes] | None = None) -> None:
        self.files: dict[str, bytes] = dict(files or {})
        self._budget: int | None = None

    def take(self, n: int) -> int:
        """How many of n bytes may still be written before the cut."""
        if self._budget is None:
            return n
        room = min(n, self._budget)
        self._budget -= room
        return room

    def cut_after(self, n: int | None) -> None:
        """From now on writes stop after `n` more bytes (None: never)."""
        self._budget = n

    def open(self, name: str, mode: str) -> io.BytesIO:
        if "w" in mode:
            if self._budget == 0:
                raise OSError(5, "power cut")
            return _Writer(self, name)
        if name not in self.files:
            raise OSError(2, f"no file {name}")
        return io.BytesIO(self.files[name])

    def rename(self, old: str, new: str) -> None:
        if old not in self.files or self._budget == 0:
            raise OSError(2, f"cannot rename {old}")
        self.files[new] = self.files.pop(old)

    def remove(self, name: str) -> None:
        if name not in self.files:
            raise OSError(2, f"no file {name}")
        del self.files[name]
