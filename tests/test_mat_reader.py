"""The .mat reader: move notation variants, moves checked against the engine, dialects,
and damaged files reported at the right game and move."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from controller.engine import Position, legal_moves
from controller.errors import RecordError
from controller.records.mat_reader import (
    check_mat,
    parse_mat,
    parse_move_text,
    play_written,
    read_mat,
)
from controller.engine.notation import format_move as format_steps
from controller.records.model import Double, Resign, Roll, Take

DATA = Path(__file__).parent / "data"


# -- notation ------------------------------------------------------------------------
@pytest.mark.parametrize("text, segments", [
    ("24/18 13/11", ((24, 18), (13, 11))),
    ("25/22 bar/20", ((25, 22), (25, 20))),
    ("6/0 5/off", ((6, 0), (5, 0))),
    ("13/7*/3*", ((13, 7), (7, 3))),
    ("13/10(2) 8/4*(2)", ((13, 10), (13, 10), (8, 4), (8, 4))),
    ("Cannot Move", ()),
    ("", ()),
])
def test_move_notation_variants(text: str, segments: tuple[tuple[int, int], ...]) -> None:
    assert parse_move_text(text) == segments


@pytest.mark.parametrize("text", ["????", "13-7", "7/13", "off/3", "26/20", "13/7 x"])
def test_unreadable_notation(text: str) -> None:
    assert parse_move_text(text) is None


def test_unmarked_hits_are_found_by_the_engine() -> None:
    # after 6-5 24/13 for the opponent... simplest: a blot of the opponent on our 7 point
    pos = Position.initial()
    theirs = list(pos.theirs)
    theirs[12] -= 1  # opponent's 13 point (our 12) gives a checker to their 18 (our 7)
    theirs[17] += 1
    pos = Position(pos.mine, tuple(theirs))
    after, steps = play_written(pos, (6, 5), "13/7 13/8")
    assert [s.hit for s in steps] == [True, False]
    assert after.theirs[24] == 1


def test_illegal_move_names_move_and_dice() -> None:
    with pytest.raises(ValueError, match=r"^13/7 13/7 is not legal for 6-1$"):
        play_written(Position.initial(), (6, 1), "13/7 13/7")


def test_no_move_written_when_one_is_possible() -> None:
    with pytest.raises(ValueError, match="no move is not legal for 6-3"):
        play_written(Position.initial(), (6, 3), "")


def test_a_move_using_fewer_dice_must_be_the_legal_one() -> None:
    # mover: one checker on the bar; the opponent holds every entry point but 6 (our 19);
    # with 6-5 only the 6 enters and then nothing else may move but that checker (5 blocked)
    mine = [0] * 25
    mine[24] = 1
    mine[5] = 14
    theirs = [0] * 25
    for p in (1, 2, 3, 4, 5):  # their points 1..5 = our entry points 24..20
        theirs[p - 1] = 2
    theirs[23] = 5  # their 24 = our 1... keeps the count legal
    pos = Position(tuple(mine), tuple(theirs))
    legal = {m.result for m in legal_moves(pos, (6, 5))}
    after, steps = play_written(pos, (6, 5), "bar/19 19/14")
    assert after in legal and len(steps) == 2
    with pytest.raises(ValueError, match="not legal"):
        play_written(pos, (6, 5), "bar/20")
    with pytest.raises(ValueError, match="^bar/19 is not legal for 6-5$"):  # the 5 must be played too
        play_written(pos, (6, 5), "bar/19")
    theirs[10], theirs[23] = 2, 3  # now 19/14 is blocked too (their 11): only the 6 can be played
    blocked = Position.checked(mine, theirs)
    assert play_written(blocked, (6, 5), "bar/19")[0] in {m.result for m in legal_moves(blocked, (6, 5))}


def _random_positions(n: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < n:
        pos = Position.initial()
        for _ in range(rng.randint(0, 60)):
            moves = legal_moves(pos, (rng.randint(1, 6), rng.randint(1, 6)))
            if moves:
                pos = rng.choice(moves).result
            if sum(pos.mine) == 0:
                break
            pos = pos.swap()
        if sum(pos.mine) and sum(pos.theirs):
            out.append(pos)
    return out


def test_reader_agrees_with_legal_moves_on_random_positions() -> None:
    """Every legal move written as GNU Backgammon writes it reads back to its position;
    moves of another roll read back only when they are legal for this one."""
    rng = random.Random(7)
    checked = 0
    for pos in _random_positions(150, 3):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        legal = legal_moves(pos, dice)
        results = {m.result for m in legal}
        for m in legal:
            after, _ = play_written(pos, dice, format_steps(m.steps))
            assert after == m.result
            checked += 1
        other = (rng.randint(1, 6), rng.randint(1, 6))
        for m in legal_moves(pos, other)[:10]:
            try:
                after, _ = play_written(pos, dice, format_steps(m.steps))
            except ValueError:
                continue
            assert after in results
    assert checked > 1000


# -- dialects ------------------------------------------------------------------------
def test_galaxy_dialect_counts_points_on_the_board() -> None:
    """Galaxy writes `Wins 3 point and the match` for a gammon at cube 2: it is worth 4."""
    record = read_mat((DATA / "mat" / "galaxy_style.mat").read_text())
    assert record.players == ("alice", "bob") and record.length == 3
    (game,) = record.games
    assert (game.winner, game.points, game.end, game.cube) == (0, 4, "bearoff", 2)
    assert any(isinstance(a, Double) for a in game.actions) and any(isinstance(a, Take) for a in game.actions)
    hits = sum(s.hit for a in game.actions if isinstance(a, Roll) for s in a.steps)
    marked = (DATA / "gnubg" / "selfplay_3pt_seed12.mat").read_text().count("*")
    assert "*" not in (DATA / "mat" / "galaxy_style.mat").read_text()
    assert hits == marked == 3  # found by the engine where gnubg marked them


def test_studio_dialect_reads_like_the_gnubg_original() -> None:
    studio = read_mat((DATA / "mat" / "studio_style.mat").read_text())
    original = read_mat((DATA / "gnubg" / "selfplay_3pt_seed12.mat").read_text())
    assert studio.tag("Site") == "Backgammon Studio"

    def results(r):  # type: ignore[no-untyped-def]
        return [tuple(sorted((s.frm, s.to) for s in a.steps)) if isinstance(a, Roll) else a
                for g in r.games for a in g.actions]
    assert results(studio) == results(original)
    assert studio.final_score == original.final_score == (4, 0)


def test_resignation_level_is_points_over_cube_rounded_up() -> None:
    text = """ 3 point match

 Game 1
 a : 0                          b : 0
  1) 31: 8/5 6/5                 Doubles => 2
  2)  Takes                      62: 24/18 13/11
  3) 42: 8/4 6/4
                                  Wins 3 points
