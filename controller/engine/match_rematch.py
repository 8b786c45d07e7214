"""After the match (RULES.md "Match"): a rematch is offered by one side and starts when
the other accepts, with the colours (names and players) swapped."""
from __future__ import annotations

from dataclasses import replace

from controller.engine.board_view import Colour, other
from controller.engine.errors import MatchStateError
from controller.engine.match_events import RematchDeclined, RematchOffered, RematchStarted
from controller.engine.match_guard import need_phase
from controller.engine.match_state import M, MatchState, Outcome


def rematch(m: M, side: Colour) -> Outcome[M]:
    """Offer a rematch, or accept the other side's offer, which starts a new match with
    the colours swapped."""
    need_phase(m, "ask for a rematch", "over")
    if m.rematch_offer == side:
        raise MatchStateError(f"{side} has already offered a rematch; {other(side)} must answer",
                              "answers_rematch", side=other(side))
    if m.rematch_offer is None:
        return replace(m, rematch_offer=side), (RematchOffered(side),)
    settings = m.settings.swapped()
    return type(m).new(settings), (RematchStarted(settings.player_name("white"), settings.player_name("black")),)


def _need_offer(m: MatchState, side: Colour, action: str) -> None:
    if m.rematch_offer is None or m.rematch_offer == side:
        raise MatchStateError(f"{side} cannot {action}: no rematch offered by {other(side)}", "no_rematch_offer",
                              side=other(side))


def accept(m: M, side: Colour) -> Outcome[M]:
    """Accept the other side's rematch: the new match starts."""
    _need_offer(m, side, "accept")
    return rematch(m, side)


def decline(m: M, side: Colour) -> Outcome[M]:
    """Decline the other side's rematch."""
    _need_offer(m, side, "decline")
    return replace(m, rematch_offer=None), (RematchDeclined(side),)
