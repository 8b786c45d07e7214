"""The `simple` level: its evaluation's parts, its choices, its cube rule, its speed."""
from __future__ import annotations

import statistics
import time

import pytest

from bgboard.bench.bot_bench import sample_positions
from controller.bot.base import MONEY, MatchContext, make_bot
from controller.bot.cube_rules import (
    gammon_threat,
    should_double_by_pips,
    should_take_by_pips,
)
from controller.bot.evaluation import contact_features, is_contact, shot_rolls
from controller.bot.simple import SimpleBot, gammon_values
from controller.engine import Position, legal_moves


board = Position.from_points


# -- evaluation parts ------------------------------------------------------------------------
def test_a_blot_six_away_from_one_checker_is_hit_by_17_rolls() -> None:
    # the mover's blot on their 7 point, one opponent checker on the mover's 1 point
    pos = board({7: 1, 6: 14}, {24: 1, 6: 14})
    assert shot_rolls(pos) == 17


def test_a_direct_one_away_shot_is_11_rolls() -> None:
    pos = board({2: 1, 13: 14}, {24: 1, 6: 14})
    assert shot_rolls(pos) == 11


def test_made_points_block_indirect_shots() -> None:
    # 8 away: 6-2, 5-3, 4-4, 2-2 normally (6 rolls); made points on 3..7 block every path
    open_ = board({9: 1, 13: 14}, {24: 1, 6: 14})
    assert shot_rolls(open_) == 6
    closed = board({9: 1, 3: 2, 4: 2, 5: 2, 6: 2, 7: 2, 13: 4}, {24: 1, 6: 14})
    assert shot_rolls(closed) == 0


def test_no_blot_no_shot_and_contact_detection() -> None:
    start = Position.initial()
    assert shot_rolls(start) == 0 and is_contact(start)
    race = board({1: 5, 2: 5, 3: 5}, {1: 5, 2: 5, 3: 5})
    assert not is_contact(race)


def test_closed_board_and_bar_are_seen() -> None:
    pos = board({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}, {25: 1, 6: 14})
    f = contact_features(pos)
    assert f[6] == 1.0  # my home board: 6 of 6 points
    assert f[12] == 1.0  # an opponent checker on the bar


# -- choices ----------------------------------------------------------------------------------
@pytest.mark.parametrize(("dice", "expected"), [
    ((3, 1), "8/5 6/5"), ((4, 2), "8/4 6/4"), ((6, 1), "13/7 8/7"),
])
def test_classic_opening_points_are_made(dice: tuple[int, int], expected: str) -> None:
    assert make_bot("simple").choose_move(Position.initial(), dice, MONEY).notation == expected


def test_it_hits_a_blot_it_can_hit_from_safety() -> None:
    # the opponent's blot on the mover's 4 point; 2-2 from the 8 and 6 points hits it
    pos = board({8: 4, 6: 5, 13: 4, 24: 2}, {21: 1, 6: 5, 8: 3, 13: 4, 24: 2})
    move = make_bot("simple").choose_move(pos, (2, 2), MONEY)
    assert move is not None and any(s.hit for s in move.steps)


def test_in_a_race_it_bears_off_rather_than_moves_inside() -> None:
    pos = board({1: 3, 2: 3, 3: 3, 4: 3, 5: 3}, {19: 15})
    move = make_bot("simple").choose_move(pos, (5, 4), MONEY)
    assert move is not None and move.result.off[0] == 2


def test_no_legal_move_is_none() -> None:
    pos = board({25: 1, 13: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 8: 3})
    assert legal_moves(pos, (6, 5)) == []
    assert make_bot("simple").choose_move(pos, (6, 5), MONEY) is None


def test_gammons_weigh_what_the_score_says() -> None:
    assert gammon_values(MONEY) == (1.0, 1.0)
    assert gammon_values(MatchContext(1, 1, 1)) == (0.0, 0.0)
    assert gammon_values(MatchContext(5, 1, 3)) == (0.0, 1.0)  # our single win ends it
    assert gammon_values(MatchContext(5, 4, 2, cube=2, owner="bot")) == (1.0, 0.0)


# -- cube and resignations by pip count ---------------------------------------------------------
def race(my_pips_extra: int) -> Position:
    """A race: the mover has 100 + extra pips, the opponent 100."""
    mine = {5: 10, 10: 5}  # 50 + 50 = 100
    if my_pips_extra:
        mine = {5: 9, 10: 5, 5 + my_pips_extra: 1}
    return board(mine, {5: 10, 10: 5})


def test_doubles_at_eight_percent_lead_not_below() -> None:
    lead8 = board({5: 10, 4: 1, 10: 4}, {5: 10, 10: 5})  # 50+4+40 = 94 vs 100: lead 6.4%
    assert not should_double_by_pips(lead8, MONEY)
    lead = board({5: 10, 2: 1, 10: 4}, {5: 10, 10: 5})  # 92 vs 100: 8.7%
    assert should_double_by_pips(lead, MONEY)
    assert not should_double_by_pips(lead, MatchContext(5, 3, 1, crawford=True))
    assert not should_double_by_pips(lead, MatchContext(5, 3, 3, cube=2, owner="opponent"))


