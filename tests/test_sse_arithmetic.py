"""The arithmetic of Debian's x86-64 gnubg (`controller.evaluation.sse`): the RCPPS estimate
its hidden nodes' sigmoid divides by, and its output nodes' sums in four SSE lanes.

The RCPPS results below were measured on this machine's Intel processor (a C program's
`_mm_rcp_ps`, bit for bit); Intel's manual bounds the estimate's relative error by
1.5 x 2^-12. The program itself is held to these figures in
tests/test_evaluation_program.py and tests/test_analysis_releases.py."""
from __future__ import annotations

import numpy as np

from controller.evaluation import net, sse

MEASURED_RCPPS = {  # float32 bits of x -> bits of RCPPS(x)
    0x3F800000: 0x3F7FF000,  # 1.0 -> 0.999755859
    0x3FC00000: 0x3F2AA000,  # 1.5 -> 0.666503906
    0x406CCCCD: 0x3E8A6000,  # 3.7 -> 0.270263672
    0x42140000: 0x3CDD5800,  # 37 -> 0.0270195007
    0x40000000: 0x3EFFF000,  # 2 -> 0.49987793
    0x469BB6BE: 0x38527000,  # 19931.37, the sigmoid's sum beyond its table -> 5.01722097e-05
    0x3F801000: 0x3F7FD000,  # 1 + 2^-11 -> 0.999267578
    0x3FFFFFFF: 0x3F000800,  # just below 2 -> 0.50012207
}


def test_the_estimate_is_the_instructions_result() -> None:
    x = np.array(list(MEASURED_RCPPS), dtype=np.uint32).view(np.float32)
    got = sse.reciprocal_estimate(x).view(np.uint32)
    assert [hex(b) for b in got.tolist()] == [hex(b) for b in MEASURED_RCPPS.values()]


def test_the_estimate_keeps_intels_bound_on_every_mantissa() -> None:
    x = (np.uint32(0x3F800000) | np.arange(1 << 23, dtype=np.uint32)).view(np.float32)
    error = sse.reciprocal_estimate(x).astype(np.float64) * x.astype(np.float64) - 1.0
    assert np.abs(error).max() <= 1.5 * 2.0 ** -12
    assert np.abs(error).max() > 2.0 ** -13  # an estimate, not a division


def test_the_sse_sigmoid_is_the_plain_one_within_the_estimate() -> None:
    x = np.linspace(-12.0, 12.0, 20_001, dtype=np.float32)
    plain, estimated = net.sigmoid(x).astype(np.float64), sse.sigmoid(x).astype(np.float64)
    positive = x >= 0
    assert np.abs(estimated[positive] / plain[positive] - 1.0).max() <= 1.5 * 2.0 ** -12
    assert not np.array_equal(plain, estimated)
    # the negative half mirrors the positive one (1 - c), as the program's mask blends them
    above = x[x > 0]
    assert np.array_equal(sse.sigmoid(-above), np.float32(1.0) - sse.sigmoid(above))


def test_the_output_sums_add_four_lanes_then_the_lanes() -> None:
    """Hidden node k goes to lane k mod 4 and the lanes add as (0 + 1) + (3 + 2) (the
    program's shuffles): with 1e8, 1, -1e8, 1 the ones are lost in float32, where a sum in
    order keeps the last one."""
    active = np.array([[1e8, 1.0, -1e8, 1.0]], dtype=np.float32)
    weights = np.ones((4, 1), dtype=np.float32)
    assert sse.output_sums(active, weights).tolist() == [[0.0]]
    assert net._sequential(np.zeros(1, dtype=np.float32), active, weights).tolist() == [[1.0]]
