"""Every judgement runs both ways gnubg's network can be evaluated: the numpy network on the
gnubg program's weights with the gnubg-nn wheel (x86-64 only) evaluating what it computes
as the program does, and the numpy network alone (what a Raspberry Pi has). A test module
takes both with `pytestmark = needs_network + [with_each_network]`; `network_backend` sets
BGBOARD_NETWORK for the test (the levels and the analysis read it when they load the
network)."""
from __future__ import annotations

from collections.abc import Iterator

import pytest

from controller.analysis.network import load_network
from controller.evaluation.weights import weights_file
from controller.evaluation.wheel import load_gnubg_nn

BACKENDS = [name for name, present in (("wheel", load_gnubg_nn() is not None), ("numpy", weights_file() is not None))
            if present]
needs_network = [pytest.mark.skipif(not BACKENDS, reason="needs the gnubg program's weights (sudo apt install gnubg)")]


@pytest.fixture(params=BACKENDS or ["none"])
def network_backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setenv("BGBOARD_NETWORK", request.param)
    assert (getattr(load_network(), "wheel", None) is None) == (request.param == "numpy")
    yield request.param


with_each_network = pytest.mark.usefixtures("network_backend")
