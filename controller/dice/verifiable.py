"""Verifiable electronic dice: a committed secret seed, every roll derived from it.

The construction, step by step with its test vectors, is in ``controller/dice/README.md``;
this module is exactly that text as code, and imports nothing but the standard library
(a verifier can copy it). It draws no randomness itself: the seed is given.

1. The board draws a 32-byte seed from the operating system's CSPRNG and publishes its
   commitment ``SHA-256(seed)`` (64 hex digits) before the match.
2. Each player may add a phrase. The key of the match is
   ``HMAC-SHA256(seed, "bgboard dice v1" || field(white) || field(black))``, a field being
   the phrase's UTF-8 bytes (Unicode NFC, spaces trimmed) after their length as 4 bytes
   big-endian. The seed is fixed before the phrases are known, and the phrases are given
   without knowing the seed, so neither the board nor a player alone chooses the dice.
3. Roll ``r`` of game ``g`` (both counted from 0 and 1 as written in the README) comes from
   blocks ``HMAC-SHA256(key, g || r || c)`` (three 4-byte big-endian numbers, ``c`` = 0,
   1, ... while more bytes are needed): every byte below 252 gives a die ``byte % 6 + 1``
   (252 = 42 x 6, so each face is exactly as likely), bytes 252..255 are skipped; the
   first two dice are the roll.
4. A game's opening roll is its first roll that is not a double (a tie is rolled again):
   the first die is White's, the second Black's.
"""
from __future__ import annotations

import hashlib
import hmac
import struct
import unicodedata
from collections.abc import Callable

Dice = tuple[int, int]

SEED_BYTES = 32
KEY_LABEL = b"bgboard dice v1"
#: bytes at or above this are skipped: 252 = 42 x 6 keeps the six faces exactly equal
REJECT_FROM = 252
#: a phrase's longest length in characters (it is written into the record's header)
PHRASE_MAX = 60


def commitment(seed: bytes) -> str:
    """What the board shows before the match: SHA-256 of the seed, 64 hex digits."""
    return hashlib.sha256(seed).hexdigest()


def normal_phrase(phrase: str) -> str:
    """A phrase as it is mixed in and recorded: Unicode NFC, spaces trimmed."""
    return unicodedata.normalize("NFC", phrase).strip()


def phrase_problem(phrase: str) -> str | None:
    """Why `phrase` cannot be a player's phrase (it must fit a `.mat` tag), or None."""
    text = normal_phrase(phrase)
    if len(text) > PHRASE_MAX:
        return f"a dice phrase has at most {PHRASE_MAX} characters, not {len(text)}"
    if any(ch in '"\\' or not ch.isprintable() for ch in text):
        return "a dice phrase cannot hold quotes, backslashes or control characters"
    return None


def _field(phrase: str) -> bytes:
    data = normal_phrase(phrase).encode("utf-8")
    return struct.pack(">I", len(data)) + data


def match_key(seed: bytes, white_phrase: str = "", black_phrase: str = "") -> bytes:
    """The key every roll of the match is derived from: the seed with both phrases mixed in."""
    return hmac.digest(seed, KEY_LABEL + _field(white_phrase) + _field(black_phrase), "sha256")


def derive_roll(key: bytes, game: int, roll: int) -> Dice:
    """Roll number `roll` (from 0) of game `game` (from 1): two dice 1..6, unbiased."""
    first = _block(key, game, roll, 0)
    a, b = first[0], first[1]
    if a < REJECT_FROM and b < REJECT_FROM:  # the usual case: the first two bytes
        return a % 6 + 1, b % 6 + 1
    return dice_from_blocks(first, lambda counter: _block(key, game, roll, counter))


def _block(key: bytes, game: int, roll: int, counter: int) -> bytes:
    return hmac.digest(key, struct.pack(">III", game, roll, counter), "sha256")


def dice_from_blocks(first: bytes, more: Callable[[int], bytes]) -> Dice:
    """Two dice from a roll's blocks (`first`, then `more(1)`, `more(2)`, ...): each byte
    below 252 in order gives `byte % 6 + 1`, the others are skipped."""
    dice: list[int] = []
    block, counter = first, 0
    while True:
        for byte in block:
            if byte < REJECT_FROM:
                dice.append(byte % 6 + 1)
                if len(dice) == 2:
                    return dice[0], dice[1]
        counter += 1
        block = more(counter)


def opening_roll(key: bytes, game: int) -> tuple[int, Dice]:
    """The opening roll of a game: the number of its first roll that is not a double and
    that roll (White's die, Black's die). The doubles before it are the ties rolled again."""
    roll = 0
    while True:
        dice = derive_roll(key, game, roll)
        if dice[0] != dice[1]:
            return roll, dice
        roll += 1
