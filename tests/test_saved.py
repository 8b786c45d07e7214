"""Saved matches: atomic saves, exact resume, damaged files kept aside, power loss."""
from __future__ import annotations

import copy
import os
import random
import sys
from pathlib import Path

import pytest

from controller.engine.errors import MatchStateError
from controller.engine.match import Match
from controller.engine.match_json import match_from_dict, match_to_dict
from controller.errors import RecordError
from controller.records.saved import (
    FILE_NAME,
    MatchStore,
    OsFileOps,
    load_latest,
    save_match,
)

sys.path.insert(0, str(Path(__file__).parent))
from match_driver import random_command


def states(seed: int, n: int, clock: str = "timer") -> list[Match]:
    """Successive states of a random match with a clock, times moving on."""
    rng = random.Random(seed)
    m = Match.new(length=5, clock=clock, confirm="button")
    out = [m]
    now = 0.0
    while len(out) < n and not m.is_over:
        now += rng.uniform(0.5, 4.0)
        t = random_command(m, rng, step_share=0.5, now=now)
        m = t.match
        out.append(m)
    return out


def test_resume_is_exact_for_every_state(tmp_path: Path) -> None:
    for m in states(1, 120) + states(2, 60, clock="tournament"):
        save_match(tmp_path, m)
        back = load_latest(tmp_path)
        assert back == m
        assert back is not None and back.match_id == m.match_id and back.history == m.history
    assert sorted(os.listdir(tmp_path)) == [FILE_NAME]  # no temporary file left


def test_nothing_saved_resumes_nothing(tmp_path: Path) -> None:
    assert load_latest(tmp_path / "missing") is None
    assert load_latest(tmp_path) is None


