"""Damaged saved matches, as real files: every loaded match is held to the rules of one
being played; a damaged file is set aside (renamed, named in one line) and a new match
starts, and neither `bgboard sim` nor `bgboard run` exits for it."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from controller.engine.match import Match
from controller.engine.match_settings import MatchSettings
from controller.records import saved
from controller.records.store import TableStore

REPO = Path(__file__).resolve().parent.parent


def _mid_move() -> Match:
    """White's opening 3-1 with one step played (a `partial` and `steps` to damage)."""
    m = Match.new(MatchSettings(length=5)).roll("white", (3, 1)).match
    plan = m.plan
    assert plan is not None
    return m.step("white", plan.next_steps(m.partial)[0]).match


def _doc(change: Callable[[dict[str, Any]], None]) -> bytes:
    """A saved match with `change` made to its match data and a fresh checksum (so only
    the validation can catch it, as after an edit by hand)."""
    data = json.loads(saved.encode(_mid_move()))["match"]
    change(data)
    doc = {"format": saved.FORMAT, "sha256": saved._digest(data), "match": data}
    return json.dumps(doc).encode()


def _set(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    return lambda d: d.__setitem__(key, value)


def _winner_mid_game(d: dict[str, Any]) -> None:
    d["winner"] = "white"


DAMAGED: dict[str, bytes] = {
    "deep nesting": b'{"format": "bgboard-saved-match/1", "match": ' + b"[" * 200_000 + b"]" * 200_000 + b"}",
    "cube Infinity": _doc(_set("cube", 1)).replace(b'"cube": 1', b'"cube": Infinity'),
    "cube 1e400": _doc(_set("cube", 1)).replace(b'"cube": 1', b'"cube": 1e400'),
    "cube of 5000 digits": _doc(_set("cube", 1)).replace(b'"cube": 1', b'"cube": ' + b"7" * 5000),
    "cube 3": _doc(_set("cube", 3)),
    "cube -4": _doc(_set("cube", -4)),
    "cube 2^70": _doc(_set("cube", 2**70)),
    "cube 2.0": _doc(_set("cube", 2.0)),
    "cube 2 in the centre": _doc(_set("cube", 2)),
    "score 99-99 of 5": _doc(_set("score", [99, 99])),
    "negative score": _doc(_set("score", [-1, 0])),
    "score the games do not add up to": _doc(_set("score", [2, 0])),
    "partial unrelated": _doc(_set("partial", "4HPwATDgc/ABMA".replace("4", "0"))),
    "garbage steps": _doc(_set("steps", [[30, 2, 9, False]])),
    "a step with no checker": _doc(_set("steps", [[2, 1, 1, False]])),
    "steps as a string": _doc(_set("steps", "13/10")),
    "winner mid-game": _doc(_winner_mid_game),
    "game number past the history": _doc(_set("game", 7)),
    "clock with Infinity": _doc(_set("clock", {"mode": "timer", "banks": [1e308 * 10, 0], "running": None,
                                               "since": 0})),
    "not JSON": b"\x00\xff garbage",
    "a list": b"[]",
}


@pytest.mark.parametrize("name", sorted(DAMAGED))
def test_a_damaged_file_is_set_aside_and_named(tmp_path: Path, name: str,
                                              caplog: pytest.LogCaptureFixture) -> None:
    (tmp_path / saved.FILE_NAME).write_bytes(DAMAGED[name])
    store = TableStore(tmp_path)
    assert store.load(0.0) is None  # a new match starts
    aside = tmp_path / (saved.FILE_NAME + saved.DAMAGED_SUFFIX + "1")
    assert aside.read_bytes() == DAMAGED[name] and not (tmp_path / saved.FILE_NAME).exists()
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 1 and str(aside) in lines[0] and "a new match starts" in lines[0]
    assert len(lines[0]) < 400 and "\n" not in lines[0]
    assert store.damaged == lines[0]


def test_a_good_file_still_loads(tmp_path: Path) -> None:
    match = _mid_move()
    saved.save_match(tmp_path, match)
    assert TableStore(tmp_path).load(0.0) == match
    assert saved.decode(_doc(lambda d: None)) == match  # the test's own re-encoding is faithful


def test_bgboard_sim_headless_starts_a_new_match_over_a_damaged_file(tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir()
    (state / saved.FILE_NAME).write_bytes(DAMAGED["cube Infinity"])
    script = tmp_path / "s.txt"
    script.write_text("restart\nwait 100\n")
    proc = subprocess.run([sys.executable, "-m", "bgboard.cli", "sim", "--headless", "--script", str(script),
                           "--state-dir", str(state)], capture_output=True, text=True, cwd=REPO, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    assert (state / (saved.FILE_NAME + saved.DAMAGED_SUFFIX + "1")).exists()
    assert proc.stderr.count("is damaged") == 1, proc.stderr


def test_bgboard_run_starts_a_new_match_over_a_damaged_file(tmp_path: Path) -> None:
    (tmp_path / saved.FILE_NAME).write_bytes(DAMAGED["deep nesting"])
    from board_process import board_port, run_on_board

    with board_port() as port:
        proc = run_on_board(port, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    damaged = [line for line in proc.stderr.splitlines() if "is damaged" in line]
    assert len(damaged) == 1 and "ERROR" in damaged[0] and "match.json.damaged-1" in damaged[0]


def _two_games() -> Match:
    """A 15-point match played by random commands until its second game is under way
    (game 1 over, game 2 a few turns in, White or Black to roll)."""
    from match_driver import random_command
    import random

    rng = random.Random(11)
    m = Match.new(MatchSettings(length=15))
    while not (m.game == 2 and len(m.history[-1].actions) >= 6 and m.phase == "roll"):
        m = random_command(m, rng).match
        assert not m.is_over
    return m


def _history_doc(change: Callable[[list[dict[str, Any]]], None]) -> bytes:
    """A saved mid-match with `change` made to its history and a fresh checksum."""
    data = json.loads(saved.encode(_two_games()))["match"]
    change(data["history"])
    doc = {"format": saved.FORMAT, "sha256": saved._digest(data), "match": data}
    return json.dumps(doc).encode()


def _turns(game: dict[str, Any]) -> list[int]:
    return [i for i, a in enumerate(game["actions"]) if a["type"] == "turn"]


def _repeat_first_game(history: list[dict[str, Any]]) -> None:
    history[1]["actions"] = history[0]["actions"] + history[1]["actions"]


def _duplicate_turn(history: list[dict[str, Any]]) -> None:
    i = _turns(history[0])[3]
    history[0]["actions"].insert(i, history[0]["actions"][i])


def _swap_turns(history: list[dict[str, Any]]) -> None:
    actions = history[0]["actions"]
    i, j = _turns(history[0])[2:4]
    actions[i], actions[j] = actions[j], actions[i]


def _change_step(history: list[dict[str, Any]]) -> None:
    turn = next(history[0]["actions"][i] for i in _turns(history[0])[1:] if history[0]["actions"][i]["steps"])
    frm, to, die, hit = turn["steps"][0]
    turn["steps"][0] = [frm - 1, to - 1, die, hit] if to > 1 else [frm, to, die, not hit]


def _change_dice(history: list[dict[str, Any]]) -> None:
    turn = next(history[0]["actions"][i] for i in _turns(history[0])[1:] if history[0]["actions"][i]["steps"])
    turn["dice"] = [d % 6 + 1 for d in turn["dice"]]


IMPOSSIBLE_HISTORY = {"repeats the first game's actions": _repeat_first_game, "a duplicated turn": _duplicate_turn,
                      "two turns swapped": _swap_turns, "a step changed": _change_step,
                      "the dice changed": _change_dice}


@pytest.mark.parametrize("name", sorted(IMPOSSIBLE_HISTORY))
def test_a_history_play_could_not_make_is_set_aside(tmp_path: Path, name: str,
                                                     caplog: pytest.LogCaptureFixture) -> None:
    """Issue 23 item 1: a checksum that is right does not make a history possible. Each of
    these single edits is refused at load, set aside as damaged, with one line."""
    raw = _history_doc(IMPOSSIBLE_HISTORY[name])
    (tmp_path / saved.FILE_NAME).write_bytes(raw)
    store = TableStore(tmp_path)
    assert store.load(0.0) is None
    assert (tmp_path / (saved.FILE_NAME + saved.DAMAGED_SUFFIX + "1")).read_bytes() == raw
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 1 and "is damaged" in lines[0] and "game " in lines[0], lines


def test_a_history_as_played_loads_at_every_state(tmp_path: Path) -> None:
    """The replay refuses nothing play makes: every state of a random match, saved and
    loaded, comes back as it was (two games and more, cube actions, passes)."""
    from match_driver import random_command
    import random

    rng = random.Random(5)
    m = Match.new(MatchSettings(length=3))
    while not m.is_over:
        m = random_command(m, rng, step_share=0.3).match
        assert saved.decode(saved.encode(m)) == m


def test_the_network_is_given_legal_boards_only() -> None:
    """The edge itself: an impossible board (16 checkers, a negative count, both colours on
    one point) is a one-line ValueError before it reaches gnubg-nn's C code."""
    from controller.analysis.evaluator import Evaluator
    from controller.engine.position import Position

    start = Position.initial().mine
    too_many = (start[:5] + (6,) + start[6:], start)
    negative = ((-1,) + start[1:], start)
    both = (start, (1,) + start[1:])  # a checker on the mover's 1-point, under the opponent's 24
    evaluator = Evaluator()
    for board in (too_many, negative, both):
        with pytest.raises(ValueError, match="not a legal board"):
            evaluator.chances(board)
        with pytest.raises(ValueError, match="not a legal board"):
            evaluator.moves(board, 3, 1)
    assert 0.4 < evaluator.win_chance((start, start)) < 0.6


class _NoPermission(saved.OsFileOps):
    """The real file system, where match.json cannot be read (EACCES: root reads any file,
    so the refusal a user meets is made here)."""

    def read(self, path: str) -> bytes | None:
        if path.endswith(saved.FILE_NAME):
            raise PermissionError(13, "Permission denied")
        return super().read(path)


def test_an_unreadable_saved_match_is_set_aside_never_overwritten(tmp_path: Path,
                                                                   caplog: pytest.LogCaptureFixture) -> None:
    """Issue 23 item 2: match.json that cannot be read was replaced by the new match's
    first save (a 2-0 match became 0-0). It is set aside as a damaged one is."""
    old = saved.encode(_two_games())
    (tmp_path / saved.FILE_NAME).write_bytes(old)
    store = TableStore(tmp_path, ops=_NoPermission())
    assert store.load(0.0) is None
    assert store.save(Match.new(MatchSettings(length=3)))
    assert (tmp_path / (saved.FILE_NAME + saved.DAMAGED_SUFFIX + "1")).read_bytes() == old
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 1 and "cannot be read (Permission denied)" in lines[0] and "damaged-1" in lines[0]


class _NoPermissionNoRename(_NoPermission):
    def replace(self, src: str, dst: str) -> None:
        if src.endswith(saved.FILE_NAME):
            raise PermissionError(13, "Permission denied")
        super().replace(src, dst)


def test_an_unreadable_saved_match_that_cannot_be_moved_is_not_saved_over(tmp_path: Path) -> None:
    old = saved.encode(_two_games())
    (tmp_path / saved.FILE_NAME).write_bytes(old)
    store = TableStore(tmp_path, ops=_NoPermissionNoRename())
    assert store.load(0.0) is None and "not saved over" in store.damaged
    assert not store.save(Match.new(MatchSettings(length=3)))
    assert (tmp_path / saved.FILE_NAME).read_bytes() == old
    assert "unreadable and kept" in store.status.line


@pytest.mark.parametrize("kind", ["fifo", "/dev/zero", "5 MB"])
def test_a_saved_match_that_is_no_file_is_set_aside_at_once(tmp_path: Path, kind: str) -> None:
    """Issue 23 item 5: a FIFO hung the start (Ctrl-C did not help), /dev/zero was a
    MemoryError traceback, a large file was read whole."""
    path = tmp_path / saved.FILE_NAME
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "/dev/zero":
        path.symlink_to("/dev/zero")
    else:
        path.write_bytes(b" " * (5 * 1024 * 1024))
    store = TableStore(tmp_path)
    assert store.load(0.0) is None
    assert "cannot be read" in store.damaged and "damaged-1" in store.damaged
    assert not path.exists() and os.path.lexists(str(path) + saved.DAMAGED_SUFFIX + "1")


@pytest.mark.parametrize("kind", ["fifo", "/dev/zero"])
def test_the_profile_and_the_config_are_read_bounded(tmp_path: Path, kind: str) -> None:
    """Issue 23 item 5: the profile and config.toml read at start are refused in one line
    when they are no regular file (a FIFO hung the start, /dev/zero a MemoryError)."""
    from controller.board.profile import load_profile
    from controller.errors import ProfileError
    from controller.settings import load_settings

    path = tmp_path / "hostile.toml"
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")
    with pytest.raises(ProfileError, match="not a regular file"):
        load_profile(path)
    with pytest.raises(ProfileError, match="not a regular file"):
        load_settings(path, env={}, on_pi=False)


def test_a_temp_file_that_is_a_link_is_not_followed(tmp_path: Path) -> None:
    """Issue 23 item 9: match.json.tmp as a symlink made the save write into its target."""
    target = tmp_path / "elsewhere"
    target.write_text("precious")
    (tmp_path / (saved.FILE_NAME + saved.TEMP_SUFFIX)).symlink_to(target)
    match = _mid_move()
    saved.save_match(tmp_path, match)
    assert target.read_text() == "precious"
    assert saved.load_latest(tmp_path) == match
    assert not os.path.lexists(tmp_path / (saved.FILE_NAME + saved.TEMP_SUFFIX))
