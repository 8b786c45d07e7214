"""Each player's PR and rating on the display after a game and after the match.

The table's review (controller.analysis.review, in a worker thread) hands the controller
the figures of the finished games (`ReviewFigures`, in a `ReviewReady` event); from the
end of a game until the next game's first roll, and while the match is over, the display
shows each player's PR in the player's column (where the pips are during a game: they
say nothing between games) and the ratings under the prompt's first line, which stays
(what to do next is never hidden; the two ratings take turns on the second line). Figures of fewer games than have finished are not
shown (the review of the last game is still running): no stale PR is ever shown as the
new one. Pure: the match and the figures in, message keys of `controller.show.texts` out.
"""
from __future__ import annotations

from dataclasses import dataclass

from controller.engine.match import Match
from controller.show.content import Prompt

#: gnubg's ratings (controller.analysis.stats.RATINGS) -> message keys
RATING_KEYS: dict[str, str] = {
    "Supernatural": "rating.supernatural", "World class": "rating.world_class",
    "Expert": "rating.expert", "Advanced": "rating.advanced", "Intermediate": "rating.intermediate",
    "Casual player": "rating.casual", "Beginner": "rating.beginner", "Awful!": "rating.awful",
    "n/a": "rating.none",
}


@dataclass(frozen=True, slots=True)
class PlayerFigures:
    """One player's PR (None: no decision counted yet) and gnubg's rating name."""

    pr: float | None
    rating: str


@dataclass(frozen=True, slots=True)
class MarkedLine:
    """One marked decision as the menu lists it ("G2 M14 Bad -0.09"): its key (what
    the practice sets up, controller.analysis.review.decision_key), game, move number,
    gnubg's mark ("doubtful", "bad", "very bad") and the equity it lost."""

    key: str
    game: int
    move: int
    mark: str
    loss: float

    @property
    def prompt(self) -> Prompt:
        return Prompt.of("menu_marked", game=self.game, move=self.move,
                         mark_key=f"tutor.{self.mark.replace(' ', '_')}", loss=f"{-self.loss:.2f}")


@dataclass(frozen=True, slots=True)
class ReviewFigures:
    """White's and Black's figures over the first `games` finished games, and the marked
    decisions of those games in match order (the menu's list to practise)."""

    white: PlayerFigures
    black: PlayerFigures
    games: int
    marked: tuple[MarkedLine, ...] = ()


def finished_games(match: Match) -> int:
    return sum(1 for game in match.history if game.end is not None)


def between_games(match: Match) -> bool:
    """A game has ended and the next has not begun (or the match is over)."""
    if match.phase == "over":
        return True
    return match.phase == "opening" and len(match.history) > 1 and not match.history[-1].actions


@dataclass(frozen=True, slots=True)
class ReviewDisplay:
    """The display's review fields (`DisplayContent.notes`, `pr_white`, `pr_black`)."""

    notes: tuple[Prompt, ...] = ()
    pr_white: str | None = None
    pr_black: str | None = None


def review_display(match: Match, figures: ReviewFigures | None) -> ReviewDisplay:
    """The display's review fields now: each player's PR in place of the pips, and under
    the prompt's first line each player's rating; nothing outside the moments above."""
    if figures is None or not between_games(match) or figures.games != finished_games(match):
        return ReviewDisplay()
    notes = tuple(Prompt.of("review_rating", side=side, rating_key=RATING_KEYS.get(f.rating, "rating.none"))
                  for side, f in (("white", figures.white), ("black", figures.black)))
    return ReviewDisplay(notes, _pr(figures.white), _pr(figures.black))


def _pr(f: PlayerFigures) -> str:
    return "-" if f.pr is None else f"{f.pr:.1f}"
