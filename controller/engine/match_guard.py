"""Why a match command is refused now: the phase and turn checks every command makes,
in one line for the log and a reason key (with its parameters) for the players' texts."""
from __future__ import annotations

from controller.engine.board_view import Colour, other
from controller.engine.errors import MatchStateError, ReasonParam
from controller.engine.match_state import MatchState, Phase


def need_phase(m: MatchState, action: str, *phases: Phase) -> None:
    """Refuse `action` unless the match is in one of `phases`, saying what it waits for."""
    if m.phase not in phases:
        key, params = moment(m)
        raise MatchStateError(f"cannot {action} now: {describe(m)}", key, **params)


def need_turn(m: MatchState, side: Colour, action: str) -> None:
    """Refuse `action` by `side` unless it is their turn."""
    if side != m.turn:
        raise MatchStateError(f"{side} cannot {action}: it is {m.turn}'s turn", "not_your_turn",
                              side=m.turn or other(side))


def moment(m: MatchState) -> tuple[str, dict[str, ReasonParam]]:
    """What the match waits for now, as a reason key and its parameters (`describe`'s
    words for the players)."""
    turn = m.turn or "white"
    if m.phase == "opening":
        return "phase_opening", {"n": m.game}
    if m.phase == "roll":
        return "phase_roll", {"side": turn}
    if m.phase == "doubled":
        return "phase_doubled", {"side": other(turn)}
    if m.phase == "move":
        return "phase_move", {"side": turn, "dice": tuple(m.dice or ())}
    if m.phase == "resigning":
        return "phase_resigning", {"side": other(turn), "result": m.resign_level or "single"}
    return "phase_over", {"side": m.winner or turn}


def describe(m: MatchState) -> str:
    """What the match waits for now, for the log."""
    if m.phase == "opening":
        return f"game {m.game} waits for the opening roll"
    if m.phase == "roll":
        return f"{m.turn} is to roll"
    if m.phase == "doubled":
        return f"{other(m.turn)} must take or drop the double"  # type: ignore[arg-type]
    if m.phase == "move":
        return f"{m.turn} is moving {m.dice[0]}-{m.dice[1]}"  # type: ignore[index]
    if m.phase == "resigning":
        return f"{other(m.turn)} must accept or decline the {m.resign_level} resignation"  # type: ignore[arg-type]
    return f"the match is over, {m.winner} won"
