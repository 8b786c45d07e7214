"""The board's menu practises a marked decision of the review (issue 14): `bgboard run`'s
table (`run_table` on the virtual board's pseudo-terminal, simulated LEDs and display, the
real button panel on gpiozero's mock pins), reviewed by gnubg's network at 0-ply.

Game 1: White opens with 3-1 (8/5 6/5), Black doubles at once and White passes: both
decisions are marked (gnubg: no double, and a take). Game 2 is set up and rolled. Then a
finger opens the menu, steps to "practise a marked move", steps through the marked
decisions ("G1 M2 Very bad -0.xx", in match order) with the menu button and chooses one
with a main button. The practice is the chosen position (Black's double offered to
White); the `setup` LEDs light exactly the cells whose checkers differ from it; set up, it
is played on (White takes this time) and saved apart under `<state>/practice`. "Back to the
match" gives the match back exactly: position, dice, score, cube and the saved file.
"""
from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from controller.app import run_table
from controller.bot.gnubg_level import load_gnubg_nn
from controller.controller import Controller
from controller.engine.board_view import CELLS, Colour, cell_counts
from controller.engine.match import Match
from controller.engine.match_settings import MatchSettings
from controller.engine.position import Position
from controller.engine.match_settings import REMOTE
from controller.events import (ButtonPressed, MatchSeated, PracticeRequested, ReviewReady,
                               WatchShown, menu_pressed)
from controller.records.saved import FILE_NAME
from controller.records.store import TableStore
from controller.show.review_notes import MarkedLine, PlayerFigures, ReviewFigures, finished_games
from controller.show.texts import render
from controller.table import Table
from controller.table.practice import PRACTICE_DIR, PracticeRefused, TablePractice
from controller.play.showing import phase_prompt
from controller.events import RollQueued
from sim.finger import Finger
from sim.virtual_board import VirtualBoard
from tests.online_double import until
from tests.test_online_menu import choose, press, press_seen, shown

pytestmark = [pytest.mark.timeout(180),
              pytest.mark.skipif(load_gnubg_nn() is None, reason="needs gnubg-nn (installed by .ci/run)")]

Body = Callable[[Table, VirtualBoard, Finger], Awaitable[None]]


def lay(vb: VirtualBoard, counts: dict[str, tuple[int, int]]) -> None:
    """The person moves the checkers until the board shows `counts`."""
    for cell in CELLS:
        want = counts.get(cell, (0, 0))
        if vb.counts(cell) != want:
            vb.set_cell(cell, *want)


def setup_lit(table: Table) -> set[str]:
    return {cell for cell, role in table.controller.status().scene.leds.items() if role == "setup"}


def on_the_board(tmp: Path, body: Body) -> None:
    """`bgboard run`'s table on a 5-point match, its review on, the board set up."""
    async def go() -> None:
        with VirtualBoard() as vb:
            lay(vb, cell_counts(Position.initial(), "white"))
            vb.start()
            opened: asyncio.Future[Table] = asyncio.get_running_loop().create_future()
            task = asyncio.create_task(run_table(vb.port, state_dir=tmp, strip_name="sim", display_driver="dummy",
                                                 pin_factory="mock", match_settings=MatchSettings(length=5),
                                                 on_table=opened.set_result))
            table = await opened
            try:
                await until("the board set up", lambda: not table.controller.status().setting_up)
                finger = Finger.on(table)
                assert finger is not None
                await body(table, vb, finger)
            finally:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
    asyncio.run(go())


async def game_won_by_a_pass(table: Table, vb: VirtualBoard, finger: Finger) -> None:
    """Game 1: White 3-1 8/5 6/5, Black doubles, White passes; game 2 set up and rolled 4-2."""
    c = table.controller
    c.handle(RollQueued((3, 1), c.status().now))  # the opening: White's die, then Black's (a script's `dice` line)
    await press(finger, "white_main")
    await until("White to play 3-1", lambda: (c.status().match.phase, c.status().match.dice) == ("move", (3, 1)))
    move = next(mv for mv in c.status().match.legal_moves() if mv.notation == "8/5 6/5")
    lay(vb, cell_counts(*c.status().match.play("white", move).match.board()))
    await until("the move complete", lambda: c.status().match.turn == "black" or c.status().match.move_complete)
    if c.status().match.turn == "white":
        await press(finger, "white_main")
    await until("Black's turn", lambda: c.status().match.turn == "black" and c.status().match.phase == "roll")
    await press(finger, "black_cube")
    await until("doubled", lambda: c.status().match.phase == "doubled")
    await press(finger, "white_cube")  # the pass
    await until("game 1 over", lambda: c.status().match.score == (0, 1))
    lay(vb, cell_counts(Position.initial(), "white"))
    await until("game 2 set up", lambda: not c.status().setting_up)
    c.handle(RollQueued((4, 2), c.status().now))
    await press(finger, "white_main")
    await until("game 2 rolled", lambda: (c.status().match.phase, c.status().match.dice) == ("move", (4, 2)))
    await until("the review of game 1", lambda: c.status().review is not None and c.status().review.games == 1)


