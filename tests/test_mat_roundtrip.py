"""Round trips: a record written and read back is the same games and score, for real
matches and for 2,000 random complete matches played through the match state machine.

Moves are written in GNU Backgammon's notation (`13/9`, not which die went first, nor
which die bore a checker off), so they are compared as written: player, dice and the
move's notation.
"""
from __future__ import annotations

import random
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from controller.engine.match import Match
from controller.engine.notation import format_move
from controller.records.from_match import record_from_match
from controller.records.mat_reader import check_mat, read_mat
from controller.records.mat_writer import write_mat
from controller.records.model import MatchRecord, Resign, Roll

sys.path.insert(0, str(Path(__file__).parent))
from match_driver import play_match, random_settings

BGLAB = Path(__file__).resolve().parents[2] / "shared" / "matches" / "bglab"


def games_of(record: MatchRecord) -> list[tuple[Any, ...]]:
    def action(a: Any) -> Any:
        if isinstance(a, Roll):
            return ("roll", a.player, a.dice, format_move(a.steps))
        return a
    return [(g.number, g.score, g.crawford, g.winner, g.points, g.end, tuple(map(action, g.actions)))
            for g in record.games]


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


@pytest.mark.slow
def test_2000_random_matches_export_and_reimport() -> None:
    """Issue 3's "Must reach": every exported match re-imports to the same games and score
    (random lengths, cube and Crawford on or off, random moves, doubles, takes, drops and
    resignations; the odd match ended by forfeit re-imports up to its last game)."""
    rng = random.Random(20261129)
    start = time.perf_counter()
    resigned = forfeits = crawford = 0
    for i in range(2000):
        m = play_match(Match.new(random_settings(rng)), rng)
        record = record_from_match(m)
        again, problem = check_mat(write_mat(record))
        if m.end == "score":
            assert problem is None, f"match {i}: {problem}"
            assert again.final_score == m.score, i
            assert again.winner == (0 if m.winner == "white" else 1)
        else:  # forfeit: the last game stays unfinished in the record and in the file
            forfeits += 1
            assert problem is not None and "ends before the game does" in str(problem)
        assert games_of(again) == games_of(record), i
        resigned += sum(isinstance(a, Resign) for g in record.games for a in g.actions)
        crawford += sum(g.crawford for g in record.games)
    print(f"2000 matches in {time.perf_counter() - start:.1f} s; {resigned} resignations, "
          f"{crawford} Crawford games, {forfeits} forfeits")
    assert resigned > 100 and crawford > 200
