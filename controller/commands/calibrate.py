"""`bgboard calibrate`: measure settling time and flicker, write them into the local profile.

The local profile is the profile in use when that is already a copy of one's own;
when the settings point at a profile of the repository (`default`), a copy goes next to
the settings (/etc/bgboard/profile.toml on the Pi) and the command says how to use it.
"""
from __future__ import annotations

import argparse
import asyncio
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from controller.commands.numbers import seconds, whole
from controller.errors import BgboardError, UsageError

HELP = "measure settling time and flicker, write the local profile"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--sim", action="store_true",
                        help="calibrate the virtual board, with a simulated person")
    parser.add_argument("--profile", help="hardware profile (default: the settings' profile)")
    parser.add_argument("--port", help="serial port of the board (default: the settings' port)")
    parser.add_argument("--config", help="settings file (default: /etc/bgboard, then the user's)")
    parser.add_argument("--output", help="where to write the calibrated profile")
    parser.add_argument("--idle-seconds", type=seconds(high=3600), default=10.0,
                        help="how long to watch the idle board for flicker (default 10)")
    parser.add_argument("--placements", type=whole(1, 1000), default=5,
                        help="place-and-lift cycles for the settling time (default 5)")
    parser.add_argument("--cell", default="1", help="the cell to place on (default 1)")
    parser.add_argument("--dry-run", action="store_true", help="measure, but write nothing")
    parser.add_argument("--fault", action="append", default=[], metavar="FAULT",
                        help="with --sim: flicker:N and the selftest's faults")


def _output(args: argparse.Namespace, profile: Any) -> Path:
    from controller.board.profile import default_profile_path
    from controller.bringup.profile_writer import local_profile_path
    from controller.settings import is_raspberry_pi

    if args.output:
        return Path(args.output)
    repository = default_profile_path().parent.resolve()
    if profile.path.resolve().parent != repository:
        return Path(profile.path)
    return local_profile_path(is_raspberry_pi(), os.environ)


def run(args: argparse.Namespace) -> int:
    from controller.commands.selftest import load_board

    if args.fault and not args.sim:
        raise UsageError("--fault only goes with --sim")
    settings, profile = load_board(args)
    if args.cell not in dict(profile.cells):
        raise UsageError(f"--cell {args.cell!r}: not a cell of the profile "
                         "(1..24, bar, off-white, off-black)")
    calibration = asyncio.run(_measure(args, settings, profile))
    for line in calibration.lines():
        print(line)
    if args.dry_run:
        print("calibrate: dry run, nothing written")
        return 0
    from controller.bringup.profile_writer import write_calibrated

    target = write_calibrated(profile.path, _output(args, profile), calibration,
                              datetime.now(UTC))
    print(f"calibrate: wrote {target}")
    if target.resolve() != profile.path.resolve():
        print(f'calibrate: to use it, set profile = "{target}" in the settings '
              "(/etc/bgboard/config.toml on the Pi)")
    return 0


async def _measure(args: argparse.Namespace, settings: Any, profile: Any) -> Any:
    from controller.bringup.calibrate import calibrate

    try:
        if args.sim:
            from controller.bringup.sim_operator import SimOperator
            from controller.bringup.sim_rig import open_sim_rig, parse_faults

            async with open_sim_rig(profile, parse_faults(args.fault, profile)) as (rig, bench):
                return await calibrate(rig, SimOperator(bench), idle_seconds=args.idle_seconds,
                                       placements=args.placements, cell=args.cell,
                                       burst_quiet=0.0)
        from controller.bringup.operators import ConsoleOperator
        from controller.bringup.pi_rig import open_pi_rig

        port = args.port or settings.port
        if not port:
            raise UsageError("no serial port: pass --port or set port in the settings")

        async def no_input() -> str | None:
            return None

        operator = ConsoleOperator(no_input, lambda text: print(text, flush=True))
        async with open_pi_rig(profile, port) as rig:
            return await calibrate(rig, operator, idle_seconds=args.idle_seconds,
                                   placements=args.placements, cell=args.cell)
    except TimeoutError as exc:
        raise CalibrationError(str(exc)) from None


class CalibrationError(BgboardError, RuntimeError):
    """The board did not do what calibration needs (no frames, a dead sensor)."""
