"""GNU Backgammon's own move generator (the gnubg-nn wheel) as the oracle: the same
distinct resulting positions for every position and roll, zero differences.

Positions reached by seeded random play (>= 10,000, all 21 rolls each) plus constructed
ones that stress the rare rules: bar entry against closed points, closed boards, hits
during bear-off, higher dice in bear-off, the higher-die rule.
"""
from __future__ import annotations

import platform
import random
from collections.abc import Iterator

import pytest

from controller.engine import ALL_ROLLS, Position, legal_moves
from controller.engine.generate import generate
from controller.engine.playout import played_positions

try:
    import gnubg_nn
except ImportError:  # pragma: no cover - depends on the machine
    gnubg_nn = None

if gnubg_nn is None:
    if platform.machine() in ("x86_64", "AMD64"):
        pytest.fail(
            "gnubg-nn (the oracle of the engine tests) is NOT installed on this x86-64 machine: "
            "pip install 'gnubg-nn>=1.1.0a11' (it is in the `test` extra)",
            pytrace=False,
        )
    pytest.skip(f"gnubg-nn has no wheel for {platform.machine()}: the oracle comparison is NOT run",
                allow_module_level=True)

RANDOM_POSITIONS = 10_000


def _result_keys(position: Position, dice: tuple[int, int]) -> set[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Our results as (mine, theirs) tuples, computed straight from the generator's records
    (the same arithmetic as Move.result, without building Position objects)."""
    out = set()
    mine0, theirs0 = position.mine, position.theirs
    raws = generate(mine0, theirs0, *dice)
    for raw in raws:
        mine, theirs = list(mine0), list(theirs0)
        for i in range(0, len(raw), 2):
            frm = raw[i]
            to = frm - raw[i + 1]
            mine[24 if frm == 25 else frm - 1] -= 1
            if to > 0:
                mine[to - 1] += 1
                if theirs[24 - to] == 1:
                    theirs[24 - to] = 0
                    theirs[24] += 1
        out.add((tuple(mine), tuple(theirs)))
    assert len(out) == len(raws), f"duplicate results for {position!r} {dice}"
    return out


def _oracle_keys(position: Position, dice: tuple[int, int]) -> set[tuple[tuple[int, ...], tuple[int, ...]]]:
    board = [list(position.theirs), list(position.mine)]  # gnubg: [opponent, mover]
    out = set()
    for key in gnubg_nn.moves(board, dice[0], dice[1]):
        b = gnubg_nn.board_from_position_key(key)
        out.add((tuple(b[1]), tuple(b[0])))
    return out


def _played(count: int, seed: int) -> Iterator[Position]:
    return iter(played_positions(count, seed))


def _side(rng: random.Random, points: list[int], count: int) -> list[int]:
    side = [0] * 25
    for _ in range(count):
        side[rng.choice(points) - 1] += 1
    return side


def _constructed(count: int, seed: int) -> Iterator[Position]:
    """Bar entry into partly or fully closed boards, bear-offs with opponent checkers
    in the home board (hits during bear-off), bear-offs with gaps (higher dice)."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        kind = made % 3
        mine = [0] * 25
        theirs = [0] * 25
        if kind == 0:  # mover on the bar, opponent home board with 0..6 closed points
            closed = rng.sample(range(1, 7), rng.randint(0, 6))  # opponent's own points
            for p in closed:
                theirs[p - 1] = 2
            left = 15 - 2 * len(closed)
            for p in rng.sample(range(7, 25), 3):
                take = min(left, rng.randint(0, 3))
                theirs[p - 1] += take
                left -= take
            mine[24] = rng.randint(1, 4)
            rest = 15 - mine[24] - rng.randint(0, 3)
            free = [p for p in range(1, 25) if theirs[24 - p] == 0]
            for _ in range(rest):
                mine[rng.choice(free) - 1] += 1
        elif kind == 1:  # bear-off with opponent blots and points in the mover's home
            n = rng.randint(1, 15)
            for _ in range(n):
                mine[rng.randint(1, 6) - 1] += 1
            for p in range(1, 7):
                if not mine[p - 1] and rng.random() < 0.4:
                    theirs[24 - p] = rng.choice((1, 1, 2))
            theirs[24] = rng.randint(0, 2)
            for _ in range(rng.randint(0, 8)):
                theirs[rng.randint(1, 12) - 1] += 1
        else:  # bear-off with gaps: checkers on few low points, one maybe still outside
            for p in rng.sample(range(1, 7), rng.randint(1, 3)):
                mine[p - 1] = rng.randint(1, 4)
            if rng.random() < 0.4:
                mine[rng.randint(7, 12) - 1] += 1
            theirs[rng.randint(13, 24) - 1] = 2
        position = Position(tuple(mine), tuple(theirs))
        if position.problems():
            continue
        made += 1
        yield position


def _compare(positions: Iterator[Position]) -> tuple[int, list[str]]:
    checked, diffs = 0, []
    for p in positions:
        for dice in ALL_ROLLS:
            ours, oracle = _result_keys(p, dice), _oracle_keys(p, dice)
            checked += 1
            if ours != oracle:
                diffs.append(f"{p.id} {dice[0]}{dice[1]}: ours {len(ours)}, gnubg {len(oracle)}")
    return checked, diffs


def test_random_positions_reached_by_play_all_rolls() -> None:
    checked, diffs = _compare(_played(RANDOM_POSITIONS, 2026))
    assert checked == RANDOM_POSITIONS * 21
    assert diffs == [], f"{len(diffs)} differences, first: {diffs[:5]}"


def test_constructed_positions_bar_closed_boards_bear_off() -> None:
    checked, diffs = _compare(_constructed(1500, 4))
    assert diffs == [], f"{len(diffs)} differences, first: {diffs[:5]}"


def test_legal_moves_results_agree_with_the_raw_records() -> None:
    """The oracle test reads the generator's records; Move.result must say the same."""
    for p in _played(300, 9):
        for dice in ALL_ROLLS:
            assert {(m.result.mine, m.result.theirs) for m in legal_moves(p, dice)} == _result_keys(p, dice)
