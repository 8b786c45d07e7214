"""What is possible now (controller.play.possible), checked against the match's own rules.

The list is what the buttons, the menu, the page and the headless runner offer; the
controller refuses everything else. So every action it lists must be one the match
accepts, each button must mean at most one thing, and the rule book's moments must be
offered: the opening roll to either player, the cube to the side on roll, take/drop to
the doubled side, resigning only before one's own roll, forfeit to anyone until the end.
While the tutor holds an action (controller.play.tutor) its player may only keep it (the
main button; the held action is one the match accepts) or, for a cube action, undo it
(the cube button); anyone may still forfeit.
"""
from __future__ import annotations

import random

import pytest

from controller.engine.errors import MatchStateError
from controller.engine.match import Match
from controller.engine.match_settings import MatchSettings
from controller.engine.board_view import other
from controller.play.possible import Held, PossibleAction, TableFacts, for_button, possible_actions
from match_driver import play_match, random_settings

EVERYONE = TableFacts(at_table=lambda side: True, board_ready=True)


def accepted(match: Match, a: PossibleAction) -> bool:
    command = {
        "roll": lambda: match.roll(a.side, (3, 1), 0.0),
        "done": lambda: match.done(a.side, 0.0),
        "double": lambda: match.double(a.side, 0.0),
        "take": lambda: match.take(a.side, 0.0),
        "drop": lambda: match.drop(a.side, 0.0),
        "accept": lambda: match.accept(a.side, 0.0),
        "decline": lambda: match.decline(a.side, 0.0),
        "forfeit": lambda: match.forfeit(a.side, 0.0),
        "rematch": lambda: match.rematch(a.side, 0.0),
        "resign": lambda: match.resign(a.side, a.level or "single", 0.0),
    }[a.action]
    try:
        command()
    except MatchStateError:
        return False
    return True


def held_here(match: Match) -> Held | None:
    """An action the tutor could hold at this moment: the roller's double, the doubled
    side's take or drop, the mover's move."""
    turn = match.turn
    if turn is None:
        return None
    if match.phase == "roll" and match.may_double(turn):
        return Held(turn, "double" if match.game % 2 else "roll")
    if match.phase == "doubled":
        return Held(other(turn), "take" if match.game % 2 else "drop")
    if match.phase == "move":
        return Held(turn, "move")
    return None


def held_accepted(match: Match, held: Held) -> bool:
    """What `keep` carries out is an action the match accepts now."""
    if held.action == "move":
        return match.phase == "move" and match.turn == held.side
    if held.action == "roll":
        return accepted(match, PossibleAction(held.side, "roll"))
    return accepted(match, PossibleAction(held.side, held.action))


def check_held(match: Match, held: Held) -> None:
    actions = possible_actions(match, TableFacts(lambda s: True, True, held=held))
    buttons = {(a.side, a.action, a.button) for a in actions if a.action != "forfeit"}
    expected = {(held.side, "keep", "main")} | ({(held.side, "undo", "cube")} if held.action != "move" else set())
    assert buttons == expected, (match.phase, held, actions)
    assert held_accepted(match, held), (match.phase, held)
    assert {a.side for a in actions if a.action == "forfeit"} == {"white", "black"}


@pytest.mark.slow  # a property over many random matches
def test_every_listed_action_is_accepted_by_the_match_over_random_matches() -> None:
    rng = random.Random(11)
    seen: set[str] = set()
    states = 0
    for _ in range(40):
        def check(before: Match, after: Match, _t: object) -> None:
            nonlocal states
            for facts in (EVERYONE, TableFacts(lambda s: s == "white", True),
                          TableFacts(lambda s: True, False)):
                actions = possible_actions(after, facts)
                states += 1
                for a in actions:
                    seen.add(f"{after.phase}:{a.action}")
                    assert accepted(after, a), (after.phase, a)
                    assert facts.at_table(a.side), a  # never offered to the computer's side
                for side in ("white", "black"):
                    for button in ("main", "cube"):
                        assert sum(1 for a in actions if a.side == side and a.button == button) <= 1
            held = held_here(after)
            if held is not None:
                seen.add(f"{after.phase}:held {held.action}")
                check_held(after, held)

        play_match(Match.new(random_settings(rng)), rng, check)
    assert states > 5000
    # every moment of the rule book was met and offered
    assert {"opening:roll", "roll:roll", "roll:double", "roll:resign", "doubled:take",
            "doubled:drop", "resigning:accept", "resigning:decline", "over:rematch",
            "roll:forfeit", "move:forfeit", "roll:held double", "roll:held roll", "doubled:held take",
            "doubled:held drop", "move:held move"} <= seen


def test_the_opening_roll_is_either_players_once_the_board_is_right() -> None:
    m = Match.new(MatchSettings(length=5))
    assert {(a.side, a.button) for a in possible_actions(m, EVERYONE) if a.action == "roll"} == \
        {("white", "main"), ("black", "main")}
    not_ready = TableFacts(at_table=lambda s: True, board_ready=False)
    assert not any(a.action == "roll" for a in possible_actions(m, not_ready))


def test_resigning_is_offered_only_before_ones_own_roll() -> None:
    m = Match.new(MatchSettings(length=5)).roll("white", (3, 1)).match  # white moves 3-1
    assert m.phase == "move"
    assert not any(a.action == "resign" for a in possible_actions(m, EVERYONE))
    before_roll = Match.new(MatchSettings(length=5)).roll("white", (1, 3)).match
    while before_roll.phase != "roll":
        before_roll = before_roll.play(before_roll.turn, before_roll.legal_moves()[0]).match  # type: ignore[arg-type]
    levels = [a.level for a in possible_actions(before_roll, EVERYONE) if a.action == "resign"]
    assert levels == ["single", "gammon", "backgammon"]
    assert all(a.side == before_roll.turn for a in possible_actions(before_roll, EVERYONE)
               if a.action == "resign")


@pytest.mark.parametrize("carrying_out", [True])
def test_nothing_but_forfeit_while_a_move_shown_on_the_leds_is_carried_out(carrying_out: bool) -> None:
    m = Match.new(MatchSettings(length=5)).roll("white", (3, 1)).match
    actions = possible_actions(m, TableFacts(lambda s: True, True, carrying_out=carrying_out))
    assert {a.action for a in actions} == {"forfeit"}
    assert for_button(actions, "white", "main") is None
