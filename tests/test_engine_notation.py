"""Notation: our strings equal GNU Backgammon's, and parsing reads them (and looser
forms) back to the same legal move."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from controller.engine import ALL_ROLLS, IllegalMoveError, Position, Step, legal_moves
from controller.engine.notation import format_move, parse_move
from controller.engine.playout import played_positions

VECTORS = Path(__file__).parent / "vectors" / "engine_gnubg_notation.txt"


def _cases() -> list[tuple[Position, tuple[int, int], list[str]]]:
    out = []
    for line in VECTORS.read_text().splitlines():
        pid, dice, rest = line.split(" ", 2)
        out.append((Position.from_id(pid), (int(dice[0]), int(dice[1])), rest.split("|") if rest else []))
    return out


def test_strings_equal_the_ones_gnubg_prints() -> None:
    """400 positions reached by play; the moves as `gnubg -t` `hint` lists them
    (tests/vectors/engine_gnubg_notation.py regenerates the file)."""
    cases = _cases()
    assert len(cases) >= 400
    for position, dice, gnubg in cases:
        ours = sorted(m.notation for m in legal_moves(position, dice))
        assert ours == sorted(gnubg), (position, dice)


@pytest.mark.parametrize(
    ("steps", "text"),
    [
        ([Step(24, 18, 6), Step(13, 9, 4)], "24/18 13/9"),
        ([Step(6, 5, 1), Step(8, 5, 3), Step(6, 5, 1), Step(8, 5, 3)], "8/5(2) 6/5(2)"),
        ([Step(25, 22, 3, True)], "bar/22*"),
        ([Step(6, 0, 6)], "6/off"),
        ([Step(7, 4, 3), Step(13, 7, 6, True)], "13/7*/4"),
        ([Step(13, 10, 3), Step(10, 4, 6)], "13/4"),
        ([Step(24, 18, 6), Step(18, 12, 6), Step(24, 18, 6), Step(18, 12, 6)], "24/12(2)"),
        ([Step(13, 7, 6, True), Step(13, 7, 6)], "13/7*(2)"),
        ([], ""),
    ],
)
def test_format(steps: list[Step], text: str) -> None:
    assert format_move(steps) == text


def _positions(count: int, seed: int) -> list[Position]:
    return played_positions(count + 1, seed)[1:]


@pytest.mark.slow  # a property over many random matches
def test_parse_of_format_is_identity_over_random_positions() -> None:
    rng = random.Random(7)
    checked = 0
    for p in _positions(150, 11):
        dice = rng.choice(ALL_ROLLS)
        for m in legal_moves(p, dice):
            assert parse_move(p, dice, m.notation) == m
            checked += 1
    assert checked > 1000


START = Position.initial()


@pytest.mark.parametrize(
    ("dice", "text", "expected"),
    [
        ((3, 1), "8/5 6/5", "8/5 6/5"),
        ((3, 1), "6/5 8/5", "8/5 6/5"),          # any order
        ((1, 3), "8/5, 6/5", "8/5 6/5"),
        ((6, 4), "24/14", "24/14"),              # one token, two dice
        ((6, 4), "24/18/14", "24/14"),
        ((6, 4), "24/20 20/14", "24/14"),        # two tokens, one checker
        ((6, 6), "13/7(2) 24/18(2)", "24/18(2) 13/7(2)"),
        ((6, 6), "13/7 13/7 24/18 24/18", "24/18(2) 13/7(2)"),
        ((6, 6), "24/18*(2) 13/7(2)", "24/18(2) 13/7(2)"),  # a superfluous * is forgiven
        ((2, 1), "13/11 6/5", "13/11 6/5"),
        ((3, 1), "8/5 6/5".upper(), "8/5 6/5"),
    ],
)
def test_parse_loose_forms(dice: tuple[int, int], text: str, expected: str) -> None:
    assert parse_move(START, dice, text).notation == expected


def test_parse_bar_off_numbers_and_missing_star() -> None:
    # mover on the bar, opponent blot on the mover's 22 (their 3)
    p = Position.checked([0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 1],
                         [0, 0, 1, 0, 0, 4, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0])
    a = parse_move(p, (3, 1), "bar/22* 6/5")
    assert parse_move(p, (3, 1), "25/22 6/5") == a
    assert a.notation == "bar/22* 6/5"
    assert a.result.theirs[24] == 1
    home = Position.checked([2, 2, 0, 0, 0, 1] + [0] * 19, [0] * 12 + [15] + [0] * 12)
    m = parse_move(home, (6, 1), "6/0 2/1")
    assert m.notation == "6/off 2/1"
    assert parse_move(home, (6, 1), "6/off 2/1") == m


def test_hit_on_the_way_is_told_apart_by_the_star() -> None:
    # 13/4 with 6-3: via 7 (a blot) or via 10 (empty)
    theirs = [0] * 25
    theirs[25 - 7 - 1] = 1  # the opponent's 18 = the mover's 7
    theirs[5] = 5
    theirs[12] = 5
    theirs[1] = 4
    p = Position.checked(list(START.mine), theirs)
    quiet = parse_move(p, (6, 3), "13/4")
    hit = parse_move(p, (6, 3), "13/7*/4")
    assert quiet.notation == "13/4" and hit.notation == "13/7*/4"
    assert quiet.result != hit.result


@pytest.mark.parametrize(
    "text",
    ["8/5", "8/4 6/5", "24/21 24/23 6/5", "13/10", "5/2", "8/5/", "/8/5", "8-5 6-5", "x", "8/9 6/5",
     "off/5", "8/bar", "8/5(9)"],
)
def test_parse_rejects_with_the_move_and_dice(text: str) -> None:
    with pytest.raises(IllegalMoveError) as err:
        parse_move(START, (3, 1), text)
    assert "3-1" in str(err.value)
    assert isinstance(err.value, ValueError)


def test_parse_empty_when_no_move_is_possible() -> None:
    closed = [2, 2, 2, 2, 2, 2] + [0] * 18 + [0]
    p = Position.checked([0] * 5 + [14] + [0] * 18 + [1], closed)
    m = parse_move(p, (6, 6), "")
    assert m.steps == () and m.result == p
    with pytest.raises(IllegalMoveError):
        parse_move(START, (6, 6), "")