def menu_line(c: Controller) -> str:
    """The menu's line, as the person reads it."""
    prompt = phase_prompt(c.state)
    assert prompt is not None
    return render(prompt.key, prompt.as_dict(), "en")


def saved_file(state: Path) -> bytes:
    """The saved match's file, byte for byte."""
    return (state / FILE_NAME).read_bytes()


def test_practise_a_marked_move_from_the_menu_and_go_back_to_the_match_exactly(tmp_path: Path) -> None:
    async def body(table: Table, vb: VirtualBoard, finger: Finger) -> None:
        c = table.controller
        await game_won_by_a_pass(table, vb, finger)
        assert table.review is not None and table.review.latest is not None
        marked = table.review.latest.marked
        assert {(m.decision.game, m.player, m.decision.kind) for m in marked} >= {(1, "black", "double"),
                                                                                   (1, "white", "pass")}
        before, dice, store = c.status().match, c.state.dice, table.store
        saved = saved_file(tmp_path)

        # the menu lists the marked decisions in match order, one at a time
        await choose(table, "practise")
        listed = []
        for _ in marked:
            listed.append(menu_line(c))
            await press_seen(table, finger, "menu")
        assert listed == [f"G{m.decision.game} M{m.decision.move} {render('tutor.' + m.decision.mark.replace(' ', '_'))}"
                          f" {-m.decision.loss:.2f}" for m in marked]
        assert "Very bad" in listed[0]
        chosen = next(m for m in marked if m.decision.kind == "pass")
        while menu_line(c) != listed[marked.index(chosen)]:
            await press_seen(table, finger, "menu")
        await press_seen(table, finger, "white_main")

        # the practice: Black's double offered to White, the board to be set up as it was
        await until("practising", lambda: c.status().practising == chosen.key)
        m = c.status().match
        setup = chosen.setup
        assert (m.phase, m.turn, m.position.id, m.cube, m.score, m.settings.length) == \
            ("doubled", "black", setup.position_id, 1, (0, 0), 5)
        want = cell_counts(Position.from_id(setup.position_id), "black")
        differ = {cell for cell in CELLS if vb.counts(cell) != want.get(cell, (0, 0))}
        assert differ == {"5", "6", "8"}  # 8/5 6/5 to play again on a board set up for game 2
        await until("the setup lights", lambda: setup_lit(table) == differ)
        assert saved_file(tmp_path) == saved  # the match is where it was, untouched
        lay(vb, want)
        await until("set up", lambda: not c.status().setting_up)
        offered = c.status().scene.display.prompt
        assert offered is not None and offered.key == "double_offered" and shown(table) == render(
            offered.key, offered.as_dict(), "en")
        await press(finger, "white_main")  # White takes this time
        await until("taken", lambda: (c.status().match.phase, c.status().match.cube, c.status().match.cube_owner) == ("roll", 2, "white"))
        practice = TableStore(tmp_path / PRACTICE_DIR).load(0.0)
        assert practice is not None and practice.cube == 2  # the practice is saved apart
        assert saved_file(tmp_path) == saved  # and never over the match
        assert table.review.latest.games == 1  # a practice is not reviewed
        assert c.status().review is not None and c.status().review.games == 1

        # back to the match: exactly as it was
        await choose(table, "back_to_match")
        await until("the match back", lambda: c.status().practising is None)
        back = c.status().match
        assert back == before
        assert (back.position, back.dice, back.score, back.cube, back.cube_owner) == \
            (before.position, before.dice, before.score, before.cube, before.cube_owner)
        assert c.state.dice == dice and table.store is store
        assert TableStore(tmp_path).load(0.0) == before
        assert saved_file(tmp_path) == saved
        # the board is set up to the match again, and game 2 plays on
        lay(vb, cell_counts(*before.board()))
        await until("set up again", lambda: not c.status().setting_up)
        move = next(mv for mv in back.legal_moves() if mv.notation == "8/4 6/4")
        lay(vb, cell_counts(*back.play("white", move).match.board()))
        await until("the move complete", lambda: c.status().match.turn == "black" or c.status().match.move_complete)
        if c.status().match.turn == "white":
            await press(finger, "white_main")
        await until("Black's turn in game 2", lambda: c.status().match.turn == "black" and c.status().match.game == 2)

    on_the_board(tmp_path, body)


# -- the menu's items, pure -------------------------------------------------------------------

