"""Every tutor warning fits the display at once: the prompt area shows two lines and pages
a longer prompt every 2.5 s (controller.show.display), and a warning that pages hides
half of itself (the loss, the right action or "Undo?") while the player decides. Each
mark x judged action x right action x language is rendered as the display draws it."""
from __future__ import annotations

import pytest

from controller.analysis.tutor import TUTOR_MARKS, Judged, TutorWarning
from controller.play.tutor import warning_prompt
from controller.show.content import DisplayContent
from controller.show.display import PAGE_SECONDS, PROMPT_LINES, page_index, prompt_lines, render_image
from controller.show.texts import LANGUAGES, render

#: the right cube action each judged action can be warned with: a roll loses only where a
#: double was right, a double only where it was not, a take where the pass was right...
RIGHT_ACTIONS: dict[Judged, tuple[str, ...]] = {
    "move": ("",),
    "roll": ("tutor.right.double_take", "tutor.right.double_pass"),
    "double": ("tutor.right.no_double", "tutor.right.too_good"),
    "take": ("tutor.right.pass",),
    "drop": ("tutor.right.take",),
}
#: the widest loss the display can show: gnubg's equity lost, normalised to the cube, is
#: under 10, and every digit is as wide as another
WIDEST_LOSS = 1.99

WARNINGS = [TutorWarning(mark, WIDEST_LOSS, action=action, right_key=right or None)
            for mark in TUTOR_MARKS if mark != "off"
            for action, rights in RIGHT_ACTIONS.items() for right in rights]


def _content(warning: TutorWarning, language: str) -> DisplayContent:
    """The screen while the tutor holds the action: a match in play, the warning below."""
    return DisplayContent(turn="white", dice=(6, 5), score_white=2, score_black=4, match_length=7,
                          pips_white=131, pips_black=142, cube_value=2, cube_owner="black",
                          prompt=warning_prompt(warning), language=language)


def test_every_mark_and_action_is_warned_about() -> None:
    assert {(w.mark, w.action) for w in WARNINGS} == {
        (m, a) for m in ("doubtful", "bad", "very_bad") for a in ("move", "roll", "double", "take", "drop")}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_tutor_warning_fits_the_display_without_paging(language: str) -> None:
    too_long = []
    for warning in WARNINGS:
        content = _content(warning, language)
        lines = prompt_lines(content)
        if len(lines) > PROMPT_LINES:
            too_long.append(f"{warning.action} {warning.mark} {warning.right_key}: {lines}")
            continue
        # drawn as the device shows it: the same pixels now and after a page's time
        assert page_index(content, PAGE_SECONDS) == 0
        assert render_image(content, 0.0).tobytes() == render_image(content, PAGE_SECONDS).tobytes()
    assert not too_long, "\n".join(too_long)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_warning_says_its_loss_and_the_right_action(language: str) -> None:
    # what the words must keep: the mark, the loss, and for a cube action the right one
    for warning in WARNINGS:
        prompt = warning_prompt(warning)
        text = " ".join(prompt_lines(_content(warning, language)))
        assert f"-{WIDEST_LOSS:.2f}" in text
        if warning.right_key:
            assert render(warning.right_key, {}, language) in text
        assert render(str(dict(prompt.params)["mark_key"]), {}, language) in text
