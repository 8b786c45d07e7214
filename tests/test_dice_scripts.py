"""Verifiable and entered dice through scenario scripts on the full stack: a resumed match
rolls on with the same sequence, and `--record OUT.mat` writes a record that
`bgboard verify-dice` checks."""
from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

from controller.dice.verifiable import derive_roll, match_key, opening_roll
from controller.engine.moves import legal_moves
from controller.engine.position import Position
from controller.records.mat_reader import check_mat, parse_mat
from controller.records.dice_check import verify_dice
from sim import script as sc
from sim.headless import HeadlessRunner

REPO = Path(__file__).resolve().parents[1]
SEED = bytes(range(100, 132))
PHRASES = ("lucky sevens", "hold the 5-point")


def _cells(step_from: int, step_to: int, side: str) -> tuple[str, str]:
    def cell(p: int) -> str:
        if p == 25:
            return "bar"
        if p == 0:
            return "off"
        return str(p if side == "white" else 25 - p)
    return cell(step_from), cell(step_to)


def _move_lines(position: Position, dice: tuple[int, int], side: str) -> tuple[list[str], Position]:
    """Script lines playing a legal move of `dice` (one without a hit if there is one)."""
    moves = legal_moves(position, dice)
    move = next((m for m in moves if not any(s.hit for s in m.steps)), moves[0])
    lines = []
    for s in move.steps:
        frm, to = _cells(s.frm, s.to, side)
        if s.hit:
            lines.append(f"hit {to}")
        lines.append(f"move {frm} {to}")
    return lines, move.result.swap()


def _script(restart: bool) -> tuple[str, list[tuple[int, int]]]:
    """Two whole turns of verifiable dice (the seed known to the test), with a power cut
    between them or not, then a third roll and a reveal."""
    key = match_key(SEED, *PHRASES)
    number, opening = opening_roll(key, 1)
    starter = "white" if opening[0] > opening[1] else "black"
    second = derive_roll(key, 1, number + 1)
    third = derive_roll(key, 1, number + 2)
    lines = ["match length=3 dice=verifiable", f"phrase white {PHRASES[0]}", f"phrase black {PHRASES[1]}",
             "white roll"]
    first_lines, position = _move_lines(Position.initial(), opening, starter)
    lines += first_lines
    if restart:
        lines.append("restart")
    roller = "black" if starter == "white" else "white"
    lines.append(f"{roller} roll")
    second_lines, _ = _move_lines(position, second, roller)
    lines += second_lines
    if restart:
        lines.append("restart")
    lines += [f"{starter} roll", "reveal"]
    return "\n".join(lines) + "\n", [opening, second, third]


def _run(text: str, tmp: Path) -> list[dict]:
    runner = HeadlessRunner(sc.parse_script(text), state_dir=tmp, entropy=lambda n: SEED,
                            record=tmp / "out.mat")
    return asyncio.run(runner.run())


def test_a_power_cut_does_not_change_the_roll_sequence(tmp_path: Path) -> None:
    text, (opening, second, third) = _script(restart=True)
    results = _run(text, tmp_path)
    rolls = [r for r in results if r["action"].endswith(" roll")]
    assert [tuple(r["match"]["dice"]) for r in rolls] == [opening, second, third]
    assert sum("resumed" in " ".join(r["events"]) for r in results) == 2
    plain = tmp_path / "plain"
    plain.mkdir()
    text2, _ = _script(restart=False)
    results2 = _run(text2, plain)
    assert [tuple(r["match"]["dice"]) for r in results2 if r["action"].endswith(" roll")] == [opening, second, third]
    # the record written when the script ended: two whole turns, the seed revealed
    mat = (tmp_path / "out.mat").read_text()
    assert f'; [Dice phrase white "{PHRASES[0]}"]' in mat and SEED.hex() in mat
    check = verify_dice(parse_mat(mat))
    assert check.line == "all 2 rolls verified"
    record, problem = check_mat(mat)
    assert len(record.games[0].actions) == 2 and "ends before the game does" in str(problem)


