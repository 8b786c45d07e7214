"""What is worth saying aloud right now: the latest event of the match a player must not
miss, as message keys of `controller.show.texts` (so the display and the simulator page say
it in the match's language).

Read from the match alone (its history and phase), so an announcement stays exactly until
the next action changes what is latest: a won game until the next opening roll, the
opening roll's dice until the first move is played, the computer's double, take or drop
until the game goes on. An opening tie leaves no trace in the match; the caller passes the
tied die it saw (`tie`), and forgets it at the next action.
"""
from __future__ import annotations

from collections.abc import Collection

from controller.engine.board_view import Colour, other
from controller.engine.match import Match
from controller.engine.match_history import CubeRecord, GameEnd, TurnRecord
from controller.engine.position import Position
from controller.show.content import Prompt


def announcements(match: Match, computer: Collection[Colour] = (), tie: int | None = None) -> tuple[Prompt, ...]:
    """The announcements for `match` now, in the order they happened, so the outcome comes
    last ("White drops", then "Black wins on a drop"; the game, then the match): the page
    reads them top down, the display shows the last (empty when there is none).
    `computer` names the sides a computer plays (their cube actions are announced)."""
    if match.phase == "over" and match.winner is not None:
        return _match_end(match)
    if match.phase == "opening":
        return _before_opening_roll(match, tie)
    if not match.history:
        return ()
    game = match.history[-1]
    if match.phase == "move" and not any(isinstance(a, TurnRecord) for a in game.actions):
        opening = opening_roll(match)
        return () if opening is None else (opening,)
    last = game.actions[-1] if game.actions else None
    if isinstance(last, CubeRecord) and last.side in computer and last.action in ("double", "take"):
        key = "double_offered" if last.action == "double" else "double_taken"
        return (Prompt.of(key, side=last.side, value=last.value),)
    return ()


def _before_opening_roll(match: Match, tie: int | None) -> tuple[Prompt, ...]:
    """A tie just rolled, or the game that has just been won."""
    if tie is not None:
        return (Prompt.of("opening_tie", dice=(tie, tie)),)
    if len(match.history) > 1 and not match.history[-1].actions:
        end = match.history[-2].end
        return () if end is None else _game_end(end)
    return ()


def opening_roll(match: Match) -> Prompt | None:
    """While the opening roll is being played: who starts and with which dice, the higher
    first (RULES.md "Who starts": the higher die starts and plays both dice showing). The
    match keeps them as White's die, then Black's; the display and the page say them as the
    starter plays them. None at any other moment (a game started from a set position too)."""
    if match.phase != "move" or match.dice is None or match.turn is None or not match.history \
            or match.position != Position.initial() \
            or any(isinstance(a, TurnRecord) for a in match.history[-1].actions):
        return None
    white, black = match.dice
    return Prompt.of("opening_won", side=match.turn, dice=(max(white, black), min(white, black)))


def _match_end(match: Match) -> tuple[Prompt, ...]:
    assert match.winner is not None
    score = {"score_white": match.score[0], "score_black": match.score[1]}
    won = Prompt.of("match_won", side=match.winner, **score)
    if match.end == "time":
        return (Prompt.of("time_out", side=other(match.winner)), won)
    if match.end == "forfeit":
        return (Prompt.of("forfeit", side=other(match.winner)), won)
    end = match.history[-1].end if match.history else None
    return (won,) if end is None else (*_game_end(end), won)


def _game_end(end: GameEnd) -> tuple[Prompt, ...]:
    if end.how == "drop":
        return (Prompt.of("double_dropped", side=other(end.winner)),
                Prompt.of("game_won_drop", side=end.winner, points=end.points))
    if end.how == "resign":
        return (Prompt.of("game_won_resign", side=end.winner, points=end.points),)
    if end.how in ("time", "forfeit"):
        return ()  # the match is over: _match_end says it
    return (Prompt.of("game_won", side=end.winner, result=end.result or "single", points=end.points),)
