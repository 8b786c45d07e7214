"""`bgboard verify-dice FILE.mat`: recompute a record's committed electronic dice.

Prints `all N rolls verified` and exits 0, or names the first roll that differs (or why
the record cannot be checked: no commitment, the seed not revealed, a seed that does not
match) on stderr and exits 1. As `replay` and `analyze` (one line each, `FILE: problem`):
a file that cannot be read is a runtime error (exit 1); a file that is not a `.mat`
record (binary, past the 4 MB bound, not the format) is bad input, exit 2. The
construction: controller/dice/README.md.
"""
from __future__ import annotations

import argparse
import sys

from controller.errors import RecordError
from controller.files import FileTooLarge
from controller.outside_text import printable

HELP = "recompute a record's verifiable dice from its revealed seed"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE.mat", help="a match record played with dice = verifiable")


def run(args: argparse.Namespace) -> int:
    from controller.records.dice_check import verify_dice
    from controller.records.mat_reader import parse_mat
    from controller.records.replay import read_record, too_large

    shown = printable(args.file)  # a file name is outside text: a newline or ESC in it is escaped
    try:
        text = read_record(args.file)  # as replay and analyze read it: bytes not UTF-8 are the record's problem
    except FileTooLarge as exc:
        return _problem(shown, too_large(exc), 2)
    except OSError as exc:
        return _problem(shown, f"cannot read: {exc.strerror or exc}", 1)
    try:
        raw = parse_mat(text)
    except RecordError as exc:
        return _problem(shown, str(exc), 2)
    check = verify_dice(raw)
    if not check.ok:
        return _problem(shown, check.line, 1)
    print(check.line)
    return 0


def _problem(shown: str, line: str, code: int) -> int:
    sys.stderr.write(f"{shown}: {line}\n")
    return code
