"""A button's press, the one type every layer speaks: the panel emits it, the menu steps
on it, the table's step takes it as an event (controller.events lists it), the pages and
bring-up make it.

It lives here, below the events, because the panel and the menu (controller.inputs) must
name it and may not import controller.events, which is above them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from controller.engine.board_view import Colour

ButtonKind = Literal["main", "cube", "menu"]


@dataclass(frozen=True)
class ButtonPressed:
    """A physical button at `at` (seconds on the injected clock): `main` (roll, done, take,
    accept) or `cube` (double, drop, decline) of a side, whose meaning depends on the
    moment; or the `menu` button (no side), on release: a short press opens the menu or
    cycles it, a long one (`held`) closes it."""

    side: Colour | None
    button: ButtonKind
    at: float
    held: bool = False


def menu_pressed(at: float, held: bool = False) -> ButtonPressed:
    """The menu button's press (a long one: `held`)."""
    return ButtonPressed(None, "menu", at, held)
