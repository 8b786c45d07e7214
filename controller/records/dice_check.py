"""Check a match record's verifiable dice: `bgboard verify-dice FILE.mat`.

Only the record's dice are read (stage 1 of ``controller/records/mat_reader.py``, no
rules), so a record altered in one roll is named at that roll even when its move no
longer fits. The record must carry the tags ``Dice commitment`` and ``Dice seed`` (and the
phrases, empty when absent); the seed must hash to the commitment; then every game's
rolls are recomputed as ``controller/dice/README.md`` says: the first roll of a game is
its opening roll (the first non-double; the higher die's player, White being the left
column, starts), each later roll the next number. A seed revealed while the match went on
leaves the tag ``Dice verifiable rolls``: the rolls after that many were ordinary dice
(the seed's next ones were known by then), so they are counted and named, not checked.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from controller.dice.verifiable import Dice, commitment, derive_roll, match_key, opening_roll
from controller.engine.wording import counted
from controller.records.mat_reader import Entry, RawGame, RawMatch

_HEX64 = re.compile(r"^[0-9a-f]{64}$")


@dataclass(frozen=True)
class DiceCheck:
    """The answer: how many rolls agreed and, if one did not, which and why."""

    rolls: int
    problem: str | None = None
    ordinary: int = 0
    """Rolls after a reveal during the match: ordinary dice, not verifiable."""

    @property
    def ok(self) -> bool:
        return self.problem is None

    @property
    def line(self) -> str:
        if not self.ok:
            return str(self.problem)
        verified = f"{'all ' if self.rolls != 1 and not self.ordinary else ''}{counted(self.rolls, 'roll')} verified"
        if not self.ordinary:
            return verified
        return (f"{verified}; the seed was revealed during the match, so the "
                f"{counted(self.ordinary, 'roll')} after it {'were' if self.ordinary != 1 else 'was'} ordinary dice")


def _tag(raw: RawMatch, name: str) -> str | None:
    for key, value in raw.tags:
        if key.strip().lower() == name.lower():
            return value
    return None


def _conflicting(raw: RawMatch) -> str | None:
    """The name of a dice tag the record gives twice with different values (the first
    one won, so a second commitment could be slipped in after the checked one)."""
    seen: dict[str, str] = {}
    for key, value in raw.tags:
        name = key.strip().lower()
        if name.startswith("dice ") and seen.setdefault(name, value.strip().lower()) != value.strip().lower():
            return key.strip()
    return None


def verify_dice(raw: RawMatch) -> DiceCheck:
    """Recompute every roll of `raw` from its revealed seed and phrases."""
    problem = _seed_problem(raw)
    if problem is not None:
        return DiceCheck(0, problem)
    seed = bytes.fromhex(_lower_tag(raw, "Dice seed"))
    key = match_key(seed, _tag(raw, "Dice phrase white") or "", _tag(raw, "Dice phrase black") or "")
    limit = _tag(raw, "Dice verifiable rolls")
    if limit is not None and not limit.strip().isdigit():
        return DiceCheck(0, "the dice's verifiable rolls tag is not a count of rolls")
    return _check_rolls(raw, key, None if limit is None else int(limit))


def _lower_tag(raw: RawMatch, name: str) -> str:
    """A tag's value in lower case, empty when absent (hex digits compare in lower case)."""
    return (_tag(raw, name) or "").lower()


def _seed_problem(raw: RawMatch) -> str | None:
    """Why the record's dice tags cannot be trusted to recompute its rolls: a tag given
    twice, the commitment or the seed missing or not hex, or the seed not its commitment's."""
    twice = _conflicting(raw)
    if twice is not None:
        return f"the record has two different {twice} tags: which one holds is not known"
    committed = _lower_tag(raw, "Dice commitment")
    seed_hex = _lower_tag(raw, "Dice seed")
    if not committed:
        return "no dice commitment in this record: its dice were not verifiable dice"
    if not _HEX64.match(committed):
        return "the dice commitment is not 64 hex digits"
    if not seed_hex:
        return "the dice seed is not revealed in this record yet"
    if not _HEX64.match(seed_hex):
        return "the dice seed is not 64 hex digits"
    hashed = commitment(bytes.fromhex(seed_hex))
    if hashed != committed:
        return f"the revealed seed does not match the commitment: SHA-256(seed) is {hashed}"
    return None


def _check_rolls(raw: RawMatch, key: bytes, last: int | None) -> DiceCheck:
    """Every game's rolls against the ones `key` derives; the rolls after the first `last`
    (a seed revealed during the match) are counted as ordinary dice, not checked."""
    checked = ordinary = 0
    for game in raw.games:
        rolls = [e for e in game.entries if e.kind == "roll" and e.dice is not None]
        if not rolls:
            continue
        opening = opening_roll(key, game.number)
        for k, entry in enumerate(rolls):
            if last is not None and checked + ordinary >= last:
                ordinary += 1
                continue
            should = _should_have_been(key, game, opening, k, entry)
            if should is not None:
                assert entry.dice is not None
                return DiceCheck(checked, f"roll {checked + 1} differs (game {game.number}, move "
                                          f"{entry.move}, {_player(game, entry.player)}, line {entry.line}): "
                                          f"the record says {entry.dice[0]}-{entry.dice[1]}, {should}")
            checked += 1
    if not checked + ordinary:  # "all 0 rolls verified" vouched for nothing
        return DiceCheck(0, "the record has no rolls to verify")
    return DiceCheck(checked, ordinary=ordinary)


def _should_have_been(key: bytes, game: RawGame, opening: tuple[int, Dice], k: int, entry: Entry) -> str | None:
    """What the dice should have been when `entry`, the game's roll `k`, is not them; None
    when it is. The opening roll (k = 0) also says who starts: the higher die's player."""
    assert entry.dice is not None
    number, (white_die, black_die) = opening
    if k == 0:
        starter = 0 if white_die > black_die else 1
        if sorted(entry.dice) == sorted((white_die, black_die)) and entry.player == starter:
            return None
        return (f"the opening roll was White {white_die}, Black {black_die} "
                f"({_player(game, starter)} to start)")
    expected = derive_roll(key, game.number, number + k)
    if sorted(entry.dice) == sorted(expected):
        return None
    return f"the dice were {expected[0]}-{expected[1]}"


def _player(game: RawGame, player: int) -> str:
    """A player's name in the record, or White / Black (White the left column)."""
    return game.names[player] or ("White", "Black")[player]
