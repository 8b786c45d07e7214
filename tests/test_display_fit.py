"""Every prompt the display shows fits it, in every language, and its figures read right
(issue 22, item 3). The prompt area shows two lines and pages a longer prompt every 2.5 s
(controller.show.display): a prompt that pages hides half of itself, so each is rendered
with its widest parameters as the display draws it. The 5x8 and 6x10 fonts drew the
decimal point as a small plus below the baseline, so "PR 59.0" read "59+0"."""
from __future__ import annotations

import string

import pytest

from controller.evaluation.backend import INSTALL_HINT
from controller.show.content import DisplayContent, Prompt
from controller.show.display import PROMPT_LINES, prompt_lines
from controller.show.fonts import MEDIUM, SMALL, BitmapFont
from controller.show.texts import LANGUAGES, MESSAGES

#: the widest value each parameter takes (the longest side's name, the longest cell name,
#: a backgammon, two-digit scores and lengths, a four-step notation ...)
WIDEST: dict[str, object] = {
    "side": "black", "winner": "black", "loser": "white", "colour": "black", "colour_def": "black",
    "cell": "off-black", "to": "off-black", "from": "off-white", "result": "backgammon",
    "dice": (6, 5), "n": 2, "points": 12, "value": 64, "score_white": 12, "score_black": 11,
    "length": 25, "notation": "bar/20 13/9", "code": "1a2b3c", "rank": 2, "of": 12,
    "equity": "+0.123", "loss": "-0.99", "level": "worldclass", "die": 6, "game": 12, "move": 99,
    "mark": "??", "rating": "Intermediate", "item": "Resign a backgammon", "action": "Double, pass",
    "name": "Intermediate", "command": INSTALL_HINT,
}
#: where a key's cells are narrower: a checker too many stands on a full cell (a point or
#: the bar; a tray holds all 15) and goes back where it came from
NARROWER: dict[str, dict[str, object]] = {"too_many": {"from": "bar", "to": "24"}}
#: prompts with a test of their own (tests/test_tutor_display_fit.py: every mark and action)
OWN_TEST = {"tutor", "tutor_cube"}
#: prompts whose words come from outside (a server's or a board's text, a club's players'
#: names of up to 40 characters): they page
FREE_TEXT = {"text", "version", "profile", "board", "white_name", "black_name"}


def _prompts() -> list[tuple[str, str, dict[str, object]]]:
    found = []
    for key, langs in MESSAGES.items():
        if key.startswith(("label.", "refused.")) or key in OWN_TEST:  # labels are placed, refusals go to the page
            continue
        for language in LANGUAGES:
            text = langs[language]
            fields = {f for t in (text if isinstance(text, tuple) else (text,))
                      for _, f, _, _ in string.Formatter().parse(t) if f}
            if fields & FREE_TEXT or any(f.endswith("_key") for f in fields):
                continue  # free text pages; keyed parts: test_tutor_display_fit and their own tests
            found.append((key, language, {f: NARROWER.get(key, {}).get(f, WIDEST[f]) for f in fields}))
    return found


def test_the_prompts_checked_include_the_turns_own() -> None:
    keys = {key for key, _, _ in _prompts()}
    assert {"done", "move", "roll_or_double", "resign_offered", "on_full_point", "too_many"} <= keys


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_prompt_fits_the_display_without_paging_or_cut_words(language: str) -> None:
    too_long = []
    for key, lang, params in _prompts():
        if lang != language:
            continue
        prompt = Prompt.of(key, **params)  # type: ignore[arg-type]
        lines = prompt_lines(DisplayContent(prompt=prompt, language=language))
        words = " ".join(lines).split()
        whole = all(word in " ".join(lines).split() for word in words)
        if len(lines) > PROMPT_LINES or not whole:
            too_long.append(f"{key}: {lines}")
    assert not too_long, "\n".join(too_long)


def test_swedish_done_says_what_to_press() -> None:
    lines = prompt_lines(DisplayContent(prompt=Prompt.of("done", side="white"), language="sv"))
    assert " ".join(lines) == "Vit: klar? Tryck på knappen"


def _ink(font: BitmapFont, char: str) -> list[tuple[int, int]]:
    image = font.mask(char)
    return [(x, y) for y in range(image.height) for x in range(image.width) if image.getpixel((x, y))]


@pytest.mark.parametrize("font", [SMALL, MEDIUM], ids=lambda f: f.name)
def test_the_decimal_point_is_a_dot_on_the_baseline(font: BitmapFont) -> None:
    digits = [y for d in "0123456789" for _, y in _ink(font, d)]
    dot = _ink(font, ".")
    assert dot and max(y for _, y in dot) <= max(digits)  # not below the figures
    rows = {y for _, y in dot}
    assert all(sum(1 for _, y in dot if y == row) <= 2 for row in rows)  # no arm of a "+"


def test_the_wrap_memo_holds_the_screen_not_the_nights_prompts() -> None:
    """The display wraps each text it shows at every tick: the current prompt is measured
    once and asked again from the memo, while a night of changing prompts (the pips, the
    dice, the move number) is not kept: a board's process does not grow game by game."""
    from controller.show import display

    display._wrapped.cache_clear()
    for move in range(2000):  # every move's prompt differs, as a long session's do
        prompt = f"Black to move {move % 6 + 1}-{move % 5 + 1}: move {move}, pips {100 + move} against {90 + move}"
        for _tick in range(20):  # a second of ticks on the same prompt
            assert display.wrap(prompt, SMALL, display.WIDTH) == display.wrap(prompt, SMALL, display.WIDTH)
    info = display._wrapped.cache_info()
    assert info.misses == 2000, "each prompt measured once"
    assert info.currsize <= 64, f"{info.currsize} past prompts kept"
