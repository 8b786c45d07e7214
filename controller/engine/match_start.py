"""Where a match can start: a set score, and whether its Crawford game has been played.

A match resumed from a score (a club match carried over to the board, a scenario) must
know whether the Crawford game is still to come (RULES.md "Doubling cube": the one game
right after a player first reaches match point has no doubling). Often the score says
it; where it does not, the players do:

- nobody at match point: the Crawford game is still to come (it is not this game);
- both at match point: it has necessarily been played (whoever reached match point first
  had it, and the other has won since);
- one at match point and the other on 0: not yet played, this game is the Crawford game
  (had it been played, the player behind would have won it and scored);
- one at match point and the other with points: either. Unless told, this game is taken
  to be the Crawford game, the usual case of a score just reached.

A match without the Crawford rule, or to 1 point, has no Crawford game at all.
"""
from __future__ import annotations

from controller.engine.errors import MatchStateError


#: how a player answers "has the Crawford game been played?" (script, command line, page);
#: ``auto`` (or nothing) leaves it to the score
CRAWFORD_PLAYED: dict[str, bool | None] = {"yes": True, "no": False, "auto": None}


def parse_score(text: str) -> tuple[int, int]:
    """`2-1` (White's points, then Black's) as a pair; MatchStateError for anything else."""
    a, sep, b = text.strip().partition("-")
    if not (sep and a.isdigit() and b.isdigit()):
        raise MatchStateError(f"score must look like 2-1 (white-black), not {text!r}")
    return int(a), int(b)


def parse_crawford_played(text: str) -> bool | None:
    """`yes`, `no` or `auto` (inferred from the score) as True, False or None."""
    if text not in CRAWFORD_PLAYED:
        raise MatchStateError(f"crawford_played must be yes, no or auto, not {text!r}")
    return CRAWFORD_PLAYED[text]


def check_score(length: int, score: tuple[int, int]) -> None:
    """A score a game of a match to `length` can start at: whole numbers, nobody at the
    length yet (MatchStateError with one line otherwise)."""
    for points in score:
        if isinstance(points, bool) or not isinstance(points, int) or points < 0:
            raise MatchStateError(f"bad score {score[0]}-{score[1]}: whole numbers of points, 0 or more")
    if max(score) >= length:
        raise MatchStateError(f"score {score[0]}-{score[1]} is already past a {length}-point match")


def crawford_answers(length: int, score: tuple[int, int], rule: bool = True) -> frozenset[bool]:
    """Which answers to "has the Crawford game been played?" this score allows."""
    if not rule or length <= 1:
        return frozenset({False})
    at_point = [points == length - 1 for points in score]
    if not any(at_point):
        return frozenset({False})
    if all(at_point):
        return frozenset({True})
    behind = score[1] if at_point[0] else score[0]
    return frozenset({False}) if behind == 0 else frozenset({False, True})


def crawford_state(length: int, score: tuple[int, int], rule: bool = True,
                   played: bool | None = None) -> tuple[bool, bool]:
    """(this game is the Crawford game, the Crawford game has been reached) at `score`.

    `played` is what the players say (None: not said, inferred where only one answer is
    possible, else "not yet"); an answer the score rules out is a MatchStateError naming
    why."""
    check_score(length, score)
    answers = crawford_answers(length, score, rule)
    shown = f"{score[0]}-{score[1]}"
    if played is not None and played not in answers:
        if not rule:
            why = "the Crawford rule is off in this match"
        elif length <= 1:
            why = "a 1-point match has no Crawford game"
        elif played and max(score) < length - 1:
            why = f"nobody has reached match point ({length - 1}) yet"
        elif played:
            why = "the player behind has no points, so has not won a Crawford game"
        else:
            why = "both players are at match point, so it has been played"
        raise MatchStateError(f"score {shown} of a {length}-point match: the Crawford game cannot "
                              f"{'have been played' if played else 'still be to come'}: {why}")
    has_been = played if played is not None else (answers == frozenset({True}))
    crawford = rule and length > 1 and not has_been and max(score) == length - 1
    return crawford, crawford or has_been


__all__ = ["CRAWFORD_PLAYED", "check_score", "crawford_answers", "crawford_state", "parse_crawford_played",
           "parse_score"]
