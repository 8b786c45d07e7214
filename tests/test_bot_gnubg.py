"""The `gnubg` level: same moves as GNU Backgammon, its cube and resignation answers, and
the text-mode program's answers parsed right."""
from __future__ import annotations

import pytest

from bgboard.bench.bot_bench import sample_positions
from controller.bot.base import MONEY, MatchContext, make_bot
from controller.evaluation.program import find_gnubg_program
from controller.evaluation.wheel import load_gnubg_nn
from controller.bot.gnubg_process import (
    cube_says_double,
    cube_says_take,
    parse_best_move,
    parse_cube_action,
    parse_met,
    parse_probabilities,
    setup_commands,
)
from controller.engine import Position

HAVE_NN = load_gnubg_nn() is not None
PROGRAM = find_gnubg_program()
needs_nn = pytest.mark.skipif(not HAVE_NN, reason="gnubg-nn wheel not installed")
needs_program = pytest.mark.skipif(PROGRAM is None, reason="gnubg program not installed")


board = Position.from_points


def apply_gnubg_move(position: Position, pairs: tuple[tuple[int, int], ...]) -> Position:
    """Play gnubg's (from, to) pairs (25 = bar, 0 = off) on `position`, independently of
    the engine, so the comparison below checks our board mapping too."""
    mine, theirs = list(position.mine), list(position.theirs)
    for frm, to in pairs:
        mine[24 if frm == 25 else frm - 1] -= 1
        if to > 0:
            if theirs[24 - to] == 1:
                theirs[24 - to] = 0
                theirs[24] += 1
            mine[to - 1] += 1
    return Position(tuple(mine), tuple(theirs))


TEST_SET = sample_positions(200, seed=21)


@needs_nn
@pytest.mark.parametrize("context", [MONEY, MatchContext(5, 3, 2), MatchContext(7, 1, 4, crawford=True)],
                         ids=["money", "5pt-3away-2away", "crawford"])
def test_every_move_is_gnubgs_best_move(context: MatchContext) -> None:
    import gnubg_nn

    bot = make_bot("gnubg", backend="nn")
    for position, dice in TEST_SET:
        ours = bot.choose_move(position, dice, context)
        if context.is_money:
            gnubg_nn.set.score(0, 0)
        else:
            gnubg_nn.set.score(context.bot_away, context.opponent_away, int(context.crawford))
        gnubg_nn.set.cube(1)
        pairs = gnubg_nn.best_move([list(position.theirs), list(position.mine)], dice[0], dice[1])
        assert ours is not None
        assert ours.result == apply_gnubg_move(position, pairs), (position.id, dice, ours.notation, pairs)


@needs_nn
@needs_program
def test_the_program_agrees_with_the_wheel_on_contact_positions() -> None:
    from controller.bot.evaluation import is_contact

    nn = make_bot("gnubg", backend="nn")
    program = make_bot("gnubg", backend="process")
    try:
        dmp = MatchContext(1, 1, 1)
        chosen = [(p, d) for p, d in TEST_SET if is_contact(p)][:25]
        for position, dice in chosen:
            a = nn.choose_move(position, dice, dmp)
            b = program.choose_move(position, dice, dmp)
            assert a is not None and b is not None and a.result == b.result, (position.id, dice, a, b)
    finally:
        program.close()  # type: ignore[attr-defined]


RACE_LEAD = board({1: 2, 2: 3, 3: 3, 4: 3, 5: 4}, {1: 3, 2: 3, 3: 3, 4: 3, 6: 3})  # 49 vs 48, on roll
CRUSHING = board({1: 3, 2: 3, 3: 3, 4: 3, 5: 3}, {19: 5, 17: 5, 12: 5})  # gammon almost sure


@pytest.fixture(params=[pytest.param("nn", marks=needs_nn), pytest.param("process", marks=needs_program)])
def gnubg_bot(request: pytest.FixtureRequest):  # type: ignore[no-untyped-def]
    bot = make_bot("gnubg", backend=request.param)
    yield bot
    close = getattr(bot, "close", None)
    if close:
        close()


