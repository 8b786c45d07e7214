"""Analyse a recorded match decision by decision, as GNU Backgammon's `analyse match` does.

For every turn: the cube decision of a player who could have doubled and rolled instead
(not in a game's first position), the luck of the roll, and the checker play; for every
double, take and pass, that cube decision. Equities are cubeful at the match score
(`controller.analysis.evaluator`); a decision's loss is what it gave away against gnubg's
best choice, in EMG (normalised money equity), and its mark uses the thresholds below.
How gnubg counts them (analysis.c, `AnalyzeMove` and `updateStatcontext`):

- a turn with more than one legal move is an *unforced* move; its loss adds to the
  checker-play error total;
- a cube decision is *close* when doubling loses less than 0.16 against the best action
  (a double, take or pass is always counted); its loss adds to the cube error total;
- luck is the equity of the best move of the roll rolled minus the mean over the 36 rolls
  (the opening roll: over the 30 non-doubles, either player's), at 0-ply.
"""
from __future__ import annotations

import multiprocessing
import os
from dataclasses import dataclass
from typing import Any, Callable, Literal

from controller.analysis.cubeful import CENTRE, CubeInfo, check_length
from controller.analysis.evaluator import Board, CubeEval, Evaluator
from controller.engine import Position, format_move, legal_moves
from controller.records.model import Double, Drop, Game, MatchRecord, Resign, Roll, Take

Kind = Literal["move", "no double", "double", "take", "pass"]
MARKS: tuple[tuple[float, str], ...] = ((0.12, "very bad"), (0.06, "bad"), (0.03, "doubtful"))
"""gnubg 1.07's marks by EMG lost, as Debian's program ships them (`show analysis`): its
`Skill()` (analysis.c) marks a move whose normalised equity (`rScore`, the cubeful match
chance through `mwc2eq`) is more than 0.03/0.06/0.12 below the best one's; the same loss
as here, so with its thresholds the counts are gnubg's (0.04/0.08/0.16 were not)."""
CLOSE_CUBE = 0.16
ALL_ROLLS = tuple((a, b) for a in range(1, 7) for b in range(1, a + 1))
MAX_WORKERS = 4
WORKER_MB = 100
"""What one forked game's analysis may take beyond what it shares with the process it was
forked from, 2-ply included (`bgboard bench --only pi` measures it): a Zero 2 W's 512 MB
hold two or three beside the system and `bgboard run`, not four."""


