"""`bgboard selftest` against the virtual board: every step passes on a good board and
the right step fails, naming the right part, for each injected fault."""
from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from controller.board.profile import Profile, load_profile
from controller.bringup import steps
from controller.bringup.operators import ConsoleOperator
from controller.bringup.pi_rig import pin_factory_name
from controller.bringup.requests import (
    CellLit,
    HeardBeep,
    PlaceChecker,
    SawPattern,
    StepResult,
)
from controller.bringup.rig import Rig
from controller.bringup.selftest import run_selftest, verdict
from sim.bringup_operator import SimOperator
from sim.bringup_rig import Faults, SimBench, open_sim_rig, parse_faults
from bgboard.cli import main
from controller.errors import UsageError

ALL = ("leds", "sensors", "buttons", "buzzer", "display", "link")


@pytest.fixture(scope="module")
def profile() -> Profile:
    return load_profile()


def _run(profile: Profile, faults: list[str],
         names: tuple[str, ...] = ALL, colours: tuple[str, ...] = ("white",)) -> dict[str, StepResult]:
    async def go() -> list[StepResult]:
        async with open_sim_rig(profile, parse_faults(faults, profile)) as (rig, bench):
            return await run_selftest(rig, SimOperator(bench), names, link_seconds=2.0,
                                      colours=colours)
    return {r.name: r for r in asyncio.run(go())}


def _with_rig(profile: Profile,
              body: Callable[[Rig, SimBench], Awaitable[Any]], faults: Faults | None = None) -> Any:
    async def go() -> Any:
        async with open_sim_rig(profile, faults or Faults()) as (rig, bench):
            return await body(rig, bench)
    return asyncio.run(go())


def test_a_good_virtual_board_passes_every_step(profile: Profile) -> None:
    results = _run(profile, [], colours=("white", "black"))
    assert list(results) == list(ALL)
    assert all(r.passed for r in results.values()), [r.lines() for r in results.values()]
    assert results["sensors"].summary.startswith(f"{2 * profile.sensors.count} placements")
    assert verdict(list(results.values())) == "selftest: all 6 steps passed"


def test_a_swapped_pair_of_sensors_fails_the_sensor_map_only(profile: Profile,) -> None:
    results = _run(profile, ["swap:26,36"], ("leds", "sensors", "buttons"))
    assert results["leds"].passed and results["buttons"].passed
    sensors = results["sensors"]
    assert not sensors.passed
    assert sensors.problems == (("sensor 26 (point 5 slot 3) and sensor 36 (point 7 slot 1) "
                                "are swapped"),)


def test_a_dead_led_range_fails_the_led_walk_naming_its_cells(profile: Profile,) -> None:
    results = _run(profile, ["dead-leds:39-42"], ("leds", "buttons"))
    assert results["buttons"].passed
    leds = results["leds"]
    assert not leds.passed
    assert leds.problems == ("the bar (LEDs 39–42) not lit as it should be",)
    # one dead LED inside a cell is enough to fail that cell, and only that one
    partial = _run(profile, ["dead-leds:5-6"], ("leds",))["leds"]
    assert [p.split(" (")[0] for p in partial.problems] == ["point 11", "point 10"]


def test_a_stuck_button_fails_the_button_step_naming_it(profile: Profile,) -> None:
    results = _run(profile, ["stuck-button:black_cube"], ("leds", "buttons"))
    assert results["leds"].passed
    buttons = results["buttons"]
    assert not buttons.passed
    assert len(buttons.problems) == 1 and buttons.problems[0].startswith("black_cube reads pressed")


def test_a_dead_sensor_is_named_with_its_slot(profile: Profile) -> None:
    async def body(rig: Rig, bench: SimBench) -> StepResult:
        rig.wait = 0.3
        return await steps.sensor_map(rig, SimOperator(bench), ("white",), cells=("17",))
    result = _with_rig(profile, body, parse_faults(["dead-sensor:100"], profile))
    assert not result.passed
    assert result.problems == (("point 17 slot 5: no sensor changed for a white checker "
                               "(sensor 100 dead or not wired?)"),)


