"""The `simple` level's cube and resignation rules: pip counts, like the seeds' app.

Cube: Trice's "8-9-12" race rule of thumb, applied to the pip counts of any position
(the seeds' app also doubles by pip count alone, "not an expert analysis"):
- the player on roll doubles when their pip lead is at least 8% of their own count
  (9% when redoubling, i.e. when they already own the cube), and
- the opponent takes unless they are behind by more than 12% of the doubler's count.
Match-aware just enough not to waste the cube: nobody doubles in the Crawford game or
with a cube already worth the match (`MatchContext.bot_may_double`); after Crawford the
trailer doubles at once and the leader, who loses nothing by it, always takes.
"""
from __future__ import annotations

from controller.analysis.match_context import MatchContext
from controller.engine import Position

DOUBLE_LEAD = 0.08
REDOUBLE_LEAD = 0.09
TAKE_LIMIT = 0.12


def pip_lead(position: Position) -> float:
    """The player on roll's lead as a fraction of their own pip count (negative if behind)."""
    mine, theirs = position.pips()
    return (theirs - mine) / max(mine, 1)


def is_post_crawford_trailer(context: MatchContext) -> bool:
    """The computer trails after the Crawford game: the opponent is 1 away, it is not."""
    return (not context.is_money and not context.crawford
            and context.opponent_away == 1 and context.bot_away > 1)


def should_double_by_pips(position: Position, context: MatchContext) -> bool:
    """The computer (on roll) doubles by the 8-9-12 rule; see the module docstring."""
    if not context.bot_may_double():
        return False
    if is_post_crawford_trailer(context):
        return True
    need = REDOUBLE_LEAD if context.owner == "bot" else DOUBLE_LEAD
    return pip_lead(position) >= need


def should_take_by_pips(position: Position, context: MatchContext) -> bool:
    """Take unless the doubler (on roll in `position`) leads by more than 12%."""
    if not context.is_money and context.bot_away == 1 and not context.crawford:
        return True  # the leader after Crawford: a take costs nothing the drop would not
    return pip_lead(position) <= TAKE_LIMIT


def gammon_threat(resigner: Position) -> int:
    """How much the resigner (on roll) might still lose: 1, 2 (gammon) or 3 (backgammon)."""
    if sum(resigner.mine) < 15:
        return 1  # a checker is off: no gammon
    in_winner_home = sum(resigner.mine[18:25])  # resigner's points 19..24 and bar
    return 3 if in_winner_home else 2


def accepts_resignation_by_race(resigner: Position, level: int) -> bool:
    """Accept when the offer is at least what the resigner might still lose, or when
    the computer is behind in the race (then any offer is a gift)."""
    if level >= gammon_threat(resigner):
        return True
    return pip_lead(resigner) > 0  # the resigner leads the race: take the point now