def test_redouble_needs_nine_percent() -> None:
    pos = board({5: 10, 2: 1, 10: 4}, {5: 10, 10: 5})  # 8.7%
    assert should_double_by_pips(pos, MatchContext(0, cube=2, owner="center"))
    assert not should_double_by_pips(pos, MatchContext(0, cube=2, owner="bot"))


def test_post_crawford_trailer_doubles_at_once() -> None:
    assert should_double_by_pips(Position.initial(), MatchContext(5, 4, 1))
    assert not should_double_by_pips(Position.initial(), MatchContext(5, 1, 4))


def test_takes_up_to_twelve_percent_behind() -> None:
    doubler_ahead_11 = board({5: 10, 10: 5}, {5: 9, 10: 5, 16: 1})  # 100 against 111
    assert doubler_ahead_11.pips() == (100, 111)
    assert should_take_by_pips(doubler_ahead_11, MONEY)
    doubler_ahead_13 = board({5: 10, 10: 5}, {5: 9, 10: 5, 18: 1})  # 100 against 113
    assert not should_take_by_pips(doubler_ahead_13, MONEY)
    far = board({5: 10, 4: 5}, {5: 10, 10: 5})  # 70 vs 100: 43% ahead
    assert not should_take_by_pips(far, MONEY)
    assert should_take_by_pips(far, MatchContext(5, 1, 3))  # leader after Crawford takes


def test_resignations_by_what_is_still_at_stake() -> None:
    bot = SimpleBot()
    gammonish = board({19: 2, 13: 13}, {1: 5, 2: 5, 3: 4})  # resigner on roll, none off
    assert gammon_threat(gammonish) == 3
    assert not bot.accepts_resignation(gammonish, 1, MONEY)
    assert not bot.accepts_resignation(gammonish, 2, MONEY)
    assert bot.accepts_resignation(gammonish, 3, MONEY)
    one_off = board({1: 14}, {1: 5, 2: 5, 3: 4})
    assert gammon_threat(one_off) == 1 and bot.accepts_resignation(one_off, 1, MONEY)


# -- speed -----------------------------------------------------------------------------------------
def test_a_move_takes_under_50_ms_median_and_worst() -> None:
    """CPU time of this thread, best of three per position: the suite shares two cores
    with other work, and waiting for a core is not the bot's cost."""
    bot = SimpleBot()
    positions = sample_positions(150, seed=5)
    many = max(positions, key=lambda pd: len(legal_moves(*pd)))
    bot.choose_move(*positions[0], MONEY)  # warm up: imports and the scorer's tables
    times = []
    for pos, dice in positions + [many]:
        runs = []
        for _ in range(3):
            t0 = time.thread_time()
            bot.choose_move(pos, dice, MONEY)
            runs.append(time.thread_time() - t0)
        times.append(min(runs))
    assert len(legal_moves(*many)) > 100  # the sample holds a heavy case
    assert statistics.median(times) < 0.050 and max(times) < 0.050, (statistics.median(times), max(times))


def test_the_levels_memo_is_full_after_its_first_games() -> None:
    """A simulator's or a board's computer plays game after game in one process: what the
    simple level keeps between moves (`_escapes`' memo) stops growing after the first few
    games, so the process's memory is flat after them (issue 35's soak)."""
    import random

    from controller.bot import evaluation
    from controller.bot.duel import play_game

    evaluation._escapes.cache_clear()
    rng = random.Random(5)
    bots = (SimpleBot(rng=random.Random(1)), SimpleBot(rng=random.Random(2)))
    held = []
    for _ in range(40):
        play_game(bots, rng)
        held.append(evaluation._escapes.cache_info().currsize)
    assert held[4] == held[-1], f"the memo still grew after game 5: {held[4]} -> {held[-1]} entries"


def test_simple_bots_share_their_scorers_built_before_the_first_move() -> None:
    """A process playing the simple level game after game (a table's computer, the page's
    helper, a bench's hands) holds one set of move scorers, all built before the first move:
    none is added as later scores come up, and two bots hold the same ones."""
    import random

    from controller.bot.duel import play_game

    first, second = SimpleBot(rng=random.Random(1)), SimpleBot(rng=random.Random(2))
    held = {id(s) for s in first._scorers.values()}
    assert len(held) == 4 and held == {id(s) for s in second._scorers.values()}
    rng = random.Random(9)
    for away in range(1, 6):  # every score of a 5-point match, each side
        for other in range(1, 6):
            contexts = (MatchContext(length=5, bot_away=away, opponent_away=other, cube=1, owner="center"),
                        MatchContext(length=5, bot_away=other, opponent_away=away, cube=1, owner="center"))
            play_game((first, second), rng, contexts)
    assert {id(s) for s in first._scorers.values()} == held
    assert {id(s) for s in second._scorers.values()} == held
