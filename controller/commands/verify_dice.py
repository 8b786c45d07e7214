"""`bgboard verify-dice FILE.mat`: recompute a record's committed electronic dice.

Prints `all N rolls verified` and exits 0, or names the first roll that differs (or why
the record cannot be checked: no commitment, the seed not revealed, a seed that does not
match) on stderr and exits 1. A file that cannot be read is a runtime error (exit 1); a
file that is not a `.mat` record is bad input, exit 2 as `replay` and `analyze` say it
(one line each). The construction: controller/dice/README.md.
"""
from __future__ import annotations

import argparse
import sys

from controller.errors import RecordError, UsageError
from controller.files import read_text_bounded
from controller.outside_text import printable

HELP = "recompute a record's verifiable dice from its revealed seed"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE.mat", help="a match record played with dice = verifiable")


def run(args: argparse.Namespace) -> int:
    from controller.dice.verify import verify_dice
    from controller.records.mat_reader import parse_mat

    shown = printable(args.file)  # a file name is outside text: a newline or ESC in it is escaped
    try:
        text = read_text_bounded(args.file)
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"{shown}: cannot read: {getattr(exc, 'strerror', None) or exc}") from None
    try:
        raw = parse_mat(text)
    except RecordError as exc:
        raise UsageError(f"{shown}: {exc}") from None
    check = verify_dice(raw)
    if not check.ok:
        sys.stderr.write(f"{shown}: {check.line}\n")
        return 1
    print(check.line)
    return 0
