"""The hint must not hide the tutor (issue 22, item 2): with the tutor on "doubtful", a hint
asked from the menu, then a bad move played, the tutor's warning is what the display shows
and the main button keeps the move (RULES.md: the tutor warns "before the move is
confirmed"); the menu closes and the hint's line goes once the tutor holds an action."""
from __future__ import annotations

import pytest

from controller.bot.gnubg_level import load_gnubg_nn
from controller.controller import Controller
from controller.events import ButtonPressed
from controller.events import menu_pressed as MenuPressed  # noqa: N812 - reads as the event
from tests.test_tutor import _opening, _play, _prompt

pytestmark = pytest.mark.skipif(load_gnubg_nn() is None, reason="needs gnubg-nn (x86-64; installed by .ci/run)")


def _hint_from_the_menu(c: Controller, t: float) -> float:
    c.handle(MenuPressed(t))
    while c.status().menu.item != "hint":
        t += 0.1
        c.handle(MenuPressed(t))
        assert c.status().menu.item is not None
    c.handle(ButtonPressed("white", "main", t + 0.1))
    prompt = c.status().scene.display.prompt
    assert prompt is not None and prompt.key == "hint"
    return t + 0.2


@pytest.mark.parametrize("confirm", ["auto", "button"])
def test_a_bad_move_after_a_hint_shows_the_tutors_warning_and_the_button_keeps_it(confirm: str) -> None:
    c = _opening("doubtful", confirm=confirm)
    t = _hint_from_the_menu(c, 1.0)
    t = _play(c, [("13", "7"), ("13", "10")], t)  # 13/10 13/7: -0.091 against 24/15
    assert not c.status().menu.is_open
    assert _prompt(c) == "Bad: -0.09. Undo?"
    assert "white keep" in {a.command for a in c.status().actions}
    c.handle(ButtonPressed("white", "main", t + 0.1))  # keep: not the hint again
    assert c.status().match.turn == "black" and c.status().match.last_move is not None
    assert c.status().match.last_move.side == "white" and len(c.status().match.last_move.steps) == 2


def test_the_menu_opened_again_while_the_tutor_holds_stays_open() -> None:
    c = _opening("doubtful")
    t = _play(c, [("13", "7"), ("13", "10")], 1.0)
    c.handle(MenuPressed(t))
    c.handle(MenuPressed(t + 0.1))
    assert c.status().menu.is_open  # the player asked for it: the tutor closed it only once


def test_a_held_move_shows_the_same_pips_dice_and_steps_everywhere() -> None:
    """Issue 22, item 4: while the tutor holds a move, the board stands after the whole move;
    the page's pips and dice said the first step only (172 beside the display's 167)."""
    from controller.web.page_facts import page_facts

    c = _opening("doubtful")
    _play(c, [("13", "7"), ("13", "10")], 1.0)  # held: the last step waits for keep
    status = c.status()
    assert len(c.status().match.steps) + len(status.held_steps) == 2
    facts = page_facts(status, "en")
    assert facts["pips_view"] == {"white": c.status().scene.display.pips_white, "black": c.status().scene.display.pips_black}
    assert [d["used"] for d in facts["dice_view"]] == [True, True]
    assert facts["moves"][-1]["notation"] == "13/10 13/7" and facts["moves"][-1]["current"]  # both steps, not one
