"""What bgboard uses of gpiozero's pin factories, as types (gpiozero ships none).

The buttons and the buzzer hand a factory to gpiozero's own devices and the table closes it
at the end; the simulators and the bench's operator also drive the mock factory's pins as a
finger (or read the buzzer pin's states). These Protocols say exactly that much, so a
module boundary names a pin factory instead of `Any`.
"""
from __future__ import annotations

from typing import Protocol, Sequence


class PinFactory(Protocol):
    """A gpiozero pin factory (RPiGPIOFactory, LGPIOFactory, MockFactory)."""

    def close(self) -> None: ...


class PinState(Protocol):
    """One entry of a mock pin's history (gpiozero's `PinState`)."""

    @property
    def state(self) -> bool | float: ...


class MockPin(Protocol):
    """A pin of gpiozero's `MockFactory`, driven as a finger presses a button."""

    @property
    def states(self) -> Sequence[PinState]: ...

    def drive_low(self) -> None: ...

    def drive_high(self) -> None: ...


class MockPinFactory(PinFactory, Protocol):
    """gpiozero's `MockFactory`: the simulators' and the tests' buttons and buzzer."""

    def pin(self, number: int) -> MockPin: ...
