"""gnubg's bear-off databases as gnubg-nn uses them at 0 ply.

One-sided (`gnubg_os0.bd`, Debian's gnubg-data): for every home board of up to fifteen
checkers, the chances of needing 0..31 rolls to bear off, and 0..31 rolls to bear off the
first checker (for gammons); the compressed layout is a 40-byte header, an 8-byte index
per position (offset in shorts, count and first roll of each distribution), then the
unsigned shorts (chance x 65535). Two-sided (`gnubg_ts0.bd`: six points, six checkers):
four unsigned shorts per pair of positions, the first the cubeless equity of the side on
roll as (equity + 1) / 2 x 65535. gnubg-nn carries both; without it, Debian's
`makebearoff` (in the gnubg package) writes the two-sided one (`ensure_two_sided`).
"""
from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from functools import lru_cache
from math import comb
from pathlib import Path

from controller.evaluation.bearoff_index import bearoff_index, one_sided_index

ONE_SIDED = (Path("/usr/share/gnubg/gnubg_os0.bd"), Path("/usr/lib/gnubg/gnubg_os0.bd"))
TWO_SIDED = (Path("/var/lib/gnubg/gnubg_ts0.bd"), Path("/usr/share/gnubg/gnubg_ts0.bd"))
_HEADER, _SCALE = 40, 65535
_FIFTEEN_ON_BOARD = 38760  # one-sided indices above this have all fifteen checkers home


def _wheel_data(name: str) -> list[Path]:
    """The gnubg-nn wheel's copy of a database, found without importing the wheel (its
    import loads its own networks and databases: some 40 MB)."""
    try:
        spec = importlib.util.find_spec("gnubg_nn")
    except (ImportError, ValueError):
        return []
    places = list(spec.submodule_search_locations or []) if spec is not None else []
    return [Path(place) / "data" / name for place in places]


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "bgboard"


class OneSided:
    """The one-sided database read once into memory (1.4 MB)."""

    def __init__(self, data: bytes) -> None:
        if not data.startswith(b"gnubg-OS-06-15-1-1"):
            raise ValueError("not gnubg's compressed one-sided bear-off database with gammons")
        self._data = data
        self._positions = comb(21, 6)
        self._base = _HEADER + 8 * self._positions

    @lru_cache(maxsize=1 << 12)
    def distributions(self, index: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(rolls to bear off, rolls to bear off the first checker), 32 shorts each."""
        d = self._data
        at = _HEADER + 8 * index
        offset = int.from_bytes(d[at:at + 4], "little")
        nz, ioff, nzg, ioffg = d[at + 4], d[at + 5], d[at + 6], d[at + 7]
        start = self._base + 2 * offset
        values = [int.from_bytes(d[start + 2 * i:start + 2 * i + 2], "little") for i in range(nz + nzg)]
        bear = [0] * 32
        bear[ioff:ioff + nz] = values[:nz]
        first = [0] * 32
        first[ioffg:ioffg + nzg] = values[nz:]
        return tuple(bear), tuple(first)


@lru_cache(maxsize=1)
def one_sided() -> OneSided | None:
    for path in _wheel_data("gnubg_os0.bd") + list(ONE_SIDED):
        if path.is_file():
            return OneSided(path.read_bytes())
    return None


@lru_cache(maxsize=1)
def two_sided() -> bytes | None:
    """The two-sided database (gnubg-nn's copy, an installed one, or the one
    `ensure_two_sided` made), or None."""
    for path in _wheel_data("gnubg_ts0.bd") + list(TWO_SIDED) + [cache_dir() / "gnubg_ts0.bd"]:
        if path.is_file():
            data = path.read_bytes()
            if data.startswith(b"gnubg-TS-06-06"):
                return data
    return None


def ensure_two_sided() -> bool:
    """Write the two-sided database into the cache with Debian's `makebearoff` when no
    copy exists (about a minute, once); True when one is at hand afterwards."""
    if two_sided() is not None:
        return True
    tool = shutil.which("makebearoff") or shutil.which("/usr/games/makebearoff")
    if tool is None:
        return False
    target = cache_dir() / "gnubg_ts0.bd"
    target.parent.mkdir(parents=True, exist_ok=True)
    # a fresh name of its own (O_EXCL): a fixed one, or one built from the process id, is a
    # name someone can plant a link at before makebearoff writes through it
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    partial = Path(name)
    try:
        subprocess.run([tool, "-t", "6x6", "-f", str(partial)], check=True, capture_output=True, timeout=900)
        partial.replace(target)
    except (OSError, subprocess.SubprocessError):
        partial.unlink(missing_ok=True)
        return False
    two_sided.cache_clear()
    return two_sided() is not None


def _gammon_make(first: Sequence[int]) -> tuple[float, float, float]:
    """The chances to have borne off the first checker within 1, 2, 3 rolls."""
    m0 = first[1] / _SCALE
    m1 = m0 + first[2] / _SCALE
    return m0, m1, m1 + first[3] / _SCALE


def one_sided_eval(board: Sequence[Sequence[int]]) -> list[float]:
    """gnubg-nn's `EvalBearoff1Full`: wins from the two sides' distributions (the side on
    roll, `board[1]`, wins when it needs no more rolls than the other), gammons where a
    side has not borne off yet."""
    db = one_sided()
    if db is None:
        raise LookupError("no one-sided bear-off database")
    n, n_opp = one_sided_index(board[1]), one_sided_index(board[0])
    mine, _ = db.distributions(n)
    theirs, _ = db.distributions(n_opp)
    out = [0.0] * 5
    if n > _FIFTEEN_ON_BOARD - 1 or n_opp > _FIFTEEN_ON_BOARD - 1:
        if sum(board[0][:6]) == 15:
            make = _gammon_make(db.distributions(n_opp)[1])
            out[1] = (mine[1] + (1 - make[0]) * mine[2] + (1 - make[1]) * mine[3] + (1 - make[2]) * mine[4]) / _SCALE
        if sum(board[1][:6]) == 15:
            make = _gammon_make(db.distributions(n)[1])
            out[3] = (theirs[1] * (1 - make[0]) + theirs[2] * (1 - make[1]) + theirs[3] * (1 - make[2])) / _SCALE
    suffix = 0
    total = 0
    for i in range(31, -1, -1):
        suffix += theirs[i]
        total += mine[i] * suffix
    out[0] = total / (_SCALE * _SCALE)
    return out


def two_sided_eval(board: Sequence[Sequence[int]]) -> list[float] | None:
    """The small bear-off's chance to win from the two-sided database (no gammons
    there), or None without it."""
    data = two_sided()
    if data is None:
        return None
    pos = bearoff_index(board[1], 6) * comb(12, 6) + bearoff_index(board[0], 6)
    at = _HEADER + 8 * pos
    return [int.from_bytes(data[at:at + 2], "little") / _SCALE, 0.0, 0.0, 0.0, 0.0]
