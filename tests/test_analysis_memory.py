"""What keeps the analysis's memory bounded (its figures are `bgboard bench --only pi`'s):
its memos forget when full and between games, the numpy network ranks a wild position's
thousands of moves a batch at a time with the same result as all at once, and `bgboard
analyze` forks no more games at once than the free memory holds; and a level that needs
no network never loads one (numpy, the wheel)."""
from __future__ import annotations

import subprocess
import sys

import pytest

from controller.analysis import match as match_module
from controller.analysis.memo import Memo
from bgboard.bench.long_record import long_record
from controller.engine import Position
from controller.evaluation import numpy_network
from controller.evaluation.backend import BINARY_WEIGHTS
from controller.evaluation.numpy_network import NumpyNetwork
from controller.records.mat_writer import write_mat
from controller.records.replay import replay_text

ALL_ROLLS = tuple((a, b) for a in range(1, 7) for b in range(1, a + 1))
WEIGHTS = next((p for p in BINARY_WEIGHTS if p.is_file()), None)
needs_weights = pytest.mark.skipif(WEIGHTS is None, reason="needs the gnubg program's weights (sudo apt install gnubg)")


def test_a_memo_forgets_everything_rather_than_grow_past_its_limit() -> None:
    memo: Memo[int, str] = Memo(3)
    for i in range(3):
        memo.keep(i, str(i))
    memo.keep(1, "one")  # a key it holds is replaced, nothing forgotten
    assert memo == {0: "0", 1: "one", 2: "2"}
    memo.keep(3, "3")
    assert memo == {3: "3"}
    memo.keep_all([(4, "4"), (5, "5"), (6, "6")])  # more than fits beside what it holds
    assert memo == {4: "4", 5: "5", 6: "6"}


def test_the_long_record_is_one_the_reader_accepts() -> None:
    record = long_record()
    assert (record.length, len(record.games)) == (25, 25)
    assert replay_text(write_mat(record), "long.mat").ok


@needs_weights
def test_moves_ranked_a_batch_at_a_time_are_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    assert WEIGHTS is not None
    network = NumpyNetwork(WEIGHTS)
    # a position of random play with hundreds of moves a roll, and one where most rolls have none
    wild = Position((3,) + (1,) * 12 + (0,) * 12, (2, 2, 2, 2) + (1,) * 7 + (0,) * 14)
    shut = Position((13,) + (0,) * 23 + (2,), (2, 2, 2, 2, 2, 2) + (0,) * 12 + (3,) + (0,) * 6)
    for position in (wild, shut):
        board = (position.theirs, position.mine)
        whole = network.ranked_moves(board, ALL_ROLLS)
        monkeypatch.setattr(numpy_network, "BATCH", 7)
        batched = network.ranked_moves(board, ALL_ROLLS)
        monkeypatch.undo()
        assert batched.before == whole.before
        assert [[(m.key, m.chances) for m in roll] for roll in batched.rolls] == \
            [[(m.key, m.chances) for m in roll] for roll in whole.rolls]
    assert sum(map(len, network.ranked_moves((wild.theirs, wild.mine), ALL_ROLLS).rolls)) > 1000
    assert sum(not roll for roll in network.ranked_moves((shut.theirs, shut.mine), ALL_ROLLS).rolls) >= 10


@needs_weights
def test_the_evaluator_forgets_a_game_once_it_is_analysed() -> None:
    from controller.analysis.evaluator import Evaluator
    from controller.analysis.match import MatchAnalyser

    record = long_record(length=3, games=1, seed=3)
    evaluator = Evaluator()
    decisions = MatchAnalyser(evaluator).game(record.length, record.games[0])
    assert len(decisions) > 50
    assert set(evaluator.memory().values()) == {0}


def test_games_are_forked_only_as_far_as_the_memory_holds() -> None:
    assert match_module.workers(25, 16_000, cores=4) == match_module.MAX_WORKERS == 4
    assert match_module.workers(2, 16_000, cores=4) == 2
    assert match_module.workers(25, 16_000, cores=2) == 2
    assert match_module.workers(25, 330, cores=4) == 2  # a Zero 2 W beside `bgboard run`
    assert match_module.workers(25, 120, cores=4) == 1
    assert match_module.workers(25, None, cores=4) == 4  # no /proc/meminfo: the cores decide


def test_a_level_that_needs_no_network_never_loads_one() -> None:
    """`bgboard online --headless` with `simple`, or a table against it: the levels are
    listed with what each lacks, the table and its review are imported, the simple level
    plays; neither numpy (gnubg's networks) nor the gnubg-nn wheel is loaded for that."""
    code = ("import sys\n"
            "import bgboard.cli, controller.online.play, controller.table, controller.table.review\n"
            "from controller.bot.base import OFFERED_LEVELS, check_level, level_missing, make_bot\n"
            "from controller.engine import Position\n"
            "from controller.bot.base import MONEY\n"
            "[level_missing(level) for level in OFFERED_LEVELS]\n"
            "check_level('simple')\n"
            "make_bot('simple').choose_move(Position.initial(), (3, 1), MONEY)\n"
            "print(sorted(m for m in ('numpy', 'gnubg_nn') if m in sys.modules))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
