"""Per-player statistics of an analysed match: what gnubg's `show statistics match` reports.

Error totals are sign-free magnitudes (EMG lost); rates are in milli-EMG per decision
(gnubg's "Error rate mEMG"): checker play per unforced move, cube per close decision,
overall per both. PR, as eXtreme Gammon defines it, is 500 x the mean EMG lost per
unforced decision, i.e. half the overall rate. The rating is gnubg's, from the overall
rate (analysis.c `arThrsRating`).
"""
from __future__ import annotations

from dataclasses import dataclass

from controller.analysis.match import Decision, MatchAnalysis

RATINGS: tuple[tuple[float, str], ...] = (
    (0.002, "Supernatural"), (0.005, "World class"), (0.008, "Expert"), (0.012, "Advanced"),
    (0.018, "Intermediate"), (0.026, "Casual player"), (0.035, "Beginner"),
)


def rating_of(error_per_decision: float) -> str:
    """gnubg's rating for a mean loss per decision in EMG."""
    for threshold, name in RATINGS:
        if error_per_decision < threshold:
            return name
    return "Awful!"


@dataclass(frozen=True, slots=True)
class PlayerStats:
    name: str
    unforced: int
    doubtful: int
    bad: int
    very_bad: int
    checker_error: float
    close_cube: int
    cube_error: float
    luck: float

    @property
    def checker_rate(self) -> float:
        return 1000.0 * self.checker_error / self.unforced if self.unforced else 0.0

    @property
    def cube_rate(self) -> float:
        return 1000.0 * self.cube_error / self.close_cube if self.close_cube else 0.0

    @property
    def decisions(self) -> int:
        return self.unforced + self.close_cube

    @property
    def overall_rate(self) -> float:
        total = self.checker_error + self.cube_error
        return 1000.0 * total / self.decisions if self.decisions else 0.0

    @property
    def pr(self) -> float:
        return self.overall_rate / 2.0

    @property
    def rating(self) -> str:
        return rating_of(self.overall_rate / 1000.0) if self.decisions else "n/a"

    def to_json(self) -> dict[str, object]:
        """The issue's keys, rounded as gnubg prints them plus one digit."""
        return {
            "name": self.name,
            "checker": {"unforced": self.unforced, "doubtful": self.doubtful, "bad": self.bad,
                        "very_bad": self.very_bad, "error_total_emg": round(self.checker_error, 4),
                        "error_rate_memg": round(self.checker_rate, 2)},
            "cube": {"close": self.close_cube, "error_total_emg": round(self.cube_error, 4),
                     "error_rate_memg": round(self.cube_rate, 2)},
            "overall": {"error_rate_memg": round(self.overall_rate, 2), "pr": round(self.pr, 2),
                        "rating": self.rating},
            "luck": {"total_emg": round(self.luck, 4)},
        }


def player_stats(analysis: MatchAnalysis, player: int) -> PlayerStats:
    mine = [d for d in analysis.decisions if d.player == player]
    moves = [d for d in mine if d.kind == "move"]
    unforced = [d for d in moves if d.unforced]
    cubes = [d for d in mine if d.kind != "move" and d.close]
    return PlayerStats(
        name=analysis.players[player],
        unforced=len(unforced),
        doubtful=sum(d.mark == "doubtful" for d in moves),
        bad=sum(d.mark == "bad" for d in moves),
        very_bad=sum(d.mark == "very bad" for d in moves),
        checker_error=sum(d.loss for d in unforced),
        close_cube=len(cubes),
        cube_error=sum(d.loss for d in mine if d.kind != "move"),
        luck=sum(d.luck for d in moves if d.luck is not None),
    )


def error_and_count(d: Decision) -> tuple[float, int]:
    """What one decision adds to its player's error total (checker play plus cube, as
    `player_stats` sums them) and to the decisions PR is counted over (unforced moves
    and close cube decisions)."""
    if d.kind == "move":
        return (d.loss, 1) if d.unforced else (0.0, 0)
    return d.loss, 1 if d.close else 0


def decision_json(d: Decision, players: tuple[str, str]) -> dict[str, object]:
    return {"game": d.game, "move": d.move, "player": players[d.player], "kind": d.kind,
            "dice": list(d.dice) if d.dice else None, "played": d.played, "best": d.best,
            "equity_loss": round(d.loss, 4), "mark": d.mark or None,
            "luck": None if d.luck is None else round(d.luck, 4), "win": round(d.win, 4)}
