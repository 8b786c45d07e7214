"""The LED strips: roles to colours and patterns, cells to LEDs, coalesced writes."""
from __future__ import annotations

import threading
import time
import tomllib
from pathlib import Path

import pytest

from controller.errors import BackendUnavailableError, ProfileError
from controller.show.leds import (OFF, LedConfig, NeoPixelStrip, SimulatedStrip,
                                  next_pattern_change, open_strip, pattern_level, render_frame)

PROFILE = tomllib.loads(
    (Path(__file__).resolve().parents[1] / "hardware" / "profiles" / "default.toml").read_text())


@pytest.fixture
def config() -> LedConfig:
    return LedConfig.from_profile(PROFILE)


def test_default_profile_reads(config: LedConfig) -> None:
    assert config.count == 82 and config.brightness == 0.25 and config.order == "GRB"
    assert config.cells["12"] == (0, 1, 2) and config.cells["bar"] == (39, 40, 41, 42)
    assert config.roles["target"].color == (0x00, 0xC0, 0x40)
    assert config.roles["error"].pattern == "blink"
    assert LedConfig.from_profile(PROFILE["leds"]) == config


def test_solid_roles_light_exactly_their_cells(config: LedConfig) -> None:
    frame = render_frame({"8": "origin", "5": "target"}, 0.0, config)
    lit = {index for index, colour in enumerate(frame) if colour != OFF}
    assert lit == {12, 13, 14, 21, 22, 23}
    assert frame[12] == (255, 255, 255) and frame[21] == (0, 0xC0, 0x40)


def test_blink_is_two_hertz_and_in_step(config: LedConfig) -> None:
    leds = {"5": "error", "20": "error"}
    on = render_frame(leds, 0.10, config)
    off = render_frame(leds, 0.30, config)
    assert on[21] == (255, 0, 0) and on[64] == (255, 0, 0)
    assert off[21] == OFF and off[64] == OFF
    assert render_frame(leds, 0.60, config) == on, "period 0.5 s"


def test_pulse_breathes_once_a_second_and_never_goes_dark() -> None:
    levels = [pattern_level("pulse", t / 100) for t in range(100)]
    assert min(levels) > 0.1 and max(levels) > 0.95
    assert levels[50] > levels[10] and levels[90] < levels[60]
    assert pattern_level("pulse", 0.2) == pattern_level("pulse", 1.2)


def test_next_change_lets_an_idle_loop_sleep(config: LedConfig) -> None:
    strip = SimulatedStrip(config)
    assert strip.next_change({"5": "target", "6": "last-to"}, 3.0) is None
    assert strip.next_change({"5": "error"}, 3.1) == pytest.approx(3.25)
    assert strip.next_change({"5": "error", "6": "setup"}, 3.1) == pytest.approx(3.125)
    assert next_pattern_change("blink", 0.25) == pytest.approx(0.5)


def test_only_changed_frames_are_written(config: LedConfig) -> None:
    strip = SimulatedStrip(config)
    assert strip.update({"5": "target"}, 0.0)
    assert not strip.update({"5": "target"}, 0.5)
    assert not strip.update({"5": "target"}, 9.0)
    assert strip.update({"5": "error"}, 9.0)
    assert not strip.update({"5": "error"}, 9.1), "blink still on"
    assert strip.update({"5": "error"}, 9.3), "blink turned off"
    assert [frame.time for frame in strip.frames] == [0.0, 9.0, 9.3]
    assert strip.cell_colours("5") == (OFF, OFF, OFF)
    strip.update({"5": "target"}, 10.0)
    assert strip.off(10.5) and not strip.off(11.0)


def test_a_pulsing_cell_writes_a_bounded_number_of_frames(config: LedConfig) -> None:
    strip = SimulatedStrip(config)
    for tick in range(1000):  # 10 s at 100 Hz
        strip.update({"1": "bot-from"}, tick / 100)
    assert 100 <= strip.frames_written <= 170


def test_the_simulators_strip_keeps_only_its_last_frames(config: LedConfig) -> None:
    """The simulator's strip (`open_strip("sim")`) shows the last frame and keeps a few for
    the tests: an hour of a pulsing cell (16 frames a second, each ~2 KB) leaves at most 64
    (~128 KB), not a history that grows the simulator's process over its first games."""
    strip = open_strip("sim", config)
    assert isinstance(strip, SimulatedStrip)
    for tick in range(3600 * 20):  # an hour at 20 Hz: every one of the pulse's 16 steps a second
        strip.update({"1": "bot-from"}, tick / 20)
    assert strip.frames_written > 50_000
    assert len(strip.frames) <= 64
    assert strip.last is not None and strip.last.time == pytest.approx(3599.95, abs=0.1)


