"""Verifiable dice through a whole match into its `.mat` record and back:
`bgboard verify-dice` recomputes every roll, names the first roll of a tampered record,
and GNU Backgammon still imports the record."""
from __future__ import annotations

import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from bgboard.cli import main
from controller.dice import DiceError, DiceState
from controller.records.dice_check import verify_dice
from controller.engine.match import LEVELS, Match, other
from controller.engine.match_settings import MatchSettings
from controller.records.from_match import record_from_match
from controller.records.mat_reader import parse_mat, read_mat
from controller.records.mat_writer import write_mat

GNUBG = shutil.which("gnubg") or "/usr/games/gnubg"


def revealed(dice: DiceState) -> DiceState:
    """The dice with their seed revealed (as the controller reveals them at the match's end)."""
    after = dice.revealed()
    assert after is not None
    return after


def play(seed: bytes, rng: random.Random, length: int = 7,
         phrases: tuple[str, str] = ("", "")) -> tuple[Match, DiceState, list[tuple[int, int]]]:
    """A whole match with verifiable dice: random legal moves, doubles, takes, drops and
    resignations (at the start of a turn); returns the match, its dice and every roll the dice gave, in order."""
    dice = DiceState(entropy=lambda n: seed)
    m = Match.new(MatchSettings(length=length, dice="verifiable"))
    dice = dice.adopt(m)
    dice = dice.with_phrase("white", phrases[0], m)
    dice = dice.with_phrase("black", phrases[1], m)
    given: list[tuple[int, int]] = []
    while not m.is_over:
        side = m.turn
        if m.phase == "opening":
            roll, dice = dice.draw(m)
            given.append(roll)
            m = m.roll("white", roll).match
        elif m.phase == "roll":
            assert side is not None
            r = rng.random()
            if m.may_double(side) and r < 0.1:
                m = m.double(side).match
            elif r > 0.985:
                m = m.resign(side, LEVELS[rng.randint(m.declined, 2)]).match
            else:
                roll, dice = dice.draw(m)
                given.append(roll)
                m = m.roll(side, roll).match
        elif m.phase == "doubled":
            assert side is not None
            m = (m.take if rng.random() < 0.7 else m.drop)(other(side)).match
        elif m.phase == "move":
            assert side is not None
            m = m.play(side, rng.choice(m.legal_moves())).match
            if m.phase == "move" and m.turn == side:
                m = m.done(side).match
        elif m.phase == "resigning":
            assert side is not None
            m = (m.accept if rng.random() < 0.6 else m.decline)(other(side)).match
    return m, dice, given


def mat_of(m: Match, dice: DiceState) -> str:
    return write_mat(record_from_match(m, tags=dice.record_tags()))


def roll_lines(text: str) -> list[tuple[int, int, int]]:
    """(line index, column start, column end) of every roll entry `DD:` in the text."""
    found = []
    for i, line in enumerate(text.splitlines()):
        if re.match(r"^\s*\d+\)", line):
            found += [(i, mt.start(), mt.end()) for mt in re.finditer(r"(?<!\S)[1-6][1-6]:", line)]
    return found


@pytest.mark.parametrize("game_seed", range(6))
def test_every_roll_of_a_played_match_verifies(game_seed: int) -> None:
    rng = random.Random(game_seed)
    seed = bytes(rng.randrange(256) for _ in range(32))
    m, dice, given = play(seed, rng, phrases=("lucky sevens", "") if game_seed % 2 else ("", "ø and å"))
    dice = revealed(dice)  # the match ended: the controller reveals; here by hand
    text = mat_of(m, dice)
    record = read_mat(text)  # a legal record, every move checked
    rolls = roll_lines(text)
    check = verify_dice(parse_mat(text))
    assert check.ok, check.problem
    assert check.rolls == len(rolls) == sum(1 for g in record.games for a in g.actions if type(a).__name__ == "Roll")
    assert check.line == f"all {len(rolls)} rolls verified"
    assert len(given) >= len(rolls)  # opening ties and rolls before a resignation are not written


