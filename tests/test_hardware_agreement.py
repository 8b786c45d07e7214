"""A hardware profile must number each slot's sensor as the boards' chain does (a module's
place in the chain, then its multiplexer channel): `python -m hardware.design --check
--profile F` holds a profile against the boards and says in one line where it disagrees."""
from __future__ import annotations

from pathlib import Path

import pytest

from controller.board.profile import default_profile_path, load_profile
from hardware.design import agreement
from hardware.design.__main__ import main


def _edited(tmp_path: Path, old: str, new: str) -> Path:
    text = default_profile_path().read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "edited.toml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


def test_the_default_profile_agrees_with_the_boards() -> None:
    assert agreement.profile_problems(load_profile()) == []
    assert main(["--check", "--profile", str(default_profile_path())]) == 0


def test_two_sensors_swapped_are_named_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _edited(tmp_path, '"3" = [12, 13, 14, 15, 16, 17]', '"3" = [12, 13, 15, 14, 16, 17]')
    assert main(["--check", "--profile", str(path)]) == 1
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1
    assert "cell 3 slot 2 is sensor 15" in out[0] and "as 14 (P3-4)" in out[0] and "and 1 more" in out[0]


def test_a_matrix_of_another_size_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _edited(tmp_path, "cols = 13", "cols = 14")
    assert main(["--check", "--profile", str(path)]) == 1
    assert "14 × 14 = 196 sensors, the boards carry 182" in capsys.readouterr().out


def test_a_profile_that_is_not_one_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[board\n", encoding="utf-8")
    assert main(["--check", "--profile", str(bad)]) == 2
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1 and "not valid TOML" in out[0]
