"""gnubg's neural network forward pass, a batch of positions at a time, in float32.

The activation is gnubg's own sigmoid (lib/sigmoid.h): 1 / (1 + e^x) from a table of
e^(k/10) and a linear step between entries, not the exact exponential; the two differ by
up to about 1e-4, more than the agreement asked of this module with gnubg-nn.

The arithmetic is that of one build of gnubg (`Arithmetic`): "scalar", gnubg's plain C
(neuralnet.c), as gnubg-nn and Debian's arm64 program (built without NEON) compute; or
"sse", Debian's x86-64 program (1.07 on bookworm, 1.08 on trixie), built with SSE and
-ffast-math (`sse`: its hidden nodes' reciprocal estimated, its output sums in four lanes).
`PROGRAM_ARITHMETIC` is this machine's program's.
"""
from __future__ import annotations

import platform
from typing import Literal

import numpy as np

from controller.evaluation import sse
from controller.evaluation.sigmoid_table import E as _E
from controller.evaluation.weights import NetWeights

Arithmetic = Literal["scalar", "sse"]
PROGRAM_ARITHMETIC: Arithmetic = "sse" if platform.machine().lower() in ("x86_64", "amd64") else "scalar"
"""How this machine's gnubg program computes its networks: Debian builds gnubg with SSE on
x86-64 only (see the module)."""

_TOP = np.float32(1.0 / 19931.370438230298)
_BOTTOM = np.float32(19930.370438230298 / 19931.370438230298)
_ONE, _TEN = np.float32(1.0), np.float32(10.0)


def sigmoid(x: np.ndarray) -> np.ndarray:
    """gnubg's table sigmoid 1 / (1 + e^x), elementwise on float32."""
    x = np.asarray(x, dtype=np.float32)
    negative = np.signbit(x)
    x1 = np.abs(x) * _TEN
    big = x1 >= np.float32(100.0)
    i = np.minimum(x1, np.float32(99.0)).astype(np.int32)
    step = _ONE / (_ONE + _E[i] * ((_TEN - i.astype(np.float32)) + x1))
    out = np.where(negative, _ONE - step, step)
    return np.where(big, np.where(negative, _BOTTOM, _TOP), out).astype(np.float32)


def _sequential(start: np.ndarray, factors: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """`start` plus factors[:, k] * weights[k] added one k at a time in float32, as gnubg's
    loops add them (a matrix product sums in another order): one step per k for the
    whole batch (an input that few rows have: for those rows only), or for a few rows a
    running sum (`cumsum` adds in order too)."""
    if len(factors) < 8:
        terms = factors[:, :, None] * weights[None]
        stacked = np.concatenate([np.broadcast_to(start, (len(factors), 1, len(start))), terms], axis=1)
        return np.cumsum(stacked, axis=1, dtype=np.float32)[:, -1]
    n = len(factors)
    total = np.repeat(start[None], n, axis=0)
    step = np.empty_like(total)
    columns = np.ascontiguousarray(factors.T)
    for k, count in enumerate(np.count_nonzero(columns, axis=1).tolist()):
        column = columns[k]
        if count * 8 < n:  # a sparse input: only its rows (the others add 0, which changes nothing)
            rows = np.flatnonzero(column)
            total[rows] += column[rows, None] * weights[k]
        else:
            np.multiply(column[:, None], weights[k], out=step)
            total += step
    return total


def forward(net: NetWeights, inputs: np.ndarray, arithmetic: Arithmetic = "scalar") -> np.ndarray:
    """The network's outputs for a batch of input rows (n x inputs) -> n x outputs, computed
    as the gnubg build `arithmetic` names computes them (the module).

    The sums run in gnubg's order, one input (then one hidden node) at a time in float32,
    not as a matrix product: the table sigmoid jumps by 0.5 % at each step of its table,
    so a sum that rounds differently can move an output by 1e-3 (1 position in 5,000).
    Inputs that are 0 in every row add nothing and are left out."""
    x = inputs.astype(np.float32)
    used = np.flatnonzero(x.any(axis=0))
    hidden = _sequential(net.hidden_threshold, x[:, used], net.hidden_weight[used])
    if arithmetic == "sse":
        active = sse.sigmoid(np.float32(-net.beta_hidden) * hidden)
        out = sse.output_sums(active, net.output_weight) + net.output_threshold
    else:
        active = sigmoid(np.float32(-net.beta_hidden) * hidden)
        out = _sequential(net.output_threshold, active, net.output_weight)
    return sigmoid(np.float32(-net.beta_output) * out)
