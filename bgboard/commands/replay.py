"""`bgboard replay FILE... [--json]`: check recorded matches (.mat) move by move.

Exit codes, reconciling issue 3's two statements with the command-line convention
(DESIGN.md: 2 for bad input, 1 for runtime errors):
- 0: every file replayed cleanly (a record that stops in its last game is a match in
  progress: its line says at which game and move, its JSON has `in_progress`);
- 2: some file is bad input: garbled, an illegal move, an unknown command, a stated
  result or header score that disagrees with the games, or not a match record at all.
  One line per such file on stderr names the file, game and move; with `--json` its JSON line (stdout) carries the same text in `problem`;
- 1: no file was bad input but some file could not be read (missing, unreadable).
Replay never writes anything.
"""
from __future__ import annotations

import argparse
import json
import sys

from controller.outside_text import printable
from controller.records.replay import replay_file

HELP = "check recorded matches (.mat) move by move"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="match records in .mat format")
    parser.add_argument("--json", action="store_true", help="one JSON object per file, one per line")


def run(args: argparse.Namespace) -> int:
    bad_input = unreadable = False
    for name in args.files:
        try:
            report = replay_file(name)
        except OSError as exc:
            unreadable = True
            reason = exc.strerror or str(exc)
            sys.stderr.write(f"{printable(name)}: cannot read: {reason}\n")
            if args.json:
                print(json.dumps({"file": name, "ok": False, "length": 0, "players": [], "games": [],
                                  "final": {}, "problem": f"cannot read: {reason}",
                                  "in_progress": None}), flush=True)
            continue
        if args.json:
            print(report.json_line(), flush=True)
        elif report.ok:
            print(report.summary_line(), flush=True)
        if not report.ok:
            bad_input = True
            sys.stderr.write(report.problem_line() + "\n")
    if bad_input:
        return 2
    return 1 if unreadable else 0
