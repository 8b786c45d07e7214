"""The display's prompt line: what the board says to the players at this moment.

A pure function of the match and a few facts of the table (`PromptFacts`), so every
screen's words can be derived in a test from values alone. Highest first: what the table
lays over the game (a hint being shown, the open menu, a board that is not right), a
reading to confirm, the board being set up, an announcement (a won game, an opening tie,
the computer's take), the tutor's warning about an action it holds, then the phase's own line: the opening roll, a clock running out,
a move being carried out for the computer or a remote player, and each phase's question.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from controller.engine.board_view import other
from controller.engine.match import Match, Phase
from controller.play.status import BotPlan
from controller.show.announce import opening_roll
from controller.show.content import Prompt


@dataclass(frozen=True)
class PromptFacts:
    """What the prompt depends on besides the match.

    `overlay` is what the table lays over the game (a hint shown, the open menu's line, a
    banner about the board), `confirm` the notation of an ambiguous reading the player is
    asked about, `announcement` a moment said until the next action, `commitment` the
    short commitment of verifiable dice not yet revealed, `carried_out` the move shown on
    the LEDs for the computer (`by_remote`: for a remote player), `tutor` the tutor's
    warning about the move or cube action it holds back (controller.play.tutor)."""

    match: Match
    now: float
    overlay: Prompt | None = None
    confirm: str | None = None
    setting_up: bool = False
    announcement: Prompt | None = None
    commitment: str | None = None
    carried_out: BotPlan | None = None
    by_remote: bool = False
    tutor: Prompt | None = None


def phase_prompt(facts: PromptFacts) -> Prompt | None:
    """The prompt line now (see the module docstring)."""
    if facts.overlay is not None:
        return facts.overlay
    if facts.confirm is not None:
        return Prompt.of("confirm_move", notation=facts.confirm)
    if facts.setting_up:
        return Prompt.of("setup")
    if facts.announcement is not None:
        return facts.announcement
    if facts.tutor is not None:
        return facts.tutor
    m = facts.match
    if m.phase == "opening":
        return _opening(m, facts.commitment)
    if m.turn is None and m.phase != "over":  # a match forfeited before its first roll is over too
        return None
    return _time_warning(facts) or _carrying(facts) or _BY_PHASE[m.phase](facts)


def _opening(m: Match, commitment: str | None) -> Prompt:
    if m.crawford:
        return Prompt.of("crawford")
    if commitment is not None:
        return Prompt.of("opening_roll_verifiable", code=commitment)
    return Prompt.of("opening_roll")


def _time_warning(facts: PromptFacts) -> Prompt | None:
    m = facts.match
    reading = m.clock_reading(facts.now)
    if reading is None or not reading.warning or m.turn is None or reading.running != m.turn \
            or m.phase == "over":
        return None
    return Prompt.of("time_warning", side=m.turn)


def _carrying(facts: PromptFacts) -> Prompt | None:
    plan = facts.carried_out
    if plan is None:
        return None
    opening = opening_roll(facts.match)
    if opening is not None:  # who starts with which dice, and the move to carry out for them
        if facts.by_remote:
            return Prompt.of("remote_opening", **opening.as_dict(), notation=plan.move.notation)
        return Prompt.of("computer_opening", dice=opening.as_dict()["dice"], notation=plan.move.notation)
    if facts.by_remote:
        return Prompt.of("remote_move", side=plan.side, notation=plan.move.notation)
    return Prompt.of("computer_move", notation=plan.move.notation)


def _roll(facts: PromptFacts) -> Prompt | None:
    side = facts.match.turn
    if side is None:
        return None
    return Prompt.of("roll_or_double" if facts.match.may_double(side) else "roll", side=side)


def _doubled(facts: PromptFacts) -> Prompt | None:
    m = facts.match
    return None if m.turn is None else Prompt.of("double_offered", side=m.turn, value=m.cube * 2)


def _move(facts: PromptFacts) -> Prompt | None:
    m = facts.match
    if m.dice is None or m.turn is None:
        return None
    if not m.move_complete:  # the opening roll's move says who starts, dice the higher first
        return opening_roll(m) or Prompt.of("move", side=m.turn, dice=tuple(m.dice))
    return Prompt.of("done", side=m.turn)


def _resigning(facts: PromptFacts) -> Prompt | None:
    m = facts.match
    if not m.resign_level or m.turn is None:
        return None
    return Prompt.of("resign_offered", side=m.turn, result=m.resign_level)


def _over(facts: PromptFacts) -> Prompt | None:
    m = facts.match
    if m.winner is None:
        return None
    if m.rematch_offer is not None:
        return Prompt.of("rematch", side=m.rematch_offer)
    if m.end == "time":
        return Prompt.of("time_out", side=other(m.winner))
    if m.end == "forfeit":
        return Prompt.of("forfeit", side=other(m.winner))
    return Prompt.of("match_won", side=m.winner, score_white=m.score[0], score_black=m.score[1])


_BY_PHASE: dict[Phase, Callable[[PromptFacts], Prompt | None]] = {
    "roll": _roll, "doubled": _doubled, "move": _move, "resigning": _resigning, "over": _over,
    "opening": lambda facts: _opening(facts.match, facts.commitment),
}
