"""The players' buttons: per side a main button and a cube button, and one menu button.

- main (roll, done, take, accept) and cube (double, drop, decline) emit a `ButtonPressed`
  (controller.inputs.press) the moment they go down;
- the menu button emits on release: a `ButtonPressed`, `held` when it was held at least
  `long_press_ms` (default 800 ms).

Each press carries the time of its accepted edge on the injected clock (the table's).

The buttons are gpiozero `Button`s (pins to ground, internal pull-ups) with the bounce
time of the profile, on a pin factory passed in by name (`make_pin_factory`): RPi.GPIO
on a Raspberry Pi up to 4, lgpio on a Pi 5, `MockFactory` in tests. Edges closer than
the bounce time to the last accepted edge are also dropped here, with the injected
clock, because not every pin factory debounces (the mock one does not).

gpiozero calls back from its own threads; `emit` must be thread-safe. The application
passes `lambda event: loop.call_soon_threadsafe(queue.put_nowait, event)`.
"""
from __future__ import annotations

import threading
import time
from typing import Any, Callable, Literal, Mapping

# the [buttons] section is parsed with the profile; re-exported here for the panel's users
from controller.board.profile_sections import ButtonConfig  # noqa: F401
from controller.engine.board_view import Colour
from controller.errors import BackendUnavailableError, ProfileError
from controller.inputs.pins import MockPinFactory, PinFactory
from controller.inputs.press import ButtonKind, ButtonPressed

#: (side, kind) of each [buttons] key of the profile.
BUTTON_KEYS: Mapping[str, tuple[Colour | None, ButtonKind]] = {
    "white_main": ("white", "main"),
    "white_cube": ("white", "cube"),
    "black_main": ("black", "main"),
    "black_cube": ("black", "cube"),
    "menu": (None, "menu"),
}


FACTORIES: tuple[str, ...] = ("rpigpio", "lgpio", "mock")


def make_mock_pins(history: Literal["recent", "all"] = "recent") -> MockPinFactory:
    """gpiozero's mock pins: the simulators' and the tests' buttons, pressed by a finger.
    Each pin keeps its `recent` states (controller.inputs.mock_pins: a table plays for
    hours); the bring-up rig asks for `all`, its operator reading the buzzer's since a mark."""
    try:
        from gpiozero.pins.mock import MockFactory

        from controller.inputs.mock_pins import recent_mock_pins
    except ImportError as error:
        raise BackendUnavailableError(f"the mock pins need gpiozero ({error}): pip install gpiozero") from None
    if history == "recent":
        return recent_mock_pins()
    factory: MockPinFactory = MockFactory()
    return factory


def make_pin_factory(name: str) -> PinFactory:
    """A gpiozero pin factory by name: `rpigpio` (Pi 1-4), `lgpio` (Pi 5), `mock` (tests,
    and a laptop without GPIO)."""
    try:
        if name == "mock":
            return make_mock_pins()
        if name == "rpigpio":
            from gpiozero.pins.rpigpio import RPiGPIOFactory
            return RPiGPIOFactory()
        if name == "lgpio":
            from gpiozero.pins.lgpio import LGPIOFactory
            return LGPIOFactory()
    except ImportError as error:
        raise BackendUnavailableError(
            f"the {name} pin factory is not installed ({error}); pip install 'bgboard[pi]' "
            "(or 'bgboard[pi5]' on a Raspberry Pi 5)") from None
    except Exception as error:  # gpiozero raises its own errors off a Pi: one clear line
        raise BackendUnavailableError(
            f"cannot open the GPIO pins with {name}: {error} (is this a Raspberry Pi, and "
            "is the user in the gpio group?)") from None
    raise ProfileError(f"pin factory {name!r} is unknown; choose one of {', '.join(FACTORIES)}")


class _Debounce:
    """Accepts an edge only after `seconds` of quiet: every edge, accepted or not,
    restarts the window, so chatter longer than the bounce time still counts once."""

    def __init__(self, seconds: float, clock: Callable[[], float]) -> None:
        self._seconds = seconds
        self._clock = clock
        self._last: float | None = None

    def accept(self) -> float | None:
        now = self._clock()
        last, self._last = self._last, now
        if last is not None and now - last < self._seconds:
            return None
        return now


class ButtonPanel:
    """The five buttons, emitting `ButtonPressed`s through `emit`.

    Use as a context manager or call `close()` to release the pins.
    """

    def __init__(self, config: ButtonConfig, pin_factory: PinFactory,
                 emit: Callable[[ButtonPressed], None],
                 clock: Callable[[], float] = time.monotonic) -> None:
        from gpiozero import Button

        self._emit = emit
        self._clock = clock
        self.pins: Mapping[str, int] = dict(config.pins)
        #: edges closer than this to the last one are bounce (a finger needs longer)
        self.bounce_s = config.bounce_ms / 1000
        self._long_press = config.long_press_ms / 1000
        self._lock = threading.Lock()
        self._menu_down_at: float | None = None
        self._buttons: dict[str, Any] = {}
        try:
            for key, pin in config.pins.items():
                side, kind = BUTTON_KEYS[key]
                # hold_time is short because long presses are timed here; gpiozero's
                # hold thread then never keeps `close()` waiting for a held button.
                button = Button(pin, pull_up=True, bounce_time=config.bounce_ms / 1000 or None,
                                hold_time=0.05, pin_factory=pin_factory)
                debounce = _Debounce(config.bounce_ms / 1000, clock)
                button.when_pressed = self._on_press(side, kind, debounce)
                button.when_released = self._on_release(side, kind, debounce)
                self._buttons[key] = button
        except Exception as error:
            self.close()
            if isinstance(error, (BackendUnavailableError, ProfileError)):
                raise
            raise BackendUnavailableError(f"cannot use the button pins: {error}") from None

    def _on_press(self, side: Colour | None, kind: ButtonKind,
                  debounce: _Debounce) -> Callable[[], None]:
        def pressed() -> None:
            with self._lock:
                now = debounce.accept()
                if now is None:
                    return
                if kind == "menu":
                    self._menu_down_at = now
                    return
            self._emit(ButtonPressed(side, kind, now))
        return pressed

    def _on_release(self, side: Colour | None, kind: ButtonKind,
                    debounce: _Debounce) -> Callable[[], None]:
        def released() -> None:
            with self._lock:
                now = debounce.accept()
                if now is None or kind != "menu" or self._menu_down_at is None:
                    return
                held = now - self._menu_down_at
                self._menu_down_at = None
            self._emit(ButtonPressed(side, kind, now, held=held >= self._long_press))
        return released

    def is_pressed(self, key: str) -> bool:
        """Whether the button of profile key `key` (e.g. "white_main") is down now."""
        return bool(self._buttons[key].is_pressed)

    def close(self) -> None:
        for button in self._buttons.values():
            button.close()
        self._buttons.clear()

    def __enter__(self) -> "ButtonPanel":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
