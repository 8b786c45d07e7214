"""The review of a match being played (issue 14, "after each game and the match").

The review's figures must be `bgboard analyze --json`'s for the same record: the same
PR, rating and error totals per player, the same marked decisions with the same losses,
and its winning-chance series the analysis's own `win` of each checker play, seen from
White. A marked position set up again must be that decision's position: the same board
for the same player, dice, cube and score. After a game the display shows each
player's PR and rating, with the prompt that says what to do next still on its first line.
"""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from pathlib import Path

import pytest

from controller.analysis.review import JudgedGames, ReviewCache, practice_match
from controller.board.reconcile import BoardState
from controller.controller import Controller
from controller.dice import DiceState
from controller.engine.board_view import cell_counts
from controller.engine.match import Match
from controller.engine.match_settings import MatchSettings
from controller.engine.position import Position
from controller.events import ActionRequested, ReadingReceived, RollQueued, Tick
from controller.records.from_match import record_from_match
from controller.records.mat_reader import read_mat
from controller.records.mat_writer import write_mat
from controller.records.model import Game
from controller.show import display as drawing
from controller.show.texts import render
from controller.table.review import ReviewRunner, default_cache
from controller.table.table import Table
from network_backends import BACKENDS
from review_support import analyze_json, assert_review_is_the_analysis

MATCHES = Path(__file__).resolve().parent.parent / "../shared/matches/bglab"
REAL = ("lasse__match1043097.txt", "lasse__match10074339.txt", "lasse__match3264187.txt")

needs_network = pytest.mark.skipif(not BACKENDS, reason="needs the gnubg program's weights (sudo apt install gnubg)")


@needs_network
@pytest.mark.parametrize("name", REAL)
def test_the_review_of_a_real_match_is_bgboard_analyze(name: str) -> None:
    path = MATCHES / name
    record = read_mat(path.read_text(encoding="utf-8", errors="replace").lstrip("\ufeff"))
    review = default_cache().review(record)
    assert review.games == len([g for g in record.games if g.winner is not None])
    assert_review_is_the_analysis(review.to_json(), analyze_json(path))
    ends = [p for p in review.series if p.move == 0]
    assert [p.white for p in ends] == [1.0 if g.winner == 0 else 0.0 for g in record.games if g.winner is not None]


@needs_network
def test_a_finished_game_is_analysed_once() -> None:
    record = read_mat((MATCHES / REAL[2]).read_text(encoding="utf-8", errors="replace").lstrip("\ufeff"))
    cache = default_cache()
    calls: list[int] = []
    inner = cache.judge.judge
    cache.judge.judge = lambda length, games: calls.extend(g.number for g in games) or inner(length, games)  # type: ignore[method-assign]
    from dataclasses import replace
    first_two = replace(record, games=record.games[:2])
    cache.review(first_two)
    cache.review(record)
    assert calls == [g.number for g in record.games if g.winner is not None]


@needs_network
@pytest.mark.parametrize("name", REAL[:2])
def test_every_marked_position_sets_up_as_it_was(name: str) -> None:
    record = read_mat((MATCHES / name).read_text(encoding="utf-8", errors="replace").lstrip("\ufeff"))
    review = default_cache().review(record)
    assert review.marked
    for marked in review.marked:
        s, d = marked.setup, marked.decision
        m = practice_match(s, MatchSettings(length=record.length))
        game = record.games[d.game - 1]
        assert m.score == game.score and m.crawford == game.crawford and m.cube == s.cube
        assert m.cube_owner == s.owner
        if d.kind == "move":
            assert (m.phase, m.turn, m.dice, m.position.id) == ("move", marked.player, d.dice, s.position_id)
        elif d.kind in ("take", "pass"):
            assert m.phase == "doubled" and m.turn == s.turn != marked.player  # the doubler's offer, to answer
            assert m.position.id == s.position_id
        else:
            assert (m.phase, m.turn, m.position.id) == ("roll", marked.player, s.position_id)


