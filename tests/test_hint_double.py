"""A hint to a double offered (issue 22, item 4): the doubled player may ask the menu's hint
"take or drop?" (RULES.md: the opponent takes or drops), answered with gnubg's right
answer. The positions are test_tutor's, from ../shared/matches: a take that loses 0.131
(the pass is right) and a double where the take is right."""
from __future__ import annotations

import pytest

from controller.bot.gnubg_level import load_gnubg_nn
from controller.controller import Controller
from controller.events import ActionRequested, ButtonPressed
from controller.events import menu_pressed as MenuPressed  # noqa: N812 - reads as the event
from tests.test_tutor import BAD_TAKE, GOOD_DOUBLE, _prompt, _table

pytestmark = pytest.mark.skipif(load_gnubg_nn() is None, reason="needs gnubg-nn (x86-64; installed by .ci/run)")


def _hint_to_the_double(c: Controller) -> str:
    c.handle(ActionRequested("white", "double", 1.0))
    assert c.status().match.phase == "doubled"
    c.handle(MenuPressed(1.1))
    seen = [c.status().menu.item]
    while c.status().menu.item != "hint":
        c.handle(MenuPressed(c.status().now + 0.1))
        assert c.status().menu.item not in seen, f"no hint in the menu while a double waits: {seen}"
        seen.append(c.status().menu.item)
    c.handle(ButtonPressed("black", "main", c.status().now + 0.1))
    return _prompt(c)


@pytest.mark.parametrize(("case", "answer"), [(BAD_TAKE, "Hint: pass"), (GOOD_DOUBLE, "Hint: take")])
def test_the_doubled_player_may_ask_take_or_pass(case: tuple[str, int], answer: str) -> None:
    c = _table(case, tutor="off")
    assert _hint_to_the_double(c) == answer
