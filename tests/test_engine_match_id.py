"""GNU Backgammon Match IDs: the manual's example, IDs printed by gnubg itself, exact
round trips, and clear errors for malformed ones."""
from __future__ import annotations

import random

import pytest

from controller.engine import InvalidMatchIdError
from controller.engine.match_id import (
    CENTRE,
    GameState,
    MatchIdFields,
    Resignation,
    decode_match_id,
    encode_match_id,
)

KNOWN = {
    # gnubg manual, "A technical description of the Match ID": 2-4 in a 9-point match,
    # player 0 holds a 2-cube, player 1 has just rolled 52 (written before the Jacoby bit)
    "QYkqASAAIAAA": MatchIdFields(cube=2, cube_owner=0, dice_owner=1, turn=1, dice=(5, 2),
                                  match_length=9, score=(2, 4), jacoby=True),
    # printed by `gnubg -t`: new 1-point match, player 0 rolled 53
    "MIEuAAAAAAAE": MatchIdFields(dice=(5, 3), match_length=1),
    # new 7-point match, player 1 rolled 53
    "cInuAAAAAAAE": MatchIdFields(dice_owner=1, turn=1, dice=(5, 3), match_length=7),
    # money session with the Jacoby rule on, player 1 rolled 52
    "cIkKAAAAAAAA": MatchIdFields(dice_owner=1, turn=1, dice=(5, 2), jacoby=True),
    # no game started, money play
    "cAgAAAAAAAAA": MatchIdFields(dice_owner=1, turn=1, game_state=GameState.NONE, jacoby=True),
    # 5-point match at 4-2, the Crawford game, 54 rolled
    "sIGyAEAAEAAE": MatchIdFields(crawford=True, dice=(5, 4), match_length=5, score=(4, 2)),
    # 7-point match at 3-1, player 0 owns a 4-cube, 65 rolled
    "AgH3ADAACAAE": MatchIdFields(cube=4, cube_owner=0, dice=(6, 5), match_length=7, score=(3, 1)),
    # player 1 has doubled: player 0 to decide
    "cBHgADAACAAE": MatchIdFields(dice_owner=1, turn=0, double_offered=True, match_length=7, score=(3, 1)),
}


@pytest.mark.parametrize(("text", "fields"), KNOWN.items())
def test_known_ids(text: str, fields: MatchIdFields) -> None:
    assert decode_match_id(text) == fields
    assert encode_match_id(fields) == text


def _random_fields(rng: random.Random) -> MatchIdFields:
    length = rng.choice([0, 1, 3, 5, 7, 25, 32767])
    rolled = rng.random() < 0.7
    d1, d2 = sorted((rng.randint(1, 6), rng.randint(1, 6)), reverse=True) if rolled else (0, 0)
    state = rng.choice(list(GameState))
    # while a game is played nobody has reached the length; after it, a score may pass it
    top = length - 1 if state is GameState.PLAYING else length + (2 if length > 1 else 0)
    return MatchIdFields(
        cube=1 << rng.randint(0, 15),
        cube_owner=rng.choice([CENTRE, 0, 1]),
        dice_owner=rng.randint(0, 1),
        crawford=bool(length) and rng.random() < 0.3,
        game_state=state,
        turn=rng.randint(0, 1),
        double_offered=rng.random() < 0.3,
        resignation=rng.choice(list(Resignation)),
        dice=(d1, d2),
        match_length=length,
        score=(rng.randint(0, top), rng.randint(0, top)) if length else (rng.randint(0, 32767), 0),
        jacoby=rng.random() < 0.5,
    )


def test_exact_round_trips() -> None:
    rng = random.Random(12)
    for _ in range(2000):
        fields = _random_fields(rng)
        text = encode_match_id(fields)
        assert len(text) == 12
        assert decode_match_id(text) == fields
        assert encode_match_id(decode_match_id(text)) == text


def test_encoder_writes_the_higher_die_first_like_gnubg() -> None:
    assert encode_match_id(MatchIdFields(dice=(2, 5), match_length=9)) == encode_match_id(
        MatchIdFields(dice=(5, 2), match_length=9))


@pytest.mark.parametrize(
    "text",
    ["", "cAgAAAAAAAA", "cAgAAAAAAAAAA", "cAgAAAAAAAA!", "cAgA AAAAAAA",
     "cAgAAAAAAAAP",   # bits 67-71 set
     "YAgAAAAAAAAA",   # cube owner 2
     "cAcAAAAAAAAA",   # game state 7
     "cIH+AAAAAAAE",   # dice 7
     "MIEuAAAAgAAE",   # score 16 in a 1-point match (at most 0 + 3)
     ],
)
def test_malformed_ids_raise_a_value_error(text: str) -> None:
    with pytest.raises(InvalidMatchIdError) as err:
        decode_match_id(text)
    assert isinstance(err.value, ValueError)
    assert repr(text) in str(err.value)


@pytest.mark.parametrize(
    "fields",
    [MatchIdFields(cube=3), MatchIdFields(cube=1 << 16), MatchIdFields(cube_owner=2),
     MatchIdFields(dice=(7, 1)), MatchIdFields(dice=(3, 0)), MatchIdFields(match_length=3, score=(4, 0)),
     MatchIdFields(crawford=True), MatchIdFields(turn=2)],
)
def test_impossible_fields_are_refused(fields: MatchIdFields) -> None:
    assert fields.problems()
    with pytest.raises(InvalidMatchIdError):
        encode_match_id(fields)


def test_a_finished_match_keeps_a_score_past_its_length_like_gnubg() -> None:
    over = MatchIdFields(game_state=GameState.OVER, match_length=7, score=(9, 3))
    assert decode_match_id(encode_match_id(over)).score == (9, 3)
    with pytest.raises(InvalidMatchIdError):
        encode_match_id(MatchIdFields(game_state=GameState.PLAYING, match_length=7, score=(7, 3)))
