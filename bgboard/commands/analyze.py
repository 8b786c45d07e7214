"""`bgboard analyze FILE.mat... [--ply 0|1|2] [--json]`: GNU Backgammon's judgement of a match.

Every checker play and cube decision, cubeful at the match score (controller.analysis).
Exit codes as `bgboard replay`: 2 when a file does not replay (its one-line problem on
stderr) or cannot be analysed (money play, a match longer than the equity table), 1 when
a file cannot be read or the network is missing, 0 otherwise.
"""
from __future__ import annotations

import argparse
import sys

from controller.outside_text import printable
from controller.records.mat_reader import read_mat
from controller.files import FileTooLarge
from controller.records.replay import read_record, replay_text, too_large

HELP = "GNU Backgammon's analysis of recorded matches: errors, marks, PR, luck"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="match records in .mat format")
    parser.add_argument("--ply", type=int, choices=(0, 1, 2), default=0,
                        help="evaluation depth (0: gnubg's 0-ply, the default)")
    parser.add_argument("--json", action="store_true", help="one JSON object per file, one per line")


def run(args: argparse.Namespace) -> int:
    from controller.analysis.evaluator import Evaluator
    from controller.analysis.match import MatchAnalyser
    from controller.analysis.report import json_line, text_report

    analyser: MatchAnalyser | None = None  # the network loads only once a file replays
    bad_input = unreadable = False
    for name in args.files:
        shown = printable(name)  # a file name is outside text: a newline or ESC in it is escaped
        try:
            text = read_record(name)
        except FileTooLarge as exc:  # not a record (replay and verify-dice say the same, exit 2)
            bad_input = True
            sys.stderr.write(f"{shown}: {too_large(exc)}\n")
            continue
        except OSError as exc:
            unreadable = True
            sys.stderr.write(f"{shown}: cannot read: {exc.strerror or exc}\n")
            continue
        replayed = replay_text(text, name)
        if not replayed.ok:
            bad_input = True
            sys.stderr.write(replayed.problem_line() + "\n")
            continue
        if analyser is None:
            analyser = MatchAnalyser(Evaluator(plies=args.ply))
        try:
            analysis = analyser.analyse(read_mat(text))
        except ValueError as exc:
            bad_input = True
            sys.stderr.write(f"{shown}: {exc}\n")
            continue
        print(json_line(name, analysis) if args.json else text_report(shown, analysis) + "\n", flush=True)
    if bad_input:
        return 2
    return 1 if unreadable else 0
