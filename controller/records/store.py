"""The table's saved match: resume at start, save after each confirmed action, and say so
at once when saving fails.

A full or read-only state directory must never lose moves without a word. When a save
fails, :class:`TableStore` keeps the match to save, logs one line at ERROR, and keeps a
:class:`SaveStatus` the display and the page show ("cannot save: disk full — the match
goes on in memory"); it tries again every `retry_s` seconds (and at the next confirmed
action), logs once more when saving works again, and the status clears. Play goes on in
memory meanwhile, and the match record can still be exported from it.

A damaged saved match at start is set aside by ``saved.load_latest`` (renamed, named in
one line); here that line is logged and kept as `damaged`, and a new match starts: a bad
file never stops the program from starting.
"""
from __future__ import annotations

import errno
import fcntl
import logging
import os
import weakref
from dataclasses import dataclass
from pathlib import Path

from controller.dice import DiceSecret, DiceState
from controller.engine.match import Match
from controller.errors import BgboardError, RecordError
from controller.files import holder_of
from controller.outside_text import printable
from controller.records import saved

log = logging.getLogger("bgboard.store")
RETRY_S = 5.0
#: the display alternates the warning with the game's own prompt, this many seconds each
WARN_PERIOD_S = 3.0

_REASONS = {errno.ENOSPC: "full", errno.EDQUOT: "full", errno.EROFS: "readonly",
            errno.EACCES: "readonly", errno.EPERM: "readonly", errno.EEXIST: "kept",
            errno.EMFILE: "files", errno.ENFILE: "files"}
_REASON_WORDS = {"full": "disk full", "readonly": "the state directory is read-only",
                 "kept": "the saved match there is unreadable and kept",
                 "files": "too many open files", "other": "the disk failed"}


@dataclass(frozen=True)
class SaveStatus:
    """Whether the last save failed, and why (`reason`: full, readonly or other)."""

    failing: bool = False
    reason: str = ""
    detail: str = ""
    failures: int = 0

    @property
    def line(self) -> str:
        """The one line the page and the log show ('' when saving works)."""
        if not self.failing:
            return ""
        return f"cannot save: {_REASON_WORDS[self.reason]} — the match goes on in memory"


LOCK_NAME = "lock"
#: the state directories this process holds: the lock's descriptor and how many stores
#: use it (two tables of one process share it; another process is refused). The last
#: store of a directory to go lets it go.
_HELD: dict[str, list[int]] = {}


class DirectoryTaken(BgboardError):
    """Another process keeps a table in this state directory."""


def hold_directory(directory: Path) -> str | None:
    """Take the state directory for this process (``fcntl.flock`` on its lock file), or
    DirectoryTaken naming the process that has it: two simulators on one directory each
    saved over the other's match, and the last writer won. A directory that cannot be
    written is not locked (nothing will be saved there either). The key to
    :func:`let_go` with, None when nothing is held. The lock file is open read-only, so the
    directory's file system can still be remounted read-only under a running table."""
    key = os.path.realpath(directory)
    if key in _HELD:
        _HELD[key][1] += 1
        return key
    path = os.path.join(key, LOCK_NAME)
    try:
        os.makedirs(key, exist_ok=True)
        fd = os.open(path, os.O_RDONLY | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o644)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise DirectoryTaken(f"state directory {printable(key)} is in use by {holder_of(path)}: "
                             "one table per state directory (give another --state-dir)") from None
    _HELD[key] = [fd, 1]
    return key


def let_go(key: str) -> None:
    """One store of the directory `key` is gone; the last one closes the lock."""
    held = _HELD.get(key)
    if held is not None:
        held[1] -= 1
        if held[1] <= 0:
            del _HELD[key]
            os.close(held[0])


class TableStore:
    """Saving and resuming a table's match in one state directory (None: never saved)."""

    def __init__(self, directory: Path | None, *, retry_s: float = RETRY_S,
                 ops: saved.FileOps | None = None) -> None:
        self.directory = directory
        held = None if directory is None else hold_directory(directory)
        if held is not None:
            weakref.finalize(self, let_go, held)
        self.retry_s = retry_s
        self.saves = 0
        self.status = SaveStatus()
        self.damaged = ""  # the line about a damaged file set aside at start
        # False when the resumed save predates the players in the match's settings: the
        # table then takes who plays from its own settings, as that version did
        self.players_saved = True
        self._ops = ops or saved.OsFileOps()
        self._unsaved: tuple[Match, DiceSecret | None] | None = None
        self._retry_at = 0.0
        self._failed_at = 0.0
        self._kept = False  # a saved match that could be neither read nor moved aside: never saved over

    def load(self, now: float) -> Match | None:
        """The last saved match, put on this run's time origin (`now` on its clock), so a
        running match clock charges the time the program was down to nobody. None when
        there is none, or when it was damaged (set aside, one line logged): a new match
        starts."""
        resumed = self.resume(now)
        return None if resumed is None else resumed[0]

    def resume(self, now: float) -> tuple[Match, DiceState] | None:
        """As :meth:`load`, with the table's dice set to go on with the saved match's
        (its verifiable dice's secret included)."""
        if self.directory is None:
            return None
        try:
            found = saved.MatchStore(self.directory, self._ops).load_saved()
        except RecordError as exc:
            self.damaged = str(exc)
            self._kept = isinstance(exc, saved.KeptInPlace)
            log.error("%s", exc)
            return None
        if found is None:
            return None
        self.players_saved = found.players_saved
        match = found.match.resumed(now)
        return match, DiceState().adopt(match, found.dice)

    def save(self, match: Match, dice: DiceSecret | None = None, *, now: float = 0.0) -> bool:
        """Save `match` (and its dice secret); on failure keep it for a retry and report
        (never raises)."""
        if self.directory is None:
            return True
        self._unsaved = (match, dice)
        return self._write(now)

    def retry(self, now: float) -> None:
        """Try again a save that failed, once `retry_s` has passed since the last try."""
        if self._unsaved is not None and now >= self._retry_at:
            self._write(now)

    def _write(self, now: float) -> bool:
        assert self._unsaved is not None and self.directory is not None
        try:
            if self._kept and self._ops.exists(str(self.directory / saved.FILE_NAME)):
                raise saved.SaveFailed(f"the saved match {self.directory / saved.FILE_NAME} could not be read "
                                       "and is not saved over", errno.EEXIST)
            saved.save_match(self.directory, self._unsaved[0], self._ops, dice=self._unsaved[1])
        except saved.SaveFailed as exc:
            reason = _REASONS.get(exc.errno or 0, "other")
            first = not self.status.failing or reason != self.status.reason
            if not self.status.failing:
                self._failed_at = now
            self.status = SaveStatus(True, reason, str(exc), self.status.failures + 1)
            self._retry_at = now + self.retry_s
            if first:
                log.error("%s (%s); trying again every %.0f s", self.status.line, exc, self.retry_s)
            return False
        if self.status.failing:
            log.warning("saving works again after %d failed tries; the match is on disk",
                        self.status.failures)
            self.status = SaveStatus()
        self._unsaved = None
        self.saves += 1
        return True

    def warning(self, now: float) -> str | None:
        """The display's prompt key for the save warning while saving fails (the table
        shows it in place of the game's prompt): at once, then every other few seconds
        (the game's own prompt in between); None when the game's prompt is shown."""
        if not self.status.failing or int((now - self._failed_at) // WARN_PERIOD_S) % 2:
            return None
        shown = self.status.reason if self.status.reason in ("full", "readonly") else "other"
        return f"cannot_save_{shown}"
