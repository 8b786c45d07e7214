"""`bgboard moves POSITION_ID DICE [--json]`: every distinct legal move of a position and roll.

The position is a GNU Backgammon Position ID with the player on roll to move; each move
is printed in gnubg's notation with the Position ID after it, still seen by the player
who moved (as gnubg lists its moves). Bad IDs, a finished position (a side with no
checkers left) and bad dice are usage errors (exit 2).
"""
from __future__ import annotations

import argparse
import json

from controller.engine import InvalidDiceError, InvalidPositionError, Position, legal_moves, parse_dice
from controller.errors import UsageError

HELP = "list every legal move of a position and roll"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("position_id", metavar="POSITION_ID",
                        help="GNU Backgammon Position ID, e.g. 4HPwATDgc/ABMA (the start)")
    parser.add_argument("dice", metavar="DICE", help="the roll, e.g. 31 or 3-1")
    parser.add_argument("--json", action="store_true",
                        help='one JSON object: {"moves": [{"notation": ..., "position_id": ...}]}')


def run(args: argparse.Namespace) -> int:
    try:
        position = Position.for_play(args.position_id)  # a game not yet over
        dice = parse_dice(args.dice)
    except (InvalidPositionError, InvalidDiceError) as exc:
        raise UsageError(str(exc)) from None
    moves = [(m.notation, m.result.id) for m in legal_moves(position, dice)]
    if args.json:
        print(json.dumps({"moves": [{"notation": n, "position_id": pid} for n, pid in moves]}))
        return 0
    if not moves:
        print(f"no legal move for {dice[0]}-{dice[1]}")
    width = max((len(n) for n, _ in moves), default=0)
    for notation, pid in moves:
        print(f"{notation:<{width}}  {pid}")
    return 0