@pytest.mark.parametrize("damage", [
    lambda raw: raw[: len(raw) // 2],                      # truncated
    lambda raw: b"\x00\xff garbage",                       # not JSON
    lambda raw: raw.replace(b'"score": [', b'"score": [1', 1),  # edited: checksum mismatch
    lambda raw: b'{"format": "something else"}',
])
def test_damaged_file_is_reported_and_kept_aside(tmp_path: Path, damage) -> None:
    m = states(3, 30)[-1]
    save_match(tmp_path, m)
    path = tmp_path / FILE_NAME
    bad = damage(path.read_bytes())
    path.write_bytes(bad)
    with pytest.raises(RecordError) as info:
        load_latest(tmp_path)
    message = str(info.value)
    assert "\n" not in message and "damaged" in message and "match.json.damaged-1" in message
    assert (tmp_path / "match.json.damaged-1").read_bytes() == bad
    assert not path.exists()
    assert load_latest(tmp_path) is None
    # a new save does not touch the damaged copy; a second damage gets the next number
    save_match(tmp_path, m)
    path.write_bytes(b"{")
    with pytest.raises(RecordError, match="damaged-2"):
        load_latest(tmp_path)
    assert (tmp_path / "match.json.damaged-1").read_bytes() == bad


def test_disk_error_reports_one_line_and_keeps_the_old_save(tmp_path: Path) -> None:
    old, new = states(4, 40)[-2:]
    save_match(tmp_path, old)

    class Full(OsFileOps):
        def write(self, fd: int, data: bytes) -> int:
            raise OSError(28, "No space left on device")

    with pytest.raises(RecordError, match="No space left on device"):
        save_match(tmp_path, new, Full())
    assert load_latest(tmp_path) == old


class Killed(BaseException):
    """The process dies here (not an error the saver could catch)."""


class Counting:
    """Wraps a FileOps and kills the process at its `kill_at`-th call (1-based)."""

    def __init__(self, inner, kill_at: int | None = None) -> None:
        self.inner, self.kill_at, self.calls = inner, kill_at, 0
        self.names: list[str] = []

    def __getattr__(self, name: str):
        target = getattr(self.inner, name)

        def call(*args, **kwargs):
            self.calls += 1
            self.names.append(name)
            if self.calls == self.kill_at:
                raise Killed(name)
            return target(*args, **kwargs)
        return call


def test_kill_between_any_two_system_calls(tmp_path: Path) -> None:
    old, new = states(5, 50)[-2:]
    counter = Counting(OsFileOps())
    save_match(tmp_path / "count", new, counter)
    total = counter.calls
    assert total >= 8
    for k in range(1, total + 1):
        d = tmp_path / f"k{k}"
        save_match(d, old)
        ops = Counting(OsFileOps(), kill_at=k)
        with pytest.raises(Killed) as info:
            save_match(d, new, ops)
        resumed = load_latest(d)
        # the process died: the rename decides which state is there, never a torn one
        renamed = k > counter.names.index("replace") + 1
        assert resumed == (new if renamed else old), (k, info.value)
        # the next save after the restart works over whatever the dead one left behind
        save_match(d, new)
        assert load_latest(d) == new and sorted(os.listdir(d)) == [FILE_NAME]


class FakeDisk:
    """A file system that loses whatever was not fsynced when the power goes.

    File contents become durable on fsync of the file; names (creation, rename) on fsync
    of the directory: what POSIX promises and no more.
    """

    def __init__(self) -> None:
        self.names: dict[str, int] = {}
        self.durable_names: dict[str, int] = {}
        self.content: dict[int, bytearray] = {}
        self.durable: dict[int, bytes] = {}
        self.fds: dict[int, int | str] = {}
        self.dirs: set[str] = set()
        self.next = 1

    def power_cut(self) -> FakeDisk:
        disk = FakeDisk()
        disk.dirs = set(self.dirs)
        disk.names = dict(self.durable_names)
        disk.durable_names = dict(self.durable_names)
        disk.content = {i: bytearray(self.durable.get(i, b"")) for i in self.durable_names.values()}
        disk.durable = {i: bytes(c) for i, c in disk.content.items()}
        disk.next = self.next
        return disk

    def makedirs(self, path: str) -> None:
        self.dirs.add(path)

    def open(self, path: str, flags: int, mode: int = 0o644) -> int:
        fd = self.next
        self.next += 1
        if path in self.dirs:
            self.fds[fd] = path
            return fd
        if path not in self.names:
            if not flags & os.O_CREAT:
                raise FileNotFoundError(2, "No such file", path)
            self.names[path] = self.next
            self.content[self.next] = bytearray()
            self.next += 1
        if flags & os.O_TRUNC:
            self.content[self.names[path]] = bytearray()
        self.fds[fd] = self.names[path]
        return fd

    def write(self, fd: int, data: bytes) -> int:
        n = min(len(data), 1000)  # short writes, as a real write may do
        self.content[self.fds[fd]] += data[:n]  # type: ignore[index]
        return n

    def fsync(self, fd: int) -> None:
        target = self.fds[fd]
        if isinstance(target, str):
            self.durable_names = dict(self.names)
        else:
            self.durable[target] = bytes(self.content[target])

    def close(self, fd: int) -> None:
        del self.fds[fd]

    def replace(self, src: str, dst: str) -> None:
        self.names[dst] = self.names.pop(src)

    def read(self, path: str) -> bytes | None:
        inode = self.names.get(path)
        return None if inode is None else bytes(self.content[inode])

    def exists(self, path: str) -> bool:
        return path in self.names


def test_power_cut_between_any_two_system_calls_resumes_the_previous_state() -> None:
    old, new = states(6, 80)[-2:]
    base = FakeDisk()
    save_match("/state", old, base)
    counter = Counting(copy.deepcopy(base))
    save_match("/state", new, counter)
    total = counter.calls
    assert counter.names.count("write") > 2  # short writes make several write calls
    last_fsync = len(counter.names) - counter.names[::-1].index("fsync")
    for k in range(1, total + 1):
        disk = copy.deepcopy(base)
        with pytest.raises(Killed):
            save_match("/state", new, Counting(disk, kill_at=k))
        after = disk.power_cut()
        # until the directory's fsync is done the new name may be lost: the old state
        # resumes; once it is done (only closing the directory is left) the new one
        assert load_latest("/state", after) == (new if k > last_fsync else old), k
    # a save that returned survives the power cut
    disk = copy.deepcopy(base)
    save_match("/state", new, disk)
    assert load_latest("/state", disk.power_cut()) == new


def test_fake_disk_really_loses_unsynced_data() -> None:
    """The power-loss model is not a no-op: a save without fsync would be lost or torn."""
    disk = FakeDisk()
    disk.makedirs("/d")
    fd = disk.open("/d/x", os.O_WRONLY | os.O_CREAT)
    disk.write(fd, b"hello")
    disk.close(fd)
    assert disk.read("/d/x") == b"hello"
    assert disk.power_cut().read("/d/x") is None


def test_store_path(tmp_path: Path) -> None:
    assert MatchStore(tmp_path).path == tmp_path / FILE_NAME


@pytest.mark.parametrize(("length", "score"), [(5, (1, 2)), (5, (4, 0)), (7, (6, 6)), (3, (0, 2))])
def test_a_match_started_from_a_score_resumes_exactly(tmp_path: Path, length: int, score: tuple[int, int]) -> None:
    """`bgboard run --score 1-2` (and a practice position) starts a match mid-way: every
    state of it, to its end, is saved and comes back as it was (it used to be refused as
    damaged on load, and the next start began a new match: the confirmed play was lost)."""
    rng = random.Random(sum(score) + length)
    m = Match.from_score(Match.new(length=length, confirm="button").settings, score)
    now = 0.0
    for _ in range(400):
        save_match(tmp_path, m)
        assert load_latest(tmp_path) == m
        if m.is_over:
            break
        now += 1.0
        m = random_command(m, rng, step_share=0.5, now=now).match
    assert m.is_over and m.history[0].score_before == score



@pytest.mark.parametrize("start", [[9, 0], [-1, 0], [0, 5], [2, 1]])
def test_a_saved_match_whose_first_game_does_not_start_at_its_score_is_refused(start: list[int]) -> None:
    """The starting score is read from the first game; one past the length, below zero, or
    not the score the games add up to (1-2 and no game played) is not a match play makes."""
    data = match_to_dict(Match.from_score(Match.new(length=5, confirm="button").settings, (1, 2)))
    data["history"][0]["score_before"] = start
    with pytest.raises(MatchStateError, match="inconsistent"):
        match_from_dict(data)