# -- the table: the display after a game -----------------------------------------------------

def _game_won_by_a_drop(table: Table) -> None:
    """White opens with 31 (8/5 6/5), Black doubles at once, White drops: game 1 over."""
    counts = cell_counts(Position.initial(), "white")
    table.dispatch(ReadingReceived(BoardState.of(counts), 0.0))
    table.dispatch(Tick(0.4))
    table.dispatch(ActionRequested("white", "roll", 0.5))  # the opening: the dice give White 3-1
    m = table.controller.status().match
    assert (m.phase, m.turn, m.dice) == ("move", "white", (3, 1)), m
    move = next(mv for mv in m.legal_moves() if mv.notation == "8/5 6/5")
    after = m.play("white", move).match
    table.dispatch(ReadingReceived(BoardState.of(cell_counts(*after.board())), 1.0))
    table.dispatch(Tick(1.4))
    assert table.controller.status().match.turn == "black"
    table.dispatch(ActionRequested("black", "double", 2.0))
    table.dispatch(ActionRequested("white", "drop", 2.1))
    assert table.controller.status().match.phase == "opening" and table.controller.status().match.score == (0, 1)


def _second_opening(table: Table) -> None:
    """The board set up for game 2 and its opening roll (White wins it with 4-2)."""
    table.dispatch(RollQueued((4, 2), table.controller.status().now))
    table.dispatch(ReadingReceived(BoardState.of(cell_counts(Position.initial(), "white")), 4.0))
    table.dispatch(Tick(4.4))
    table.dispatch(ActionRequested("white", "roll", 5.0))


def _table(loop: asyncio.AbstractEventLoop | None = None) -> Table:
    from controller.board.profile import load_profile
    from controller.show.display_backends import Display

    dice = DiceState()
    dice = dice.push((3, 1))
    table = Table(Controller(Match.new(MatchSettings(length=5)), dice=dice, save=False),
                  display=Display.open(load_profile().display, "dummy"), clock=lambda: 3.0, loop=loop)
    table.review_matches()
    return table


@needs_network
def test_after_a_game_the_display_shows_each_players_pr_and_rating_under_the_prompt(tmp_path: Path) -> None:
    table = _table()
    _game_won_by_a_drop(table)
    content = table.controller.status().scene.display
    # the figures are bgboard analyze's of the record the page would download now
    path = tmp_path / "live.mat"
    path.write_text(write_mat(record_from_match(table.controller.status().match)))
    analysed = analyze_json(path)
    pr = [f"{p['overall']['pr']:.1f}" for p in analysed["players"]]
    assert (content.pr_white, content.pr_black) == (f"{float(pr[0]):.1f}", f"{float(pr[1]):.1f}")
    ratings = [p["overall"]["rating"] for p in analysed["players"]]
    lines = drawing.text_lines(content)
    assert f"PR {content.pr_white} PR {content.pr_black}" in lines
    assert content.prompt is not None and content.prompt.key.startswith("setup")  # set up game 2
    said = render(content.prompt.key, content.prompt.as_dict(), "en")
    assert lines[-3] == said  # what to do next comes first
    assert lines[-2].lower() == f"white: {ratings[0]}".lower() and lines[-1].lower() == f"black: {ratings[1]}".lower()
    # drawn: the prompt's first line stays on top while the ratings take turns under it
    shown = [drawing.pinned_lines(drawing.prompt_lines(content), drawing.note_lines(content), t)
             for t in (0.0, drawing.PAGE_SECONDS)]
    assert [s[0] for s in shown] == [said] * 2
    assert [s[1] for s in shown] == lines[-2:]
    assert table.display is not None and table.display.frame().tobytes() == \
        drawing.render_image(content, 3.0).tobytes()  # the frame the dummy OLED holds
    # once the next game begins the pips are back and the notes gone
    _second_opening(table)
    later = table.controller.status().scene.display
    assert later.notes == () and later.pr_white is None and later.pips_white is not None


