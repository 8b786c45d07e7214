"""The gnubg program's binary weight file (`gnubg.wd`) read into arrays.

Layout (gnubg's `EvalInitialise`/`NeuralNetLoadBinary`): a magic float and a version
float, then six networks in the order contact, race, crashed and their three pruning
networks; each is `inputs hidden outputs trained` (int32) and `beta_hidden beta_output`
(float32), then its weights: input-to-hidden (input-major), hidden-to-output
(output-major), the hidden thresholds, the output thresholds.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np

BINARY_WEIGHTS = (Path("/usr/lib/gnubg/gnubg.wd"), Path("/usr/share/gnubg/gnubg.wd"))
BINARY_ORDER = ("contact", "race", "crashed", "prune contact", "prune crashed", "prune race")


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
        """The weights in the file's order (gnubg's text format keeps it too)."""
        return np.concatenate([self.hidden_weight.ravel(), self.output_weight.T.ravel(),
                               self.hidden_threshold, self.output_threshold])


def weights_file() -> Path | None:
    """The installed gnubg program's weight file, or None."""
    return next((p for p in BINARY_WEIGHTS if p.is_file()), None)


def read_binary(data: bytes) -> dict[str, NetWeights]:
    """The six networks of gnubg's binary weights, by name; ValueError if not that file."""
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
            a, b = inputs * hidden, inputs * hidden + hidden * outputs
            nets[name] = NetWeights(inputs, hidden, outputs, beta_h, beta_o,
                                    flat[:a].reshape(inputs, hidden),
                                    flat[a:b].reshape(outputs, hidden).T.copy(),
                                    flat[b:b + hidden].copy(), flat[b + hidden:].copy())
    except struct.error as exc:
        raise ValueError("not gnubg's binary weights: too short") from exc
    if offset != len(data):
        raise ValueError("not gnubg's binary weights: unexpected length")
    return nets