LINES = (MarkedLine("1-2-black-double", 1, 2, "very bad", 0.31), MarkedLine("1-2-white-pass", 1, 2, "bad", 0.09),
         MarkedLine("2-14-white-move", 2, 14, "doubtful", 0.041))


def reviewed(lines: tuple[MarkedLine, ...], match: Match | None = None, games: int = 2) -> Controller:
    c = Controller(match or Match.new(MatchSettings(length=5)))
    figures = PlayerFigures(3.0, "World class")
    c.handle(ReviewReady(ReviewFigures(figures, figures, games, lines), 0.0))
    return c


def marked_list(c: Controller, side: Colour) -> None:
    """Open the menu, step to "practise a marked move", choose it with `side`'s main."""
    c.handle(menu_pressed(0.1))
    while c.status().menu.item != "practise":
        c.handle(menu_pressed(0.2))
    c.handle(ButtonPressed(side, "main", 0.3))
    assert c.status().menu.mode == "marked"


def test_the_marked_list_steps_with_the_menu_button_and_a_main_button_chooses() -> None:
    c = reviewed(LINES)
    marked_list(c, "black")
    said = []
    for _ in range(4):
        prompt = c.status().menu.prompt
        assert prompt is not None
        said.append(render(prompt.key, prompt.as_dict(), "en"))
        c.handle(menu_pressed(0.4))
    assert said == ["G1 M2 Very bad -0.31", "G1 M2 Bad -0.09", "G2 M14 Doubtful -0.04", "G1 M2 Very bad -0.31"]
    assert render(LINES[0].prompt.key, LINES[0].prompt.as_dict(), "da") == \
        f"S1 T2 {render('tutor.very_bad', language='da')} -0.31"  # spil 1, træk 2
    assert c.status().menu.marks[c.status().menu.index].key == "1-2-white-pass"  # four presses: round once, then the next
    out = c.handle(ButtonPressed("white", "main", 0.6))
    assert [e for e in out if isinstance(e, PracticeRequested)] == [PracticeRequested("1-2-white-pass")]
    assert not c.status().menu.is_open


def test_the_cube_button_closes_the_list_and_nothing_is_practised() -> None:
    c = reviewed(LINES)
    marked_list(c, "white")
    out = c.handle(ButtonPressed("white", "cube", 0.4))
    assert not c.status().menu.is_open and not [e for e in out if isinstance(e, PracticeRequested)]


def test_nothing_marked_online_or_watching_the_item_is_absent() -> None:
    c = reviewed(())
    c.handle(menu_pressed(0.1))
    assert "practise" not in c.status().menu.items and "back_to_match" not in c.status().menu.items
    online = Match.new(MatchSettings(length=5, black_player=REMOTE))
    c = reviewed(LINES, online)
    c.handle(menu_pressed(0.1))
    assert "practise" not in c.status().menu.items
    c = reviewed(LINES)
    c.handle(WatchShown(c.status().scene, 0.1))
    c.handle(menu_pressed(0.2))
    assert c.status().menu.items == ("leave_watching", "close")
    c = reviewed(LINES)
    c.handle(menu_pressed(0.1))
    assert "practise" in c.status().menu.items and "back_to_match" not in c.status().menu.items


def test_a_practice_game_that_ends_does_not_show_the_matchs_figures_as_its_own() -> None:
    c = reviewed(LINES, games=1)
    m = Match.new(MatchSettings(length=5)).roll("white", (3, 1)).match
    m = m.play("white", next(mv for mv in m.legal_moves() if mv.notation == "8/5 6/5")).match
    practised = m.double("black").match.drop("white").match  # the practice's game over, as game 1 was
    c.handle(MatchSeated(practised, c.state.dice, 1.0, practice="1-2-white-pass"))
    assert c.status().review is not None and finished_games(c.status().match) == c.status().review.games  # as many games as reviewed
    shown_now = c.status().scene.display
    assert (shown_now.notes, shown_now.pr_white, shown_now.pr_black) == ((), None, None)


def test_the_practice_refuses_online_and_names_no_decision_in_one_line(tmp_path: Path) -> None:
    table = Table(Controller(Match.new(MatchSettings(length=5))), store=TableStore(tmp_path), clock=lambda: 1.0)
    practice = TablePractice(table, tmp_path)
    for key, line in ((LINES[0].key, "no marked decision 1-2-black-double in this match's review"),
                      ("../../etc", "'../../etc' names no decision")):
        with pytest.raises(PracticeRefused, match="^ignored a set-up request: " + line.replace(".", r"\.")):
            practice.start(key, 1.0)
    practice.requested(LINES[0].key)  # from the menu: one line in the log, nothing changed
    assert table.log_lines[-1].startswith("rejected: ignored a set-up request")
    assert practice.match_seating is None and table.controller.status().practising is None
    assert not practice.end(1.0)
