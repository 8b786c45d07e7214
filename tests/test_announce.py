"""What is announced (controller/show/announce.py), from the rule book's events: the
opening roll and a tie, a game won by bear-off, drop or resignation, a match won (also by
forfeit or time), and the computer's double and take; each stays until the next action."""
from __future__ import annotations

from dataclasses import replace

from controller.engine.match import Match
from controller.engine.match_settings import MatchSettings
from controller.engine.position import Position
from controller.show.announce import announcements
from controller.show.texts import render
from controller.play.showing import phase_prompt


def said(m: Match, computer: tuple[str, ...] = (), tie: int | None = None, language: str = "en") -> list[str]:
    return [render(p.key, p.as_dict(), language) for p in announcements(m, computer, tie)]  # type: ignore[arg-type]


def opened(dice: tuple[int, int] = (5, 2)) -> Match:
    return Match.new(MatchSettings(length=3)).roll("white", dice).match


def test_the_opening_roll_and_a_tie_are_said_until_the_first_move() -> None:
    fresh = Match.new(MatchSettings(length=3))
    assert said(fresh) == []
    assert said(fresh, tie=4) == ["Both rolled 4-4: roll again"]
    assert said(fresh, tie=4, language="sv") == ["Båda slog 4-4: slå igen"]
    m = opened((2, 6))  # Black's 6 beats White's 2: Black starts with 6-2
    assert said(m) == ["Black starts with 6-2"]
    moved = m.play("black", m.legal_moves()[0]).match
    assert said(moved) == []  # the first move is played: the next action


def test_a_won_game_is_said_until_the_next_opening_roll() -> None:
    m = opened()
    m = m.play("white", m.legal_moves()[0]).match
    m = m.resign("black", "gammon").match.accept("white").match
    assert m.phase == "opening" and said(m) == ["White wins by resignation: 2 points"]
    assert said(m, language="da") == ["Hvid vinder (opgivet): 2 point"]
    assert said(m.roll("white", (6, 1)).match) == ["White starts with 6-1"]


def test_a_drop_says_who_dropped_and_who_won() -> None:
    m = opened()
    m = m.play("white", m.legal_moves()[0]).match
    m = m.double("black").match.drop("white").match
    assert said(m) == ["White drops", "Black wins on a drop: 1 point"]  # as it happened


def test_the_computers_double_and_take_are_said_but_a_persons_are_not() -> None:
    m = opened()
    m = m.play("white", m.legal_moves()[0]).match
    doubled = m.double("black").match
    assert said(doubled, computer=("black",)) == ["Black doubles to 2. Take or drop?"]
    assert said(doubled) == []
    white_doubles = doubled.take("white").match
    assert said(white_doubles, computer=("white",)) == ["White takes: cube on 2"]


def test_a_bear_off_that_wins_the_match_names_the_winner_and_the_game() -> None:
    # White's last checker on its ace point, all of Black's in White's home: a backgammon
    last = Position.from_points({1: 1}, {19: 15})
    m = replace(opened((6, 1)), position=last, partial=last, score=(2, 0))
    m = m.play("white", m.legal_moves()[0]).match
    assert m.phase == "over"
    assert said(m) == ["White wins: backgammon, 3 points", "White wins the match 5-0"]  # the game, then the match


def test_forfeit_and_time_end_the_match_and_say_so() -> None:
    m = opened()
    forfeited = m.forfeit("white").match
    assert said(forfeited) == ["White gives up the match", "Black wins the match 0-0"]
    timed = Match.new(MatchSettings(length=3, clock="timer")).roll("white", (5, 2), now=0.0).match
    out = timed.tick(1000.0).match  # White never moved: its move timer and bank ran out
    assert out.phase == "over" and said(out) == ["White: out of time, match lost", "Black wins the match 0-0"]


def test_the_game_that_made_the_next_one_crawford_is_said_on_the_display_too() -> None:
    """The won game is said until the next opening roll also when the next game is the
    Crawford game: the display's cube corner says "Crawford" meanwhile (controller.show.display)."""
    from controller.board.reconcile import BoardState
    from controller.controller import Controller
    from controller.dice import DiceState
    from controller.engine.board_view import cell_counts
    from controller.events import ReadingReceived, Tick

    m = opened()
    m = m.play("white", m.legal_moves()[0]).match
    m = m.resign("black", "gammon").match.accept("white").match  # 2-0 in a 3-point match
    assert m.crawford and m.phase == "opening"
    controller = Controller(m, dice=DiceState(), now=0.0)
    controller.handle(ReadingReceived(BoardState.of(cell_counts(Position.initial(), "white")), 0.0))
    controller.handle(Tick(1.0))  # the board set up for the next game, settled
    prompt = phase_prompt(controller.state)
    assert prompt is not None and render(prompt.key, prompt.as_dict(), "en") == "White wins by resignation: 2 points"
