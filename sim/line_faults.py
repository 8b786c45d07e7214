"""What the virtual board's cable does to the bytes it carries to the host, whatever the
cable (a pseudo-terminal, sim/vboard_pty.py, or memory, sim/memory_cable.py): noise,
dropped and flipped bytes, from a seeded random source, each counted."""
from __future__ import annotations

import random
from typing import Protocol


class BoardCable(Protocol):
    """The board's end of a cable, as `VirtualBoard` uses it."""

    drop_p: float
    flip_p: float
    bytes_dropped: int

    @property
    def plugged(self) -> bool: ...

    @property
    def path(self) -> str: ...

    def write(self, data: bytes) -> None: ...
    def read(self) -> bytes: ...
    def drop_bytes(self, p: float) -> None: ...
    def flip_bytes(self, p: float) -> None: ...
    def noise(self, n_bytes: int) -> None: ...
    def plug(self) -> None: ...
    def unplug(self) -> None: ...
    def close(self) -> None: ...


class FaultyLine:
    """The faults of a line to the host: each byte dropped with `drop_p`, flipped with
    `flip_p` (0 both: bytes pass untouched); `random_bytes` is noise on the line."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.drop_p = 0.0
        self.flip_p = 0.0
        self.bytes_dropped = 0

    def drop_bytes(self, p: float) -> None:
        """From now on drop each byte with probability `p` (0 stops it)."""
        self.drop_p = _probability(p)

    def flip_bytes(self, p: float) -> None:
        """From now on corrupt each byte with probability `p` (0 stops it)."""
        self.flip_p = _probability(p)

    def mangle(self, data: bytes) -> bytes:
        if not self.drop_p and not self.flip_p:
            return data
        out = bytearray()
        rng = self.rng
        for b in data:
            if self.drop_p and rng.random() < self.drop_p:
                self.bytes_dropped += 1
                continue
            if self.flip_p and rng.random() < self.flip_p:
                b ^= rng.randrange(1, 256)
            out.append(b)
        return bytes(out)

    def random_bytes(self, n_bytes: int) -> bytes:
        return bytes(self.rng.randrange(256) for _ in range(n_bytes))


def _probability(p: float) -> float:
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"probability {p} out of 0..1")
    return p
