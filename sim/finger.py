"""A finger on the simulated table's buttons: the mock GPIO pins driven as a press does.

The simulators' buttons are the real `ButtonPanel` on gpiozero's `MockFactory`, so a
press from the page or a script line goes through the same debounce, long-press timing
and menu as on the Pi: the pin is driven low (pressed, to ground), held, and released.
How long it is held is the caller's business (simulated time in the headless runner,
the loop's time in the browser), so this module only drives pins.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, cast

from controller.errors import UsageError
from controller.inputs.pins import MockPin, MockPinFactory

if TYPE_CHECKING:
    from controller.table import Table

#: How long a tap holds a button down; more than the profile's bounce time, far less
#: than a long press.
TAP_S = 0.08
#: How long a long press holds the menu button (the profile's long press is 0.8 s).
LONG_PRESS_S = 1.0


class Finger:
    """Presses the buttons named by the profile's keys (`white_main`, `menu`, ...)."""

    def __init__(self, pins: MockPinFactory, numbers: dict[str, int]) -> None:
        self._pins = pins
        self._numbers = numbers

    @classmethod
    def on(cls, table: "Table") -> "Finger | None":
        """A finger on `table`'s buttons, or None when the table has none (no pin factory:
        a front end that named no buttons)."""
        if table.buttons is None or table.pin_factory is None:
            return None
        return cls(cast(MockPinFactory, table.pin_factory), dict(table.buttons.pins))

    def _pin(self, key: str) -> MockPin:
        number = self._numbers.get(key)
        if number is None:
            raise UsageError(f"no button {key!r} (buttons: {', '.join(self._numbers)})")
        return self._pins.pin(number)

    def down(self, key: str) -> None:
        self._pin(key).drive_low()

    def up(self, key: str) -> None:
        self._pin(key).drive_high()


def button_key(side: str | None, button: str) -> str:
    """The profile key of a button: `white_main`, `black_cube`, `menu`."""
    return "menu" if button == "menu" else f"{side}_{button}"
