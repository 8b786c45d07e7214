"""GNU Backgammon's network for the analysis: gnubg-nn with gnubg 1.07's own weights when
both are installed (the fast path, x86-64 only), else gnubg 1.07's networks evaluated in
numpy from the program's weight file (`controller.evaluation.numpy_network`: any machine
Debian's gnubg installs on, the Raspberry Pi included). BGBOARD_NETWORK=numpy|wheel
chooses one (the tests run every judgement with each).

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
from typing import cast

from controller.errors import BackendUnavailableError
from controller.evaluation.backend import INSTALL_HINT, NetworkBackend
from controller.evaluation.bearoff_db import cache_dir as _cache_dir
from controller.evaluation.weights import BINARY_WEIGHTS, read_binary
from controller.evaluation.wheel import load_gnubg_nn

_TEXT_ORDER = (("race", "race"), ("prune race", "prune race"), ("crashed", "crashed"),
               ("prune crashed", "prune crashed"), ("contact", "contact contact250"),
               ("prune contact", "prune contact"))
_state: dict[object, object] = {}


def binary_to_text(data: bytes) -> str:
    """gnubg's binary weights as the text gnubg-nn reads."""
    nets = {name: (f"{n.inputs} {n.hidden} {n.outputs} 0 {n.beta_hidden:.7f} {n.beta_output:.7f}",
                   tuple(float(w) for w in n.flat()))
            for name, n in read_binary(data).items()}
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


def load_network() -> NetworkBackend:
    """gnubg's network with the best weights at hand: the wheel (with the program's
    weights when installed), else the numpy network on the program's weights; neither:
    a one-line BackendUnavailableError naming the command that installs the program."""
    choice = os.environ.get("BGBOARD_NETWORK", "")
    if ("backend", choice) in _state:
        return cast(NetworkBackend, _state["backend", choice])
    module = load_gnubg_nn()
    if module is not None:
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
        _state["weights"] = f"the gnubg program's ({source}) in gnubg-nn" if path and source else "gnubg-nn's own"
        _state["backend", choice] = module
        return cast(NetworkBackend, module)
    if choice == "wheel":
        raise BackendUnavailableError("BGBOARD_NETWORK=wheel but the gnubg-nn wheel is not installed")
    source = next((p for p in BINARY_WEIGHTS if p.is_file()), None)
    if source is None:
        raise BackendUnavailableError(f"analysis needs GNU Backgammon's weights: {INSTALL_HINT}")
    from controller.evaluation.numpy_network import NumpyNetwork

    try:
        backend = NumpyNetwork(source)
    except (OSError, ValueError) as exc:
        raise BackendUnavailableError(f"cannot read {source} ({exc}): reinstall it with {INSTALL_HINT}") from exc
    _state["weights"] = f"the gnubg program's ({source}) in numpy"
    _state["backend", choice] = backend
    return backend


def network_available() -> bool:
    """Whether judgement (levels, hint, tutor, review, analysis) can run here."""
    try:
        load_network()
    except BackendUnavailableError:
        return False
    return True


def weights_in_use() -> str:
    """Which weights the analysis uses: the gnubg program's (its file) or gnubg-nn's own."""
    return str(_state.get("weights", "not loaded"))
