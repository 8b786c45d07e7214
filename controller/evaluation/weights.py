"""GNU Backgammon's weight files read into arrays, with the version they carry.

Binary (`gnubg.wd`, the gnubg program's; gnubg's `EvalInitialise`/`NeuralNetLoadBinary`):
a magic float (472.3782) and the weights' version as a float (1.00 for gnubg 1.07, 1.01
for 1.08), then six networks in the order contact, race, crashed and their three pruning
networks; each is `inputs hidden outputs trained` (int32) and `beta_hidden beta_output`
(float32), then its weights: input-to-hidden (input-major), hidden-to-output
(output-major), the hidden thresholds, the output thresholds.

Text (`gnubg.weights`, the gnubg-nn wheel's own): "GNU Backgammon 1.01", then per network
a name line, the same six numbers on one line and its weights one a line, in the same
order within a network; the networks in the order race, crashed, contact, each followed by
its pruning network.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from controller.evaluation.backend import BINARY_WEIGHTS

BINARY_ORDER = ("contact", "race", "crashed", "prune contact", "prune crashed", "prune race")
TEXT_ORDER = (("race", "race"), ("prune race", "prune race"), ("crashed", "crashed"),
              ("prune crashed", "prune crashed"), ("contact", "contact contact250"),
              ("prune contact", "prune contact"))
"""The text file's networks in order: (the name used here, the name line gnubg-nn writes)."""
MAGIC = 472.3782
TEXT_HEADER = "GNU Backgammon "


@dataclass(frozen=True)
class NetWeights:
    """One network's shape, its two sigmoid slopes and its weights (float32)."""

    inputs: int
    hidden: int
    outputs: int
    beta_hidden: float
    beta_output: float
    hidden_weight: np.ndarray  # inputs x hidden
    output_weight: np.ndarray  # hidden x outputs
    hidden_threshold: np.ndarray
    output_threshold: np.ndarray

    def flat(self) -> np.ndarray:
        """The weights in the files' order (both formats keep it)."""
        return np.concatenate([self.hidden_weight.ravel(), self.output_weight.T.ravel(),
                               self.hidden_threshold, self.output_threshold])


@dataclass(frozen=True)
class Weights:
    """A weight file: its version ("1.00", "1.01": `generation.generation_of`) and its six
    networks by name."""

    version: str
    nets: dict[str, NetWeights]


def weights_file() -> Path | None:
    """The installed gnubg program's weight file, or None."""
    return next((p for p in BINARY_WEIGHTS if p.is_file()), None)


def _net(inputs: int, hidden: int, outputs: int, beta_h: float, beta_o: float, flat: np.ndarray) -> NetWeights:
    a, b = inputs * hidden, inputs * hidden + hidden * outputs
    return NetWeights(inputs, hidden, outputs, beta_h, beta_o, flat[:a].reshape(inputs, hidden),
                      flat[a:b].reshape(outputs, hidden).T.copy(), flat[b:b + hidden].copy(),
                      flat[b + hidden:].copy())


def read_binary(data: bytes) -> Weights:
    """The networks and version of gnubg's binary weights; ValueError if not that file."""
    try:
        magic, version = struct.unpack_from("<ff", data, 0)
    except struct.error as exc:
        raise ValueError("not gnubg's binary weights: too short") from exc
    if abs(magic - MAGIC) > 1e-3:
        raise ValueError("not gnubg's binary weights: no magic number")
    offset = 8
    nets: dict[str, NetWeights] = {}
    try:
        for name in BINARY_ORDER:
            inputs, hidden, outputs, _trained = struct.unpack_from("<iiii", data, offset)
            beta_h, beta_o = struct.unpack_from("<ff", data, offset + 16)
            offset += 24
            count = inputs * hidden + hidden * outputs + hidden + outputs
            if min(inputs, hidden, outputs) < 1 or offset + 4 * count > len(data):
                raise ValueError("not gnubg's binary weights: bad network header")
            flat = np.frombuffer(data, dtype="<f4", count=count, offset=offset).astype(np.float32)
            offset += 4 * count
            nets[name] = _net(inputs, hidden, outputs, beta_h, beta_o, flat)
    except struct.error as exc:
        raise ValueError("not gnubg's binary weights: too short") from exc
    if offset != len(data):
        raise ValueError("not gnubg's binary weights: unexpected length")
    return Weights(f"{version:.2f}", nets)


def read_text(text: str) -> Weights:
    """The networks and version of gnubg's text weights (gnubg-nn's file); ValueError if
    not that file."""
    lines = text.splitlines()
    if not lines or not lines[0].startswith(TEXT_HEADER):
        raise ValueError("not gnubg's text weights: no 'GNU Backgammon' header")
    version = lines[0][len(TEXT_HEADER):].strip()
    at = 1
    nets: dict[str, NetWeights] = {}
    try:
        for name, label in TEXT_ORDER:
            if lines[at].strip() != label:
                raise ValueError(f"not gnubg's text weights: {label!r} expected, not {lines[at][:40]!r}")
            head = lines[at + 1].split()
            inputs, hidden, outputs = int(head[0]), int(head[1]), int(head[2])
            count = inputs * hidden + hidden * outputs + hidden + outputs
            flat = np.array(lines[at + 2:at + 2 + count], dtype=np.float32)
            if len(flat) != count:
                raise ValueError("not gnubg's text weights: too short")
            nets[name] = _net(inputs, hidden, outputs, float(head[4]), float(head[5]), flat)
            at += 2 + count
    except (IndexError, ValueError) as exc:
        raise ValueError(str(exc) if str(exc).startswith("not gnubg") else f"not gnubg's text weights: {exc}") from exc
    return Weights(version, nets)


def text_of(weights: Weights, version: str = "1.01") -> str:
    """`weights` in the text format, under the header `version` (gnubg-nn reads only 1.01)."""
    lines = [TEXT_HEADER + version]
    for name, label in TEXT_ORDER:
        n = weights.nets[name]
        lines += [label, f"{n.inputs} {n.hidden} {n.outputs} 0 {n.beta_hidden:.7f} {n.beta_output:.7f}"]
        lines += [f"{float(w):.9g}" for w in n.flat()]
    return "\n".join(lines) + "\n"
