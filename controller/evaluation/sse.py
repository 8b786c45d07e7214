"""How Debian's gnubg for x86-64 computes its networks (lib/neuralnetsse.c, `EvaluateSSE`),
where it differs from gnubg's plain C: the program is built with SSE and -ffast-math
(1.07 on bookworm, 1.08 on trixie; its code has RCPPS and no DIVPS).

- The hidden nodes' sigmoid (`sigmoid_ps`) forms the table's sum as the plain one does,
  then takes its reciprocal with the RCPPS instruction, an estimate good to 12 bits
  (`reciprocal_estimate`), where the plain code divides. That moves an activation by up to
  3e-4 of itself, about 2e-5 of win chance on a typical contact board and up to 5e-4 on
  some: enough to class a move a mark apart from the program where its loss sits at a
  threshold (issue 34: at 0 ply, one of 60 player-matches against 1.07 and three of 60
  against 1.08 had one such move).
- The output nodes sum hidden activation times weight in four lanes (hidden node k in lane
  k mod 4), add the lanes ((0 + 1) + (3 + 2)) and then the threshold; their sigmoid is
  the plain one, which divides.

The hidden sums are added input by input as in the plain code, so they are the same.
"""
from __future__ import annotations

import numpy as np

from controller.evaluation.sigmoid_table import E as _E

_ONE, _TEN = np.float32(1.0), np.float32(10.0)
LANES = 4

_ESTIMATE_MANTISSA = (np.round(4096.0 * (8192.0 / (4096 + 2 * np.arange(2048) + 1) - 1.0)).astype(np.uint32)
                      << np.uint32(11))
"""RCPPS of x in [1, 2), by the top 11 bits j of x's mantissa: the reciprocal of the middle
of that stretch, 1 / (1 + (j + 0.5) / 2048), rounded to 12 bits. Found on this machine's
Intel processor for every one of the 2^23 mantissas; Intel documents only the bound (a
relative error of at most 1.5 x 2^-12), and AMD's processors estimate otherwise, so there
the program's own figures differ from these by as much as from the plain division."""


def reciprocal_estimate(x: np.ndarray) -> np.ndarray:
    """RCPPS of each positive normal float32 of `x`: `_ESTIMATE_MANTISSA` with the exponent
    mirrored (x in [2^k, 2^(k+1)) gives a result in (2^-(k+1), 2^-k])."""
    bits = np.asarray(x, dtype=np.float32).view(np.uint32)
    exponent = (bits >> np.uint32(23)) & np.uint32(0xFF)
    mantissa = _ESTIMATE_MANTISSA[(bits >> np.uint32(12)) & np.uint32(0x7FF)]
    return ((np.uint32(253) - exponent) << np.uint32(23) | mantissa).view(np.float32)


def sigmoid(x: np.ndarray) -> np.ndarray:
    """gnubg's SSE sigmoid 1 / (1 + e^x) of each element (`sigmoid_ps`): from |x| capped at
    10 (the table's last step beyond), e[i] x ((10|x| - i) + 10) + 1, estimated reciprocal."""
    x = np.asarray(x, dtype=np.float32)
    x1 = np.minimum(np.abs(x), _TEN) * _TEN
    i = x1.astype(np.int32)
    step = reciprocal_estimate(_E[i] * ((x1 - i.astype(np.float32)) + _TEN) + _ONE)
    return np.where(x < 0, _ONE - step, step).astype(np.float32)  # -0.0 is not below 0 (cmpltps)


def output_sums(active: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Each row's sum of hidden activation times weight (n x hidden, hidden x outputs ->
    n x outputs, float32) in the program's four lanes, the threshold not yet added."""
    n, hidden = active.shape
    lanes = np.zeros((n, LANES, weights.shape[1]), dtype=np.float32)
    for start in range(0, hidden - hidden % LANES, LANES):
        lanes += active[:, start:start + LANES, None] * weights[None, start:start + LANES]
    return (lanes[:, 0] + lanes[:, 1]) + (lanes[:, 3] + lanes[:, 2])
