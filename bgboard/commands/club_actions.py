"""What `bgboard club`'s short actions do: load the club's directory, change it through
`club.state.night` (one line and nothing saved when it refuses), save it, print a line."""
from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from club.archive import night_archive
from club.hub.http_client import HttpBoardClient
from club.hub.hub import Hub, utc_now
from club.report import result_lines, rows
from club.state import night, store
from club.state.model import Kind
from club.tournament.model import RoundRules
from controller.errors import BgboardError, UsageError
from controller.files import write_atomically
from controller.outside_text import printable


def init(directory: Path, name: str) -> int:
    store.create(directory, name)
    print(f"a club in {printable(str(directory))}: bgboard club player add NAME... --dir {printable(str(directory))}")
    return 0


def start(directory: Path, kind: Kind, rules: tuple[RoundRules, ...], rounds: int | None, seed: int) -> int:
    state = night.start(store.load(directory), kind, rules, rounds, seed)
    store.save(directory, state)
    tournament = state.tournaments[-1]
    print(f"{kind} of {len(tournament.players)} players, {tournament.rounds_planned} rounds; round 1:")
    for pairing in tournament.rounds[0].pairings:
        print(f"  {pairing.match_id}: {printable(pairing.white)} (White) v {printable(pairing.black)} (Black)")
    for bye in tournament.rounds[0].byes:
        print(f"  bye: {printable(bye)}")
    return 0


def other(args: argparse.Namespace) -> int:
    directory: Path = args.dir
    action = args.club_command
    if action == "player":
        state = store.load(directory)
        for name in args.names:  # all or none: one refused name saves nothing
            state = night.add_player(state, name)
        store.save(directory, state)
        print(f"{len(state.players)} players: {', '.join(printable(p) for p in state.players)}")
    elif action == "board" and args.board_command == "find":
        _print_found(args.seconds)
    elif action == "board":
        board = asyncio.run(Hub(directory, HttpBoardClient).pair(args.link, args.code))
        print(f"paired {printable(board.name)} ({board.address})")
    elif action == "standings":
        _print_standings(directory)
    elif action == "results":
        for line in result_lines(store.load(directory)):
            print(printable(line))
    elif action == "result":
        state = night.correct(store.load(directory), args.match_id, args.winner, args.reason, utc_now())
        store.save(directory, state)
        print(f"{printable(args.match_id)}: {printable(args.winner)} won (corrected: {printable(args.reason)})")
    else:
        try:
            write_atomically(args.out, night_archive(store.load(directory)))
        except OSError as exc:
            raise BgboardError(f"cannot write {args.out}: {exc.strerror or exc}") from None
        print(f"wrote {printable(args.out)}")
    return 0


def _print_standings(directory: Path) -> None:
    state = store.load(directory)
    if not state.tournaments:
        sys.stderr.write("no tournament yet: bgboard club swiss|knockout\n")
    for tournament in state.tournaments:
        head, body = rows(state, tournament)
        print("  ".join(head[1:]))
        for row in body:
            print("  ".join(printable(cell) for cell in row[1:]))


def _print_found(seconds: float) -> None:
    from club.hub.discovery import find_boards

    if not 0 < seconds <= 60:
        raise UsageError("--seconds is more than 0 and at most 60")
    try:
        found = asyncio.run(find_boards(seconds))
    except OSError as exc:
        raise BgboardError(f"cannot listen for boards on this network: {exc.strerror or exc}") from None
    if not found:
        sys.stderr.write("no board announced itself (club_announce = true in its config.toml)\n")
    for board in found:
        print(f"{printable(board.name)}  {board.address}  (pair: bgboard club board pair {board.address} CODE)")
