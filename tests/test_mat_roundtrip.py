"""Round trips: a record written and read back is the same games and score, for real
matches (2,000 random complete matches played through the match state machine do the same
in tests/test_match_random.py, which plays them once for their invariants and their records).

Moves are written in GNU Backgammon's notation (`13/9`, not which die went first, nor
which die bore a checker off), so they are compared as written: player, dice and the
move's notation.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from controller.engine.match import Match
from controller.records.from_match import record_from_match
from controller.records.mat_reader import check_mat, read_mat
from controller.records.mat_writer import write_mat

sys.path.insert(0, str(Path(__file__).parent))
from match_driver import play_match
from record_games import games_of

BGLAB = Path(__file__).resolve().parents[2] / "shared" / "matches" / "bglab"


@pytest.mark.skipif(not BGLAB.exists(), reason="shared/matches not present")
def test_real_matches_survive_write_and_read() -> None:
    files = sorted(BGLAB.glob("*.txt"))[::5]
    n = 0
    for path in files:
        record, problem = check_mat(path.read_text())
        if problem:
            continue
        again = read_mat(write_mat(record))
        assert games_of(again) == games_of(record), path.name
        assert again.final_score == record.final_score and again.players == record.players
        n += 1
    assert n >= 290


def test_a_short_match_round_trips_exactly() -> None:
    rng = random.Random(1)
    m = play_match(Match.new(length=3), rng)
    record = record_from_match(m)
    assert record.players == ("White", "Black") and record.length == 3
    assert record.final_score == m.score
    again = read_mat(write_mat(record))
    assert games_of(again) == games_of(record)
