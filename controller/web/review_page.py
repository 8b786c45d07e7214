"""The page's review panel: what it shows of the match's review, and the practice of a
marked position.

The review itself is the table's (controller.table.review: made off the loop after each
finished game). The snapshot carries only a short summary (`review_summary`: how many
games, whose PR, and a version that changes with the review), the panel fetches the rest
from `/review.json` when the version changes (a graph and a list are too large to send
with every snapshot).

Practice: "Set up on the board" plays on from a marked decision's position at the table
(controller.table.practice: the match saved first and set aside, the practice saved apart,
the board set up by the person as the `setup` lights guide, "Back to the match" resumes
the match as it was; the board's menu does the same). While practising, the panel keeps
showing the match's review (the table does not review a practice), so another position
can be chosen, and marks the decision practised.
"""
from __future__ import annotations

from dataclasses import dataclass

from controller.analysis.review import MatchReview


@dataclass(frozen=True)
class ReviewPanel:
    """The review the page shows and the key of the decision practised now, if any."""

    practising: str | None = None

    def summary(self, review: MatchReview | None) -> dict[str, object] | None:
        """The snapshot's part: None until a game of the match has finished (a rematch's
        review starts empty again)."""
        if review is not None and review.games == 0:
            review = None
        practice = self.practising
        if review is None:
            return None if practice is None else {"version": f"0.{practice}", "practice": practice}
        return {"version": f"{review.games}.{len(review.marked)}.{practice or ''}", "games": review.games,
                "marked": len(review.marked), "practice": practice,
                "pr": [round(p.pr, 1) if p.decisions else None for p in review.players],
                "rating": [p.rating for p in review.players]}

    def document(self, review: MatchReview | None) -> dict[str, object]:
        """`/review.json`: the whole review shown (empty before the first finished game)."""
        practice = self.practising
        if review is None:
            return {"games": 0, "players": [], "series": [], "marked": [], "practice": practice}
        return {**review.to_json(), "practice": practice}
