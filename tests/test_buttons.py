"""Buttons and buzzer on gpiozero's mock pin factory, with a fake clock."""
from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from controller.errors import BackendUnavailableError, ProfileError
from controller.inputs.buttons import ButtonConfig, ButtonPanel, make_pin_factory
from controller.inputs.press import ButtonPressed
from controller.inputs.buzzer import PATTERNS, Buzzer, BuzzerConfig, BuzzerPattern

PROFILE = tomllib.loads(
    (Path(__file__).resolve().parents[1] / "hardware" / "profiles" / "default.toml").read_text())


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def rig():
    factory = make_pin_factory("mock")
    clock = FakeClock()
    events: list = []
    config = ButtonConfig.from_profile(PROFILE)
    panel = ButtonPanel(config, factory, events.append, clock=clock)
    yield factory, clock, events, panel
    panel.close()
    factory.close()


def _tap(factory, pin: int, clock: FakeClock, hold: float = 0.1) -> None:
    factory.pin(pin).drive_low()
    clock.advance(hold)
    factory.pin(pin).drive_high()
    clock.advance(0.2)


def test_a_tables_mock_pins_keep_a_bounded_history(rig) -> None:
    """A simulator's table presses buttons with a finger and beeps for hours on mock pins:
    every tap still reaches the panel and every beep the pin, while each pin keeps only its
    recent states (gpiozero's `MockPin.states` kept every one, read by nobody at a table)."""
    from sim.finger import Finger

    factory, clock, events, panel = rig
    finger = Finger(factory, dict(ButtonConfig.from_profile(PROFILE).pins))
    buzzer = Buzzer(BuzzerConfig.from_profile(PROFILE), factory, background=False)
    for _ in range(1000):
        finger.down("white_main")
        clock.advance(0.1)
        finger.up("white_main")
        clock.advance(0.2)
        buzzer.play(BuzzerPattern(0.0001, 0.0001, 1))
    assert [e.button for e in events].count("main") == 1000
    assert [s.state for s in factory.pin(12).states][-2:] == [True, False], "the last beep is on the pin"
    assert len(factory.pin(5).states) <= 64 and len(factory.pin(12).states) <= 64
    assert len(buzzer.played) <= 64
    buzzer.close()


def test_config_from_the_default_profile() -> None:
    config = ButtonConfig.from_profile(PROFILE)
    assert config.pins == {"white_main": 5, "white_cube": 6, "black_main": 13,
                           "black_cube": 19, "menu": 26}
    assert config.bounce_ms == 30 and config.long_press_ms == 800


@pytest.mark.parametrize("change, message", [
    ({"menu": 5}, "share"), ({"white_main": 40}, "white_main"), ({"bounce_ms": -1}, "bounce"),
    ({"black_cube": "19"}, "black_cube"),
])
def test_bad_button_sections(change: dict, message: str) -> None:
    with pytest.raises(ProfileError, match=message):
        ButtonConfig.from_profile({"buttons": {**PROFILE["buttons"], **change}})


def test_each_button_emits_its_side_and_kind(rig) -> None:
    factory, clock, events, _ = rig
    for pin in (5, 6, 13, 19):
        _tap(factory, pin, clock)
    # each press at its edge: a tap is 0.1 s down and 0.2 s up from 100.0
    assert [(e.side, e.button, e.held) for e in events] == [
        ("white", "main", False), ("white", "cube", False), ("black", "main", False), ("black", "cube", False)]
    assert [e.at for e in events] == pytest.approx([100.0, 100.3, 100.6, 100.9])


def test_main_and_cube_emit_on_press_not_release(rig) -> None:
    factory, clock, events, _ = rig
    factory.pin(5).drive_low()
    assert events == [ButtonPressed("white", "main", 100.0)]
    clock.advance(1)
    factory.pin(5).drive_high()
    assert len(events) == 1


def test_contact_bounce_is_one_press(rig) -> None:
    factory, clock, events, panel = rig
    pin = factory.pin(13)
    pin.drive_low()
    for _ in range(4):  # chatter within the 30 ms bounce time
        clock.advance(0.004)
        pin.drive_high()
        clock.advance(0.004)
        pin.drive_low()
    assert events == [ButtonPressed("black", "main", 100.0)]
    assert panel.is_pressed("black_main")
    clock.advance(0.2)
    pin.drive_high()
    clock.advance(0.2)
    pin.drive_low()
    assert [(e.side, e.button) for e in events] == [("black", "main")] * 2


def test_menu_short_and_long_press(rig) -> None:
    factory, clock, events, _ = rig
    _tap(factory, 26, clock, hold=0.2)
    _tap(factory, 26, clock, hold=1.5)
    # the menu's press is its release: 0.2 s down is short, 1.5 s held is long
    assert [(e.side, e.button, e.held) for e in events] == [(None, "menu", False), (None, "menu", True)]
    assert [e.at for e in events] == pytest.approx([100.2, 101.9])


def test_menu_emits_nothing_while_still_down(rig) -> None:
    factory, clock, events, _ = rig
    factory.pin(26).drive_low()
    clock.advance(3)
    assert events == []


def test_unknown_pin_factory_is_refused() -> None:
    with pytest.raises(ProfileError, match="wiringpi"):
        make_pin_factory("wiringpi")


def test_pi_factory_off_a_pi_is_one_clear_error() -> None:
    if Path("/dev/gpiomem").exists():
        pytest.skip("this machine has GPIO")
    with pytest.raises(BackendUnavailableError):
        make_pin_factory("rpigpio")


def test_buzzer_plays_patterns_on_its_pin() -> None:
    factory = make_pin_factory("mock")
    with Buzzer(BuzzerConfig.from_profile(PROFILE), factory, background=False) as buzzer:
        pin = factory.pin(12)
        pin.clear_states()
        buzzer.play(BuzzerPattern(0.001, 0.001, 3))
        pin.assert_states([False, True, False, True, False, True, False])
        assert not buzzer.is_active
        buzzer.enabled = False
        pin.clear_states()
        buzzer.play("error")
        pin.assert_states([False])
        assert list(buzzer.played) == ["custom", "error"]
        with pytest.raises(KeyError, match="siren"):
            buzzer.play("siren")
    factory.close()


def test_warning_and_error_sound_different() -> None:
    warning, error = PATTERNS["warning"], PATTERNS["error"]
    assert warning.count > 1 and error.count == 1 and error.on_seconds > 2 * warning.on_seconds
    assert all(pattern.duration < 2 for pattern in PATTERNS.values())
    with pytest.raises(ValueError):
        BuzzerPattern(0, 0.1, 1)
    with pytest.raises(ProfileError):
        BuzzerConfig.from_profile({"buzzer": {"pin": "twelve"}})
