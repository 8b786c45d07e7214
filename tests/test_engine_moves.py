"""Legal moves: a perft-style table of move counts, the worked examples of RULES.md and
seeds/004, Move's lazy fields, bad input, and the engine's import purity."""
from __future__ import annotations

import subprocess
import sys

import pytest

from controller.engine import (
    ALL_ROLLS,
    IllegalMoveError,
    InvalidDiceError,
    InvalidPositionError,
    Move,
    Position,
    Step,
    legal_moves,
    legal_results,
    parse_dice,
)

# counts of distinct legal moves for ALL_ROLLS = 11, 21, 22, 31, 32, 33, 41, ..., 66
# (cross-checked with gnubg-nn's generator when the table was made)
PERFT = {
    "4HPwATDgc/ABMA": [42, 15, 75, 16, 17, 73, 14, 18, 17, 52, 8, 8, 9, 9, 4, 10, 14, 14, 14, 7, 11],
    "ABEATEqqlJQEAA": [2211, 197, 1458, 197, 179, 1445, 186, 169, 170, 1126, 166, 150, 151, 142, 630,
                       173, 157, 156, 148, 131, 755],
    "jGfkASjg8wcBMA": [31, 12, 22, 16, 13, 57, 16, 13, 17, 40, 11, 8, 12, 12, 9, 12, 10, 13, 13, 9, 9],
    "2+4OAADbtgEAAA": [95, 26, 48, 21, 18, 20, 16, 14, 12, 6, 11, 10, 8, 6, 1, 6, 5, 4, 3, 2, 1],
    "sNvBASCYN+ADAA": [67, 17, 71, 14, 13, 17, 18, 18, 13, 38, 14, 14, 10, 13, 19, 13, 13, 10, 13, 10, 19],
    # two on the bar against a partly closed board
    "ss3BBwDgOfgAaA": [9, 1, 11, 1, 1, 8, 1, 1, 1, 0, 1, 1, 1, 0, 0, 1, 1, 1, 0, 0, 0],
    # bear-off with an opponent blot in the home board (hits during bear-off)
    "YA4+gKi5OwAAAA": [66, 21, 40, 16, 14, 19, 13, 11, 9, 12, 9, 8, 6, 6, 3, 5, 4, 3, 3, 2, 1],
    # bear-off with gaps: higher dice from the highest point
    "4HPwAYJJAAAAAA": [7, 5, 1, 6, 2, 1, 3, 2, 2, 1, 3, 2, 2, 2, 1, 3, 2, 2, 2, 1, 1],
}


@pytest.mark.parametrize("position_id", PERFT)
def test_perft_table(position_id: str) -> None:
    p = Position.from_id(position_id)
    assert [len(legal_moves(p, dice)) for dice in ALL_ROLLS] == PERFT[position_id]


def test_every_move_is_distinct_and_uses_all_dice() -> None:
    p = Position.from_id("sNvBASCYN+ADAA")
    for dice in ALL_ROLLS:
        moves = legal_moves(p, dice)
        assert len({m.result for m in moves}) == len(moves)
        full = [dice[0]] * 4 if dice[0] == dice[1] else sorted(dice)
        for m in moves:
            assert sorted(s.die for s in m.steps) == full
            assert m.result.pips()[0] == p.pips()[0] - sum(s.frm - s.to for s in m.steps)


def test_start_three_one_gives_16_moves() -> None:
    moves = legal_moves(Position.initial(), (3, 1))
    assert len(moves) == 16
    assert "8/5 6/5" in {m.notation for m in moves}
    assert legal_moves(Position.initial(), [1, 3]) == moves


def test_bar_entry_six_four_with_four_closed() -> None:
    p = Position.from_points({25: 1, 24: 1, 13: 5, 8: 3, 6: 5}, {13: 5, 8: 3, 7: 5, 4: 2})
    moves = legal_moves(p, (6, 4))
    assert moves and all(m.steps[0] == Step(25, 19, 6, False) for m in moves)


def test_six_two_in_bear_off_only_7_5_then_6_off() -> None:
    p = Position.from_points({7: 1, 6: 1, 5: 3, 4: 3, 3: 3, 2: 2}, {24: 2, 6: 5, 5: 4, 4: 4})
    (move,) = legal_moves(p, (6, 2))
    assert move.steps == (Step(7, 5, 2, False), Step(6, 0, 6, False))
    assert move.notation == "7/5 6/off"


def test_six_five_one_die_only_plays_the_higher() -> None:
    p = Position.from_points({13: 1, 5: 3, 4: 4, 3: 4, 1: 3}, {23: 2, 6: 5, 5: 4, 4: 4})
    assert [m.notation for m in legal_moves(p, (6, 5))] == ["13/7"]


