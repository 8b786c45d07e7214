"""What the page says of the kind of match and roll: issue 35.10, with real dice keyed in the
page's hint said "press ● to roll (the dice roll by themselves shortly)": nothing rolls by
itself then, the players roll and key in; issue 35.15, a game from a set position drew its
first roll as an opening roll."""
from __future__ import annotations

from controller.board.reconcile import BoardState
from controller.controller import Controller
from controller.dice import DiceState
from controller.engine.match import Match
from controller.engine.match_settings import MatchSettings
from controller.events import ReadingReceived, Tick
from controller.web.page_hint import page_hint


def _hint_at(m: Match) -> dict[str, str] | None:
    """The page's hint with the board standing as `m` says (read, then settled)."""
    c = Controller(m, dice=DiceState(), now=0.0)
    c.handle(ReadingReceived(BoardState.of_position(m.partial, m.turn or "white"), 1.0))
    c.handle(Tick(2.0))
    return page_hint(c.status(), False)


def _hint(dice: str) -> dict[str, str] | None:
    return _hint_at(Match.new(MatchSettings(dice=dice)))


def test_the_opening_hint_asks_for_real_dice_when_they_are_entered() -> None:
    assert _hint("entered") == {"key": "enter_opening", "side": ""}
    assert _hint("board") == {"key": "opening", "side": ""}


def test_a_turns_hint_asks_for_real_dice_when_they_are_entered() -> None:
    m = Match.new(MatchSettings(dice="entered", length=1)).roll("white", (3, 1)).match
    move = next(x for x in m.legal_moves() if x.notation == "8/5 6/5")
    m = m.play("white", move).match
    assert m.phase == "roll" and m.turn == "black" and not m.may_double("black")
    assert _hint_at(m) == {"key": "enter", "side": "black"}


def test_a_game_from_a_set_position_draws_an_ordinary_roll_not_an_opening() -> None:
    """Issue 35.15: a practice of a decision at move 11 (a game started from that position,
    no turn of it played yet) drew its dice as an opening roll, one die in each colour."""
    from controller.engine.position import Position
    from controller.table.start import starting_match
    from controller.web.page_facts import dice_view

    later = Position.from_points({6: 5, 8: 3, 13: 5, 24: 2}, {6: 4, 7: 2, 8: 2, 13: 5, 24: 2})
    set_position = starting_match(MatchSettings(), later.id, turn="black").roll("black", (5, 2)).match
    assert set_position.phase == "move"
    assert [d["colour"] for d in dice_view(set_position)] == ["black", "black"]
    opening = Match.new(MatchSettings()).roll("white", (2, 5)).match  # the match's opening roll
    assert [d["colour"] for d in dice_view(opening)] == ["white", "black"]
