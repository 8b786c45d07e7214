"""Saved matches: the match written atomically after every confirmed action, resumed on start.

One file, ``match.json`` in the state directory, always holds the last confirmed state
(the whole :class:`~controller.engine.match.Match`: settings, board, turn, cube, offers,
clocks and the history of every game). A save never touches that file until the new
state is safely on disk:

1. write the JSON to ``match.json.tmp`` in the same directory and ``fsync`` it;
2. ``rename`` it over ``match.json`` (atomic on POSIX file systems);
3. ``fsync`` the directory, so the rename itself survives a power cut.

A power cut or a kill at any point leaves either the previous state or the new one,
never a torn file. A match with verifiable dice also keeps their secret (seed, phrases,
whether revealed: ``controller/dice/secret.py``) under ``dice``, so a resumed match goes on
with the same rolls; the file is the board's own and the seed is shown nowhere before the
reveal. The JSON carries a SHA-256 of its match data, so a file damaged some
other way (a bad SD card, an edit by hand) is detected: :func:`load_latest` then moves it
aside to ``match.json.damaged-<n>`` (never overwriting an earlier one) and raises
:class:`~controller.errors.RecordError` with one line naming both files; the caller shows
the line and starts a new match. Saving never replaces a damaged file silently because it
has been moved aside first. A file that cannot be read at all (no permission, not a
regular file, past ``files.MAX_BYTES``) is set aside the same way; when it cannot be moved
either, :class:`KeptInPlace` says so and the store saves nothing over it.

The file system calls go through a small :class:`FileOps` object (``OsFileOps`` by
default), so tests can stop a save between any two calls.
"""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple, Protocol

from controller.dice.secret import DiceSecret
from controller.engine.errors import EngineError
from controller.engine.match import Match
from controller.engine.match_json import match_from_dict, match_to_dict
from controller.errors import RecordError
from controller.files import read_bounded
from controller.json_value import JsonObject
from controller.records.saved_history import check_history

FILE_NAME = "match.json"
TEMP_SUFFIX = ".tmp"
DAMAGED_SUFFIX = ".damaged-"
FORMAT = "bgboard-saved-match/1"


class FileOps(Protocol):
    """The system calls a save and a load make (os-like signatures)."""

    def makedirs(self, path: str) -> None: ...
    def open(self, path: str, flags: int, mode: int = 0o644) -> int: ...
    def write(self, fd: int, data: bytes) -> int: ...
    def fsync(self, fd: int) -> None: ...
    def close(self, fd: int) -> None: ...
    def replace(self, src: str, dst: str) -> None: ...
    def read(self, path: str) -> bytes | None: ...
    def exists(self, path: str) -> bool: ...


class OsFileOps:
    """The real file system."""

    def makedirs(self, path: str) -> None:
        os.makedirs(path, exist_ok=True)

    def open(self, path: str, flags: int, mode: int = 0o644) -> int:
        return os.open(path, flags, mode)

    def write(self, fd: int, data: bytes) -> int:
        return os.write(fd, data)

    def fsync(self, fd: int) -> None:
        os.fsync(fd)

    def close(self, fd: int) -> None:
        os.close(fd)

    def replace(self, src: str, dst: str) -> None:
        os.replace(src, dst)

    def read(self, path: str) -> bytes | None:
        try:
            return read_bounded(path)
        except FileNotFoundError:
            return None

    def exists(self, path: str) -> bool:
        return os.path.exists(path)