def test_a_record_tampered_in_one_roll_fails_at_that_roll() -> None:
    rng = random.Random(11)
    m, dice, _ = play(bytes(range(32)), rng)
    dice = revealed(dice)
    text = mat_of(m, dice)
    rolls = roll_lines(text)
    lines = text.splitlines()
    for k in (0, 1, len(rolls) // 2, len(rolls) - 1):
        i, a, b = rolls[k]
        d1, d2 = int(lines[i][a]), int(lines[i][a + 1])
        new = f"{d1 % 6 + 1}{d2}" if (d1 % 6 + 1, d2) != (d2, d1) else f"{d1 % 6 + 1}{d2 % 6 + 1}"
        tampered = lines.copy()
        tampered[i] = tampered[i][:a] + new + tampered[i][a + 2:]
        check = verify_dice(parse_mat("\n".join(tampered) + "\n"))
        assert not check.ok
        assert check.rolls == k
        assert check.line.startswith(f"roll {k + 1} differs"), check.line
        assert f"says {new[0]}-{new[1]}" in check.line


def test_a_wrong_seed_or_phrase_or_no_reveal_is_named() -> None:
    m, dice, _ = play(bytes(range(32)), random.Random(3), length=3, phrases=("a", "b"))
    hidden = mat_of(m, dice)
    assert "Dice seed" not in hidden and dice.secret is not None
    assert dice.secret.commitment in hidden
    assert verify_dice(parse_mat(hidden)).line == "the dice seed is not revealed in this record yet"
    dice = revealed(dice)
    text = mat_of(m, dice)
    assert verify_dice(parse_mat(text)).ok
    other_seed = text.replace(bytes(range(32)).hex(), bytes(32).hex())
    assert "does not match the commitment" in verify_dice(parse_mat(other_seed)).line
    other_phrase = text.replace('; [Dice phrase white "a"]', '; [Dice phrase white "c"]')
    assert verify_dice(parse_mat(other_phrase)).line.startswith("roll 1 differs")
    plain = "\n".join(line for line in text.splitlines() if "Dice" not in line)
    assert "no dice commitment" in verify_dice(parse_mat(plain)).line


def test_verify_dice_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    m, dice, _ = play(bytes(range(32)), random.Random(5), length=3)
    dice = revealed(dice)
    good = tmp_path / "good.mat"
    good.write_text(mat_of(m, dice))
    assert main(["verify-dice", str(good)]) == 0
    n = len(roll_lines(good.read_text()))
    assert capsys.readouterr().out == f"all {n} rolls verified\n"
    bad = tmp_path / "bad.mat"
    i, a, _ = roll_lines(good.read_text())[2]
    lines = good.read_text().splitlines()
    d1 = int(lines[i][a])
    lines[i] = lines[i][:a] + str(d1 % 6 + 1) + str(d1 % 6 + 1) + lines[i][a + 2:]
    bad.write_text("\n".join(lines) + "\n")
    assert main(["verify-dice", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "roll 3 differs" in err
    assert main(["verify-dice", str(tmp_path / "missing.mat")]) == 1
    assert "cannot read" in capsys.readouterr().err
    with pytest.raises(SystemExit) as usage:
        main(["verify-dice"])
    assert usage.value.code == 2


def test_the_verified_record_imports_into_gnubg(tmp_path: Path) -> None:
    m, dice, _ = play(bytes(range(32)), random.Random(8), length=5)
    dice = revealed(dice)
    path = tmp_path / "verified.mat"
    path.write_text(mat_of(m, dice))
    assert verify_dice(parse_mat(path.read_text())).ok
    out = subprocess.run([GNUBG, "-t", "-q"], input=f"set confirm default no\nimport mat {path}\nshow score\n",
                         capture_output=True, text=True, timeout=120, check=False).stdout
    found = re.findall(r"The score \(after (\d+) games?\) is: .* (\d+), .* (\d+) \(match to", out)
    assert found, out[-800:]
    games, a, b = found[-1]
    record = read_mat(path.read_text())
    assert int(games) == len(record.games)
    assert (int(a), int(b)) == record.final_score


def test_verifiable_dice_refuse_chosen_rolls_and_late_phrases() -> None:
    dice = DiceState(entropy=lambda n: bytes(32))
    m = Match.new(MatchSettings(dice="verifiable"))
    dice = dice.adopt(m)
    with pytest.raises(DiceError):
        dice.push((6, 6))
    first, dice = dice.draw(m)
    with pytest.raises(DiceError, match="fixed"):
        dice.with_phrase("white", "too late", m)
    m2 = m.roll("white", first).match if first[0] != first[1] else m
    assert dice.draw(m2) is not None
