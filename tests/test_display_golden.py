"""Golden images of every screen in every language, drawn through the dummy device.

Regenerate only on purpose: `BGBOARD_REGOLD=1 .venv/bin/python -m pytest
tests/test_display_golden.py`, then look at the PNGs before committing them.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Callable

import pytest
from PIL import Image, ImageChops

from controller.show.content import (DisplayContent, Hint, MoveTimerView, Prompt,
                                     TournamentClockView)
from controller.show.display_backends import Display, DisplayConfig, device_frame_png
from controller.show.texts import LANGUAGES

GOLDEN = Path(__file__).parent / "golden" / "display"
REGOLD = os.environ.get("BGBOARD_REGOLD") == "1"

MATCH = dict(score_white=2, score_black=1, match_length=5)


def _opening(lang: str) -> DisplayContent:
    return DisplayContent(turn=None, dice=(4, 2), match_length=5, pips_white=167,
                          pips_black=167, prompt=Prompt.of("opening_won", side="white", dice=(4, 2)),
                          language=lang)


def _move_hints(lang: str) -> DisplayContent:
    return DisplayContent(turn="white", dice=(5, 3), pips_white=160, pips_black=152,
                          hints=(Hint("8", "5"), Hint("10", "3"), Hint("5", "5+3")),
                          prompt=Prompt.of("move", side="white", dice=(5, 3)),
                          language=lang, **MATCH)


def _double(lang: str) -> DisplayContent:
    return DisplayContent(turn="black", cube_value=1, cube_owner="center", pips_white=98,
                          pips_black=131, prompt=Prompt.of("double_offered", side="white", value=2),
                          language=lang, **MATCH)


def _resign(lang: str) -> DisplayContent:
    return DisplayContent(turn="white", cube_value=2, cube_owner="white", pips_white=40,
                          pips_black=121, prompt=Prompt.of("resign_offered", side="black",
                                                           result="gammon"),
                          language=lang, **MATCH)


def _crawford(lang: str) -> DisplayContent:
    return DisplayContent(turn="black", dice=(6, 6), crawford=True, score_white=4,
                          score_black=2, match_length=5, pips_white=167, pips_black=143,
                          prompt=Prompt.of("crawford"), language=lang)


def _clock_warning(lang: str) -> DisplayContent:
    return DisplayContent(turn="white", dice=(2, 1), cube_value=4, cube_owner="black",
                          pips_white=71, pips_black=65,
                          clock_white=MoveTimerView(0, 6.2, warning=True),
                          clock_black=MoveTimerView(15, 95),
                          prompt=Prompt.of("time_warning", side="white"), language=lang, **MATCH)


def _tournament(lang: str) -> DisplayContent:
    return DisplayContent(turn="black", dice=(6, 1), pips_white=130, pips_black=127,
                          clock_white=TournamentClockView(12, 1503),
                          clock_black=TournamentClockView(7.4, 754),
                          prompt=Prompt.of("move", side="black", dice=(6, 1)), language=lang, **MATCH)


def _illegal(lang: str) -> DisplayContent:
    return DisplayContent(turn="white", dice=(6, 4), pips_white=150, pips_black=160,
                          prompt=Prompt.of("put_back", n=1, colour="white", cell="13"),
                          language=lang, **MATCH)


def _offline(lang: str) -> DisplayContent:
    return DisplayContent(turn="white", dice=(3, 3), pips_white=120, pips_black=118,
                          prompt=Prompt.of("board_offline"), language=lang, **MATCH)


def _game_won(lang: str) -> DisplayContent:
    return DisplayContent(turn=None, cube_value=2, cube_owner="black", score_white=4,
                          score_black=1, match_length=5, pips_white=0, pips_black=88,
                          prompt=Prompt.of("game_won", side="white", result="gammon", points=4),
                          language=lang)


def _match_won(lang: str) -> DisplayContent:
    return DisplayContent(turn=None, cube_enabled=False, score_white=3, score_black=7,
                          match_length=7, pips_white=31, pips_black=0,
                          prompt=Prompt.of("match_won", side="black", score_white=3, score_black=7),
                          language=lang)


def _computer_move(lang: str) -> DisplayContent:
    return DisplayContent(turn="black", dice=(6, 4), pips_white=141, pips_black=157,
                          prompt=Prompt.of("computer_move", notation="24/18 13/9"),
                          language=lang, **MATCH)


def _menu(lang: str) -> DisplayContent:
    return DisplayContent(turn="white", pips_white=101, pips_black=87,
                          prompt=Prompt.of("menu", item_key="menu.resign_gammon"),
                          language=lang, **MATCH)


SCREENS: dict[str, Callable[[str], DisplayContent]] = {
    "opening_roll": _opening, "move_hints": _move_hints, "double_offered": _double,
    "resign_offered": _resign, "crawford": _crawford, "clock_warning": _clock_warning,
    "tournament_clock": _tournament, "illegal_placement": _illegal,
    "board_offline": _offline, "game_won": _game_won, "match_won": _match_won,
    "computer_move": _computer_move, "menu": _menu,
}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("screen", sorted(SCREENS))
def test_screen_matches_golden(screen: str, language: str, tmp_path: Path) -> None:
    with Display.open(DisplayConfig(driver="dummy")) as display:
        display.show(SCREENS[screen](language))
        actual = display.frame()
        assert device_frame_png(display.device) == display.frame_png(), \
            "the page's frame must be exactly what the device holds"
    path = GOLDEN / f"{screen}_{language}.png"
    if REGOLD:
        path.parent.mkdir(parents=True, exist_ok=True)
        actual.save(path, optimize=True)
    assert path.exists(), f"no golden for screen {screen} ({language}): run with BGBOARD_REGOLD=1"
    expected = Image.open(path).convert("1")
    diff = ImageChops.logical_xor(expected, actual.convert("1"))
    changed = diff.convert("L").histogram()[255]
    if changed:
        actual.save(tmp_path / path.name)
    assert changed == 0, (f"screen {screen} ({language}) differs from its golden in "
                          f"{changed} pixels; the new frame is {tmp_path / path.name}")


def test_every_screen_is_distinct_and_not_blank() -> None:
    frames = set()
    for screen, build in SCREENS.items():
        for language in LANGUAGES:
            with Display.open(DisplayConfig(driver="dummy")) as display:
                display.show(build(language))
                png = display.frame_png()
                assert display.frame().getbbox() is not None, screen
            frames.add(png)
    assert len(frames) == len(SCREENS) * len(LANGUAGES)
