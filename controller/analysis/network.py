"""GNU Backgammon's network for the analysis, the hint, the tutor and the levels: the
numpy network (`controller.evaluation.numpy_network`), which evaluates as the gnubg
program does, on the weights of the installed gnubg program (`gnubg.wd`: gnubg 1.07's
on Debian bookworm, 1.08's on trixie), else on the gnubg-nn wheel's own (1.08's).

The weights say which gnubg the figures are (`judged_as`): their version chooses the
inputs and, in the analysis, the cube efficiencies and cube rules of that release.

The numpy network computes as this machine's program does (`evaluation.net`: on x86-64
Debian's SSE build, whose hidden nodes' reciprocal is an estimate). The gnubg-nn wheel
(x86-64) computes as gnubg's plain C: where it is installed it is given the same weights,
but it evaluates only with BGBOARD_NETWORK=wheel, which insists on it and has the numpy
network compute as plain C too: faster, and off the x86 program by about 2e-5 of win
chance on a typical board (up to 1e-3), which classes a move a mark apart where its loss
sits at a threshold. The wheel reads the text format only ("GNU Backgammon 1.01", then
per network a name line, its six numbers and one float a line), so the program's binary
file is written once as text into the user's cache. BGBOARD_NETWORK=numpy leaves the
wheel out (the tests run every judgement both ways).
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path
from types import ModuleType

from typing import TYPE_CHECKING

from controller.errors import BackendUnavailableError
from controller.evaluation.backend import BINARY_WEIGHTS, INSTALL_HINT, NetworkBackend
from controller.evaluation.bearoff_db import cache_dir as _cache_dir
from controller.evaluation.wheel import load_gnubg_nn

if TYPE_CHECKING:  # numpy is imported when the network is first loaded, not with this module
    from controller.evaluation.numpy_network import NumpyNetwork
    from controller.evaluation.weights import Weights

_loaded: dict[str, NumpyNetwork] = {}
_described: dict[str, str] = {}


def _text_copy(data: bytes, weights: Weights) -> Path:
    """The program's weights as text for the wheel (made once, named by their hash)."""
    from controller.evaluation.weights import text_of
    from controller.files import write_atomically

    target = _cache_dir() / f"gnubg-{hashlib.sha1(data).hexdigest()[:12]}.weights"
    if not target.is_file():
        write_atomically(target, text_of(weights))
    return target


def _wheel_weights(module: ModuleType) -> Path:
    return Path(module.__file__ or "").parent / "data" / "gnubg.weights"


def _read(source: Path) -> tuple[bytes, Weights]:
    from controller.evaluation.weights import read_binary, read_text

    try:
        data = source.read_bytes()
        return data, (read_binary(data) if source.suffix == ".wd" else read_text(data.decode("ascii")))
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        raise BackendUnavailableError(f"cannot read {source} ({exc}): reinstall it with {INSTALL_HINT}") from exc


def load_network() -> NetworkBackend:
    """gnubg's network on the best weights at hand (see the module), loaded once; neither
    the program nor the wheel: a one-line BackendUnavailableError naming the command that
    installs the program."""
    choice = os.environ.get("BGBOARD_NETWORK", "")
    if choice in _loaded:
        return _loaded[choice]
    module = load_gnubg_nn()
    if choice == "wheel" and module is None:
        raise BackendUnavailableError("BGBOARD_NETWORK=wheel but the gnubg-nn wheel is not installed")
    source = next((p for p in BINARY_WEIGHTS if p.is_file()), None)
    if source is None and module is not None and _wheel_weights(module).is_file():
        source = _wheel_weights(module)
    if source is None:
        raise BackendUnavailableError(f"analysis needs GNU Backgammon's weights: {INSTALL_HINT}")
    from controller.evaluation.net import PROGRAM_ARITHMETIC
    from controller.evaluation.numpy_network import NumpyNetwork
    from controller.evaluation.wheel_net import WheelNet

    data, weights = _read(source)
    wheel = None
    if module is not None:
        try:
            wheel = WheelNet.load(module, source if source.suffix != ".wd" else _text_copy(data, weights))
            wheel.activate()  # the `gnubg` level plays with them too
        except (OSError, ValueError, RuntimeError):
            wheel = None
    arithmetic = "scalar" if choice == "wheel" else PROGRAM_ARITHMETIC
    backend = NumpyNetwork(weights, wheel=wheel, arithmetic=arithmetic)
    evaluated = " with gnubg-nn" if wheel is not None and arithmetic == "scalar" else ""
    _described[choice] = (f"gnubg {backend.generation.release}'s weights ({source}, version {weights.version})"
                          f" in numpy{evaluated}, as {'SSE' if arithmetic == 'sse' else 'plain C'} computes")
    _loaded[choice] = backend
    return backend


def network_available() -> bool:
    """Whether judgement (levels, hint, tutor, review, analysis) can run here."""
    try:
        load_network()
    except BackendUnavailableError:
        return False
    return True


def weights_in_use() -> str:
    """Which weights the analysis uses (the file, its version, the gnubg release they
    belong to) and how they are evaluated."""
    return _described.get(os.environ.get("BGBOARD_NETWORK", ""), "not loaded")


def judged_as() -> str:
    """The gnubg release whose analysis the figures are ("gnubg 1.07"), once loaded."""
    network = _loaded.get(os.environ.get("BGBOARD_NETWORK", ""))
    return f"gnubg {network.generation.release}" if network is not None else "not loaded"
