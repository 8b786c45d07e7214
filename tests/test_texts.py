"""The texts: every key in every language, the seeds' vocabulary, loud failures."""
from __future__ import annotations

import string

import pytest

from controller.show import texts
from controller.show.texts import LANGUAGES, MESSAGES, fields_of, render

# A value for every parameter a message may name, so each message renders fully.
SAMPLE = {"side": "white", "winner": "black", "loser": "white", "colour": "black", "n": 2,
          "cell": "bar", "from": "13", "to": "off-white", "dice": (5, 3), "value": 2,
          "result": "gammon", "points": 4, "score_white": 5, "score_black": 3,
          "notation": "13/8 6/3", "level": "gnubg", "length": 7,
          "item_key": "menu.rematch", "colour_def": None, "die": 4, "code": "630d cd29",
          "profile": "14x13", "board": "12x12", "version": 2, "text": "scan failed",
          "rank": 1, "of": 16, "equity": "-0.295", "action_key": "hint.double_take",
          "mark_key": "tutor.bad", "loss": "-0.09", "right_key": "tutor.right.pass",
          "pr": "4.2", "rating_key": "rating.expert", "game": 2, "move": 14,
          "command": "sudo apt install gnubg", "white_name": "Anna Berg", "black_name": "Bo"}

REQUIRED = ["roll", "move", "done", "double_offered", "resign_offered", "put_back",
            "take_off", "hit_to_bar", "computer_move", "setup", "board_offline",
            "board_back", "no_move", "game_won", "match_won", "crawford", "time_warning",
            "time_out", "ambiguous", "rematch", "level_unavailable", "board_mismatch",
            "board_protocol", "board_protocol_newer", "board_scan_failed", "board_error", "sensor_fault"]


def _params(key: str) -> dict[str, object]:
    names = fields_of(key) - {"colour_def"}
    if "colour_def" in fields_of(key):
        names |= {"colour"}
    for name in tuple(names):  # a field filled from a message key (`item` from `item_key`)
        if name not in SAMPLE and f"{name}_key" in SAMPLE:
            names = (names - {name}) | {f"{name}_key"}
    return {name: SAMPLE[name] for name in names}


@pytest.mark.parametrize("key", REQUIRED)
def test_the_products_prompts_exist(key: str) -> None:
    assert key in MESSAGES


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("key", sorted(MESSAGES))
def test_every_message_renders_in_every_language(key: str, language: str) -> None:
    text = render(key, _params(key), language)
    assert text and "{" not in text and "}" not in text
    assert text == text.strip()


@pytest.mark.parametrize("key", sorted(MESSAGES))
def test_all_languages_use_the_same_parameters(key: str) -> None:
    per_language = []
    for language in LANGUAGES:
        text = MESSAGES[key][language]
        variants = text if isinstance(text, tuple) else (text,)
        names = {f for v in variants for _, f, _, _ in string.Formatter().parse(v) if f}
        per_language.append(names - {"colour_def"} | ({"colour"} if "colour_def" in names else set()))
    assert per_language[0] == per_language[1] == per_language[2], key


def test_seeds_vocabulary() -> None:
    assert "terning" in render("opening_roll", {}, "da")
    assert "tärning" in render("opening_roll", {}, "sv")
    assert "dubblingstärning" in render("crawford", {}, "sv")
    assert "dobbeltkube" in render("crawford", {}, "da")
    assert "sidder over" in render("no_move", {"side": "white", "dice": (6, 6)}, "da")
    assert "står över" in render("no_move", {"side": "white", "dice": (6, 6)}, "sv")


def test_corrections_read_naturally_with_number_and_colour() -> None:
    assert render("put_back", {"n": 1, "colour": "white", "cell": "13"}) == "Put 1 white back on 13"
    assert render("take_off", {"n": 1, "colour": "black", "cell": "5"}) == "Take 1 black off 5"
    assert render("put_back", {"n": 1, "colour": "white", "cell": "13"}, "da") == "Sæt 1 hvid tilbage på 13"
    assert render("put_back", {"n": 2, "colour": "white", "cell": "13"}, "da") == "Sæt 2 hvide tilbage på 13"
    assert render("take_off", {"n": 2, "colour": "black", "cell": "bar"}, "sv") == "Ta 2 svarta från baren"
    assert render("hit_to_bar", {"colour": "white"}, "sv") == "Lägg den utslagna vita brickan på baren"


def test_plural_forms_follow_the_count() -> None:
    one = render("game_won", {"side": "black", "result": "single", "points": 1})
    many = render("game_won", {"side": "black", "result": "backgammon", "points": 3})
    assert one == "Black wins: single game, 1 point"
    assert many == "Black wins: backgammon, 3 points"
    assert render("game_won", {"side": "white", "result": "gammon", "points": 2}, "da") == \
        "Hvid vinder: gammon, 2 point"


def test_dice_sequence_and_nested_keys() -> None:
    assert render("move", {"side": "white", "dice": (5, 3)}, "sv") == "Vit spelar 5-3"
    assert render("menu", {"item_key": "menu.dice_entry"}, "da") == "Menu: indtast terninger"


def test_unknown_key_fails_loudly() -> None:
    with pytest.raises(KeyError, match="no_such_key"):
        render("no_such_key", {}, "en")


def test_unknown_language_and_missing_or_bad_parameters_fail() -> None:
    with pytest.raises(ValueError, match="language"):
        render("roll", {"side": "white"}, "de")
    with pytest.raises(ValueError, match="side"):
        render("roll", {}, "en")
    with pytest.raises(ValueError, match="red"):
        render("roll", {"side": "red"}, "en")
    with pytest.raises(ValueError, match="result"):
        render("resign_offered", {"side": "white", "result": "triple"}, "en")


def test_texts_fit_the_font() -> None:
    """Every character of every text has a glyph in the display's fonts (no '?' boxes)."""
    from controller.show.fonts import MEDIUM, SMALL
    for key in MESSAGES:
        for language in LANGUAGES:
            text = render(key, _params(key), language)
            missing = {c for c in text if c not in SMALL.glyphs or c not in MEDIUM.glyphs}
            assert not missing, (key, language, missing)

