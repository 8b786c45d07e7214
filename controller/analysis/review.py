"""The review of a match being played: what `bgboard analyze` says of its finished games.

After each game the table shows each player's PR and rating, the page a graph of winning
chances, the marked decisions, and offers to set any of them up on the board again. All
of it comes from the very analysis `bgboard analyze` runs (`MatchAnalyser.game`, at the
analyser's ply, 0 on the table): a review's figures are those of `bgboard analyze --json`
of the record the page downloads at that moment (tests/test_review.py holds them so).

- `ReviewCache` analyses each finished game once (games are independent: a game's
  decisions depend on the match length and that game alone), so a review after game 7
  costs one game's analysis, not seven. It is meant for one worker thread at a time.
  The games are judged by a `GameJudge`: `AnalyserJudge` in this process (what
  `bgboard analyze` runs), or controller.analysis.review_process's judge in a short-lived
  process of its own (the table's: the network's memory is given back after each game).
- The winning-chance series is White's cubeless chance to win the *game* before each
  turn (one point per checker play, `Decision.win` seen from White), and at the end of
  each game the result (1 or 0). The game's chance, not the match's: it is the figure
  the analysis itself computes for every decision (so the graph is the analysis, not a
  second computation), it reads as gnubg's analysis panel shows a position ("Win"), and
  a match-winning chance would move mostly with the score between games, hiding the
  swings inside a game the player wants to find. The page marks the game boundaries.
- The marked decisions are listed in match order (game, move): the list reads as the
  match went and matches the graph left to right; the text report of `bgboard analyze`
  already gives them worst first. Each carries what setting it up needs (`PositionSetup`)
  and `practice_match` builds the match that plays on from there.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from controller.analysis.cubeful import CENTRE
from controller.analysis.match import Decision, Kind, MatchAnalyser, MatchAnalysis
from controller.analysis.stats import PlayerStats, player_stats
from controller.engine.board_view import COLOURS, Colour
from controller.engine.match import Match
from controller.engine.match_settings import HUMAN, MatchSettings
from controller.engine.position import Position
from controller.records.model import Game, MatchRecord

COLOURS_BY_PLAYER: tuple[Colour, ...] = COLOURS
"""A record's player 0 is White, player 1 Black (controller.records.from_match)."""


@dataclass(frozen=True, slots=True)
class PositionSetup:
    """Everything a marked decision's position needs on the board: the checkers
    (`position_id`, gnubg's Position ID seen by `turn`, the player on roll; for a take or
    a pass the doubler), the dice to play (None: a cube decision), the cube and its owner,
    the score before the game (white, black), the Crawford flag and the match length."""

    kind: Kind
    position_id: str
    turn: Colour
    dice: tuple[int, int] | None
    cube: int
    owner: Colour | None
    score: tuple[int, int]
    crawford: bool
    length: int

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "position_id": self.position_id, "turn": self.turn,
                "dice": list(self.dice) if self.dice else None, "cube": self.cube,
                "owner": self.owner, "score": list(self.score), "crawford": self.crawford,
                "length": self.length}


@dataclass(frozen=True, slots=True)
class MarkedDecision:
    """A decision that earned a mark, named by `key` (unique in its match), with what
    setting its position up needs."""

    key: str
    decision: Decision
    setup: PositionSetup

    @property
    def player(self) -> Colour:
        return COLOURS_BY_PLAYER[self.decision.player]

    def to_json(self) -> dict[str, object]:
        d = self.decision
        return {"key": self.key, "game": d.game, "move": d.move, "player": self.player,
                "kind": d.kind, "dice": list(d.dice) if d.dice else None,
                "played": d.played, "best": d.best, "equity_loss": round(d.loss, 4),
                "mark": d.mark, "setup": self.setup.to_json()}


@dataclass(frozen=True, slots=True)
class WinPoint:
    """White's chance to win game `game` before move `move` (0: the game's result)."""

    game: int
    move: int
    white: float


@dataclass(frozen=True, slots=True)
class MatchReview:
    """The review of a match's finished games (see the module docstring)."""

    players: tuple[PlayerStats, PlayerStats]
    games: int
    plies: int
    series: tuple[WinPoint, ...]
    marked: tuple[MarkedDecision, ...]
    judged_as: str = ""
    """The gnubg release whose analysis this is ("gnubg 1.08"): the installed program's."""

    def decision(self, key: str) -> MarkedDecision | None:
        return next((d for d in self.marked if d.key == key), None)

    def to_json(self) -> dict[str, object]:
        return {"games": self.games, "ply": self.plies, "judged_as": self.judged_as,
                "players": [p.to_json() for p in self.players],
                "series": [{"game": p.game, "move": p.move, "white": round(p.white, 4)} for p in self.series],
                "marked": [d.to_json() for d in self.marked]}


def decision_key(d: Decision) -> str:
    """`3-12-white-move`: game, move number, player and kind (unique within a match)."""
    return f"{d.game}-{d.move}-{COLOURS_BY_PLAYER[d.player]}-{d.kind.replace(' ', '_')}"


def _colour_of(player: int) -> Colour | None:
    return None if player == CENTRE else COLOURS_BY_PLAYER[player]