def test_six_four_bears_off_two_or_plays_5_1() -> None:
    p = Position.from_points({5: 1, 3: 1}, {13: 7, 8: 3, 6: 5})
    assert sorted(m.notation for m in legal_moves(p, (6, 4))) == ["5/1 3/off", "5/off 3/off"]


def test_lower_die_first_only_when_needed_and_no_move_at_all() -> None:
    stuck = Position.from_points({25: 1, 6: 14}, {6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 2})
    assert legal_moves(stuck, (6, 6)) == []


def test_legal_results_are_the_positions_the_moves_leave_in_their_order() -> None:
    for position_id in PERFT:
        p = Position.from_id(position_id)
        for dice in ALL_ROLLS:
            assert legal_results(p, dice) == [(m.result.mine, m.result.theirs) for m in legal_moves(p, dice)]


def test_legal_results_send_a_hit_blot_to_the_bar() -> None:
    # 21 from the 8 point: 8/5* hits the blot on the 5 point (the opponent's 20), which enters from the bar
    p = Position.from_points({8: 1, 6: 14}, {20: 1, 1: 14})
    hit = Position.from_points({5: 1, 6: 14}, {25: 1, 1: 14})
    assert (hit.mine, hit.theirs) in legal_results(p, (2, 1))
    # 8/5*, 6/5* 6/4 and 6/5*/3 hit; 8/7 6/4 and 6/3 leave the blot where it is
    assert sorted(theirs == hit.theirs for _mine, theirs in legal_results(p, (2, 1))) == [False, False, True, True, True]
    assert all(theirs in (hit.theirs, p.theirs) for _mine, theirs in legal_results(p, (2, 1)))


def test_move_is_a_value() -> None:
    a, b = legal_moves(Position.initial(), (3, 1))[:2], legal_moves(Position.initial(), (3, 1))[:2]
    assert a == b and hash(a[0]) == hash(b[0])
    built = Move(a[0].steps, a[0].result)
    assert built == a[0] and built.notation == a[0].notation
    assert eval(repr(a[0]), {"Move": Move, "Step": Step, "Position": Position}) == a[0]
    assert a[0].result.swap().swap() == a[0].result


@pytest.mark.parametrize("bad", ["", "4HPwATDgc/AB", "4HPwATDgc/ABMA!", "4HPwATDgc/AB#A", "////////////////"])
def test_malformed_position_ids(bad: str) -> None:
    with pytest.raises(InvalidPositionError) as err:
        Position.from_id(bad)
    assert isinstance(err.value, ValueError)


def test_more_than_15_checkers_and_both_colours_on_a_point() -> None:
    with pytest.raises(InvalidPositionError, match="more than 15"):
        Position.from_id("4H8AAAD//wAAAA")  # 16 checkers for the player on roll
    with pytest.raises(InvalidPositionError, match="more than 15"):
        Position.from_points({6: 16}, {6: 1})
    with pytest.raises(InvalidPositionError, match="both colours"):
        Position.from_points({6: 1}, {19: 1})
    one_each = (0,) * 5 + (1,) + (0,) * 19  # a checker on each side's own 6 point ...
    theirs = (0,) * 18 + (1,) + (0,) * 6     # ... and the opponent's on its 19: the same point
    assert Position(one_each, theirs).problems()


@pytest.mark.parametrize("bad", ["07", "3-x", "7", "123", "0-3", "", "6-7", "a1"])
def test_bad_dice_text(bad: str) -> None:
    with pytest.raises(InvalidDiceError) as err:
        parse_dice(bad)
    assert isinstance(err.value, ValueError)


@pytest.mark.parametrize("good", ["31", "3-1", "3 1", " 6-6 "])
def test_good_dice_text(good: str) -> None:
    assert parse_dice(good) in {(3, 1), (6, 6)}


@pytest.mark.parametrize("bad", [(0, 3), (7, 1), (3,), (3, 1, 1), ("3", 1), (True, 1)])
def test_bad_dice_values(bad: tuple) -> None:
    with pytest.raises(InvalidDiceError):
        legal_moves(Position.initial(), bad)  # type: ignore[arg-type]


def test_engine_errors_are_value_errors() -> None:
    assert issubclass(IllegalMoveError, ValueError)


def test_import_purity() -> None:
    """Importing the engine (and using it) loads none of the I/O libraries."""
    code = (
        "import sys\n"
        "import controller.engine as e\n"
        "import controller.engine.turn, controller.engine.match_id, controller.engine.board_view\n"
        "e.legal_moves(e.Position.initial(), (3, 1))[0].notation\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'serial', 'asyncio', 'PIL', 'gpiozero', 'aiohttp', 'luma', 'socket', 'threading', 'random'})\n"
        "bad += sorted(m for m in sys.modules if m.startswith('controller.') and not m.startswith('controller.engine'))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
