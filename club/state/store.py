"""The club's directory: `club.json`, the night's whole state, written atomically.

Every change is saved before the hub does anything that depends on it (a result is on disk
before the board is told to forget it), through `controller.files.write_atomically`, so a
hub killed at any moment finds either the state before a change or after it, never half.
A file that does not load is one line (`ClubFileError`) and is left as it is: nothing is
overwritten, nothing lost.
"""
from __future__ import annotations

import json
import uuid
from pathlib import Path

from club.state.codec import StateFileError, decode, encode
from club.state.model import ClubState
from controller.errors import BgboardError
from controller.files import read_text_bounded, write_atomically

STATE_FILE = "club.json"


class ClubFileError(BgboardError):
    """The club's directory or its state file cannot be used (one line)."""


def state_path(directory: Path) -> Path:
    return directory / STATE_FILE


def create(directory: Path, hub_name: str) -> ClubState:
    """A new club directory with an empty night; refused when it already holds one."""
    if state_path(directory).exists():
        raise ClubFileError(f"{directory} already holds a club ({STATE_FILE}): nothing changed")
    state = ClubState(hub_id=str(uuid.uuid4()), hub_name=hub_name)
    save(directory, state)
    return state


def load(directory: Path) -> ClubState:
    path = state_path(directory)
    try:
        text = read_text_bounded(path)
    except FileNotFoundError:
        raise ClubFileError(f"{directory} is no club directory (no {STATE_FILE}): bgboard club init DIR") from None
    except (OSError, ValueError) as exc:
        raise ClubFileError(f"{path}: cannot read: {getattr(exc, 'strerror', None) or exc}") from None
    try:
        return decode(json.loads(text))
    except json.JSONDecodeError as exc:
        raise ClubFileError(f"{path}: not JSON (line {exc.lineno}): left as it is") from None
    except StateFileError as exc:
        raise ClubFileError(f"{path}: {exc}: left as it is") from None


def save(directory: Path, state: ClubState) -> None:
    try:
        write_atomically(state_path(directory), json.dumps(encode(state), ensure_ascii=False, indent=1) + "\n",
                         mode=0o600)
    except OSError as exc:
        raise ClubFileError(f"cannot save {state_path(directory)}: {exc.strerror or exc}") from None
