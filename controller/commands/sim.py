"""`bgboard sim`: the simulator. `--headless --script FILE` plays a scenario script
against the full stack and prints one JSON line per script line (DESIGN.md "Scenario
scripts"); the browser mode lives beside it (another module adds it here)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from controller.errors import UsageError

HELP = "the simulator: the virtual board in a browser (--headless --script F for scripts)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--headless", action="store_true",
                        help="no browser: run --script against the virtual board and print JSON lines")
    parser.add_argument("--script", metavar="FILE", help="the scenario script to play (with --headless)")
    parser.add_argument("--profile", metavar="FILE", help="hardware profile (default: the default board)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the dice when a script gives none")
    parser.add_argument("--state-dir", metavar="DIR",
                        help="where the match is saved (default: a temporary directory)")


def run(args: argparse.Namespace) -> int:
    if args.headless:
        if not args.script:
            raise UsageError("--headless needs --script FILE")
        from sim.headless import run_script_sync

        run_script_sync(args.script, out=sys.stdout, profile_path=args.profile, seed=args.seed,
                        state_dir=Path(args.state_dir) if args.state_dir else None)
        return 0
    if args.script:
        raise UsageError("--script needs --headless")
    raise UsageError("the browser simulator is not built yet; use --headless --script FILE")
