"""`bgboard sim`: the simulator. `--headless --script FILE` plays a scenario script
against the full stack and prints one JSON line per script line (DESIGN.md "Scenario
scripts"); the browser mode lives beside it (another module adds it here)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bgboard.commands.numbers import PORT, whole
from controller.errors import UsageError

HELP = "the simulator: the virtual board in a browser (--headless --script F for scripts)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--headless", action="store_true",
                        help="no browser: run --script against the virtual board and print JSON lines")
    parser.add_argument("--script", metavar="FILE", help="the scenario script to play (with --headless)")
    parser.add_argument("--record", metavar="OUT.mat",
                        help="with --headless: write the match record here when the script ends")
    parser.add_argument("--profile", metavar="FILE", help="hardware profile (default: the default board)")
    parser.add_argument("--seed", type=whole(0, 2**63 - 1), default=0, help="seed of the dice when a script gives none")
    parser.add_argument("--state-dir", metavar="DIR",
                        help="where the match is saved (headless: a temporary directory; "
                             "browser: the user's state directory, so a restart resumes)")
    parser.add_argument("--port", type=PORT, default=8080, help="the web page's TCP port (default 8080)")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default loopback only)")
    parser.add_argument("--spectators", type=PORT, metavar="PORT",
                        help="also serve a read-only page of the match for spectators on this port "
                             "(its own token; 0: any free port)")
    parser.add_argument("--no-browser", action="store_true", help="print the address, do not open a browser")


def run(args: argparse.Namespace) -> int:
    if args.headless:
        if not args.script:
            raise UsageError("--headless needs --script FILE")
        from sim.headless import run_script_sync

        run_script_sync(args.script, out=sys.stdout, profile_path=args.profile, seed=args.seed,
                        state_dir=Path(args.state_dir) if args.state_dir else None,
                        record=Path(args.record) if args.record else None)
        return 0
    if args.script:
        raise UsageError("--script needs --headless")
    if args.record:
        raise UsageError("--record needs --headless (the page has its own Download .mat)")
    from sim.page.run import run_browser

    return run_browser(args.host, args.port, open_browser=not args.no_browser,
                       state_dir=args.state_dir, profile_path=args.profile,
                       seed=args.seed or None, spectators=args.spectators)
