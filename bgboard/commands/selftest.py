"""`bgboard selftest`: bring-up checks of a board, each step with a clear pass or fail.

On the Pi a person answers at the terminal; with `--sim` the virtual board runs the real
firmware and a simulated operator does what a person would, so the same steps are
checked end to end without hardware, and `--fault` shows that each step catches its
fault (a swapped pair of sensors, a dead LED range, a stuck button).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from bgboard.commands.board_options import add_board_options
from bgboard.commands.numbers import seconds
from controller.errors import UsageError

if TYPE_CHECKING:  # imported when run, so `bgboard --help` stays quick
    from controller.board.profile import Profile
    from controller.bringup.requests import StepResult
    from controller.settings import Settings

HELP = "bring-up checks of a board, step by step"
STEP_NAMES = ("leds", "sensors", "buttons", "buzzer", "display", "link")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--sim", action="store_true",
                        help="check the virtual board, with a simulated person")
    add_board_options(parser)
    parser.add_argument("--steps", default=",".join(STEP_NAMES),
                        help=f"comma-separated steps to run (default: {','.join(STEP_NAMES)})")
    parser.add_argument("--link-seconds", type=seconds(high=3600), default=10.0,
                        help="how long to count the link's errors (default 10)")
    parser.add_argument("--quick", action="store_true",
                        help="sensor map with white checkers only (half the placements)")
    parser.add_argument("--fault", action="append", default=[], metavar="FAULT",
                        help="with --sim: swap:A,B | dead-leds:FIRST-LAST | "
                             "stuck-button:KEY | dead-sensor:N | flicker:N (repeatable)")
    parser.add_argument("--json", action="store_true", help="one JSON object a step")


def _steps(text: str) -> tuple[str, ...]:
    names = tuple(n.strip() for n in text.split(",") if n.strip())
    unknown = [n for n in names if n not in STEP_NAMES]
    if unknown or not names:
        raise UsageError(f"--steps: unknown step {', '.join(unknown) or '(none)'}; "
                         f"choose from {', '.join(STEP_NAMES)}")
    return names


def load_board(args: argparse.Namespace) -> tuple[Settings, Profile]:
    """The settings and the profile (validated; its sections are the device configs)."""
    from controller.board.profile import default_profile_path, load_profile
    from controller.settings import load_settings

    settings = load_settings(args.config)
    path = Path(args.profile) if args.profile else settings.profile_path(
        default_profile_path().parent)
    return settings, load_profile(path)


def run(args: argparse.Namespace) -> int:
    names = _steps(args.steps)
    if args.fault and not args.sim:
        raise UsageError("--fault only goes with --sim")
    settings, profile = load_board(args)
    colours = ("white",) if args.quick else ("white", "black")
    return asyncio.run(_main(args, names, settings, profile, colours))


async def _main(args: argparse.Namespace, names: tuple[str, ...], settings: Settings,
                profile: Profile, colours: tuple[str, ...]) -> int:
    from controller.bringup.selftest import run_selftest, verdict

    def report(result: StepResult) -> None:
        if args.json:
            print(json.dumps({"step": result.name, "passed": result.passed,
                              "summary": result.summary, "problems": list(result.problems)}),
                  flush=True)
        else:
            print("\n".join(result.lines()), flush=True)

    if args.sim:
        from sim.bringup_operator import SimOperator
        from sim.bringup_rig import open_sim_rig, parse_faults

        faults = parse_faults(args.fault, profile)
        async with open_sim_rig(profile, faults) as (rig, bench):
            results = await run_selftest(rig, SimOperator(bench), names,
                                         link_seconds=args.link_seconds, colours=colours,
                                         report=report)
    else:
        from controller.bringup.operators import ConsoleOperator
        from controller.bringup.pi_rig import open_pi_rig

        port = args.port or settings.port
        if not port:
            raise UsageError("no serial port: pass --port or set port in the settings")
        loop = asyncio.get_running_loop()

        async def read_line() -> str | None:
            line = await loop.run_in_executor(None, sys.stdin.readline)
            return line if line else None

        operator = ConsoleOperator(read_line, lambda text: print(text, flush=True))
        async with open_pi_rig(profile, port) as rig:
            results = await run_selftest(rig, operator, names, link_seconds=args.link_seconds,
                                         colours=colours, report=report)
    line = verdict(results)
    if args.json:
        print(json.dumps({"passed": all(r.passed for r in results), "verdict": line}))
    else:
        print(line)
    return 0 if all(r.passed for r in results) else 1
