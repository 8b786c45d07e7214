"""The display's line while the opening roll is played (RULES.md "Who starts": each player
rolls one die, "the higher die starts and plays the two dice already showing").

The page announced "Black starts with 6-2" while the display said "Black to play 2-6": the
dice in the match's order (White's die, then Black's) and nothing about who won the roll;
a computer's opening move said only its notation. The display now says who starts and with
which dice, the higher first as the announcement does, through the whole opening move; the
turns after it keep their own lines.
"""
from __future__ import annotations

from controller.engine.match import Match
from controller.engine.match_settings import MatchSettings
from controller.engine.moves import Step
from controller.engine.position import Position
from controller.play.prompt import PromptFacts, phase_prompt
from controller.play.status import BotPlan
from controller.show.texts import render
from controller.web.page_facts import move_list


def line(m: Match, language: str = "en", **facts: object) -> str:
    prompt = phase_prompt(PromptFacts(match=m, now=0.0, **facts))  # type: ignore[arg-type]
    assert prompt is not None
    return render(prompt.key, prompt.as_dict(), language)


def opened(dice: tuple[int, int], confirm: str = "auto") -> Match:
    return Match.new(MatchSettings(length=3, confirm=confirm)).roll("white", dice).match


def test_the_opening_move_says_who_starts_with_the_higher_die_first() -> None:
    m = opened((3, 5))  # White's 3, Black's 5: Black starts and plays 5-3
    assert line(m) == "Black starts with 5-3"
    assert line(m, "da") == "Sort begynder med 5-3"
    assert line(m, "sv") == "Svart börjar med 5-3"
    halfway = m.step("black", Step(13, 8, 5)).match  # one checker moved with the 5 (mover's numbering)
    assert line(halfway) == "Black starts with 5-3"  # until the move is made


def test_after_the_opening_move_the_turns_have_their_own_lines() -> None:
    m = opened((6, 4))
    assert line(m) == "White starts with 6-4"
    m = m.play("white", m.legal_moves()[0]).match
    assert line(m) == "Black: roll or double"
    m = m.roll("black", (2, 5)).match
    assert line(m) == "Black to play 2-5"  # a roll of two dice, as rolled


def test_a_complete_opening_move_waiting_for_done_asks_for_done() -> None:
    m = opened((6, 1), confirm="button")
    m = m.step("white", Step(13, 7, 6)).match.step("white", Step(8, 7, 1)).match
    assert m.move_complete and line(m) == "White: done? Press the button"


def test_the_computers_opening_move_says_who_starts_and_what_to_carry_out() -> None:
    m = opened((1, 6))  # the computer, Black, starts with 6-1
    move = next(x for x in m.legal_moves() if x.notation == "13/7 8/7")
    plan = BotPlan("black", move, (m.position, move.result))
    assert line(m, carried_out=plan) == "The computer starts with 6-1: play 13/7 8/7"
    assert line(m, "da", carried_out=plan) == "Computeren begynder med 6-1: flyt 13/7 8/7"
    assert line(m, carried_out=plan, by_remote=True) == "Black starts with 6-1: play 13/7 8/7"
    later = m.play("black", move).match.roll("white", (6, 1)).match
    reply = later.legal_moves()[0]
    assert line(later, carried_out=BotPlan("white", reply, (later.position, reply.result))) \
        == f"Play the computer's move: {reply.notation}"


def test_a_game_started_from_a_set_position_has_no_opening_roll() -> None:
    racing = Position.from_id("4HPhASLgc/ABMA")
    m = Match.from_score(MatchSettings(length=3), position=racing).roll("white", (3, 5)).match
    assert line(m) == "White to play 3-5"


def test_the_page_move_list_writes_the_opening_dice_as_the_starter_plays_them() -> None:
    m = opened((3, 5))
    assert [e["dice"] for e in move_list(m)] == ["53"]  # the move being made
    m = m.play("black", m.legal_moves()[0]).match.roll("white", (2, 4)).match
    assert [e["dice"] for e in move_list(m)] == ["53", "24"]
