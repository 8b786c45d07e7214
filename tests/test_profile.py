"""Hardware profiles: the default loads with typed sections; bad ones name file and key."""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from controller.board.profile import (
    ButtonConfig,
    DisplayConfig,
    LedConfig,
    default_profile_path,
    load_profile,
)
from controller.engine.board_view import CELLS
from controller.errors import ProfileError

DEFAULT = default_profile_path()


def _variant(tmp_path: Path, old: str, new: str) -> Path:
    text = DEFAULT.read_text()
    assert old in text, old
    p = tmp_path / "variant.toml"
    p.write_text(text.replace(old, new, 1))
    return p


def test_default_profile_found_relative_to_the_repository() -> None:
    assert DEFAULT.is_file() and DEFAULT.parts[-3:] == ("hardware", "profiles", "default.toml")
    p = load_profile()
    assert p.path == DEFAULT
    assert (p.sensors.rows, p.sensors.cols, p.sensors.count) == (14, 13, 182)
    assert (p.timing.scan_period_ms, p.timing.debounce_scans, p.timing.heartbeat_ms,
            p.timing.settle_ms) == (10, 3, 500, 300)
    assert (p.link.baudrate, p.link.offline_after_ms) == (115200, 2000)


def test_every_cell_mapped_and_every_sensor_used_once() -> None:
    p = load_profile()
    assert [c for c, _ in p.cells] == list(CELLS)
    assert p.cell_sensors("13") == (72, 73, 74, 75, 76, 77)
    assert p.slots("bar") == 8 and p.slots("off-white") == 15
    owners = p.cell_of_sensor()
    assert len(owners) == 182 and owners[150] == ("bar", 6)


def test_typed_access_to_every_section() -> None:
    p = load_profile()
    assert p.leds.count == 82 and p.leds.pin == "D10" and p.leds.order == "GRB"
    assert p.leds.cell_leds("bar") == (39, 40, 41, 42)
    assert p.leds.role("target").color == (0x00, 0xC0, 0x40)
    assert p.leds.role("error").pattern == "blink"
    assert (p.display.driver, p.display.width, p.display.height, p.display.i2c_address) == \
        ("ssd1306", 128, 64, 0x3C)
    assert p.buttons.pins["menu"] == 26 and p.buttons.bounce_ms == 30
    assert p.buzzer.pin == 12
    assert (p.pico.s0, p.pico.s3, p.pico.tclk, p.pico.ret, p.pico.aout) == (2, 5, 6, 8, 26)


def test_profile_is_a_frozen_value() -> None:
    a, b = load_profile(), load_profile()
    assert a == b and hash(a) == hash(b)
    with pytest.raises(AttributeError):
        a.name = "x"  # type: ignore[misc]


@pytest.mark.parametrize("old,new,needle", [
    ('"1" = [0, 1, 2, 3, 4, 5]', '"1" = [0, 1, 2, 3, 4, 500]', "cells.1: index 500 out of range"),
    ('"2" = [6, 7, 8, 9, 10, 11]', '"2" = [6, 7, 8, 9, 10, 5]', "cells.2: sensor 5 is already in cell 1"),
    ('"24" = [138, 139, 140, 141, 142, 143]\n', "", "cells.24: missing"),
    ("rows = 14", 'rows = "14"', "sensors.rows: must be int"),
    ("heartbeat_ms = 500", "heartbeat_ms = 5", "timing.heartbeat_ms: 5 out of range"),
    ('error = { color = "#ff0000", pattern = "blink" }',
     'error = { color = "red", pattern = "blink" }', "leds.roles.error.color"),
    ('driver = "ssd1306"', 'driver = "lcd"', "display.driver"),
    ('"11" = [3, 4, 5]', '"11" = [3, 4, 2]', "leds.cells.11: LED 2 is already in cell 12"),
    ("[buzzer]\npin = 12", "[buzzer]\npins = 12", "buzzer.pin: missing"),
])
def test_bad_profile_names_file_and_key(tmp_path: Path, old: str, new: str, needle: str) -> None:
    path = _variant(tmp_path, old, new)
    with pytest.raises(ProfileError) as info:
        load_profile(path)
    msg = str(info.value)
    assert msg.startswith(str(path)) and needle in msg
    assert "\n" not in msg


def test_unreadable_or_broken_files(tmp_path: Path) -> None:
    with pytest.raises(ProfileError, match="no such profile"):
        load_profile(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[sensors\nrows = 1")
    with pytest.raises(ProfileError, match="not valid TOML"):
        load_profile(bad)
    with pytest.raises(tomllib.TOMLDecodeError):
        tomllib.loads(bad.read_text())  # the ProfileError really hides a parse failure


def test_an_edited_copy_with_a_smaller_matrix_loads(tmp_path: Path) -> None:
    path = _variant(tmp_path, "rows = 14", "rows = 15")
    assert load_profile(path).sensors.count == 195


def test_the_backend_sections_are_the_backends_configs() -> None:
    """One parser: the strip, the display, the buttons and the buzzer take the profile's
    own sections, and a section parsed alone (from a mapping) follows the same rules."""
    from controller.inputs import buttons, buzzer
    from controller.show import display_backends, leds

    p = load_profile()
    raw = tomllib.loads(DEFAULT.read_text())
    for cls, name in ((leds.LedConfig, "leds"), (display_backends.DisplayConfig, "display"),
                      (buttons.ButtonConfig, "buttons"), (buzzer.BuzzerConfig, "buzzer")):
        section = getattr(p, name)
        assert isinstance(section, cls)
        assert cls.from_profile(p) is section
        assert cls.from_profile(raw) == section == cls.from_profile(raw[name])


@pytest.mark.parametrize("old,new,section,needle", [
    ("count = 82", "count = 0", LedConfig, "leds.count: 0 out of range"),
    ("bounce_ms = 30", "bounce_ms = -5", ButtonConfig, "buttons.bounce_ms: -5 out of range"),
    ("menu = 26", "menu = 5", ButtonConfig, "buttons: two buttons share a pin (GPIO5)"),
    ("width = 128", "width = 96", DisplayConfig, "display: 96x64; the screens are drawn for 128x64"),
])
def test_backend_rules_hold_for_a_whole_file_and_a_section_alike(
        tmp_path: Path, old: str, new: str,
        section: type[LedConfig] | type[ButtonConfig] | type[DisplayConfig], needle: str) -> None:
    path = _variant(tmp_path, old, new)
    with pytest.raises(ProfileError, match=re.escape(f"{path}: {needle}")):
        load_profile(path)
    with pytest.raises(ProfileError, match=re.escape(f"profile: {needle}")):
        section.from_profile(tomllib.loads(path.read_text()))
