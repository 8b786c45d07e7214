"""`bgboard club`: a club night's hub (issue 36): players, boards, a Swiss or a knockout,
the room's page, corrections and the night's archive. Everything is kept in the club's
directory (`--dir`, the current one by default): each command loads it, changes it and
saves it whole, so `serve` may run while the director adds a player elsewhere only between
rounds (the hub reloads nothing behind its back: stop it first).

    bgboard club init DIR [--name NAME]
    bgboard club player add NAME...
    bgboard club board find [--seconds S]      the boards announced on the network (mDNS)
    bgboard club board pair LINK [CODE]        the board's page link, or its address and code
    bgboard club swiss --rounds N --length 1,3 [--clock MINUTES] [--no-crawford] [--seed S]
    bgboard club knockout --length 1,3 [--clock MINUTES] [--no-crawford]
    bgboard club serve [--host H] [--port P]   the hub and the room's page
    bgboard club standings | results
    bgboard club result correct MATCH --winner NAME --reason TEXT
    bgboard club export OUT.zip

Bad input is one line and exit 2, nothing changed.
"""
from __future__ import annotations

import argparse
import asyncio
import secrets
from pathlib import Path

from club.tournament.model import Clock, RoundRules
from controller.engine.clock import DELAY_SECONDS
from controller.errors import OneLineParser, UsageError

HELP = "a club night's hub: players, boards, a Swiss or knockout, the room's page"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="club_command", metavar="ACTION", parser_class=OneLineParser, required=True)
    init = sub.add_parser("init", help="a new club directory")
    init.add_argument("directory", metavar="DIR")
    init.add_argument("--name", default="Club room", help="the hub's name, as the boards show it")
    player = sub.add_parser("player", help="players").add_subparsers(dest="player_command", required=True,
                                                                    parser_class=OneLineParser)
    _dir(player.add_parser("add", help="enter players (in seeding order)")).add_argument("names", nargs="+",
                                                                                        metavar="NAME")
    board = sub.add_parser("board", help="boards").add_subparsers(dest="board_command", required=True,
                                                                  parser_class=OneLineParser)
    find = _dir(board.add_parser("find", help="list the boards announced on this network (mDNS)"))
    find.add_argument("--seconds", type=float, default=3.0, help="how long to listen (default 3)")
    pair = _dir(board.add_parser("pair", help="pair a board with the code its display shows"))
    pair.add_argument("link", metavar="LINK", help="the board's page link, or http://HOST:PORT")
    pair.add_argument("code", metavar="CODE", nargs="?", help="the code on the board's display")
    for kind in ("swiss", "knockout"):
        start = _dir(sub.add_parser(kind, help=f"start a {kind} of every player"))
        if kind == "swiss":
            start.add_argument("--rounds", type=int, default=3)
        start.add_argument("--length", default="1", help="points per round: 1,3 (the last repeats)")
        start.add_argument("--clock", default=None, metavar="MINUTES",
                               help="a tournament clock of MINUTES each (the boards run the rule's 12 s delay)")
        start.add_argument("--no-crawford", action="store_true")
        start.add_argument("--seed", type=int, default=None, help="the lot's seed (random)")
    serve = _dir(sub.add_parser("serve", help="the hub and the room's page"))
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8090)
    serve.add_argument("--interval", type=float, default=2.0, help="seconds between two polls of the boards")
    _dir(sub.add_parser("standings", help="print the standings"))
    _dir(sub.add_parser("results", help="print the results"))
    correct = _dir(sub.add_parser("result", help="results").add_subparsers(dest="result_command", required=True,
                                                                           parser_class=OneLineParser)
                   .add_parser("correct", help="correct a result, with the reason (kept)"))
    correct.add_argument("match_id", metavar="MATCH")
    correct.add_argument("--winner", required=True)
    correct.add_argument("--reason", required=True)
    _dir(sub.add_parser("export", help="the night as one zip: records and standings.csv")).add_argument(
        "out", metavar="OUT.zip")


def _dir(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    parser.add_argument("--dir", default=".", type=Path, help="the club's directory (default: here)")
    return parser


def run(args: argparse.Namespace) -> int:
    from bgboard.commands import club_actions

    action = args.club_command
    if action == "init":
        return club_actions.init(Path(args.directory), args.name)
    if action in ("swiss", "knockout"):
        return club_actions.start(args.dir, action, rules_of(args.length, args.clock, not args.no_crawford),
                                  getattr(args, "rounds", None),
                                  secrets.randbelow(2 ** 31) if args.seed is None else args.seed)
    if action == "serve":
        from bgboard.commands.club_serve import serve

        return asyncio.run(serve(args.dir, args.host, args.port, args.interval))
    return club_actions.other(args)


def rules_of(lengths: str, clock: str | None, crawford: bool) -> tuple[RoundRules, ...]:
    """Each round's rules from `--length 1,3` and `--clock 10` (UsageError otherwise). The
    boards run the rule book's delay (controller.engine.clock), so a clock is its minutes;
    `10/12` is taken too, and any other delay refused rather than silently not run."""
    parsed_clock = None
    if clock is not None:
        minutes, slash, delay = clock.partition("/")
        if not (minutes.isdigit() and (not slash or delay.isdigit())):
            raise UsageError(f"--clock is MINUTES (10), not {clock[:20]!r}")
        if slash and int(delay) != DELAY_SECONDS:
            raise UsageError(f"--clock: the boards run the rule's {DELAY_SECONDS:g} s delay, not {int(delay)} s; "
                             f"give the minutes only")
        parsed_clock = Clock(int(minutes), int(DELAY_SECONDS))
    try:
        return tuple(RoundRules(int(n), parsed_clock, crawford) for n in lengths.split(","))
    except ValueError as exc:
        raise UsageError(f"--length: {exc}" if "points" in str(exc) or "clock" in str(exc)
                         else f"--length is points per round (1,3), not {lengths[:20]!r}") from None
