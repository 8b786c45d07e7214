"""The verifiable dice construction (controller/dice/README.md) against its written
vectors, an independent reading of the README's steps, and a fairness test."""
from __future__ import annotations

import hashlib
import hmac
import re
import struct
from pathlib import Path

import pytest

from controller.dice.fairness import chi_square_p, roll_fairness, uniform_p
from controller.dice.verifiable import (commitment, derive_roll, dice_from_blocks, match_key,
                                        opening_roll, phrase_problem)

README = Path(__file__).resolve().parents[1] / "controller" / "dice" / "README.md"
SEED = bytes(range(32))
PHRASES = {"none": ("", ""), "both": ("lucky sevens", "hold the 5-point")}


def _vectors() -> tuple[dict[str, str], list[tuple[str, int, int, tuple[int, int]]]]:
    text = README.read_text(encoding="utf-8")
    values = dict(re.findall(r"^    (seed|commitment|key none|key both)\s+([0-9a-f]{64})$", text, re.M))
    rows = [(p, int(g), int(r), (int(a), int(b)))
            for p, g, r, a, b in re.findall(r"^\| (none|both) \| (\d+) \| (\d+) \| ([1-6])-([1-6]) \|$", text, re.M)]
    return values, rows


def test_the_readme_writes_out_the_vectors() -> None:
    values, rows = _vectors()
    assert set(values) == {"seed", "commitment", "key none", "key both"}
    assert len(rows) >= 10


def test_seed_commitment_and_keys_match_the_readme() -> None:
    values, _ = _vectors()
    assert bytes.fromhex(values["seed"]) == SEED
    assert commitment(SEED) == values["commitment"] == hashlib.sha256(SEED).hexdigest()
    assert match_key(SEED).hex() == values["key none"]
    assert match_key(SEED, *PHRASES["both"]).hex() == values["key both"]


def test_rolls_match_the_readme() -> None:
    _, rows = _vectors()
    for phrases, game, roll, dice in rows:
        assert derive_roll(match_key(SEED, *PHRASES[phrases]), game, roll) == dice, (phrases, game, roll)


def _readme_roll(key: bytes, game: int, roll: int) -> tuple[int, int]:
    """Step 3 of the README, written again from its words."""
    dice: list[int] = []
    c = 0
    while len(dice) < 2:
        block = hmac.new(key, struct.pack(">I", game) + struct.pack(">I", roll) + struct.pack(">I", c),
                         hashlib.sha256).digest()
        dice += [b % 6 + 1 for b in block if b < 252]
        c += 1
    return dice[0], dice[1]


def test_rolls_follow_the_readme_steps() -> None:
    key = match_key(SEED, "x", "y")
    for game in (1, 2, 17):
        for roll in range(400):
            assert derive_roll(key, game, roll) == _readme_roll(key, game, roll)


def test_the_key_mixes_both_phrases_each_in_its_own_place() -> None:
    keys = {match_key(SEED, w, b) for w, b in [("", ""), ("a", ""), ("", "a"), ("ab", ""), ("a", "b"), ("b", "a")]}
    assert len(keys) == 6
    # a field is length-prefixed: moving text from one phrase into the other changes the key
    assert match_key(SEED, "ab", "c") != match_key(SEED, "a", "bc")
    # phrases are compared after NFC and trimming: the same words give the same dice
    assert match_key(SEED, " \u00c6r\u00f6 ") == match_key(SEED, "\u00c6ro\u0308")
    field = struct.pack(">I", 0)
    assert match_key(SEED) == hmac.new(SEED, b"bgboard dice v1" + field + field, hashlib.sha256).digest()


def test_skipped_bytes_reach_later_blocks() -> None:
    # 31 bytes of 252..255 in the first block, one good one: the second die comes from block 1
    first = bytes([252, 253, 254, 255] * 7 + [252, 253, 254] + [6])
    assert dice_from_blocks(first, lambda c: bytes([255, 9]) + bytes(30)) == (1, 4)


def test_the_opening_roll_skips_ties() -> None:
    key = match_key(SEED)
    assert derive_roll(key, 3, 0) == (5, 5)
    assert opening_roll(key, 3) == (1, (3, 1))
    assert opening_roll(key, 1) == (0, (4, 1))


def test_phrase_rules() -> None:
    assert phrase_problem("lucky sevens") is None
    assert phrase_problem("x" * 61) is not None
    assert phrase_problem('say "hi"') is not None
    assert phrase_problem("tab\there") is not None


def test_chi_square_p_known_values() -> None:
    # the 5% critical values of the chi-square tables
    assert chi_square_p(11.0705, 5) == pytest.approx(0.05, abs=1e-5)
    assert chi_square_p(49.8018, 35) == pytest.approx(0.05, abs=1e-5)
    assert chi_square_p(3.8415, 1) == pytest.approx(0.05, abs=1e-5)
    assert chi_square_p(0.0, 3) == 1.0
    assert chi_square_p(200.0, 5) < 1e-30
    assert uniform_p([10, 10, 10, 10, 10, 10]) == 1.0
    assert uniform_p([1, 2, 3, 4, 5, 6]) is None  # too few to say anything


@pytest.mark.slow
def test_a_million_derived_rolls_are_fair() -> None:
    """1,000,000 rolls of one key: the 36 ordered outcomes, the 6 faces and the share of
    doubles pass a chi-square test at the 1% level (the same figures, with the speed:
    `bgboard bench --only dice`)."""
    key = match_key(bytes(32), "fairness", "test")
    report = roll_fairness(derive_roll(key, 1, r) for r in range(1_000_000))
    assert report.rolls == 1_000_000 and sum(report.faces) == 2_000_000
    assert report.doubles == pytest.approx(1_000_000 / 6, rel=0.01)
    assert report.p_outcomes is not None and report.p_faces is not None and report.p_doubles is not None
    assert min(report.p_outcomes, report.p_faces, report.p_doubles) > 0.01, report


def test_unfair_dice_are_seen() -> None:
    """The same test sees loaded dice: sixes one time in five."""
    rolls = [((k % 5 == 0) and 6 or k % 5, (k * 7 % 6) + 1) for k in range(6000)]
    report = roll_fairness(rolls)
    assert report.p_faces is not None and report.p_faces < 1e-6
    assert roll_fairness([(1, 2)] * 3).p_faces is None
