"""The `gnubg` level through the `gnubg-nn` wheel: GNU Backgammon's own neural network.

Checker play is gnubg's best move at the chosen ply, evaluated at the match score (gammons
weighed by match equity, Crawford respected); cube actions are gnubg's cube decision at the
score and cube; a resignation is accepted when its match winning chance is at least that of
playing on (cubeless, from gnubg's probabilities and its match equity table).
Money cube decisions are evaluated as at 7-away/7-away, because gnubg-nn's cube code
only knows match play: close to money in gammon value, and said here so nobody is
surprised (money checker play is gnubg's money play).

gnubg-nn keeps the score and cube in module-wide state, so every call sets them first.
Boards go to gnubg as `[opponent, player on roll]`, each 25 counts (bar last), which is
exactly `Position(theirs, mine)`; gnubg's "X" is the side not on roll, "O" the one on roll.
Where the wheel is missing (the Pi), `make_gnubg_bot` uses the gnubg program instead.
"""
from __future__ import annotations

from types import ModuleType

from controller.analysis.match_context import MatchContext
from controller.bot.contract import Bot
from controller.engine import Move, Position, legal_moves
from controller.errors import BackendUnavailableError, UsageError
from controller.evaluation.program import find_gnubg_program
from controller.evaluation.wheel import load_gnubg_nn

UNAVAILABLE = "the gnubg level needs the gnubg program: sudo apt install gnubg (or choose simple)"
MONEY_STAND_IN = 7


def make_gnubg_bot(plies: int = 0, backend: str | None = None) -> Bot:
    """The gnubg level: the wheel when present, else the program; one-line error otherwise."""
    if plies not in (0, 1, 2):
        raise UsageError(f"gnubg plies must be 0, 1 or 2, not {plies}")
    if backend not in (None, "nn", "process"):
        raise UsageError(f"unknown gnubg backend {backend!r}; choose nn or process")
    if backend in (None, "nn"):
        module = load_gnubg_nn()
        if module is not None:
            return GnubgNNBot(module, plies)
        if backend == "nn":
            raise BackendUnavailableError(UNAVAILABLE)
    program = find_gnubg_program()
    if program is None:
        raise BackendUnavailableError(UNAVAILABLE)
    from controller.bot.gnubg_process import GnubgProcessBot

    return GnubgProcessBot(program, plies)


def board_of(position: Position) -> list[list[int]]:
    """gnubg's board for `position`: `[opponent, player on roll]`."""
    return [list(position.theirs), list(position.mine)]


def after_key(gnubg: ModuleType, move: Move) -> str:
    """gnubg's position key of a move's result, as its move list names it (opponent on roll)."""
    return gnubg.key_of_board([list(move.result.mine), list(move.result.theirs)])


def match_winning_chance(gnubg: ModuleType, away: int, other_away: int) -> float:
    """Chance to win the match at `away`/`other_away` by gnubg's match equity table."""
    if away <= 0:
        return 1.0
    if other_away <= 0:
        return 0.0
    return (1.0 + gnubg.equities.value(away, other_away)) / 2.0


class GnubgNNBot:
    """GNU Backgammon's network through `gnubg_nn` at 0, 1 or 2 plies."""

    def __init__(self, gnubg: ModuleType, plies: int = 0) -> None:
        self._g = gnubg
        self.plies = plies
        self.name = f"gnubg-{plies}ply"

    # -- state gnubg-nn keeps globally ----------------------------------------------------
    def _set(self, on_roll_away: int, other_away: int, context: MatchContext, on_roll_owns: bool | None,
             for_cube: bool = True) -> None:
        g = self._g
        if context.is_money:
            stand_in = MONEY_STAND_IN if for_cube else 0
            g.set.score(stand_in, stand_in, 0)
        else:
            crawford = 1 if context.crawford and 1 in (on_roll_away, other_away) else 0
            g.set.score(on_roll_away, other_away, crawford)
        if context.cube == 1 or on_roll_owns is None:
            g.set.cube(1)
        else:
            g.set.cube(context.cube, b"O" if on_roll_owns else b"X")

    def _bot_on_roll(self, context: MatchContext, for_cube: bool = True) -> None:
        owner = None if context.owner == "center" else context.owner == "bot"
        self._set(context.bot_away, context.opponent_away, context, owner, for_cube)

    def _opponent_on_roll(self, context: MatchContext) -> None:
        owner = None if context.owner == "center" else context.owner == "opponent"
        self._set(context.opponent_away, context.bot_away, context, owner)

    # -- decisions --------------------------------------------------------------------------
    def choose_move(self, position: Position, dice: tuple[int, int], context: MatchContext) -> Move | None:
        moves = legal_moves(position, dice)
        if len(moves) <= 1:
            return moves[0] if moves else None
        self._bot_on_roll(context, for_cube=False)
        ranked = self._g.best_move(board_of(position), dice[0], dice[1], n=self.plies, list=1)[1]
        best_key = ranked[0][0]
        for move in moves:
            if after_key(self._g, move) == best_key:
                return move
        raise RuntimeError(f"gnubg's best move for {position.id} {dice} is not a legal move here")

    def cube_decision(self, position: Position, context: MatchContext, bot_on_roll: bool) -> tuple[int, ...]:
        """gnubg's (double, take, too_good, no-double, double-take, double-pass) for the
        player on roll in `position`."""
        if bot_on_roll:
            self._bot_on_roll(context)
        else:
            self._opponent_on_roll(context)
        key = self._g.key_of_board(board_of(position))
        return tuple(self._g.evaluate_cube_decision(key, n=self.plies, s=b"O", i=1))

    def should_double(self, position: Position, context: MatchContext) -> bool:
        if not context.bot_may_double():
            return False
        return bool(self.cube_decision(position, context, bot_on_roll=True)[0])

    def should_take(self, position: Position, context: MatchContext) -> bool:
        return bool(self.cube_decision(position, context, bot_on_roll=False)[1])

    def accepts_resignation(self, position: Position, level: int, context: MatchContext) -> bool:
        self._opponent_on_roll(context)
        w, wg, wbg, lg, lbg = self._g.probabilities(board_of(position), self.plies)
        # the computer's outcomes (the resigner is on roll in `position`)
        outcomes = {1: (1 - w) - lg, 2: lg - lbg, 3: lbg, -1: w - wg, -2: wg - wbg, -3: wbg}
        cube = context.cube
        if context.is_money:
            play_on = sum(p * pts for pts, p in outcomes.items())
            return level >= play_on - 1e-9
        def mwc(points: int) -> float:
            if points > 0:
                return match_winning_chance(self._g, context.bot_away - points * cube, context.opponent_away)
            return match_winning_chance(self._g, context.bot_away, context.opponent_away + points * cube)
        play_on = sum(p * mwc(pts) for pts, p in outcomes.items())
        return mwc(level) >= play_on - 1e-9

    def close(self) -> None:
        """Nothing to release: the wheel lives in this process."""
