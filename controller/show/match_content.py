"""What the display shows of a match: dice, cube, score, pips and clocks.

One function from a match (and the time, for its clocks) to the display's content, used
by the controller for the table's own match and by the online spectator for a match it
only watches.
"""
from __future__ import annotations

from collections.abc import Mapping

from controller.engine.board_view import COLOURS, Colour, CubeOwner, cube_owner, other
from controller.engine.match import Match
from controller.show.content import ClockView, DisplayContent, MoveTimerView, TournamentClockView


def offered_cube(m: Match) -> tuple[int, CubeOwner]:
    """The cube as it stands: while a double waits for its answer it is turned to the new
    value and stands before the doubled side (the match's cube changes only on a take)."""
    if m.phase == "doubled" and m.turn is not None:
        return m.cube * 2, other(m.turn)
    return m.cube, cube_owner(m.cube_owner)


def match_content(m: Match, now: float, pips: Mapping[Colour, int] | None = None) -> DisplayContent:
    """The display's content for `m` at `now` (no hints, no prompt: the scene adds them);
    `pips` in place of the match's (a move standing on the board, not yet in the match)."""
    shown = m.pips() if pips is None else pips
    clocks: dict[str, ClockView | None] = {"white": None, "black": None}
    reading = m.clock_reading(now)
    if reading is not None:
        for side in COLOURS:
            r = reading.side(side)
            warn = reading.warning and reading.running == side
            clocks[side] = (MoveTimerView(max(0.0, r.allowance), max(0.0, r.bank), warn)
                            if reading.mode == "timer" else
                            TournamentClockView(max(0.0, r.allowance), max(0.0, r.bank), warn))
    value, owner = offered_cube(m)
    return DisplayContent(
        turn=m.turn, dice=tuple(m.dice) if m.dice else (), cube_value=value,
        cube_owner=owner, cube_enabled=m.cube_enabled,
        crawford=m.crawford, score_white=m.score[0], score_black=m.score[1], match_length=m.length,
        pips_white=shown["white"], pips_black=shown["black"],
        clock_white=clocks["white"], clock_black=clocks["black"])
