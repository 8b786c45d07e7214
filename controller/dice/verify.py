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

from controller.dice.verifiable import commitment, derive_roll, match_key, opening_roll
from controller.engine.wording import counted
from controller.records.mat_reader import RawMatch

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
    twice = _conflicting(raw)
    if twice is not None:
        return DiceCheck(0, f"the record has two different {twice} tags: which one holds is not known")
    committed = (_tag(raw, "Dice commitment") or "").lower()
    seed_hex = (_tag(raw, "Dice seed") or "").lower()
    if not committed:
        return DiceCheck(0, "no dice commitment in this record: its dice were not verifiable dice")
    if not _HEX64.match(committed):
        return DiceCheck(0, "the dice commitment is not 64 hex digits")
    if not seed_hex:
        return DiceCheck(0, "the dice seed is not revealed in this record yet")
    if not _HEX64.match(seed_hex):
        return DiceCheck(0, "the dice seed is not 64 hex digits")
    seed = bytes.fromhex(seed_hex)
    if commitment(seed) != committed:
        return DiceCheck(0, "the revealed seed does not match the commitment: SHA-256(seed) is "
                            f"{commitment(seed)}")
    key = match_key(seed, _tag(raw, "Dice phrase white") or "", _tag(raw, "Dice phrase black") or "")
    limit = _tag(raw, "Dice verifiable rolls")
    if limit is not None and not limit.strip().isdigit():
        return DiceCheck(0, "the dice's verifiable rolls tag is not a count of rolls")
    last = None if limit is None else int(limit)
    checked = ordinary = 0
    for game in raw.games:
        rolls = [e for e in game.entries if e.kind == "roll" and e.dice is not None]
        if not rolls:
            continue
        number, (white_die, black_die) = opening_roll(key, game.number)
        for k, entry in enumerate(rolls):
            assert entry.dice is not None
            if last is not None and checked + ordinary >= last:
                ordinary += 1
                continue
            if k == 0:
                expected = (white_die, black_die)
                starter = 0 if white_die > black_die else 1
                right = sorted(entry.dice) == sorted(expected) and entry.player == starter
            else:
                expected = derive_roll(key, game.number, number + k)
                right = sorted(entry.dice) == sorted(expected)
            if not right:
                who = game.names[entry.player] or ("White", "Black")[entry.player]
                said = f"{entry.dice[0]}-{entry.dice[1]}"
                if k == 0:
                    should = (f"the opening roll was White {white_die}, Black {black_die} "
                              f"({game.names[starter] or ('White', 'Black')[starter]} to start)")
                else:
                    should = f"the dice were {expected[0]}-{expected[1]}"
                return DiceCheck(checked, f"roll {checked + 1} differs (game {game.number}, move "
                                          f"{entry.move}, {who}, line {entry.line}): the record says "
                                          f"{said}, {should}")
            checked += 1
    if not checked + ordinary:  # "all 0 rolls verified" vouched for nothing
        return DiceCheck(0, "the record has no rolls to verify")
    return DiceCheck(checked, ordinary=ordinary)
