"""A restarted table plays on from its own saved match, not from the server's board.

After `bgboard online` is stopped (even by kill -9) and started again, the session rejoins
the server match (`session.SavedOnline`), and the server sends its board: the board *now*,
with the steps the remote player has taken so far in a turn they are in the middle of.
Playing on from that board lost bgboard's own record of the game (the match history) and
refused the remote player's move when their turn ended ("no legal 6-5 move reaches the
position the server shows": the move was checked from the board half-way through it).

The table's own saved match (the online directory's `TableStore`, saved at every confirmed
action) is the last confirmed position. When it is the server's game (same length, score,
cube, side on turn) and the server's board is that position, or one some legal prefix of
the turn's steps reaches, the table plays on from the saved match with the server's dice:
the remote player's turn in progress is then read from the server's events as the move
from that position, as if nothing had happened. Otherwise the server's state is all there
is (`server_match.match_from_state`).

Killed right after the remote player's turn ended (their `ok`), before the table had
counted their move, the saved match is still at their turn while the server is at ours
(issue 35.2: the server's position was taken, and 21 of 59 turns of the record were
lost). When the server's board is a complete legal move of that turn's dice (of the only
roll that reaches it, when the table had not seen their roll yet), the table plays on from
the saved match at their move, and the opponent reads the server's board as that move
(`RemoteOpponent.took_up`), then our dice.
"""
from __future__ import annotations

from dataclasses import replace

from controller.engine.match import Match
from controller.engine.turn import TurnPlan
from controller.online.events import GameState
from controller.online.facts import LOCAL, REMOTE
from controller.online.perspective import Seat, position_of_board

#: every roll, as unordered dice (the engine's turn is the same either way round)
ROLLS: list[tuple[int, int]] = [(high, low) for high in range(1, 7) for low in range(1, high + 1)]


def resumed_match(saved: Match | None, state: GameState, fresh: Match) -> Match:
    """The match to play on: `saved` brought to the server's dice when it is the server's
    game at its last confirmed position (see the module docstring), else `fresh` (the
    server's state as `match_from_state` reads it)."""
    if saved is None:
        return fresh
    passed = _their_turn_passed(saved, state, fresh)
    if passed is not None:
        return passed
    if not _same_game(saved, fresh):
        return fresh
    if fresh.phase in ("opening", "roll", "doubled"):
        return saved if saved.phase == fresh.phase and saved.position == fresh.position else fresh
    if fresh.phase != "move" or fresh.dice is None or saved.phase not in ("roll", "move"):
        return fresh
    if saved.phase == "move" and sorted(saved.dice or ()) != sorted(fresh.dice):
        return fresh
    mover: Seat = "local" if fresh.turn == LOCAL else "remote"
    now = position_of_board(state.board, mover)
    if not TurnPlan(saved.position, fresh.dice).is_partial(now):
        return fresh
    return replace(saved, phase="move", dice=fresh.dice, steps=(), partial=saved.position)


def _their_turn_passed(saved: Match, state: GameState, fresh: Match) -> Match | None:
    """`saved` at the remote player's move when the server has passed their turn to us with
    the board a complete legal move of theirs from it (see the module docstring)."""
    if not (saved.turn == REMOTE and fresh.turn == LOCAL and saved.phase in ("roll", "move")
            and fresh.phase in ("roll", "move") and _same_game(saved, fresh, turn=False)):
        return None
    after = position_of_board(state.board, "remote")
    rolls = [saved.dice] if saved.phase == "move" and saved.dice is not None else ROLLS
    fits = [dice for dice in rolls if TurnPlan(saved.position, dice).is_complete(after)]
    if len(fits) != 1:
        return None  # not their move from the saved position, or which roll it was cannot be told
    return replace(saved, phase="move", dice=fits[0], steps=(), partial=saved.position)


def _same_game(saved: Match, fresh: Match, *, turn: bool = True) -> bool:
    return (not saved.is_over and saved.length == fresh.length and saved.score == fresh.score
            and saved.cube == fresh.cube and saved.cube_owner == fresh.cube_owner
            and (saved.turn == fresh.turn or not turn)
            and saved.settings.black_player == fresh.settings.black_player)
