"""The page's review panel: what it shows of the match's review, and the practice of a
marked position.

The review itself is the table's (controller.table.review: made off the loop after each
finished game). The snapshot carries only a short summary (`review_summary`: how many
games, whose PR, and a version that changes with the review), the panel fetches the rest
from `/review.json` when the version changes (a graph and a list are too large to send
with every snapshot).

Practice: "Set up on the board" plays on from a marked decision's position
(controller.analysis.review.practice_match) at a table of its own. Decided so that the
confirmed match is never lost: the running match is saved first, where it always is (the
table's state directory), and the practice table saves in a `practice` directory of its
own; "Back to the match" reopens the saved match, and a simulator restarted meanwhile
resumes the match, not the practice. The board is not laid out for the practice: the
person sets the checkers up, guided by the `setup` lights as after any new position.
While practising, the panel keeps showing the match's review, so another position can be
chosen.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from controller.analysis.review import MarkedDecision, MatchReview
from controller.engine.match import Match

KEY = re.compile(r"^[0-9]{1,4}-[0-9]{1,4}-(white|black)-[a-z_]{1,12}$")
"""What a decision's key looks like (controller.analysis.review.decision_key)."""

PRACTICE_DIR = "practice"


class PracticeRefused(ValueError):
    """A set-up request that cannot be carried out (one line for the page)."""


@dataclass
class ReviewPanel:
    """The review the page shows and the practice under way, if any."""

    kept: MatchReview | None = None  # the match's review while a position is practised
    match: Match | None = None  # and the match itself, as saved (its record is still the download)
    practising: MarkedDecision | None = None

    def shown(self, live: MatchReview | None) -> MatchReview | None:
        return self.kept if self.practising is not None else live

    def choose(self, live: MatchReview | None, key: object) -> MarkedDecision:
        """The marked decision `key` of the review shown (PracticeRefused otherwise)."""
        if not isinstance(key, str) or not KEY.match(key):
            raise PracticeRefused(f"ignored a set-up request: {str(key)[:40]!r} names no decision")
        review = self.shown(live)
        found = review.decision(key) if review is not None else None
        if found is None:
            raise PracticeRefused(f"ignored a set-up request: no marked decision {key} in this match's review")
        return found

    def summary(self, live: MatchReview | None) -> dict[str, object] | None:
        """The snapshot's part: None until a game of the match has finished (a rematch's
        review starts empty again)."""
        review = self.shown(live)
        if review is not None and review.games == 0:
            review = None
        practice = self.practising.key if self.practising is not None else None
        if review is None:
            return None if practice is None else {"version": f"0.{practice}", "practice": practice}
        return {"version": f"{review.games}.{len(review.marked)}.{practice or ''}", "games": review.games,
                "marked": len(review.marked), "practice": practice,
                "pr": [round(p.pr, 1) if p.decisions else None for p in review.players],
                "rating": [p.rating for p in review.players]}

    def document(self, live: MatchReview | None) -> dict[str, object]:
        """`/review.json`: the whole review shown (empty before the first finished game)."""
        review = self.shown(live)
        practice = self.practising.key if self.practising is not None else None
        if review is None:
            return {"games": 0, "players": [], "series": [], "marked": [], "practice": practice}
        return {**review.to_json(), "practice": practice}
