"""Thousands of random complete matches through the state machine, checking invariants,
and each match's record written and read back (issue 3's "Must reach").

Random settings (lengths 1-7, cube and Crawford on or off, auto or button confirm,
auto-roll), random legal moves (mostly whole moves, some step by step with undo), random
doubles, takes, drops, resignations and the odd forfeit. The matches are played once for
both: playing them is most of the work.
"""
from __future__ import annotations

import json
import os
import random
import sys
from pathlib import Path

import pytest

from controller.engine.board_view import cell_counts
from controller.engine.match import Match, Transition
from controller.engine.match_events import GameWon, Undone
from controller.engine.match_gnubg import match_id_fields
from controller.engine.match_history import CubeRecord, TurnRecord
from controller.engine.match_id import MatchIdFields, decode_match_id
from controller.engine.match_json import match_from_dict, match_to_dict
from controller.engine.moves import legal_moves
from controller.engine.position import Position
from controller.records.from_match import record_from_match
from controller.records.mat_reader import check_mat
from controller.records.mat_writer import write_mat
from controller.records.model import Resign

sys.path.insert(0, str(Path(__file__).parent))
from match_driver import play_match, random_settings
from record_games import games_of

#: matches in the default run (the issue asks for 2,000; BGBOARD_RANDOM_MATCHES overrides)
MATCHES = int(os.environ.get("BGBOARD_RANDOM_MATCHES", "2000"))


_DECODED: dict[str, MatchIdFields] = {}


def check_match_id(m: Match) -> None:
    """The Match ID decodes back to the state's fields (each distinct ID decoded once)."""
    text = m.match_id
    if text not in _DECODED:
        _DECODED[text] = decode_match_id(text)
    assert _DECODED[text] == match_id_fields(m)


def check_step(before: Match, after: Match, t: Transition) -> None:
    # 15 checkers a side (board, bar and off), never both colours on a point
    mine, theirs = after.partial.mine, after.partial.theirs
    assert sum(mine) <= 15 and sum(theirs) <= 15 and min(mine) >= 0 and min(theirs) >= 0
    assert not any(a and b for a, b in zip(mine[:24], theirs[23::-1]))
    if not t.events or isinstance(t.events[-1], GameWon):  # now and then, the cell view too
        counts = cell_counts(after.partial, after.turn or "white")
        assert sum(w for w, _ in counts.values()) == 15 and sum(b for _, b in counts.values()) == 15
    # scores only grow, and only by the points of a game won
    gained = [a - b for a, b in zip(after.score, before.score)]
    assert min(gained) >= 0
    won = [e for e in t.events if isinstance(e, GameWon)]
    assert sum(gained) == sum(e.points for e in won)
    # no cube in the Crawford game or in a match to 1
    game = after.history[-1]
    if after.crawford or after.length == 1 or not after.settings.cube:
        assert after.cube == 1 and after.cube_owner is None and after.phase != "doubled"
        assert not any(isinstance(a, CubeRecord) for a in game.actions)
    assert after.cube <= 64
    # the Crawford game is the one right after a player first reaches match point
    if after.crawford:
        assert after.length - 1 in game.score_before and after.settings.crawford
    # checkers borne off never come back within a game (except by undoing a step)
    if before.turn and after.turn and before.game == after.game and after.phase != "over" \
            and not any(isinstance(e, Undone) for e in t.events):
        was, now = off_by_colour(before), off_by_colour(after)
        assert now["white"] >= was["white"] and now["black"] >= was["black"]


def off_by_colour(m: Match) -> dict[str, int]:
    mover, opponent = m.partial.off
    return {"white": mover, "black": opponent} if m.turn == "white" else {"white": opponent, "black": mover}


def check_history(m: Match) -> None:
    """Every recorded turn replays as a legal move from the game's start."""
    for game in m.history:
        board = Position.initial()
        side = None
        for action in game.actions:
            if not isinstance(action, TurnRecord):
                continue
            if side is not None and action.side == side:
                raise AssertionError("the same side moved twice in a row")
            if side is not None:
                board = board.swap()
            side = action.side
            moves = {mv.result for mv in legal_moves(board, action.dice)}
            for s in action.steps:
                board = board.after(s)
            assert (board in moves) if moves else not action.steps


def check_end(m: Match) -> None:
    assert m.is_over and m.winner is not None
    w = 0 if m.winner == "white" else 1
    if m.end == "score":
        assert m.score[w] >= m.length > m.score[1 - w]
    else:
        assert m.end in ("forfeit", "time")
    assert all(g.end is not None for g in m.history)
    for earlier, later in zip(m.history, m.history[1:]):
        assert earlier.end is not None
        s = list(earlier.score_before)
        s[0 if earlier.end.winner == "white" else 1] += earlier.end.points
        assert tuple(s) == later.score_before


def check_round_trip(m: Match, i: int) -> tuple[int, int]:
    """The match's record written as a .mat file and read back is the same games and score
    (a match ended by forfeit keeps its last game unfinished, in the record and in the file);
    its resignations and Crawford games, counted to see the random player reached them."""
    record = record_from_match(m)
    again, problem = check_mat(write_mat(record))
    if m.end == "score":
        assert problem is None, f"match {i}: {problem}"
        assert again.final_score == m.score, i
        assert again.winner == (0 if m.winner == "white" else 1)
    else:
        assert problem is not None and "ends before the game does" in str(problem)
    assert games_of(again) == games_of(record), i
    return (sum(isinstance(a, Resign) for g in record.games for a in g.actions),
            sum(g.crawford for g in record.games))


@pytest.mark.slow  # 86 s here, idle, for 2,000 matches (with their records: about 100 s)
@pytest.mark.timeout(1800)  # the suite's 600 s was reached beside other jobs: a hang stops, slowness not
def test_random_matches_keep_the_invariants_and_round_trip_through_mat() -> None:
    rng = random.Random(20261129)
    ends = {"score": 0, "forfeit": 0, "time": 0}
    crawford_games = resigned = 0
    for i in range(MATCHES):
        def check(before: Match, after: Match, t: Transition, i: int = i) -> None:
            check_step(before, after, t)
            if i % 4 == 0 or after.game != before.game or after.is_over:
                check_match_id(after)  # every state of every 4th match, game ends of all
            if i % 200 == 0 or (i % 8 == 0 and after.phase in ("doubled", "resigning")) or after.is_over:
                assert match_from_dict(json.loads(json.dumps(match_to_dict(after)))) == after

        m = play_match(Match.new(random_settings(rng)), rng, check)
        check_end(m)
        if i % 20 == 0:
            check_history(m)
        ends[m.end] += 1  # type: ignore[index]
        resigns, crawfords = check_round_trip(m, i)
        resigned += resigns
        crawford_games += crawfords
    # the random player really exercised the rules
    assert ends["score"] > MATCHES * 0.8 and crawford_games > MATCHES * 0.1 and resigned > MATCHES * 0.05


@pytest.mark.parametrize("seed", range(5))
def test_button_mode_step_by_step_matches(seed: int) -> None:
    """Matches played one checker at a time, with undos and done."""
    from match_driver import random_command

    rng = random.Random(seed)
    m = Match.new(length=3, confirm="button")
    while not m.is_over:
        t = random_command(m, rng, step_share=1.0)
        check_step(m, t.match, t)
        check_match_id(t.match)
        m = t.match
    check_end(m)
    check_history(m)
