"""`bgboard calibrate`: the sensors' levels onto the board, settling time and flicker into
the local profile.

First the sensor levels (controller/bringup/sensor_levels.py): every sensor's empty,
white and black level learned, checked, stored on the board's flash and verified, and a
copy kept in the state directory (`--restore` gives that copy to a replaced Pico). Then
the timing: flicker and settling, written into the local profile. `--only levels|timing`
does one of the two.

The local profile is the profile in use when that is already a copy of one's own;
when the settings point at a profile of the repository (`default`), a copy goes next to
the settings (/etc/bgboard/profile.toml on the Pi) and the command says how to use it.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bgboard.commands.board_options import add_board_options
from bgboard.commands.numbers import seconds, whole
from controller.errors import BgboardError, UsageError

HELP = "learn the sensors' levels onto the board; measure settling and flicker into the profile"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--sim", action="store_true",
                        help="calibrate the virtual board, with a simulated person")
    add_board_options(parser)
    parser.add_argument("--output", help="where to write the calibrated profile")
    parser.add_argument("--idle-seconds", type=seconds(high=3600), default=10.0,
                        help="how long to watch the idle board for flicker (default 10)")
    parser.add_argument("--placements", type=whole(1, 1000), default=5,
                        help="place-and-lift cycles for the settling time (default 5)")
    parser.add_argument("--cell", default="1", help="the cell to place on (default 1)")
    parser.add_argument("--dry-run", action="store_true", help="measure, but write nothing")
    parser.add_argument("--fault", action="append", default=[], metavar="FAULT",
                        help="with --sim: flicker:N, stuck-mux:M, overlap:N and the selftest's faults")
    parser.add_argument("--only", choices=("levels", "timing"),
                        help="only the sensor levels, or only settling and flicker (default: both)")
    parser.add_argument("--restore", action="store_true",
                        help="give the board the levels kept in the state directory (a new Pico)")
    parser.add_argument("--state-dir",
                        help="where the copy of the levels is kept (default: the settings' "
                             "state directory; with --sim: none)")


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
    from bgboard.commands.selftest import load_board

    if args.fault and not args.sim:
        raise UsageError("--fault only goes with --sim")
    if args.restore and args.only:
        raise UsageError("--restore gives the kept levels back; it goes without --only")
    settings, profile = load_board(args)
    if args.cell not in dict(profile.cells):
        raise UsageError(f"--cell {args.cell!r}: not a cell of the profile "
                         "(1..24, bar, off-white, off-black)")
    state_dir = Path(args.state_dir) if args.state_dir else (None if args.sim else settings.state_dir)
    if args.restore and state_dir is None:
        raise UsageError("--restore with --sim needs --state-dir")
    from controller.bringup.level_table import CalibrationRefused
    from controller.outside_text import printable

    try:
        calibration = asyncio.run(_measure(args, settings, profile, state_dir))
    except CalibrationRefused as exc:   # one line a sensor, its cell named; nothing was sent
        for line in exc.problems:
            sys.stderr.write(f"bgboard calibrate: {printable(line)}\n")
        sys.stderr.write("bgboard calibrate: nothing sent: the board keeps the calibration it has\n")
        return 1
    if calibration is None:
        return 0
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


async def _measure(args: argparse.Namespace, settings: Any, profile: Any,
                   state_dir: Path | None) -> Any:
    try:
        if args.sim:
            from sim.bringup_operator import SimOperator
            from sim.bringup_rig import open_sim_rig, parse_faults

            async with open_sim_rig(profile, parse_faults(args.fault, profile)) as (rig, bench):
                return await _steps(args, rig, SimOperator(bench), state_dir, burst_quiet=0.0,
                                    stall_s=1.0)
        from controller.bringup.operators import ConsoleOperator
        from controller.bringup.pi_rig import open_pi_rig

        port = args.port or settings.port
        if not port:
            raise UsageError("no serial port: pass --port or set port in the settings")

        async def no_input() -> str | None:
            return None

        operator = ConsoleOperator(no_input, lambda text: print(text, flush=True))
        async with open_pi_rig(profile, port) as rig:
            return await _steps(args, rig, operator, state_dir, burst_quiet=1.0, stall_s=60.0)
    except TimeoutError as exc:
        raise CalibrationError(str(exc)) from None


async def _steps(args: argparse.Namespace, rig: Any, op: Any, state_dir: Path | None, *,
                 burst_quiet: float, stall_s: float) -> Any:
    """The levels (or the kept copy given back), then the timing; what `--only` leaves."""
    from controller.bringup import level_table, sensor_levels
    from controller.bringup.calibrate import calibrate

    if args.restore:
        assert state_dir is not None  # run() refused --restore without one
        kept = level_table.load_copy(state_dir, rig.profile.sensors.count)
        if not args.dry_run:
            await sensor_levels.store(rig, kept)
        print(f"calibrate: levels from {state_dir / level_table.COPY_NAME} "
              + ("checked (dry run)" if args.dry_run else "stored on the board"), flush=True)
        return None
    if args.only in (None, "levels"):
        levels = await sensor_levels.calibrate_levels(rig, op, stall_s=stall_s)
        spans = [min(s.white - s.empty, s.empty - s.black) for s in levels.sensors]
        print(f"levels: {len(levels.sensors)} sensors learned, the smallest span "
              f"{min(spans)} mV, the most noise {max(s.noise for s in levels.sensors)} mVpp", flush=True)
        if args.dry_run:
            print("levels: dry run, not stored", flush=True)
        else:
            await sensor_levels.store(rig, levels)
            copy = f", a copy in {level_table.save_copy(state_dir, levels)}" if state_dir else ""
            print(f"levels: stored on the board (CRC {levels.crc:08x}){copy}", flush=True)
    if args.only == "levels":
        return None
    return await calibrate(rig, op, idle_seconds=args.idle_seconds, placements=args.placements,
                           cell=args.cell, burst_quiet=burst_quiet)


class CalibrationError(BgboardError, RuntimeError):
    """The board did not do what calibration needs (no frames, a dead sensor)."""
