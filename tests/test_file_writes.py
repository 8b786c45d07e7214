"""Issue 35.17: every file bgboard writes is written whole or not at all, and never through
a link someone planted in its directory (controller/files.py `write_atomically`).

`choices.tmp` made a symlink in the state directory once made the table's language choice
overwrite the link's target, and `choices.json` then became that link. Each file the
program writes is tried here with links at the fixed temporary names writers used
(`NAME.tmp`) and at the file's own name: the link's target is never touched, and the file
ends up a regular file with the new content.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.controller import ControllerConfig
from controller.files import write_atomically
from controller.online.session import SavedOnline
from controller.settings import Settings, save_settings
from controller.table.choices import CHOICES_FILE, TableChoices
from controller.web.dialog import save_dialog

SECRET = "the link's target: never written\n"


def _plant(directory: Path, names: list[str]) -> Path:
    """Links named `names` in `directory`, all to one file outside it."""
    directory.mkdir(parents=True, exist_ok=True)
    target = directory.parent / "target.txt"
    target.write_text(SECRET)
    for name in names:
        (directory / name).symlink_to(target)
    return target


def _written_plainly(path: Path, target: Path) -> None:
    assert target.read_text() == SECRET
    assert path.is_file() and not path.is_symlink()
    assert not [p for p in path.parent.iterdir() if p.name.endswith(".tmp") and not p.is_symlink()]


def test_the_tables_choices_never_follow_a_planted_link(tmp_path: Path) -> None:
    state = tmp_path / "state"
    path = state / CHOICES_FILE
    target = _plant(state, [path.with_suffix(".tmp").name])
    choices = TableChoices(state, ControllerConfig(language="en", tutor="off"))
    choices.keep(ControllerConfig(language="da", tutor="bad"))
    _written_plainly(path, target)
    assert json.loads(path.read_text())["language"] == "da"


def test_a_link_at_the_files_own_name_is_replaced_not_followed(tmp_path: Path) -> None:
    state = tmp_path / "state"
    path = state / CHOICES_FILE
    target = _plant(state, [path.name])
    TableChoices(state, ControllerConfig()).keep(ControllerConfig(language="sv"))
    _written_plainly(path, target)


def test_the_simulators_dialog_never_follows_a_planted_link(tmp_path: Path) -> None:
    path = tmp_path / "cfg" / "simulator.json"
    target = _plant(path.parent, [path.with_suffix(".tmp").name])
    save_dialog(path, {"length": 7})
    _written_plainly(path, target)
    assert json.loads(path.read_text()) == {"length": 7}


def test_the_online_state_and_the_settings_never_follow_a_planted_link(tmp_path: Path) -> None:
    state = tmp_path / "state"
    target = _plant(state, ["online.json", "config.toml"])
    SavedOnline("127.0.0.1:1337", "Guest_anna", 4).save(state / "online.json")
    save_settings(Settings(), state / "config.toml")
    _written_plainly(state / "online.json", target)
    _written_plainly(state / "config.toml", target)
    assert SavedOnline.load(state / "online.json") == SavedOnline("127.0.0.1:1337", "Guest_anna", 4)


def test_a_write_that_fails_leaves_the_old_file(tmp_path: Path) -> None:
    path = tmp_path / "record.mat"
    write_atomically(path, "old\n")
    with pytest.raises(TypeError):
        write_atomically(path, 42)  # type: ignore[arg-type]
    assert path.read_text() == "old\n" and [p.name for p in tmp_path.iterdir()] == ["record.mat"]
