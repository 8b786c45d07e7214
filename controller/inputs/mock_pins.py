"""gpiozero's mock pins keeping only their recent history, for the tables without GPIO.

gpiozero's `MockPin` appends every change of state to `states` and never drops one: the
simulators' tables (and `bgboard run` on a laptop) press buttons with a finger and sound
the buzzer on these pins for hours, two entries a tap and a beep, read by nobody there
(tests read a handful after `clear_states`). A soak of the simulator showed ~200 entries a
game, without end. Imported only when mock pins are made (gpiozero is then installed).
"""
from __future__ import annotations

from gpiozero.pins.mock import MockFactory, MockPin

from controller.inputs.pins import MockPinFactory

#: How many of its last states a pin keeps: a buzzer pattern is at most 7, a tap 2.
RECENT_STATES = 64


class RecentStatesPin(MockPin):
    """A `MockPin` whose `states` holds its last `RECENT_STATES` changes."""

    def _change_state(self, value: bool) -> bool:
        changed = bool(super()._change_state(value))
        excess = len(self.states) - RECENT_STATES
        if excess > 0:
            del self.states[:excess]
        return changed


def recent_mock_pins() -> MockPinFactory:
    """A `MockFactory` whose pins keep only their recent states."""
    factory: MockPinFactory = MockFactory(pin_class=RecentStatesPin)
    return factory