def test_a_failing_review_is_one_log_line_and_play_goes_on(caplog: pytest.LogCaptureFixture) -> None:
    def broken() -> ReviewCache:
        raise RuntimeError("network weights damaged")

    table = _table()
    table.review = ReviewRunner(lambda review: None, cache=broken)
    with caplog.at_level(logging.WARNING, logger="bgboard"):
        _game_won_by_a_drop(table)
        _second_opening(table)
    said = [r.getMessage() for r in caplog.records if "review" in r.getMessage()]
    assert said == ["review of the match unavailable: network weights damaged"]
    assert table.controller.status().match.phase == "move"  # the second game is under way
    assert table.controller.status().scene.display.notes == ()


@needs_network
def test_with_a_loop_the_review_runs_off_the_loop_and_arrives_as_an_event() -> None:
    async def main() -> tuple[bool, tuple]:
        table = _table(asyncio.get_running_loop())
        _game_won_by_a_drop(table)
        before = table.controller.status().review is not None  # dispatch returned before the review
        for _ in range(500):
            if table.controller.status().review is not None:
                break
            await asyncio.sleep(0.01)
        notes = table.controller.status().scene.display.notes
        table.close()
        return before, notes

    before, notes = asyncio.run(main())
    assert not before
    assert len(notes) == 2


def test_the_figures_show_between_games_and_after_the_match_never_stale_nor_in_play() -> None:
    from controller.show.review_notes import PlayerFigures, ReviewFigures, review_display

    figures = ReviewFigures(PlayerFigures(3.21, "Expert"), PlayerFigures(None, "n/a"), 1)
    m = Match.from_score(MatchSettings(length=1), position=Position.initial(), turn="white")
    assert review_display(m, figures).notes == ()  # in play: the pips, no notes
    over = m.resign("white", "single").match.accept("black").match  # 1-point match: over
    assert over.phase == "over"
    shown = review_display(over, figures)
    assert (shown.pr_white, shown.pr_black) == ("3.2", "-")
    assert [render(n.key, n.as_dict(), "da") for n in shown.notes] == ["Hvid: ekspert", "Sort: uden vurdering"]
    assert review_display(over, ReviewFigures(figures.white, figures.black, 0)).notes == ()  # stale: not shown


def test_a_new_match_forgets_the_last_matchs_games_and_keeps_the_judge() -> None:
    """Issue 35.21: the review cache kept every game ever reviewed (about 50 KB a game) for
    as long as `bgboard run` ran; a new match now starts a fresh cache on the same judge."""
    class Judge:  # gnubg's judgement stood in for: every game judged to no decisions
        def judge(self, length: int, games: Sequence[Game]) -> JudgedGames:
            return JudgedGames(tuple(() for _ in games), 0, "")

        def stop(self) -> None:
            pass

    made: list[ReviewCache] = []

    def cache() -> ReviewCache:
        made.append(ReviewCache(Judge()))
        return made[-1]

    def one_game_resigned(length: int) -> Match:
        m = Match.new(MatchSettings(length=length)).roll("white", (3, 1)).match
        m = m.play("white", next(x for x in m.legal_moves() if x.notation == "8/5 6/5")).match
        return m.resign("black", "single").match.accept("white").match

    runner = ReviewRunner(lambda review: None, cache=cache)
    first = one_game_resigned(5)
    runner.match_changed(first)
    assert runner._cache is not None and len(runner._cache._games) == 1
    runner.match_changed(Match.new(MatchSettings(length=3)))  # a new match: nothing finished yet
    runner.match_changed(one_game_resigned(3))
    assert len(runner._cache._games) == 1  # the new match's game only
    assert len(made) == 1 and runner._cache.judge is made[0].judge  # the same judge
