"""gnubg's neural network forward pass, a batch of positions at a time, in float32.

The activation is gnubg's own sigmoid (lib/sigmoid.h): 1 / (1 + e^x) from a table of
e^(k/10) and a linear step between entries, not the exact exponential; the two differ by
up to about 1e-4, more than the agreement asked of this module with gnubg-nn.
"""
from __future__ import annotations

import numpy as np

from controller.evaluation.weights import NetWeights

_E = (np.exp(np.arange(101) / 10.0) / 10.0).astype(np.float32)
_E[100] = _E[99]  # the table's "one extra" entry repeats the last one
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


def forward(net: NetWeights, inputs: np.ndarray) -> np.ndarray:
    """The network's outputs for a batch of input rows (n x inputs) -> n x outputs.

    The sums run in gnubg's order, one input (then one hidden node) at a time in float32,
    not as a matrix product: the table sigmoid jumps by 0.5 % at each step of its table,
    so a sum that rounds differently can move an output by 1e-3 (1 position in 5,000)."""
    x = inputs.astype(np.float32)
    hidden = np.broadcast_to(net.hidden_threshold, (len(x), net.hidden)).copy()
    for i in np.flatnonzero(x.any(axis=0)):
        column = x[:, i:i + 1]
        hidden += np.where(column == _ONE, net.hidden_weight[i], net.hidden_weight[i] * column)
    active = sigmoid(np.float32(-net.beta_hidden) * hidden)
    out = np.broadcast_to(net.output_threshold, (len(x), net.outputs)).copy()
    for j in range(net.hidden):
        out += active[:, j:j + 1] * net.output_weight[j]
    return sigmoid(np.float32(-net.beta_output) * out)