def _digest(match_data: JsonObject) -> str:
    canonical = json.dumps(match_data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


class Saved(NamedTuple):
    """A saved match and the secret of its verifiable dice (None for other dice)."""

    match: Match
    dice: DiceSecret | None = None
    players_saved: bool = True  # False for a save from before who-plays-which-colour was saved


def _checked(data: JsonObject, dice: object) -> JsonObject:
    """What the checksum covers: the match data, with the dice secret when there is one."""
    return data if dice is None else {"match": data, "dice": dice}


def encode(match: Match, dice: DiceSecret | None = None) -> bytes:
    """The bytes of a saved match."""
    data = match_to_dict(match)
    secret = None if dice is None else dice.to_dict()
    doc: JsonObject = {"format": FORMAT, "sha256": _digest(_checked(data, secret)), "match": data}
    if secret is not None:
        doc["dice"] = secret
    # one line: an indented dump runs json's pure-Python encoder (indent turns its C one
    # off), five times slower, and the table saves after every change of the match (12 ms
    # for a 7-point match here, so about 80 on a Zero 2 W; 2 ms one line)
    return (json.dumps(doc, sort_keys=True) + "\n").encode("utf-8")


def decode(raw: bytes) -> Match:
    """The match in saved bytes; ValueError saying why they are not a good saved match."""
    return decode_saved(raw).match


def decode_saved(raw: bytes) -> Saved:
    """The match and dice secret in saved bytes; ValueError saying why they are not good."""
    try:
        doc = json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            raise ValueError("not a bgboard saved match")
        data = doc.get("match")
        secret = doc.get("dice")
        if not isinstance(data, dict) or doc.get("sha256") != _digest(_checked(data, secret)):
            raise ValueError("checksum mismatch")
        match = check_history(match_from_dict(data))
        settings = data.get("settings")
        players_saved = isinstance(settings, dict) and "white_player" in settings
        return Saved(match, None if secret is None else DiceSecret.from_dict(secret), players_saved)
    except RecursionError:
        raise ValueError("nested too deeply to be a saved match") from None
    except EngineError as exc:
        raise ValueError(str(exc)[:200]) from None
    except (ValueError, TypeError, KeyError, AttributeError) as exc:  # JSON, 5,000 digits, a bad dice secret
        raise ValueError(f"not a saved match ({type(exc).__name__}: {str(exc)[:120]})") from None


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not a number a saved match holds")


class KeptInPlace(RecordError):
    """A saved match that could not be used nor moved aside: the table must not save over
    it (an unreadable file replaced by a new match's first save lost a 2-0 match)."""


class SaveFailed(RecordError):
    """A save the disk refused (`errno` says why: ENOSPC full, EROFS read-only, ...); the
    previous save is intact."""

    def __init__(self, message: str, errno: int | None = None) -> None:
        super().__init__(message)
        self.errno = errno


@dataclass
class MatchStore:
    """The saved match of one state directory."""

    directory: Path
    ops: FileOps = field(default_factory=OsFileOps)

    @property
    def path(self) -> Path:
        return self.directory / FILE_NAME

    def save(self, match: Match, dice: DiceSecret | None = None) -> None:
        """Write `match` (and its dice secret) atomically; SaveFailed (the old save
        intact) if the disk fails."""
        data = encode(match, dice)
        final = str(self.path)
        temp = final + TEMP_SUFFIX
        try:
            self.ops.makedirs(str(self.directory))
            fd = self._open_temp(temp)
            try:
                view = memoryview(data)
                while view:
                    view = view[self.ops.write(fd, view.tobytes()):]
                self.ops.fsync(fd)
            finally:
                self.ops.close(fd)
            self.ops.replace(temp, final)
            self._sync_directory()
        except OSError as exc:
            raise SaveFailed(f"cannot save the match to {final}: {exc.strerror or exc}", exc.errno) from None

    def _open_temp(self, temp: str) -> int:
        """The temporary file, new: never through a link someone put in its place (the
        save wrote into the link's target), never into a file another process holds."""
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_TRUNC
        try:
            return self.ops.open(temp, flags, 0o644)
        except FileExistsError:  # a temp left by a save cut short, or a link: remove it
            os.unlink(temp)
            return self.ops.open(temp, flags, 0o644)

    def _sync_directory(self) -> None:
        fd = self.ops.open(str(self.directory), os.O_RDONLY)
        try:
            self.ops.fsync(fd)
        finally:
            self.ops.close(fd)

    def load_latest(self) -> Match | None:
        """The last saved match, or None when there is none. A damaged file is moved aside
        and reported by RecordError (one line naming both files)."""
        saved = self.load_saved()
        return None if saved is None else saved.match

    def load_saved(self) -> Saved | None:
        """As :meth:`load_latest`, with the secret of the match's verifiable dice."""
        final = str(self.path)
        try:
            raw = self.ops.read(final)
        except OSError as exc:  # unreadable (EACCES), not a file, too large: kept, never saved over
            aside = self._move_aside(final, f"cannot be read ({exc.strerror or exc})")
            raise RecordError(f"saved match {final} cannot be read ({exc.strerror or exc}); kept as {aside}, "
                              "a new match starts") from None
        if raw is None:
            return None
        try:
            return decode_saved(raw)
        except ValueError as exc:
            aside = self._move_aside(final, "is damaged")
            raise RecordError(f"saved match {final} is damaged ({exc}); kept as {aside}, "
                              "a new match starts") from None

    def _move_aside(self, final: str, why: str) -> str:
        n = 1
        while self.ops.exists(f"{final}{DAMAGED_SUFFIX}{n}"):
            n += 1
        aside = f"{final}{DAMAGED_SUFFIX}{n}"
        try:
            self.ops.replace(final, aside)
            self._sync_directory()
        except OSError as exc:
            raise KeptInPlace(f"saved match {final} {why} and cannot be moved aside "
                              f"({exc.strerror or exc}): it is not saved over") from None
        return aside


def save_match(directory: Path | str, match: Match, ops: FileOps | None = None,
               dice: DiceSecret | None = None) -> None:
    """Save `match` (with its dice secret, if any) atomically into the state directory."""
    MatchStore(Path(directory), ops or OsFileOps()).save(match, dice)


def load_latest(directory: Path | str, ops: FileOps | None = None) -> Match | None:
    """Resume: the last saved match of the state directory, or None."""
    return MatchStore(Path(directory), ops or OsFileOps()).load_latest()
