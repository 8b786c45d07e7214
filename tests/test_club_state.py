"""The club's state: names as the board takes them, the night's changes, and the one JSON
file loaded back exactly (a damaged one refused in one line and left as it was)."""
from __future__ import annotations

from pathlib import Path

import pytest

from club.state import night, store
from club.state.model import Board, ClubState, MatchResult
from club.tournament.model import Clock, RoundRules

RECORD = " 1 point match\n"


def _state(tmp_path: Path) -> ClubState:
    state = store.create(tmp_path, "Thursday club")
    for name in ["Anna", "Bjørn", "Carl", "Dora", "Eve"]:
        state = night.add_player(state, name)
    return state


@pytest.mark.parametrize("name", ["", "x" * 41, "Ann\nERROR forged", "Ann\x1b[2J", "Ann\u202eevil", " Ann"])
def test_a_name_the_board_would_refuse_is_refused_in_one_line(tmp_path: Path, name: str) -> None:
    state = _state(tmp_path)
    with pytest.raises(night.NightError) as refused:
        night.add_player(state, name)
    assert "\n" not in str(refused.value) and "\x1b" not in str(refused.value)


def test_a_name_is_entered_once(tmp_path: Path) -> None:
    state = _state(tmp_path)
    with pytest.raises(night.NightError, match="already"):
        night.add_player(state, "anna")
    assert night.add_player(state, "x" * 40).players[-1] == "x" * 40


def test_the_whole_night_loads_back_exactly(tmp_path: Path) -> None:
    state = _state(tmp_path)
    state = night.add_board(state, Board("b-1", "Table 1", "http://10.0.0.5:8080", "k" * 32))
    rules = (RoundRules(1), RoundRules(3, Clock(10, 8), crawford=False))
    state = night.start(state, "swiss", rules, 3, seed=42)
    first = state.tournaments[0].rounds[0].pairings[0]
    state = night.assign(state, first.match_id, "b-1")
    state = night.record(state, MatchResult(first.match_id, "b-1", first.white, first.black, 1, (1, 0), "white",
                                            RECORD, "2026-12-07T21:00:00Z"))
    state = night.correct(state, first.match_id, first.black, "White's checkers were set up wrong", "now")
    store.save(tmp_path, state)
    assert store.load(tmp_path) == state
    assert state.results[first.match_id].winner_name() == first.black


def test_a_damaged_file_is_one_line_and_is_left_as_it_was(tmp_path: Path) -> None:
    store.create(tmp_path, "club")
    path = store.state_path(tmp_path)
    for damaged in ['{"format": 1, "hub_id": 3}', "{not json", '{"format": 1, "hub_id": "h", "hub_name": "n", '
                    '"players": [], "boards": [], "tournaments": [], "assignments": {}, "results": {"m": 5}}']:
        path.write_text(damaged)
        with pytest.raises(store.ClubFileError) as refused:
            store.load(tmp_path)
        assert "\n" not in str(refused.value)
        assert path.read_text() == damaged


def test_init_refuses_a_directory_that_holds_a_club(tmp_path: Path) -> None:
    first = store.create(tmp_path, "club")
    with pytest.raises(store.ClubFileError, match="already"):
        store.create(tmp_path, "club")
    assert store.load(tmp_path) == first


def test_matches_go_to_free_boards_and_the_next_round_waits_for_the_results(tmp_path: Path) -> None:
    state = night.start(_state(tmp_path), "swiss", (RoundRules(1),), 2, seed=1)
    state = night.add_board(state, Board("b-1", "T1", "http://a:1", "k"))
    todo = night.unassigned(state)
    assert [p.match_id for p, _ in todo] == ["T1-R1-1", "T1-R1-2"]  # Eve, fifth, has the bye
    assert state.tournaments[0].rounds[0].byes == ("Eve",)
    state = night.assign(state, "T1-R1-1", "b-1")
    assert night.free_boards(state) == []
    with pytest.raises(night.NightError, match="not finished"):
        night.next_round(state)
    for p, _ in night.unassigned(state) + [(night.pairing(state, "T1-R1-1"), None)]:
        assert p is not None
        state = night.record(state, MatchResult(p.match_id, "b-1", p.white, p.black, 1, (1, 0), "white",
                                                RECORD, "t"))
    assert [b.board_id for b in night.free_boards(state)] == ["b-1"]
    with pytest.raises(night.NightError, match="already recorded"):
        night.record(state, state.results["T1-R1-1"])
    state = night.next_round(state)
    assert state.tournaments[0].rounds[-1].number == 2


def test_a_correction_names_a_player_of_the_match_and_a_reason(tmp_path: Path) -> None:
    state = night.start(_state(tmp_path), "knockout", (RoundRules(1), RoundRules(3)), None, seed=1)
    p = state.tournaments[0].rounds[0].pairings[0]
    state = night.record(state, MatchResult(p.match_id, "b", p.white, p.black, 1, (1, 0), "white", RECORD, "t"))
    with pytest.raises(night.NightError, match="did not play"):
        night.correct(state, p.match_id, "Nobody", "typo", "t")
    with pytest.raises(night.NightError, match="reason"):
        night.correct(state, p.match_id, p.black, "", "t")
    with pytest.raises(night.NightError, match="no result"):
        night.correct(state, "T9-X", p.black, "typo", "t")
