"""What the rounds so far say of each player of a Swiss: score, opponents, colours.

One pass over the rounds gives every figure the pairing and the standings read, so the
two cannot count a bye or a win differently. A bye counts as a win (one point) and is
no opponent: it adds nothing to anyone's Buchholz (the club rule this hub follows; FIDE's
"virtual opponent" is not used, so that every figure is one a director can add up from
the wall chart by hand).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from club.tournament.model import Round, Winners


@dataclass(slots=True)
class PlayerRecord:
    """One player's line of the wall chart."""

    name: str
    seed: int
    score: int = 0
    opponents: list[str] = field(default_factory=list)
    beaten: list[str] = field(default_factory=list)
    byes: int = 0
    whites: int = 0
    blacks: int = 0


def wall_chart(players: Sequence[str], rounds: Sequence[Round], winners: Winners) -> dict[str, PlayerRecord]:
    """Every player's record after `rounds` (matches without a winner yet count as met,
    not as scored: they are paired, so no one meets again)."""
    chart = {name: PlayerRecord(name, seed) for seed, name in enumerate(players)}
    for played in rounds:
        for name in played.byes:
            chart[name].byes += 1
            chart[name].score += 1
        for pairing in played.pairings:
            white, black = chart[pairing.white], chart[pairing.black]
            white.opponents.append(black.name)
            black.opponents.append(white.name)
            white.whites += 1
            black.blacks += 1
            winner = winners.get(pairing.match_id)
            if winner is None:
                continue
            loser = black.name if winner == white.name else white.name
            chart[winner].score += 1
            chart[winner].beaten.append(loser)
    return chart