def test_when_frame_reports_each_write(config: LedConfig) -> None:
    seen = []
    strip = SimulatedStrip(config, when_frame=seen.append)
    strip.update({"bar": "hit"}, 0.0)
    assert seen == list(strip.frames) and seen[0].pixels[39] == (255, 0x40, 0)


def test_cells_without_leds_are_skipped(config: LedConfig) -> None:
    table = dict(PROFILE["leds"])
    table["cells"] = {"1": [0]}
    small = LedConfig.from_profile({**table, "count": 1})
    assert render_frame({"1": "target", "bar": "hit"}, 0, small) == ((0, 0xC0, 0x40),)


@pytest.mark.parametrize("change, message", [
    (lambda t: t["cells"].update({"25": [0]}), "unknown cell"),
    (lambda t: t["cells"].update({"1": [999]}), "outside"),
    (lambda t: t["cells"].update({"1": [0, 1, 2]}), "LED 0 is already in cell 12"),
    (lambda t: t["roles"].update({"glow": {"color": "#ffffff"}}), "unknown role"),
    (lambda t: t["roles"].update({"target": {"color": "green"}}), "#rrggbb"),
    (lambda t: t["roles"].update({"target": {"color": "#00ff00", "pattern": "strobe"}}), "strobe"),
    (lambda t: t["roles"].pop("hit"), "leds.roles.hit: missing"),
    (lambda t: t.pop("count"), "leds.count: missing"),
    (lambda t: t.update({"brightness": 3}), "brightness"),
])
def test_bad_profiles_are_profile_errors(change, message: str) -> None:
    table = {**PROFILE["leds"], "cells": dict(PROFILE["leds"]["cells"]),
             "roles": dict(PROFILE["leds"]["roles"])}
    change(table)
    with pytest.raises(ProfileError, match=message):
        LedConfig.from_profile({"leds": table})


class FakePixels:
    """A stand-in for neopixel.NeoPixel: a real buffer with `show()`, optionally slow."""

    def __init__(self, count: int, delay: float = 0.0) -> None:
        self.buffer = [OFF] * count
        self.shown: list[list[tuple[int, int, int]]] = []
        self.delay = delay
        self.gate = threading.Event()
        self.gate.set()
        self.deinited = False

    def __setitem__(self, index: int, colour: tuple[int, int, int]) -> None:
        self.buffer[index] = colour

    def show(self) -> None:
        self.gate.wait(5)
        self.shown.append(list(self.buffer))

    def deinit(self) -> None:
        self.deinited = True


def test_neopixel_strip_writes_from_a_worker_without_blocking(config: LedConfig) -> None:
    pixels = FakePixels(config.count)
    pixels.gate.clear()  # the chain is "busy": show() blocks until released
    strip = NeoPixelStrip(config, pixels=pixels)
    started = time.perf_counter()
    strip.update({"5": "target"}, 0.0)
    strip.update({"6": "target"}, 0.1)
    strip.update({"7": "target"}, 0.2)
    # an update that waited for the chain would not return until the gate opens below; the
    # bound is only this machine's pace (a few ms idle), wide for a loaded one
    assert time.perf_counter() - started < 5, "update must not wait for the chain"
    pixels.gate.set()
    assert strip.flush(2.0)
    assert pixels.shown[-1][15] == (0, 0xC0, 0x40) and pixels.shown[-1][21] == OFF
    assert len(pixels.shown) <= 2, "frames waiting are coalesced: the newest wins"
    strip.close()
    assert pixels.shown[-1] == [OFF] * config.count, "close turns the chain off"
    assert pixels.deinited and strip.is_closed


def test_neopixel_fault_is_reported_on_the_next_update(config: LedConfig) -> None:
    class Broken(FakePixels):
        def show(self) -> None:
            raise OSError("DMA channel busy")
    strip = NeoPixelStrip(config, pixels=Broken(config.count))
    strip.update({"5": "target"}, 0.0)
    strip.flush(2.0)
    with pytest.raises(BackendUnavailableError, match="DMA"):
        strip.update({"6": "target"}, 0.0)
    strip.close()


def test_strips_are_chosen_by_name(config: LedConfig) -> None:
    assert isinstance(open_strip("sim", config), SimulatedStrip)
    with pytest.raises(ProfileError, match="rainbow"):
        open_strip("rainbow", config)


def test_neopixel_without_the_library_is_one_clear_error(config: LedConfig) -> None:
    try:
        import neopixel  # noqa: F401
    except ImportError:
        with pytest.raises(BackendUnavailableError, match="neopixel"):
            open_strip("neopixel", config)
    else:
        pytest.skip("adafruit-circuitpython-neopixel is installed here")