"""
    (game,) = read_mat(text).games
    assert game.actions[-1] == Resign(0, 2)
    assert (game.winner, game.points, game.end) == (1, 4, "resign")


def test_score_lines_must_follow_from_the_games() -> None:
    text = """ 5 point match

 Game 1
 a : 0                          b : 0
  1) 31: 8/5 6/5                 Doubles => 2
  2)  Drops                       Wins 1 point

 Game 2
 a : 0                          b : 3
  1) 31: 8/5 6/5
"""
    _, problem = check_mat(text)
    assert str(problem) == "game 2: the score line says 0-3, the games before give 0-1"


def test_crawford_game_has_no_cube() -> None:
    text = """ 3 point match

 Game 1
 a : 0                          b : 0
  1) 31: 8/5 6/5                 Doubles => 2
  2)  Drops                       Wins 1 point

 Game 2
 a : 0                          b : 1
  1) 31: 8/5 6/5                 Doubles => 2
  2)  Drops                       Wins 1 point

 Game 3
 a : 0                          b : 2
  1) 31: 8/5 6/5                 Doubles => 2
"""
    record, problem = check_mat(text)
    assert [g.crawford for g in record.games] == [False, False, True]
    assert str(problem) == "game 3 move 1: no doubling in the Crawford game"


@pytest.mark.parametrize("name, problem", [
    ("truncated.mat", "game 1 move 12: the record ends before the game does"),
    ("illegal.mat", "game 1 move 4: 13/7 13/7 is not legal for 6-1"),
    ("unknown_command.mat", "game 1 move 9: unknown command 'Beavers'"),
    ("garbled.mat", "game 1 move 27: unreadable entry '27) Losses 1 point Wins 1 point'"),
])
def test_damaged_files_name_game_and_move(name: str, problem: str) -> None:
    text = (DATA / "mat" / name).read_text()
    _, found = check_mat(text)
    assert str(found) == problem
    with pytest.raises(RecordError, match="^game 1 move"):
        read_mat(text)


def test_not_a_match_record() -> None:
    with pytest.raises(RecordError, match="no 'N point match' line"):
        parse_mat("hello\n")


def test_studio_abandoned_roll_then_resignation() -> None:
    text = """7 point match

 Game 1
 a : 0                                  b : 0
  1) 31: 8/5 6/5                        43: ????
  2)  Wins 2 point
