"""What a record says of each game's result, held against what its moves show.

The reader (`mat_reader`) works every result out from the board and the cube, never from
the file; this module then checks what the file states: each `Wins N points` line must be
the points the game gives (result x cube), or, in the game that ends the match, what the
sites write there (`stated_agrees`). The score line of every game header is checked by the
reader against the games before it. A mismatch names the game and
the move of the line (`game 4 move 23: 'Wins 2 points', but the game gives 1 point`).
"""
from __future__ import annotations

from controller.engine.wording import counted
from controller.records.mat_reader import Problem, RawMatch
from controller.records.model import Game, MatchRecord

_LEVELS = ("single game", "gammon", "backgammon")


def _what(game: Game) -> str:
    """How the game ended, in words: `a gammon at cube 2`, `a dropped double at cube 4`."""
    if game.end == "drop":
        return f"a dropped double, cube {game.cube} before it" if game.cube > 1 else "a dropped double"
    level = _LEVELS[max(1, min(3, game.result_level)) - 1]
    resigned = "a resigned " if game.end == "resign" else "a "
    return f"{resigned}{level} at cube {game.cube}"


def stated_agrees(stated: int, game: Game, length: int) -> bool:
    """Whether `Wins stated` fits a finished game of a match to `length` (RULES.md "End of
    a game and scoring", and how the sites write the game that ends a match):

    - the points on the board (result x cube), always;
    - in the game that wins the match, the points that were still needed, or the match
      length when the board gave more (BackgammonGalaxy caps `Wins N` so);
    - a resignation of at least the points still needed: the whole match given up
      (Galaxy writes the points needed, Backgammon Studio a large number such as 4016).
    """
    assert game.winner is not None
    if stated == game.points or not length:
        return stated == game.points
    needed = length - game.score[game.winner]
    if game.points >= needed and stated in (needed, min(game.points, length)):
        return True
    return game.end == "resign" and stated >= needed


def stated_result_problem(raw: RawMatch, record: MatchRecord) -> Problem | None:
    """The first game whose `Wins N` line disagrees with what happened, else None."""
    for written, game in zip(raw.games, record.games):
        if game.winner is None:
            continue
        for entry in written.entries:
            if entry.kind == "wins" and not stated_agrees(entry.number, game, record.length):
                return Problem(written.number, entry.move,
                               f"{entry.text!r}, but the game gives {counted(game.points, 'point')} "
                               f"({_what(game)})", entry.line)
    return None


__all__ = ["stated_agrees", "stated_result_problem"]
