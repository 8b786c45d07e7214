"""The Swiss system as this hub runs it: pairing by score groups and the standings.

Pairing (the FIDE Dutch system's main rules, simplified for a club night):
- players are ordered by score, then by their pairing number (the order they were seeded
  in: registration order, or rating when the director enters them by rating);
- when the count is odd, the lowest in that order who has had no bye gets it; a bye is a
  win (one point);
- within a score group the top half meets the bottom half in order (1 v 5, 2 v 6, ... in
  a group of 8); the lowest of an odd group floats down to the next group, where it meets
  the highest it may;
- no two players meet twice where another pairing avoids it (the search backs off to the
  next candidate until every player is paired without a rematch; only when none exists are
  rematches allowed, fewest first);
- the higher of the two plays White unless it has had White more often than the other.

Standings: score (wins, byes included), then Buchholz (the sum of the opponents' scores),
then Median-Buchholz (Buchholz without the highest and the lowest opponent, when there
are three or more), then Sonneborn-Berger (the sum of the scores of the opponents beaten:
backgammon has no draws), then a draw by lot seeded by the tournament's seed, written in
the state, so the same night gives the same table every time it is shown. Buchholz first
because a Swiss's score groups meet on strength: who met the stronger field ranks higher;
the median removes one lucky or unlucky pairing; Sonneborn-Berger then prefers wins over
the stronger players; the lot last, since nothing on the board separates the rest.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from club.tournament.model import Pairing, Round, Winners
from club.tournament.swiss_table import PlayerRecord, wall_chart

#: how many partial pairings the no-rematch search tries before allowing rematches
SEARCH_BUDGET = 200_000


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings, with each tie-break as the format defines it."""

    rank: int
    name: str
    score: int
    buchholz: int
    median_buchholz: int
    sonneborn_berger: int
    lot: int


def standings(players: Sequence[str], rounds: Sequence[Round], winners: Winners, seed: int) -> list[Standing]:
    """The standings after `rounds` (see the module docstring for the order)."""
    chart = wall_chart(players, rounds, winners)
    lots = list(players)
    random.Random(seed).shuffle(lots)
    lot = {name: i for i, name in enumerate(lots)}
    lines = [_line(chart, record, lot[record.name]) for record in chart.values()]
    lines.sort(key=lambda s: (-s.score, -s.buchholz, -s.median_buchholz, -s.sonneborn_berger, s.lot))
    return [Standing(i + 1, s.name, s.score, s.buchholz, s.median_buchholz, s.sonneborn_berger, s.lot)
            for i, s in enumerate(lines)]


def _line(chart: dict[str, PlayerRecord], record: PlayerRecord, lot: int) -> Standing:
    faced = sorted(chart[o].score for o in record.opponents)
    median = faced[1:-1] if len(faced) >= 3 else faced
    return Standing(0, record.name, record.score, sum(faced), sum(median),
                    sum(chart[o].score for o in record.beaten), lot)


def pair_round(players: Sequence[str], rounds: Sequence[Round], winners: Winners, prefix: str) -> Round:
    """The next round's pairings (see the module docstring); match ids `<prefix>R<n>-<table>`.
    Every earlier round must be finished (ValueError otherwise)."""
    if any(not r.finished(winners) for r in rounds):
        raise ValueError("the round is not finished: every match needs its result first")
    if len(players) < 2:
        raise ValueError("a Swiss needs at least 2 players")
    chart = wall_chart(players, rounds, winners)
    order = sorted(players, key=lambda n: (-chart[n].score, chart[n].seed))
    byes: tuple[str, ...] = ()
    if len(order) % 2:
        bye = next((n for n in reversed(order) if chart[n].byes == 0), order[-1])
        byes = (bye,)
        order.remove(bye)
    pairs = _search(order, chart, allow_rematch=False) or _search(order, chart, allow_rematch=True) or []
    number = len(rounds) + 1
    pairings = tuple(_coloured(f"{prefix}R{number}-{i + 1}", a, b, chart) for i, (a, b) in enumerate(pairs))
    return Round(number, pairings, byes)


def _coloured(match_id: str, higher: str, lower: str, chart: dict[str, PlayerRecord]) -> Pairing:
    a, b = chart[higher], chart[lower]
    if a.whites - a.blacks > b.whites - b.blacks:
        return Pairing(match_id, lower, higher)
    return Pairing(match_id, higher, lower)


def _candidates(top: str, rest: list[str], chart: dict[str, PlayerRecord]) -> list[str]:
    """Whom `top` (the highest unpaired) should meet, best first: the Dutch order within its
    score group (the top half's first meets the bottom half's first), then the lower players."""
    group = [top] + [p for p in rest if chart[p].score == chart[top].score]
    half = len(group) // 2
    preferred = group[half:] + group[half - 1:0:-1] if len(group) > 1 else []
    return preferred + [p for p in rest if p not in preferred]


def _search(order: list[str], chart: dict[str, PlayerRecord], *, allow_rematch: bool) -> list[tuple[str, str]] | None:
    """A pairing of every player of `order` (no rematch unless allowed), or None."""
    budget = [SEARCH_BUDGET]

    def pair(remaining: list[str]) -> list[tuple[str, str]] | None:
        if not remaining:
            return []
        budget[0] -= 1
        if budget[0] < 0:
            return None
        top, rest = remaining[0], remaining[1:]
        candidates = _candidates(top, rest, chart)
        if allow_rematch:  # fewest meetings first, the Dutch order within each count
            candidates.sort(key=lambda p: chart[top].opponents.count(p))
        for other in candidates:
            if not allow_rematch and other in chart[top].opponents:
                continue
            tail = pair([p for p in rest if p != other])
            if tail is not None:
                return [(top, other)] + tail
        return None

    return pair(order)
