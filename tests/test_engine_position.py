"""Positions as values: IDs, views, and the validity flags."""
from __future__ import annotations

import pytest

from controller.engine import InvalidPositionError, Position
from controller.engine.ids import decode_position_id, encode_position_id
from controller.engine.playout import played_positions


def test_start() -> None:
    p = Position.initial()
    assert p.id == "4HPwATDgc/ABMA"
    assert p.pips() == (167, 167)
    assert p.off == (0, 0)
    assert p.swap() == p
    assert Position.from_id(p.id) == p
    assert repr(p) == "Position.from_id('4HPwATDgc/ABMA')"
    assert "167" in str(p)


def test_ids_round_trip_over_played_positions() -> None:
    for p in played_positions(300, 3):
        assert Position.from_id(p.id) == p
        assert decode_position_id(encode_position_id(p.mine, p.theirs)) == (p.mine, p.theirs)
        assert len(p.id) == 14


def test_pips_count_the_bar_as_25_and_off_is_what_is_missing() -> None:
    mine = [0] * 25
    mine[24] = 1
    mine[1] = 2
    p = Position(tuple(mine), Position.initial().theirs)
    assert p.pips()[0] == 25 + 2 * 2
    assert p.off == (12, 0)
    assert p.problems() == []


def test_problems_are_flags_not_exceptions() -> None:
    bad = Position(tuple([16] + [0] * 24), tuple([1] * 24 + [0]))
    found = bad.problems()
    assert any("more than 15" in f for f in found)
    assert any("more than 15" in f for f in Position(tuple([0] * 24 + [16]), tuple([0] * 25)).problems())
    assert Position((1,) * 3, (0,) * 25).problems()  # wrong length


def test_after_a_step_the_hit_blot_is_on_the_bar_and_the_input_unchanged() -> None:
    from controller.engine import Step

    theirs = list(Position.initial().theirs)
    theirs[7] -= 1   # a black checker from White's 17 ...
    theirs[6] += 1   # ... to White's 18: a blot
    start = Position.checked(list(Position.initial().mine), theirs)
    hit = start.after(Step(24, 18, 6, True))
    assert hit.mine[23] == 1 and hit.mine[17] == 1
    assert hit.opponent_on(18) == 0 and hit.theirs[24] == 1
    assert start.opponent_on(18) == 1  # positions are values
    off = Position.checked([0, 0, 1] + [0] * 22, [0] * 24 + [1]).after(Step(3, 0, 5, False))
    assert off.off == (15, 14)


def test_from_points_reads_each_side_in_its_own_numbering_with_25_the_bar() -> None:
    p = Position.from_points({25: 1, 6: 5}, {24: 2})
    assert p.mine[24] == 1 and p.mine[5] == 5 and p.theirs[23] == 2
    assert p == Position.checked([0] * 5 + [5] + [0] * 18 + [1], [0] * 23 + [2, 0])
    with pytest.raises(InvalidPositionError, match="point 26"):
        Position.from_points({26: 1}, {})