def available_mb() -> int | None:
    """The memory the kernel says is available now (MemAvailable), in MB; None unknown."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) // 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def workers(games: int, available: int | None, cores: int | None = None) -> int:
    """How many of `games` to analyse at once: one a core (this machine's unless given),
    at most MAX_WORKERS, and no more than `available` MB of memory hold at WORKER_MB each
    (one kept in reserve)."""
    by_memory = MAX_WORKERS if available is None else max(1, available // WORKER_MB - 1)
    return max(1, min(games, cores or os.cpu_count() or 1, MAX_WORKERS, by_memory))


def no_double_loss(cube: CubeEval) -> float:
    """EMG that rolling without doubling gives away (0.0 where the cube is not available)."""
    return max(0.0, cube.optimal - cube.no_double) if cube.available else 0.0


def double_loss(cube: CubeEval) -> float:
    """EMG a double gives away: the doubler's best equity against what the opponent's
    best answer (take or pass) leaves the doubler."""
    return max(0.0, cube.optimal - min(cube.take, cube.drop))


def answer_loss(cube: CubeEval, took: bool) -> float:
    """EMG the doubled player's take (or pass) gives away, from the doubler's `cube`
    decision (the doubler's equities: the answer that leaves the doubler less is right)."""
    return max(0.0, cube.take - cube.drop) if took else max(0.0, cube.drop - cube.take)


def right_answer(cube: CubeEval) -> str:
    """The proper answer to the double of `cube`: "take" or "pass"."""
    return "take" if cube.take <= cube.drop else "pass"


def mark_of(loss: float) -> str:
    """The mark a loss earns: "very bad", "bad", "doubtful" or "" (none)."""
    for threshold, name in MARKS:
        if loss > threshold:  # gnubg: r < -threshold
            return name
    return ""


@dataclass(frozen=True, slots=True)
class Decision:
    """One analysed decision. `loss` is in EMG, never negative; `luck` (turns only) is the
    roll's luck for the player in EMG; `win` the player's cubeless chance to win the game
    before the decision. `position` is the board before the decision seen by the player on
    roll (for a take or a pass: by the doubler), `cube` and `owner` the cube then (owner 0/1
    as `player`, or CENTRE): what setting the position up again needs besides the game's
    score (controller.analysis.review)."""

    game: int
    move: int
    player: int
    kind: Kind
    dice: tuple[int, int] | None
    played: str
    best: str
    loss: float
    mark: str
    unforced: bool = False
    close: bool = False
    luck: float | None = None
    win: float = 0.5
    position: Position | None = None
    cube: int = 1
    owner: int = CENTRE


@dataclass(frozen=True, slots=True)
class MatchAnalysis:
    """Every decision of a match, in order, and how it was judged: `plies` deep, as the
    gnubg release `judged_as` names ("gnubg 1.07": the weights' release, `evaluator`)."""

    length: int
    players: tuple[str, str]
    decisions: tuple[Decision, ...]
    plies: int
    judged_as: str = ""


def _board(position: Position) -> Board:
    """gnubg's board for the player on roll in `position`: [theirs, mine]."""
    return (position.theirs, position.mine)


@dataclass(slots=True)
class _Table:
    """The state of a game while it is being analysed."""

    position: Position
    player: int
    cube: int = 1
    owner: int = CENTRE
    row: int = 1
    acted: bool = False
    pending: CubeEval | None = None

    def face(self, player: int) -> None:
        if player != self.player:
            self.position = self.position.swap()
            self.player = player


def _where(t: _Table) -> dict[str, Any]:
    """A decision's board and cube (the Decision fields a set-up needs)."""
    return {"position": t.position, "cube": t.cube, "owner": t.owner}


TurnChooser = Callable[[int, int, int], bool]
"""(game number, move number, player on turn) -> whether that turn is judged deeper."""


class MatchAnalyser:
    """Walks a record's games through an Evaluator.

    With `deeper` (an evaluator and a chooser of turns), the chosen turns' decisions (the
    cube, the move, a double and its answer) are judged by that evaluator and the rest by
    `evaluator`: a deep judge can then look at a sample of many games' decisions
    (`controller.bot.level_strength`)."""

    def __init__(self, evaluator: Evaluator, luck: bool = True,
                 deeper: tuple[Evaluator, TurnChooser] | None = None) -> None:
        self.ev = evaluator
        self.luck = luck  # luck is most of the work; judging a level's play needs none
        self._shallow = evaluator
        self._deeper = deeper

    def analyse(self, record: MatchRecord) -> MatchAnalysis:
        if record.length == 0:
            raise ValueError("money sessions are not analysed: only match play has a match equity table")
        check_length(record.length)
        out: list[Decision] = []
        for decisions in self._games(record):
            out.extend(decisions)
        self.ev = self._shallow
        return MatchAnalysis(record.length, record.players, tuple(out), self.ev.plies, self.ev.judged_as)

    def _games(self, record: MatchRecord) -> list[list[Decision]]:
        """Each game's decisions. Games are independent, so with several cores and games
        they are shared out among forked copies of this process (which inherit the loaded
        network), a fresh one for each game (what a game's analysis took is given back
        when it ends), as many at once as the cores and the free memory allow
        (`workers`): gnubg's own analysis uses every core too."""
        forks = workers(len(record.games), available_mb())
        if forks < 2 or "fork" not in multiprocessing.get_all_start_methods():
            return [self._game(record.length, game) for game in record.games]
        _forked.clear()
        _forked.append((self, record))
        with multiprocessing.get_context("fork").Pool(forks, maxtasksperchild=1) as pool:
            return pool.map(_analyse_forked_game, range(len(record.games)), chunksize=1)

    def game(self, length: int, game: Game) -> list[Decision]:
        """One game's decisions (games are independent: a live review analyses each
        finished game once, with the very code `analyse` uses)."""
        return self._game(length, game)

    def _ci(self, length: int, game: Game, t: _Table) -> CubeInfo:
        return CubeInfo(length, game.score, t.cube, t.owner, t.player, game.crawford)

    def _forget(self) -> None:
        """Forget what the evaluators worked out (`memo`): a game's figures are of little
        use to the next, and a table holding them between reviews holds memory for nothing."""
        self._shallow.forget()
        if self._deeper is not None:
            self._deeper[0].forget()

    def _game(self, length: int, game: Game) -> list[Decision]:
        self._forget()
        try:
            return self._decisions(length, game)
        finally:
            self._forget()

    def _decisions(self, length: int, game: Game) -> list[Decision]:
        first = game.actions[0].player if game.actions else 0
        t = _Table(Position.initial(), first)
        out: list[Decision] = []
        for action in game.actions:
            if action.player == 0 and t.acted:
                t.row += 1
            t.acted = True
            if isinstance(action, (Take, Drop)):  # answered from the doubler's evaluation
                if t.pending is not None:
                    out.append(self._answer(game, t, t.pending, isinstance(action, Take)))
                if isinstance(action, Take):
                    t.cube, t.owner = 2 * t.cube, action.player
                t.pending = None
                continue
            if isinstance(action, Resign):
                continue
            if self._deeper is not None:  # the evaluator of this turn
                deep, chosen = self._deeper
                self.ev = deep if chosen(game.number, t.row, action.player) else self._shallow
            t.face(action.player)
            ci = self._ci(length, game, t)
            if isinstance(action, Roll):
                out.extend(self._turn(game, t, ci, action))
            elif isinstance(action, Double):
                t.pending = self.ev.cube(_board(t.position), ci)
                out.append(self._double(game, t, t.pending))
        return out

    # -- turns ------------------------------------------------------------------------
    def _turn(self, game: Game, t: _Table, ci: CubeInfo, roll: Roll) -> list[Decision]:
        out: list[Decision] = []
        board = _board(t.position)
        initial = t.position == Position.initial()
        if self.luck:  # every roll's moves (and the board's chances) in one go where the network batches
            self.ev.prefetch(board, ALL_ROLLS)
        win = self.ev.win_chance(board)
        if not initial:
            cube = self.ev.cube(board, ci)
            if cube.available:
                loss = no_double_loss(cube)
                close = cube.optimal - min(cube.take, 1.0) < CLOSE_CUBE
                out.append(Decision(game.number, t.row, roll.player, "no double", None, "No double",
                                    cube.action, loss, mark_of(loss), close=close, win=win, **_where(t)))
        luck = self._luck(board, roll.dice, ci, initial) if self.luck else None
        after = t.position
        for step in roll.steps:
            after = after.after(step)
        key = self.ev.key_of((after.mine, after.theirs))
        listed = self.ev.candidates(board, roll.dice, ci, keep=key, deep=True)
        played = format_move(roll.steps) if roll.steps else "(no move)"
        if listed:
            mine = next((c for c in listed if c.key == key), None)
            loss = max(0.0, listed[0].equity - mine.equity) if mine is not None else 0.0
            best = played if loss == 0.0 else self._notation(t.position, roll.dice, listed[0].key)
            out.append(Decision(game.number, t.row, roll.player, "move", roll.dice, played, best, loss,
                                mark_of(loss), unforced=len(listed) > 1, luck=luck, win=win, **_where(t)))
        else:
            out.append(Decision(game.number, t.row, roll.player, "move", roll.dice, played, played, 0.0, "",
                                luck=luck, win=win, **_where(t)))
        t.position = after
        return out

    def _notation(self, position: Position, dice: tuple[int, int], key: str) -> str:
        for move in legal_moves(position, dice):
            if self.ev.key_of((move.result.mine, move.result.theirs)) == key:
                return move.notation
        return "?"

    def _luck(self, board: Board, dice: tuple[int, int], ci: CubeInfo, initial: bool) -> float:
        """gnubg's LuckNormal / LuckFirst at 0-ply (its cube efficiencies at 0 ply too)."""
        ev = self.ev.for_luck()
        hi, lo = max(dice), min(dice)
        rolled = ev.best_equity(board, (hi, lo), ci)
        if initial and hi != lo:
            total = 0.0
            opp = ci.flipped()
            swapped = (board[1], board[0])
            ev.prefetch(swapped, ALL_ROLLS)
            for a in range(1, 7):
                for b in range(1, a):
                    total += rolled if (a, b) == (hi, lo) else ev.best_equity(board, (a, b), ci)
                    total -= ev.best_equity(swapped, (a, b), opp)
            return rolled - total / 30.0
        total = 0.0
        for a in range(1, 7):
            for b in range(1, a + 1):
                eq = rolled if (a, b) == (hi, lo) else ev.best_equity(board, (a, b), ci)
                total += eq if a == b else 2.0 * eq
        return rolled - total / 36.0

    # -- cube actions -----------------------------------------------------------------
    def _double(self, game: Game, t: _Table, cube: CubeEval) -> Decision:
        loss = double_loss(cube)
        return Decision(game.number, t.row, t.player, "double", None, "Double", cube.action, loss,
                        mark_of(loss), close=True, win=self.ev.win_chance(_board(t.position)), **_where(t))

    def _answer(self, game: Game, t: _Table, cube: CubeEval, took: bool) -> Decision:
        # the answer is the doubler's cube decision seen from the other side
        taker = 1 - t.player
        loss = answer_loss(cube, took)
        right = right_answer(cube)
        return Decision(game.number, t.row, taker, "take" if took else "pass", None,
                        "Take" if took else "Pass", right.capitalize(), loss, mark_of(loss), close=True,
                        win=1.0 - self.ev.win_chance(_board(t.position)), **_where(t))


_forked: list[tuple[MatchAnalyser, MatchRecord]] = []
"""The analyser and record a forked worker inherits (set just before the fork)."""


def _analyse_forked_game(index: int) -> list[Decision]:
    analyser, record = _forked[0]
    return analyser._game(record.length, record.games[index])
