"""The numpy network against gnubg-nn, where the analysis lets the wheel evaluate: with the
same weights (the wheel's own, gnubg 1.08's, whose inputs it computes), the same classes
and keys on positions of every class from seeded random games, the same chances of the
contact and crashed networks and their pruning networks, and the same move rankings of
contact positions. Races and bear-offs the wheel post-processes its own way (gnubg-nn's
`raceImprovement` and sanity check, not the program's): the numpy network keeps them, and
tests/test_evaluation_program.py holds it to the gnubg program there."""
from __future__ import annotations

import os
import random
import subprocess
import sys

import numpy as np
import pytest

from collections.abc import Iterator
from pathlib import Path

from controller.analysis.network import load_network
from controller.evaluation.numpy_network import NumpyNetwork
from tests.random_play import Board, random_positions
from controller.evaluation.sanity import sanity_check
from controller.evaluation.weights import read_text
from controller.evaluation.wheel import load_gnubg_nn
from controller.evaluation.wheel_net import WheelNet

WHEEL = load_gnubg_nn()
pytestmark = pytest.mark.skipif(WHEEL is None, reason="the oracle is the gnubg-nn wheel (x86-64, .ci/run)")


def _positions(games: int = 40, seed: int = 7) -> list[Board]:
    return random_positions(games, seed, turns=200)


@pytest.fixture(scope="module")
def pair() -> Iterator[tuple[object, NumpyNetwork]]:
    """The wheel with its own weights active, and the numpy network on the same file,
    computing as gnubg's plain C does (the wheel's arithmetic; `evaluation.net`)."""
    assert WHEEL is not None
    own = Path(WHEEL.__file__ or "").parent / "data" / "gnubg.weights"
    WheelNet.load(WHEEL, own).activate()
    yield WHEEL, NumpyNetwork(read_text(own.read_text()), arithmetic="scalar")
    found = load_network()  # the analysis's weights active again, as the `gnubg` level expects
    wheel = getattr(found, "wheel", None)
    if wheel is not None:
        wheel.activate()


def test_chances_classes_and_keys_agree(pair: tuple[object, NumpyNetwork]) -> None:
    wheel, numpy_net = pair
    assert numpy_net.generation.release == "1.08"
    positions = _positions()
    worst: dict[int, float] = {}
    off = {c: 0 for c in range(6)}
    seen = {c: 0 for c in range(6)}
    for board in positions:
        lists = [list(board[0]), list(board[1])]
        cls = wheel.classify(lists)  # type: ignore[attr-defined]
        assert numpy_net.classify(board) == cls, board
        key = wheel.key_of_board(lists)  # type: ignore[attr-defined]
        assert numpy_net.key_of_board(board) == key
        assert numpy_net.board_from_position_key(key) == board
        seen[cls] += 1
        if cls < 4:  # races and bear-offs: the wheel's post-processing is gnubg-nn's own
            continue
        for ply in (0, numpy_net.p_prune):
            want = wheel.probabilities(lists, ply)  # type: ignore[attr-defined]
            if ply == numpy_net.p_prune:  # the wheel's pruning outputs are raw, the program checks them
                checked = np.array([want], dtype=np.float64)
                sanity_check(np.array([lists]), checked)
                want = tuple(checked[0])
            got = numpy_net.probabilities(board, ply)
            diff = max(abs(a - b) for a, b in zip(want, got))
            worst[cls] = max(worst.get(cls, 0.0), diff)
            off[cls] += diff > 1e-5
    assert all(seen[c] > 10 for c in range(6)), seen
    assert not any(off.values()), (off, worst)


def test_move_rankings_agree(pair: tuple[object, NumpyNetwork]) -> None:
    wheel, numpy_net = pair
    # gnubg-nn keeps the score and cube module-wide, and its move list's equities weigh the
    # gammons by them: a test run before this one (a gnubg level at a match score) left its
    # own, so the wheel is set back to money, cube 1, the numpy network's ranking
    wheel.set.score(0, 0, 0)  # type: ignore[attr-defined]
    wheel.set.cube(1)  # type: ignore[attr-defined]
    rng = random.Random(3)
    positions = [p for p in _positions(12, seed=11) if numpy_net.classify(p) >= 4]
    same = total = 0
    for board in rng.sample(positions, 150):
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        lists = [list(board[0]), list(board[1])]
        assert sorted(numpy_net.moves(board, d1, d2)) == sorted(wheel.moves(lists, d1, d2))  # type: ignore[attr-defined]
        want = wheel.best_move(lists, d1, d2, n=0, list=1)  # type: ignore[attr-defined]
        got = numpy_net.best_move(board, d1, d2, n=0, list=1)[1]
        if not isinstance(want, tuple) or len(want) != 2:
            assert not got
            continue
        if any(numpy_net.classify(numpy_net.board_from_position_key(m[0])) < 4 for m in got):
            continue  # a move into a race: the wheel's race figures are gnubg-nn's own
        total += 1
        # the same order, up to moves of equal equity (gnubg sorts them in no fixed order)
        ours = {m[0]: round(m[3], 5) for m in got}
        same += [ours[m[0]] for m in want[1]] == sorted(ours.values(), reverse=True)
        for a, b in zip(want[1][1:], got[1:]):  # gnubg-nn's first entry keeps stale chances
            assert abs(a[3] - b[3]) < 1e-5
    assert same == total > 100, (same, total)


def test_analysis_runs_where_gnubg_nn_cannot_be_imported(tmp_path: object) -> None:
    """A machine without the wheel (the Pi): `import gnubg_nn` fails, the analysis still
    judges with the numpy network."""
    code = ("import sys; sys.modules['gnubg_nn'] = None\n"
            "from controller.analysis.network import load_network, weights_in_use\n"
            "from controller.evaluation.numpy_network import NumpyNetwork\n"
            "net = load_network(); assert isinstance(net, NumpyNetwork), net\n"
            "from controller.bot.base import make_bot\n"
            "make_bot('expert')\n"
            "print(weights_in_use())\n")
    env = {k: v for k, v in os.environ.items() if k != "BGBOARD_NETWORK"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "in numpy" in done.stdout