def test_cube_actions(gnubg_bot) -> None:  # type: ignore[no-untyped-def]
    assert gnubg_bot.should_double(RACE_LEAD, MONEY)
    assert not gnubg_bot.should_double(Position.initial(), MONEY)
    assert not gnubg_bot.should_double(RACE_LEAD, MatchContext(5, 3, 1, crawford=True))
    # post-Crawford the trailer doubles at once, the 1-away leader never does
    assert gnubg_bot.should_double(Position.initial(), MatchContext(5, 4, 1))
    assert not gnubg_bot.should_double(RACE_LEAD, MatchContext(5, 1, 4))
    # a 70% race: a take for the opponent
    assert gnubg_bot.should_take(RACE_LEAD, MONEY)
    far_ahead = board({1: 3, 2: 3, 3: 3, 4: 3, 5: 3}, {6: 5, 5: 5, 4: 5})  # 45 vs 75
    assert not gnubg_bot.should_take(far_ahead, MONEY)


def test_resignations(gnubg_bot) -> None:  # type: ignore[no-untyped-def]
    # the opponent (on roll) is about to be gammoned: a single is not enough, a gammon is
    loser = CRUSHING.swap()
    assert not gnubg_bot.accepts_resignation(loser, 1, MONEY)
    assert gnubg_bot.accepts_resignation(loser, 2, MONEY)
    # at 1-away against 5-away, the single already wins the match: accept it
    assert gnubg_bot.accepts_resignation(loser, 1, MatchContext(5, 1, 5))


# -- the program's text, parsed without the program ---------------------------------------------
HINT = """The dice have been set to 3 and 1.
    1. Cubeful 0-ply    8/5 6/5                      Eq.: +0.200
       0.551 0.174 0.013 - 0.449 0.124 0.005
        0-ply cubeful prune [expert]
    2. Cubeful 0-ply    24/23 13/10                  Eq.: -0.011 (-0.211)
"""
CUBE = """Cube analysis
0-ply cubeless equity +0.067
Proper cube action: No double, beaver (23.1%)
"""
EVAL = """        Win     W(g)    W(bg)   L(g)    L(bg)   Equity    Cubeful
static: 0.522   0.154   0.008   0.130   0.008   +0.067    +0.084
"""
MET = """Pre-Crawford table:

             1-away    2-away    3-away
   1-away   50.0000   67.7360   75.0760
   2-away   32.2640   50.0000   59.9470
   3-away   24.9240   40.0530   50.0000

Post-Crawford table for player 0 (gnubg):

             1-away    2-away    3-away
   1-away   50.0000   48.8030   32.2640

Post-Crawford table for player 1 (root):

             1-away    2-away    3-away
   1-away   50.0000   48.8030   32.2640
"""


def test_parsers() -> None:
    assert parse_best_move(HINT) == "8/5 6/5"
    action = parse_cube_action(CUBE)
    assert action == "No double, beaver" and not cube_says_double(action) and cube_says_take(action)
    assert cube_says_double("Redouble, pass") and not cube_says_take("Double, pass")
    assert not cube_says_double("Too good to double, pass")
    assert parse_probabilities(EVAL) == (0.522, 0.154, 0.008, 0.130, 0.008)
    pre, post = parse_met(MET)
    assert pre[(1, 2)] == pytest.approx(0.67736) and pre[(3, 1)] == pytest.approx(0.249240)
    assert post[2] == pytest.approx(0.488030)
    with pytest.raises(ValueError):
        parse_best_move("You cannot double.")


def test_setup_puts_the_side_on_roll_as_player_one() -> None:
    cmds = setup_commands(Position.initial(), 2, 5, MatchContext(7, 2, 5, cube=2, owner="bot"), True)
    assert cmds == ["new match 7", "set score 2 5", "set crawford off", "set cube value 2",
                    "set cube owner 1", "set turn 1", f"set board {Position.initial().id}"]
    assert setup_commands(Position.initial(), 0, 0, MONEY, None)[0] == "new session"
