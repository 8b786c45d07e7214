"""A knockout with a consolation bracket, as club directors run one.

- The players are seeded in the order given (1 is the strongest). The bracket is the next
  power of two; seeds are placed the standard way (1 v 16, 8 v 9, 5 v 12, 4 v 13, ... so
  that 1 and 2 can meet only in the final), and the empty places are byes, which fall to
  the top seeds (with 6 players: 1 and 2 have byes, 3 v 6 and 4 v 5 play).
- The winner of each match goes on; a bye goes on without playing.
- The consolation bracket: the losers of the first round's played matches play on in a
  knockout of their own, seeded by their original seeds (the same placement, byes to its
  top seeds). A player who had a bye and then lost is out: he lost no first-round match.
- The night's round n is the main bracket's round n with the consolation's round n - 1
  beside it (the consolation starts when the first round is over), so both brackets fill
  the boards together.
- Places: the winner 1, the final's loser 2, the semi-finals' losers 3-4, the quarter-
  finals' 5-8, and so on (no play-off for third); the consolation's winner is named apart.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from club.tournament.model import Pairing, Round, Winners


@dataclass(frozen=True, slots=True)
class BracketMatch:
    """A place in a bracket: a match between two players, or one player with a bye."""

    match_id: str
    white: str | None
    black: str | None
    winner: str | None

    @property
    def bye(self) -> bool:
        return self.white is None or self.black is None


@dataclass(frozen=True, slots=True)
class Bracket:
    """A bracket's rounds as far as the results reach (the last may be waiting)."""

    name: str
    rounds: tuple[tuple[BracketMatch, ...], ...]
    size: int

    @property
    def champion(self) -> str | None:
        if not self.rounds or len(self.rounds[-1]) != 1 or 2 ** len(self.rounds) != self.size:
            return None
        return self.rounds[-1][0].winner


def seed_positions(size: int) -> list[int]:
    """The seeds (1-based) in bracket order for a bracket of `size` (a power of two)."""
    order = [1]
    while len(order) < size:
        n = 2 * len(order)
        order = [x for s in order for x in (s, n + 1 - s)]
    return order


def _size(count: int) -> int:
    size = 1
    while size < count:
        size *= 2
    return size


def bracket(name: str, seeds: Sequence[str], winners: Winners, prefix: str) -> Bracket:
    """The bracket of `seeds` (strongest first) with the winners known so far."""
    size = _size(len(seeds))
    slots: list[str | None] = [seeds[s - 1] if s <= len(seeds) else None for s in seed_positions(size)]
    rounds: list[tuple[BracketMatch, ...]] = []
    number = 1
    while len(slots) > 1:
        matches = tuple(_match(f"{prefix}R{number}-{i // 2 + 1}", slots[i], slots[i + 1], winners)
                        for i in range(0, len(slots), 2))
        rounds.append(matches)
        if any(m.winner is None for m in matches):
            break
        slots = [m.winner for m in matches]
        number += 1
    return Bracket(name, tuple(rounds), size)


def _match(match_id: str, white: str | None, black: str | None, winners: Winners) -> BracketMatch:
    if white is None or black is None:
        return BracketMatch(match_id, white, black, white or black)
    return BracketMatch(match_id, white, black, winners.get(match_id))


@dataclass(frozen=True, slots=True)
class Knockout:
    """Both brackets of a knockout (see the module docstring)."""

    main: Bracket
    consolation: Bracket | None

    def rounds_total(self) -> int:
        main = _size_rounds(self.main.size)
        return main if self.consolation is None else max(main, 1 + _size_rounds(self.consolation.size))


def _size_rounds(size: int) -> int:
    return max(size.bit_length() - 1, 0)


def knockout(seeds: Sequence[str], winners: Winners, prefix: str) -> Knockout:
    """Both brackets with the winners known so far."""
    if len(seeds) < 2:
        raise ValueError("a knockout needs at least 2 players")
    main = bracket("main", seeds, winners, f"{prefix}M")
    consolation = None
    first = main.rounds[0]
    if all(m.winner is not None for m in first):
        losers = [m.black if m.winner == m.white else m.white for m in first if not m.bye]
        ranked = sorted((p for p in losers if p is not None), key=list(seeds).index)
        if len(ranked) >= 2:
            consolation = bracket("consolation", ranked, winners, f"{prefix}C")
    return Knockout(main, consolation)


def knockout_round(seeds: Sequence[str], winners: Winners, prefix: str, number: int) -> Round:
    """The night's round `number` (1-based): the main bracket's round `number` and the
    consolation's round `number` - 1, each match White the upper place of the bracket.
    ValueError when the round before is not finished or the knockout is over."""
    ko = knockout(seeds, winners, prefix)
    parts = [(ko.main, number)] + ([(ko.consolation, number - 1)] if ko.consolation is not None else [])
    pairings: list[Pairing] = []
    byes: list[str] = []
    for part, depth in parts:
        if 1 <= depth <= len(part.rounds):
            for m in part.rounds[depth - 1]:
                if m.white is not None and m.black is not None:
                    pairings.append(Pairing(m.match_id, m.white, m.black))
                elif depth == 1 and m.winner is not None:
                    byes.append(m.winner)
    if not pairings:
        raise ValueError(f"the knockout has no round {number} yet (or it is over)")
    return Round(number, tuple(pairings), tuple(byes))


def places(seeds: Sequence[str], winners: Winners, prefix: str) -> list[tuple[str, str]]:
    """(place, name) of the main bracket, best first, as far as the results reach:
    1, 2, 3-4, 5-8, ... (players still in are placed by the round they have reached)."""
    ko = knockout(seeds, winners, prefix)
    reached: dict[str, int] = {}
    for depth, matches in enumerate(ko.main.rounds, start=1):
        for m in matches:
            for p in (m.white, m.black):
                if p is not None:
                    reached[p] = depth if m.winner in (None, p) else -depth
    rounds = _size_rounds(ko.main.size)
    champion = ko.main.champion
    lines: list[tuple[int, str, str]] = []
    for name, depth in reached.items():
        if name == champion:
            lines.append((-2 * rounds - 2, "1", name))
            continue
        out = abs(depth)
        low, high = 2 ** (rounds - out) + 1, 2 ** (rounds - out + 1)
        place = (str(low) if low == high else f"{low}-{high}") if depth < 0 else f"in round {depth}"
        lines.append((-(2 * depth + 1) if depth > 0 else -2 * out, place, name))
    lines.sort(key=lambda line: (line[0], list(seeds).index(line[2])))
    return [(place, name) for _, place, name in lines]