def test_the_cli_writes_the_record_of_an_entered_dice_match(tmp_path: Path) -> None:
    script = tmp_path / "entered.txt"
    script.write_text("match length=1 dice=entered\nwhite roll\ndice 5 2\nmove 13 8\nmove 6 4\n"
                      "black roll\ndice 6 6\nmove 1 7\nmove 1 7\nmove 12 18\nmove 12 18\n")
    out = tmp_path / "entered.mat"
    proc = subprocess.run([sys.executable, "-m", "bgboard.cli", "sim", "--headless", "--script",
                           str(script), "--record", str(out)], capture_output=True, text=True,
                          timeout=120, cwd=REPO)
    assert proc.returncode == 0, proc.stderr
    mat = out.read_text()
    assert '; [Dice "entered"]' in mat
    record, _ = check_mat(mat)  # the game goes on: the record ends before it does
    assert [a.dice for a in record.games[0].actions] == [(5, 2), (6, 6)]  # type: ignore[union-attr]
    verify = subprocess.run([sys.executable, "-m", "bgboard.cli", "verify-dice", str(out)],
                            capture_output=True, text=True, timeout=60, cwd=REPO)
    assert verify.returncode == 1 and "no dice commitment" in verify.stderr


def test_record_needs_headless(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "bgboard.cli", "sim", "--record", str(tmp_path / "x.mat"),
                           "--no-browser"], capture_output=True, text=True, timeout=60, cwd=REPO)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1


def test_dice_script_lines_parse_and_bad_ones_name_the_line() -> None:
    script = sc.parse_script("match dice=verifiable\nphrase black hold the 5-point\nreveal\n")
    assert [type(line.command).__name__ for line in script.lines] == ["MatchCmd", "PhraseCmd", "RevealCmd"]
    assert script.lines[1].command == sc.PhraseCmd("black", "hold the 5-point")
    for text, words in [("match dice=loaded", "dice must be one of"), ("phrase grey x", "phrase white|black"),
                        ("reveal now", "takes no argument"),
                        ("match dice=verifiable position=4HPwATDgc/ABMA", "starting position")]:
        try:
            sc.parse_script("\n" + text, "s.txt")
        except sc.UsageError as exc:
            assert str(exc).startswith("s.txt line 2:") and words in str(exc), exc
        else:
            raise AssertionError(f"{text!r} parsed")


def test_a_reveal_during_the_match_ends_the_seed_and_the_record_says_where(tmp_path: Path) -> None:
    """Revealed after the opening move, the seed gives no more rolls: the next roll can be
    queued as ordinary dice (it could not while the dice were verifiable), the record names
    the verifiable rolls, and verify-dice checks those and names the one after."""
    key = match_key(SEED, *PHRASES)
    _number, opening = opening_roll(key, 1)
    starter = "white" if opening[0] > opening[1] else "black"
    roller = "black" if starter == "white" else "white"
    lines = ["match length=3 dice=verifiable", f"phrase white {PHRASES[0]}", f"phrase black {PHRASES[1]}",
             "white roll"]
    first_lines, position = _move_lines(Position.initial(), opening, starter)
    lines += first_lines + ["reveal", "dice 3 1", f"{roller} roll"]
    second_lines, _ = _move_lines(position, (3, 1), roller)
    lines += second_lines
    results = _run("\n".join(lines) + "\n", tmp_path)
    rolls = [tuple(r["match"]["dice"]) for r in results if r["action"].endswith(" roll")]
    assert rolls == [opening, (3, 1)]
    mat = (tmp_path / "out.mat").read_text()
    assert '; [Dice verifiable rolls "1"]' in mat
    check = verify_dice(parse_mat(mat))
    assert check.ok and check.rolls == 1 and check.ordinary == 1
    assert check.line == ("1 roll verified; the seed was revealed during the match, so the 1 roll after it "
                          "was ordinary dice")
