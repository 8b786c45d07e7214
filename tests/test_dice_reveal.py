"""A seed revealed while the match goes on (controller/dice/README.md): once anyone can read
the seed, anyone can compute its next rolls, so those can no longer be the match's dice.
The rolls made so far stay verifiable, the rest of the match rolls ordinary dice, the record
says where the line is, and `verify-dice` checks the one part and names the other."""
from __future__ import annotations

import random

import pytest

from controller.dice import DiceState
from controller.dice.secret import DiceSecret
from controller.dice.state import DiceError
from controller.dice.verifiable import match_key, opening_roll
from controller.engine.match import Match
from controller.engine.match_settings import MatchSettings

SEED = bytes(range(7, 39))


def _opened(settings: MatchSettings) -> tuple[Match, DiceState]:
    """A verifiable match after its opening roll, its dice drawn from SEED."""
    dice = DiceState.seeded(random.Random(5), entropy=lambda n: SEED)
    match = Match.new(settings)
    dice = dice.adopt(match)
    while match.phase == "opening":
        roll, dice = dice.draw(match)
        match = match.roll(match.turn or "white", roll, 0.0).match
    return match, dice


def test_rolls_after_a_reveal_during_the_match_are_ordinary_dice() -> None:
    match, dice = _opened(MatchSettings(length=5, dice="verifiable"))
    key = match_key(SEED)
    _number, opening = opening_roll(key, 1)
    assert sorted(match.dice or ()) == sorted(opening)  # the opening roll came from the seed
    revealed = dice.revealed(match)
    assert revealed is not None
    dice = revealed
    secret = dice.secret
    assert secret is not None and secret.revealed and secret.verified_rolls == 1  # the roll being played
    assert match.turn is not None
    match = match.play(match.turn, match.legal_moves()[0], 1.0).match
    assert match.phase == "roll"
    expected_rng = random.Random(5)
    ordinary = (expected_rng.randint(1, 6), expected_rng.randint(1, 6))
    assert dice.draw(match)[0] == ordinary  # the board's random dice, not the seed's next roll
    dice = dice.push((6, 5))  # ordinary dice can be entered again
    assert dice.draw(match)[0] == (6, 5)
    tags = dict(dice.record_tags())
    assert tags["Dice verifiable rolls"] == "1" and tags["Dice seed"] == SEED.hex()


def test_a_reveal_with_no_match_going_on_keeps_every_roll_verifiable() -> None:
    _match, opened = _opened(MatchSettings(length=1, dice="verifiable"))
    dice = opened.revealed(None)  # as the controller reveals at the match's end
    assert dice is not None and dice.revealed(None) is None  # once only
    assert dice.secret is not None and dice.secret.verified_rolls is None
    assert "Dice verifiable rolls" not in dict(dice.record_tags())


def test_the_saved_secret_keeps_where_the_dice_stopped_being_verifiable() -> None:
    secret = DiceSecret(SEED, ("a", "b")).revealed_now(verified_rolls=12)
    assert DiceSecret.from_dict(secret.to_dict()) == secret
    older = {"seed": SEED.hex(), "phrases": ["", ""], "revealed": False}  # a save from before
    assert DiceSecret.from_dict(older) == DiceSecret(SEED)
    for bad in ({**older, "verified_rolls": 3},  # a count with the seed still secret
                {**older, "revealed": True, "verified_rolls": -1},
                {**older, "revealed": True, "verified_rolls": "3"}):
        with pytest.raises(ValueError, match="verified_rolls"):
            DiceSecret.from_dict(bad)


def test_the_computer_gives_no_phrase() -> None:
    dice = DiceState(entropy=lambda n: SEED)
    match = Match.new(MatchSettings(length=3, dice="verifiable", black_player="gnubg"))
    dice = dice.adopt(match)
    with pytest.raises(DiceError) as refused:
        dice.with_phrase("black", "anything", match)
    assert refused.value.key == "phrase_computer"
    dice = dice.with_phrase("white", "mine", match)
    assert dice.secret is not None and dice.secret.phrases == ("mine", "")


def test_the_page_offers_phrases_to_the_people_only_and_acknowledges_them() -> None:
    from controller.controller import Controller
    from controller.web.dice_panel import dice_panel

    match = Match.new(MatchSettings(length=3, dice="verifiable", black_player="gnubg"))
    status = Controller(match, dice=DiceState(entropy=lambda n: SEED)).status()
    secret = DiceSecret(SEED).with_phrase("white", "mine")
    view = dice_panel(status, "verifiable", secret)
    assert view["phrase_sides"] == ["white"] and view["phrases_given"] == {"white": True, "black": False}
    ended = dice_panel(status, "verifiable", secret.revealed_now(verified_rolls=4))
    assert ended["commitment"]["verified_rolls"] == 4
