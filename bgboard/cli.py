"""The `bgboard` command line.

Every subcommand lives in its own module under `bgboard.commands` and is imported
only when chosen, so `bgboard moves` never loads pyserial, aiohttp or Pillow.
A command module provides `HELP: str`, `add_arguments(parser)` and `run(args) -> int`.

Exit codes (DESIGN.md): 0 success, 1 runtime error, 2 usage error; one line on stderr,
never a traceback for a user's mistake.
"""
from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Sequence
from types import ModuleType

from controller.errors import BgboardError, OneLineParser, UsageError
from controller.outside_text import printable

#: subcommand name -> module in bgboard.commands
COMMANDS: dict[str, str] = {
    "moves": "moves",
    "replay": "replay",
    "analyze": "analyze",
    "monitor": "monitor",
    "sim": "sim",
    "run": "run",
    "bench": "bench",
    "selftest": "selftest",
    "calibrate": "calibrate",
    "online": "online",
    "verify-dice": "verify_dice",
    "club": "club",
}

_HELP_FALLBACK = {
    "moves": "list every legal move of a position and roll",
    "replay": "check recorded matches (.mat) move by move",
    "analyze": "GNU Backgammon's analysis of recorded matches: errors, marks, PR, luck",
    "monitor": "print what the sensor board reports, live",
    "sim": "the simulator: the virtual board in a browser",
    "run": "play on the real board (Raspberry Pi)",
    "bench": "speed and memory figures of this machine",
    "selftest": "bring-up checks of a board, step by step",
    "calibrate": "measure settling time and flicker, write the local profile",
    "online": "play on bgammon.org from the board",
    "verify-dice": "recompute a record's verifiable dice from its revealed seed",
    "club": "a club night's hub: players, boards, a Swiss or knockout, the room's page",
}


_Parser = OneLineParser


def _load(name: str) -> ModuleType | None:
    """The command's module, or None when it is missing from this install."""
    try:
        return importlib.import_module(f"bgboard.commands.{COMMANDS[name]}")
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith("bgboard.commands"):
            return None
        raise


def version() -> str:
    """The installed package's version (pyproject.toml's), as `bgboard --version` prints it."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("bgboard")
    except PackageNotFoundError:
        return "(not installed)"


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    parser = _Parser(prog="bgboard", description="bgboard: an electronic backgammon board")
    parser.add_argument("--version", action="version", version=f"bgboard {version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMANDS:
        module = _load(name) if only in (None, name) else None
        help_text = getattr(module, "HELP", None) or _HELP_FALLBACK[name]
        sp = sub.add_parser(name, help=help_text, description=help_text)
        if module is not None:
            module.add_arguments(sp)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    chosen = next((a for a in args_list if not a.startswith("-")), None)
    parser = build_parser(chosen if chosen in COMMANDS else None)
    args = parser.parse_args(args_list)
    if args.command is None:  # the one-line rule: a usage error is one line on stderr
        sys.stderr.write(f"bgboard: error: name a command ({', '.join(COMMANDS)}); bgboard --help says more\n")
        return 2
    module = _load(args.command)
    _set_up_logging(args.command)
    if module is None:
        sys.stderr.write(f"bgboard {args.command}: not available in this version\n")
        return 1
    try:
        return int(module.run(args) or 0)
    except UsageError as exc:
        sys.stderr.write(f"bgboard {args.command}: error: {printable(str(exc))}\n")
        return 2
    except BgboardError as exc:
        sys.stderr.write(f"bgboard {args.command}: {printable(str(exc))}\n")
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader went away (`bgboard moves ... | head`): stop quietly, as Unix tools do
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


#: the long-running commands log to stderr (the journal, under systemd), at this level
LOG_LEVELS = {"run": logging.INFO, "sim": logging.WARNING, "club": logging.INFO}


def _set_up_logging(command: str) -> None:
    """One line per record on stderr for `run` and `sim`: a failed save, a damaged saved
    match set aside, a board that went away. Other commands print their own lines."""
    level = LOG_LEVELS.get(command)
    if level is not None and not logging.getLogger().handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(_OneLine(f"bgboard {command}: %(levelname)s: %(message)s"))
        logging.basicConfig(level=level, handlers=[handler])


class _OneLine(logging.Formatter):
    """Every log record as one line of its own: a newline or a terminal escape in outside
    text (the board's, a server's, a file name) is escaped, so no line can be forged."""

    def format(self, record: logging.LogRecord) -> str:
        return printable(super().format(record))


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
