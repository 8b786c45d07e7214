"""`bgboard moves POSITION_ID|XGID [DICE] [--json]`: every distinct legal move of a position and roll.

The position is a GNU Backgammon Position ID with the player on roll to move, or an XGID
(controller.engine.xgid: XG users paste those; its dice serve when DICE is left out);
each move is printed in gnubg's notation with the Position ID after it, still seen by the
player who moved (as gnubg lists its moves), and the XGID after it (the opponent on turn,
not rolled yet; the player on roll of a Position ID is XG's bottom player). Bad IDs, a
finished position (a side with no checkers left) and bad dice are usage errors (exit 2).
"""
from __future__ import annotations

import argparse
import json

from dataclasses import replace

from controller.engine import InvalidDiceError, InvalidPositionError, Position, legal_moves, parse_dice
from controller.engine.board_view import other
from controller.engine.xgid import Xgid
from controller.errors import UsageError

HELP = "list every legal move of a position and roll"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("position_id", metavar="POSITION_ID",
                        help="GNU Backgammon Position ID, e.g. 4HPwATDgc/ABMA (the start), or an XGID, "
                             "e.g. XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:5:10")
    parser.add_argument("dice", metavar="DICE", nargs="?", help="the roll, e.g. 31 or 3-1 (an XGID's own by default)")
    parser.add_argument("--json", action="store_true",
                        help='one JSON object: {"moves": [{"notation": ..., "position_id": ..., "xgid": ...}]}')


def run(args: argparse.Namespace) -> int:
    try:
        given = _read(args.position_id)
        if given.position.game_problem() is not None:
            Position.for_play(given.position.id)  # raises: a game already over
        if args.dice is None and given.dice is None:
            raise UsageError("no DICE given and the XGID has none rolled")
        dice = parse_dice(args.dice) if args.dice is not None else given.dice
        assert dice is not None
    except (InvalidPositionError, InvalidDiceError) as exc:
        raise UsageError(str(exc)) from None
    moves = [(m.notation, m.result.id, str(replace(given, position=m.result.swap(), turn=other(given.turn),
                                                   dice=None, doubled=False)))
             for m in legal_moves(given.position, dice)]
    if args.json:
        print(json.dumps({"moves": [{"notation": n, "position_id": pid, "xgid": xgid} for n, pid, xgid in moves]}))
        return 0
    if not moves:
        print(f"no legal move for {dice[0]}-{dice[1]}")
    width = max((len(n) for n, _, _ in moves), default=0)
    for notation, pid, xgid in moves:
        print(f"{notation:<{width}}  {pid}  {xgid}")
    return 0


def _read(text: str) -> Xgid:
    """A Position ID (the player on roll is XG's bottom player, White) or an XGID."""
    if ":" in text or text[:5].upper() == "XGID=":
        return Xgid.parse(text)
    return Xgid(Position.from_id(text), "white")