def test_a_sensor_reading_the_wrong_colour_is_reported_upside_down(
        profile: Profile) -> None:
    async def body(rig: Rig, bench: SimBench) -> StepResult:
        class UpsideDown(SimOperator):
            async def do(self, request: Any) -> None:
                if isinstance(request, PlaceChecker) and request.cell == "3" and request.slot == 0:
                    request = PlaceChecker("3", 0, "black")    # what the sensor will report
                await super().do(request)
        return await steps.sensor_map(rig, UpsideDown(bench), ("white",), cells=("3",))
    result = _with_rig(profile, body)
    assert result.problems == (("point 3 slot 1: sensor 12 reads black for a white checker "
                               "(mounted upside down?)"),)


def test_a_noisy_line_fails_the_link_step(profile: Profile) -> None:
    async def body(rig: Rig, bench: SimBench) -> StepResult:
        bench.board.flip_bytes(0.2)
        return await steps.link(rig, SimOperator(bench), 2.0)
    result = _with_rig(profile, body)
    assert not result.passed
    assert "errors on the line" in " ".join(result.problems)


def test_the_operator_notices_a_wrong_display_and_a_silent_buzzer(
        profile: Profile) -> None:
    async def body(rig: Rig, bench: SimBench) -> tuple[bool, bool, bool]:
        op = SimOperator(bench)
        rig.display_device.clear()
        blank = await op.confirm(SawPattern())
        silent = await op.confirm(HeardBeep())         # nothing played
        rig.strip.update({"5": "origin", "6": "origin"}, 0.0)
        two_cells = await op.confirm(CellLit("5"))     # more than the cell is lit
        return blank, silent, two_cells
    assert _with_rig(profile, body) == (False, False, False)


def test_display_test_pattern_lights_the_frame_and_both_halves() -> None:
    image = steps.display_test_pattern((128, 64))
    pixels = image.load()
    assert all(pixels[x, 0] and pixels[x, 63] for x in range(128))
    assert all(pixels[0, y] and pixels[127, y] for y in range(64))
    assert image.crop((2, 2, 62, 60)).getbbox() is not None        # chequers
    assert image.crop((66, 10, 126, 54)).getbbox() is not None     # words


def test_console_operator_reads_yes_no_and_end_of_input() -> None:
    answers = iter(["\n", "n\n", "maybe\n", "y\n", None])
    written: list[str] = []

    async def read_line() -> str | None:
        return next(answers)

    async def go() -> list[bool]:
        op = ConsoleOperator(read_line, written.append)
        return [await op.confirm(HeardBeep()) for _ in range(4)]

    assert asyncio.run(go()) == [True, False, True, False]
    assert "  please answer y or n" in written
    assert written[0] == "? Did the buzzer beep twice? [Y/n]"


@pytest.mark.parametrize("fault, words", [
    ("swap:3,3", "two different sensors"),
    ("swap:1,999", "two different sensors"),
    ("dead-leds:50-10", "a range within"),
    ("stuck-button:red", "buttons: white_main"),
    ("melt:1", "expected swap:A,B"),
])
def test_bad_faults_are_usage_errors(profile: Profile, fault: str, words: str) -> None:
    with pytest.raises(UsageError, match=words):
        parse_faults([fault], profile)


def test_pin_factory_follows_the_board_model(tmp_path: Path) -> None:
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\x00")
    assert pin_factory_name(model) == "lgpio"
    model.write_bytes(b"Raspberry Pi 4 Model B Rev 1.4\x00")
    assert pin_factory_name(model) == "rpigpio"
    assert pin_factory_name(tmp_path / "missing") == "rpigpio"


def test_command_line_reports_each_step_and_exits_1_on_a_fault(
        capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["selftest", "--sim", "--steps", "buttons,buzzer", "--fault", "stuck-button:menu"])
    out = capsys.readouterr().out.splitlines()
    assert code == 1
    assert out[0] == "FAIL buttons: 1 of 5 buttons wrong"
    assert out[1].startswith("  - menu reads pressed")
    assert out[2] == "PASS buzzer: beeped"
    assert out[-1] == "selftest: 1 of 2 steps failed: buttons"


@pytest.mark.parametrize("argv, words", [
    (["selftest", "--fault", "swap:1,2"], "--fault only goes with --sim"),
    (["selftest", "--sim", "--steps", "leds,dance"], "unknown step dance"),
])
def test_command_line_usage_errors_are_one_line(capsys: pytest.CaptureFixture[str],
                                                argv: list[str], words: str) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err