def setup_of(d: Decision, game: Game, length: int) -> PositionSetup:
    """What setting `d`'s position up needs (its board, cube and the game's score)."""
    position = d.position or Position.initial()
    on_roll = d.player if d.kind not in ("take", "pass") else 1 - d.player
    return PositionSetup(d.kind, position.id, COLOURS_BY_PLAYER[on_roll], d.dice, d.cube,
                         _colour_of(d.owner), (game.score[0], game.score[1]), game.crawford, length)


def _series(analysis: MatchAnalysis, games: list[Game]) -> tuple[WinPoint, ...]:
    points: list[WinPoint] = []
    for game in games:
        for d in analysis.decisions:
            if d.game == game.number and d.kind == "move":
                points.append(WinPoint(d.game, d.move, d.win if d.player == 0 else 1.0 - d.win))
        if game.winner is not None:
            points.append(WinPoint(game.number, 0, 1.0 if game.winner == 0 else 0.0))
    return tuple(points)


def review_of(analysis: MatchAnalysis, record: MatchRecord) -> MatchReview:
    """The review of `analysis`, the analysis of `record`'s finished games."""
    games = [g for g in record.games if g.winner is not None]
    by_number = {g.number: g for g in games}
    marked = tuple(MarkedDecision(decision_key(d), d, setup_of(d, by_number[d.game], record.length))
                   for d in analysis.decisions if d.mark and d.game in by_number)
    return MatchReview((player_stats(analysis, 0), player_stats(analysis, 1)), len(games),
                       analysis.plies, _series(analysis, games), marked, analysis.judged_as)


@dataclass(frozen=True, slots=True)
class JudgedGames:
    """Games judged: each game's decisions (in the order the games were given), the ply
    and the gnubg release judged as, and the peak memory (MB) of the process that judged
    them when it was a process of its own (None: the caller's)."""

    decisions: tuple[tuple[Decision, ...], ...]
    plies: int
    judged_as: str
    peak_mb: float | None = None


class GameJudge(Protocol):
    """What a review's games are judged by: `judge` analyses finished games of a match of
    `length` points; `stop` abandons a judgement under way (the table is closing)."""

    def judge(self, length: int, games: Sequence[Game]) -> JudgedGames: ...

    def stop(self) -> None: ...


class AnalyserJudge:
    """Judges games in this process with `analyser` (its network loaded here and kept)."""

    def __init__(self, analyser: MatchAnalyser) -> None:
        self.analyser = analyser

    def judge(self, length: int, games: Sequence[Game]) -> JudgedGames:
        return JudgedGames(tuple(tuple(self.analyser.game(length, g)) for g in games), self.analyser.ev.plies,
                           self.analyser.ev.judged_as)

    def stop(self) -> None:
        """Nothing to stop: a judgement in this process ends when its game is analysed."""


class ReviewCache:
    """Each finished game's decisions, analysed once (see the module docstring); one
    worker thread uses it at a time. `last` is the latest judgement made for it (its
    ply, release and process's peak)."""

    def __init__(self, judge: GameJudge) -> None:
        self.judge = judge
        self._games: dict[tuple[int, Game], tuple[Decision, ...]] = {}
        self.last: JudgedGames | None = None

    def analysis(self, record: MatchRecord) -> MatchAnalysis:
        """The analysis of `record`'s finished games (the unfinished one is left out);
        the games not judged yet are judged together, in one call of the judge."""
        finished = [g for g in record.games if g.winner is not None]
        new = [g for g in finished if (record.length, g) not in self._games]
        if new:
            self.last = self.judge.judge(record.length, new)
            self._games.update(((record.length, g), d) for g, d in zip(new, self.last.decisions, strict=True))
        out = [d for g in finished for d in self._games[(record.length, g)]]
        plies, judged_as = (self.last.plies, self.last.judged_as) if self.last is not None else (0, "")
        return MatchAnalysis(record.length, record.players, tuple(out), plies, judged_as)

    def review(self, record: MatchRecord) -> MatchReview:
        return review_of(self.analysis(record), record)


def practice_match(setup: PositionSetup, settings: MatchSettings) -> Match:
    """The match that plays on from `setup`: its score, Crawford game, cube and board,
    `turn` to act, and for a checker play the dice already rolled; for a take or a pass
    the double already offered. `settings` are the played match's, but the clock is left
    off and a person plays both sides (a position is practised, not timed, and the
    computer's side of it is the person's to try too). MatchStateError or InvalidPositionError (one
    line) for a set-up that cannot be."""
    played = replace(settings, length=setup.length, clock="off", white_player=HUMAN, black_player=HUMAN)
    white, black = setup.score
    at_point = max(white, black) == setup.length - 1
    crawford_played = False if setup.crawford else (True if at_point and played.crawford else None)
    m = Match.from_score(played, setup.score, crawford_played, Position.from_id(setup.position_id), setup.turn)
    m = replace(m, cube=setup.cube, cube_owner=setup.owner)
    if setup.kind == "move" and setup.dice is not None:
        return m.roll(setup.turn, setup.dice).match
    if setup.kind in ("take", "pass"):
        return m.double(setup.turn).match
    return m
