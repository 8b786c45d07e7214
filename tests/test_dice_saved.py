"""The verifiable dice's secret saved with the match: it survives a power cut exactly, is
covered by the file's checksum, and a resumed table rolls what the first one would have."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.records.store import TableStore
from controller.dice import DiceSecret, DiceState
from controller.engine.match import Match
from controller.engine.match_settings import MatchSettings
from controller.errors import RecordError
from controller.records import saved

SEED = bytes(range(7, 39))


def _played() -> tuple[Match, DiceState]:
    dice = DiceState(entropy=lambda n: SEED)
    m = Match.new(MatchSettings(length=3, dice="verifiable"))
    dice = dice.adopt(m)
    dice = dice.with_phrase("black", "hold the 5-point", m)
    while True:
        roll, dice = dice.draw(m)
        m = m.roll("white", roll).match
        if m.phase == "move":
            break
    side = m.turn
    assert side is not None
    m = m.play(side, m.legal_moves()[0]).match
    return m, dice


def test_the_secret_round_trips_with_the_match(tmp_path: Path) -> None:
    m, dice = _played()
    saved.save_match(tmp_path, m, dice=dice.secret)
    found = saved.MatchStore(tmp_path).load_saved()
    assert found is not None and found.match == m and found.dice == dice.secret
    assert saved.load_latest(tmp_path) == m  # the plain loader still gives the match


def test_a_resumed_table_rolls_the_same_dice(tmp_path: Path) -> None:
    m, dice = _played()
    saved.save_match(tmp_path, m, dice=dice.secret)
    resumed = TableStore(tmp_path).resume(0.0)
    assert resumed is not None
    match, again = resumed
    assert again.secret == dice.secret and again.mode == "verifiable"
    assert again.draw(match)[0] == dice.draw(m)[0]


def test_the_checksum_covers_the_secret(tmp_path: Path) -> None:
    m, dice = _played()
    saved.save_match(tmp_path, m, dice=dice.secret)
    path = tmp_path / saved.FILE_NAME
    doc = json.loads(path.read_text())
    doc["dice"]["seed"] = doc["dice"]["seed"].replace(SEED.hex()[:2], "ff", 1)
    path.write_text(json.dumps(doc))
    with pytest.raises(RecordError, match="checksum mismatch"):
        saved.MatchStore(tmp_path).load_saved()
    assert (tmp_path / f"{saved.FILE_NAME}{saved.DAMAGED_SUFFIX}1").exists()


def test_a_malformed_secret_is_named() -> None:
    for bad, words in [({"seed": "zz", "phrases": ["", ""], "revealed": False}, "64 hex digits"),
                       ({"seed": SEED.hex(), "phrases": [""], "revealed": False}, "two strings"),
                       ({"seed": SEED.hex(), "phrases": ["", ""]}, "expected seed")]:
        with pytest.raises(ValueError, match=words):
            DiceSecret.from_dict(bad)
