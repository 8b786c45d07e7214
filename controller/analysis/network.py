"""GNU Backgammon's network for the analysis: gnubg-nn, with gnubg 1.07's own weights when
the gnubg program is installed.

The gnubg-nn wheel ships weights that differ from those of the Debian gnubg 1.07 program
by about 5e-4 in the chances, enough to move error totals by a few per cent. The program
keeps its weights in a binary file (`gnubg.wd`: a magic float, a version float, then six
networks: contact, race, crashed and their three pruning networks, each
`inputs hidden outputs trained beta_hidden beta_output` and its floats); gnubg-nn reads
the text format ("GNU Backgammon 1.01", then per network a name line, the same six
numbers and one float a line, in the order race, crashed, contact, each followed by its
pruning network). So the binary file is rewritten once as text in the user's cache and
loaded with `net_load`; without the program the wheel's own weights are used.
"""
from __future__ import annotations

import hashlib
import os
import struct
from pathlib import Path
from types import ModuleType

from controller.bot.gnubg_level import load_gnubg_nn
from controller.errors import BackendUnavailableError

BINARY_WEIGHTS = (Path("/usr/lib/gnubg/gnubg.wd"), Path("/usr/share/gnubg/gnubg.wd"))
_BINARY_ORDER = ("contact", "race", "crashed", "prune contact", "prune crashed", "prune race")
_TEXT_ORDER = (("race", "race"), ("prune race", "prune race"), ("crashed", "crashed"),
               ("prune crashed", "prune crashed"), ("contact", "contact contact250"),
               ("prune contact", "prune contact"))
_state: dict[str, object] = {}


def _cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "bgboard"


def binary_to_text(data: bytes) -> str:
    """gnubg's binary weights as the text gnubg-nn reads."""
    offset = 8
    nets: dict[str, tuple[str, tuple[float, ...]]] = {}
    for name in _BINARY_ORDER:
        inputs, hidden, outputs, _trained = struct.unpack_from("<iiii", data, offset)
        beta_h, beta_o = struct.unpack_from("<ff", data, offset + 16)
        offset += 24
        count = inputs * hidden + hidden * outputs + hidden + outputs
        weights = struct.unpack_from(f"<{count}f", data, offset)
        offset += 4 * count
        nets[name] = (f"{inputs} {hidden} {outputs} 0 {beta_h:.7f} {beta_o:.7f}", weights)
    if offset != len(data):
        raise ValueError("not gnubg's binary weights: unexpected length")
    lines = ["GNU Backgammon 1.01"]
    for key, label in _TEXT_ORDER:
        head, weights = nets[key]
        lines += [label, head]
        lines += [f"{w:.9g}" for w in weights]
    return "\n".join(lines) + "\n"


def _program_weights() -> Path | None:
    """The text copy of the installed gnubg program's weights (made once), or None."""
    source = next((p for p in BINARY_WEIGHTS if p.is_file()), None)
    if source is None:
        return None
    data = source.read_bytes()
    target = _cache_dir() / f"gnubg-{hashlib.sha1(data).hexdigest()[:12]}.weights"
    if not target.is_file():
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(binary_to_text(data))
        partial.replace(target)
    return target


def load_network() -> ModuleType:
    """gnubg-nn with the best weights at hand; one-line BackendUnavailableError without it."""
    module = load_gnubg_nn()
    if module is None:
        raise BackendUnavailableError("analysis needs GNU Backgammon's network (pip install gnubg-nn)")
    if "weights" not in _state:
        path = None
        try:
            path = _program_weights()
        except (OSError, ValueError, struct.error):
            path = None
        if path is not None:
            handle = module.net_load(str(path))
            module.net_use(handle)
            _state["handle"] = handle
        source = next((p for p in BINARY_WEIGHTS if p.is_file()), None)
        _state["weights"] = f"the gnubg program's ({source})" if path and source else "gnubg-nn's own"
    return module


def weights_in_use() -> str:
    """Which weights the analysis uses: the gnubg program's (its file) or gnubg-nn's own."""
    return str(_state.get("weights", "not loaded"))
