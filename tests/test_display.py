"""The display: layout helpers, paging of long prompts, backends chosen by name."""
from __future__ import annotations

import io
import os
import tomllib
from pathlib import Path

import pytest
from PIL import Image

from controller.errors import BackendUnavailableError, ProfileError
from controller.show.content import (DisplayContent, Hint, MoveTimerView, Prompt,
                                     TournamentClockView)
from controller.show.display import (PAGE_SECONDS, clock_text, prompt_lines, render_image,
                                     visible_lines, wrap)
from controller.show.display_backends import Display, DisplayConfig, open_device
from controller.show.fonts import SMALL

PROFILE = Path(__file__).resolve().parents[1] / "hardware" / "profiles" / "default.toml"


def test_wrap_breaks_at_words_and_fits_the_width() -> None:
    text = "Lägg den utslagna svarta brickan på baren"
    lines = wrap(text, SMALL, 128)
    assert " ".join(lines) == text
    assert len(lines) == 2 and all(SMALL.width(line) <= 128 for line in lines)
    assert wrap("x" * 60, SMALL, 128) == ["x" * 25, "x" * 25, "x" * 10]


def test_hints_come_first_then_the_prompt_in_the_chosen_language() -> None:
    content = DisplayContent(turn="white", dice=(5, 3), language="sv",
                             hints=(Hint("8", "5"), Hint("5", "5+3")),
                             prompt=Prompt.of("move", side="white", dice=(5, 3)))
    assert prompt_lines(content) == ["8:5  5:5+3", "Vit spelar 5-3"]


def test_long_prompts_page_through_two_lines_at_a_time() -> None:
    lines = ["one", "two", "three", "four", "five"]
    assert visible_lines(lines, 0) == ["one", "two"]
    assert visible_lines(lines, PAGE_SECONDS) == ["three", "four"]
    assert visible_lines(lines, 2 * PAGE_SECONDS) == ["five"]
    assert visible_lines(lines, 3 * PAGE_SECONDS) == ["one", "two"]
    assert visible_lines(["a", "b"], 99) == ["a", "b"]


def test_clock_texts_show_both_parts_separately() -> None:
    assert clock_text(MoveTimerView(15, 100)) == "15 1:40"
    assert clock_text(MoveTimerView(0.2, 0)) == "1 0:00", "shows 1 until really run out"
    assert clock_text(TournamentClockView(8, 3700)) == "8 61:40"


def test_turn_is_shown_by_inverting_the_sides_header() -> None:
    white = render_image(DisplayContent(turn="white"))
    black = render_image(DisplayContent(turn="black"))
    # the header band of the side on turn is mostly lit
    assert white.crop((0, 0, 40, 11)).convert("L").histogram()[255] > 300
    assert black.crop((0, 0, 40, 11)).convert("L").histogram()[255] < 100
    assert black.crop((88, 0, 128, 11)).convert("L").histogram()[255] > 300


def test_cube_moves_towards_its_owner() -> None:
    def lit_columns(owner: str) -> list[int]:
        image = render_image(DisplayContent(cube_value=2, cube_owner=owner)).crop((40, 31, 88, 44))
        return [x for x in range(image.width)
                if any(image.getpixel((x, y)) for y in range(image.height))]
    assert min(lit_columns("white")) < min(lit_columns("center")) < min(lit_columns("black"))
    no_cube = render_image(DisplayContent(cube_enabled=False)).crop((40, 31, 88, 44))
    assert no_cube.getbbox() is None


def test_display_writes_only_changed_frames() -> None:
    with Display.open(DisplayConfig(driver="dummy")) as display:
        content = DisplayContent(turn="white", dice=(3, 1))
        assert display.show(content) is True
        assert display.show(content, now=10.0) is False
        assert display.show(DisplayContent(turn="black", dice=(3, 1))) is True
        assert display.frames_written == 2
        frame = Image.open(io.BytesIO(display.frame_png()))
        assert frame.size == (128, 64)
        assert frame.convert("1").tobytes() == display.device.image.convert("1").tobytes()


def test_paging_prompt_redraws_when_the_page_changes() -> None:
    long = Prompt.of("resign_offered", side="black", result="backgammon")
    content = DisplayContent(hints=(Hint("8", "5"), Hint("5", "3"), Hint("3", "5+3"),
                                    Hint("4", "6+2"), Hint("20", "6"), Hint("21", "2")),
                             prompt=long, language="sv")
    assert len(prompt_lines(content)) > 2
    with Display.open(DisplayConfig(driver="dummy")) as display:
        assert display.show(content, now=0.0)
        first = display.frame_png()
        assert not display.show(content, now=PAGE_SECONDS / 2)
        assert display.show(content, now=PAGE_SECONDS)
        assert display.frame_png() != first


def test_config_from_the_default_profile() -> None:
    profile = tomllib.loads(PROFILE.read_text())
    config = DisplayConfig.from_profile(profile)
    assert config == DisplayConfig(driver="ssd1306", i2c_port=1, i2c_address=0x3C)
    assert DisplayConfig.from_profile(profile["display"]) == config


@pytest.mark.parametrize("section, message", [
    ({"driver": "st7735"}, "st7735"),
    ({"width": 128, "height": 32}, "128x32"),
    ({"i2c_address": "sixty"}, "display"),
])
def test_bad_display_sections_are_profile_errors(section: dict, message: str) -> None:
    with pytest.raises(ProfileError, match=message):
        DisplayConfig.from_profile({"display": section})


def test_unknown_driver_name_is_refused() -> None:
    with pytest.raises(ProfileError, match="vga"):
        open_device(DisplayConfig(driver="dummy"), "vga")


@pytest.mark.skipif(os.path.exists("/dev/i2c-1"), reason="this machine has an I2C bus")
@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_oled_without_i2c_is_one_clear_error(driver: str) -> None:
    import importlib.util
    # CI installs the test extras only (no luma.oled): then the hint names the package.
    hint = "/dev/i2c-1" if importlib.util.find_spec("luma.oled") else "luma.oled"
    with pytest.raises(BackendUnavailableError, match=hint):
        Display.open(DisplayConfig(driver=driver))


def test_text_lines_say_what_the_screen_shows() -> None:
    from controller.show.display import text_lines
    content = DisplayContent(turn="black", dice=(5, 3), cube_value=2, cube_owner="white",
                             score_white=1, score_black=3, match_length=5, pips_white=120,
                             pips_black=99, clock_black=MoveTimerView(4, 12, warning=True),
                             hints=(Hint("8", "5"), Hint("5", "5+3")),
                             prompt=Prompt.of("put_back", n=1, colour="white", cell="13"),
                             language="da")
    assert text_lines(content) == ["Hvid 1  *Sort 3  til 5", "5-3  [2] Hvid", "pip 120 99",
                                   "- | 4 0:12!", "8:5  5:5+3", "Sæt 1 hvid tilbage på 13"]
    assert text_lines(DisplayContent(crawford=True)) == ["White 0  Black 0", "Crawford"]