"""
    (game,) = read_mat(text).games
    assert (game.winner, game.points, game.end) == (0, 2, "resign")
    _, problem = check_mat(text.replace("  2)  Wins 2 point\n", "  2) 31: 8/5 6/5\n"))
    assert str(problem) == "game 1 move 1: unreadable move '????'"


def test_agrees_with_the_engines_notation_parser() -> None:
    """`controller.engine.notation.parse_move` reads the same moves to the same positions
    (the reader keeps its own parser: it also reads `Cannot Move` and `????`, keeps the
    written step order, and calls legal_moves only for plays that leave a die unused)."""
    from controller.engine.notation import parse_move

    n = 0
    for path in sorted((DATA / "gnubg").glob("*.mat")) + [DATA / "mat" / "studio_style.mat"]:
        raw = parse_mat(path.read_text())
        for game in raw.games:
            pos = Position.initial()
            for entry in game.entries:
                if entry.kind != "roll" or entry.dice is None:
                    continue
                after, _ = play_written(pos, entry.dice, entry.text)
                if entry.text != "Cannot Move":
                    assert parse_move(pos, entry.dice, entry.text).result == after
                    n += 1
                if sum(after.mine) == 0:
                    break
                pos = after.swap()
    assert n > 500


def test_xg_byte_order_mark_crlf_and_money_play() -> None:
    text = "\ufeff; [Site \"eXtreme Gammon\"]\r\n\r\n0 point match\r\n\r\n Game 1\r\n" \
           " a : 0                          b : 0\r\n  1) 31: 8/5 6/5                 Doubles => 2\r\n" \
           "  2)  Drops                      Wins 1 point\r\n"
    record = read_mat(text)
    assert record.length == 0 and record.tag("site") == "eXtreme Gammon" and record.winner is None
    assert record.final_score == (0, 1)


def test_resigns_line_is_a_marker_and_beavers_are_not_our_rules() -> None:
    base = """ 3 point match

 Game 1
 a : 0                          b : 0
  1) 31: 8/5 6/5                 62: 24/18 13/11
"""
    game = read_mat(base + "  2)  Resigns\n                                  Wins 1 point\n").games[0]
    assert (game.winner, game.points, game.end) == (1, 1, "resign")
    _, problem = check_mat(base + "  2)  Doubles => 2                Beavers\n")
    assert str(problem) == "game 1 move 2: unknown command 'Beavers'"
