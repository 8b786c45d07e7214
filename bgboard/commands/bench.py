"""`bgboard bench [--json] [--quick] [--only SECTION] [--seconds S] [--games N]`: speed and memory of this machine."""
from __future__ import annotations

import argparse
import importlib
import inspect
import json
import sys

from bgboard.bench import SECTIONS
from bgboard.commands.numbers import seconds, whole
from controller.errors import UsageError

HELP = "speed and memory figures of this machine (engine, link, controller, bot)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="one JSON object keyed by section")
    parser.add_argument("--quick", action="store_true", help="fewer samples (a smoke run)")
    parser.add_argument("--only", action="append", metavar="SECTION",
                        help=f"run only these sections ({', '.join(SECTIONS)})")
    parser.add_argument("--seconds", type=seconds(high=86_400), metavar="S",
                        help="how long a timed section runs (soak; default 60)")
    parser.add_argument("--games", type=whole(low=1, high=100_000), metavar="N",
                        help="self-play games per computer level (bot; default 100)")


def run(args: argparse.Namespace) -> int:
    chosen = args.only or list(SECTIONS)
    unknown = [s for s in chosen if s not in SECTIONS]
    if unknown:
        raise UsageError(f"unknown section {unknown[0]!r}; choose from {', '.join(SECTIONS)}")
    if args.seconds is not None and "soak" not in chosen:
        raise UsageError("--seconds goes with a timed section: --only soak")
    if args.games is not None and "bot" not in chosen:
        raise UsageError("--games goes with the computer levels' section: --only bot")
    results: dict[str, object] = {}
    for name in chosen:
        try:
            module = importlib.import_module(f"bgboard.bench.{name}_bench")
        except ModuleNotFoundError as exc:
            if exc.name == f"bgboard.bench.{name}_bench":
                continue
            raise
        takes = inspect.signature(module.run).parameters
        options = {name: getattr(args, name) for name in ("seconds", "games") if name in takes}
        figures = module.run(quick=args.quick, **options)
        results[name] = figures
        if not args.json:
            print(f"[{name}]")
            for key, value in figures.items():
                print(f"  {key:<40} {value}")
            sys.stdout.flush()
    if args.json:
        print(json.dumps(results))
    return 0
