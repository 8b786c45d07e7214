"""The hub against boards that follow the club protocol (tests/club_fake_board.py): pairing,
a Swiss and a knockout played to the end, the contract's refusals, a board cut off and a
hub restarted from its directory. Each result is the engine's own record of a real match."""
from __future__ import annotations

import asyncio
import logging
import random
from pathlib import Path

import pytest

from club.hub.hub import Hub
from club.state import night, store
from club.state.night import NightError
from club.tournament.model import RoundRules
from club.tournament.swiss import standings
from club_fake_board import FakeBoards
from controller.records.replay import replay_text

PLAYERS = ["Anna", "Bjørn", "Carl", "Dora", "Eve", "Finn", "Gry", "Hans"]


def _club(tmp_path: Path, boards: FakeBoards, players: list[str] = PLAYERS) -> Hub:
    state = store.create(tmp_path, "Thursday club")
    for name in players:
        state = night.add_player(state, name)
    store.save(tmp_path, state)
    hub = Hub(tmp_path, boards.client)
    for board in boards.boards:
        asyncio.run(hub.pair(board.address, board.code))
    return hub


def _play_out(hub: Hub, boards: FakeBoards, rng: random.Random) -> dict[str, str]:
    """Every board plays its match to a random winner, step after step, until the
    tournament is over; the winners as the boards decided them."""
    decided: dict[str, str] = {}
    for _ in range(50):
        asyncio.run(hub.step())
        current = hub.state.current()
        if current is not None and night.finished(hub.state, current):
            return decided
        for board in boards.boards:
            if board.assignment is not None:
                side = rng.choice(["white", "black"])
                decided[str(board.assignment["match_id"])] = str(board.assignment[side])
                board.finish(side, seed=rng.randrange(1000))
    raise AssertionError("the tournament did not end")


def test_a_board_is_paired_with_its_code_or_its_page_link(tmp_path: Path) -> None:
    boards = FakeBoards(3)
    store.create(tmp_path, "club")
    hub = Hub(tmp_path, boards.client)
    first = asyncio.run(hub.pair(boards.boards[0].address, boards.boards[0].code))
    second = asyncio.run(hub.pair(f"{boards.boards[1].address}/?token={boards.boards[1].code}", None))
    assert [b.board_id for b in store.load(tmp_path).boards] == [first.board_id, second.board_id]
    assert second.hub_key == boards.boards[1].hub_key
    before = store.state_path(tmp_path).read_bytes()
    with pytest.raises(NightError, match="wrong code"):
        asyncio.run(hub.pair(boards.boards[2].address, "not-the-code"))
    with pytest.raises(NightError, match="HOST:PORT"):
        asyncio.run(hub.pair("ftp://x", "c"))
    assert store.state_path(tmp_path).read_bytes() == before


def test_a_board_paired_to_another_hub_refuses_until_its_links_are_renewed(tmp_path: Path) -> None:
    boards = FakeBoards(1)
    board = boards.boards[0]
    other = tmp_path / "other"
    store.create(other, "the other club")
    asyncio.run(Hub(other, boards.client).pair(board.address, board.code))
    mine = tmp_path / "mine"
    store.create(mine, "club")
    hub = Hub(mine, boards.client)
    with pytest.raises(NightError) as refused:
        asyncio.run(hub.pair(board.address, board.code))
    assert "paired to another club hub (the other club)" in str(refused.value)
    assert store.load(mine).boards == ()
    board.new_page_links()
    asyncio.run(hub.pair(board.address, board.code))
    assert len(store.load(mine).boards) == 1


def test_a_three_round_swiss_runs_to_the_end_on_fewer_boards_than_matches(tmp_path: Path) -> None:
    boards = FakeBoards(3)  # four matches a round: one waits for a free board
    hub = _club(tmp_path, boards)
    hub.commit(night.start(hub.state, "swiss", (RoundRules(1), RoundRules(3)), 3, seed=9))
    decided = _play_out(hub, boards, random.Random(4))
    state = store.load(tmp_path)
    assert len(state.results) == 12 and night.winners(state) == decided
    for result in state.results.values():
        report = replay_text(result.record)
        assert report.ok and report.in_progress is None
        assert result.length == (1 if result.match_id.startswith("T1-R1-") else 3)
    tournament = state.tournaments[0]
    assert standings(PLAYERS, tournament.rounds, decided, 9) == standings(PLAYERS, tournament.rounds,
                                                                           night.winners(state), 9)
    met = [frozenset((p.white, p.black)) for r in tournament.rounds for p in r.pairings]
    assert len(met) == len(set(met))  # no rematch in 3 rounds of 8


def test_a_knockout_with_its_consolation_runs_after_the_swiss(tmp_path: Path) -> None:
    boards = FakeBoards(4)
    hub = _club(tmp_path, boards)
    hub.commit(night.start(hub.state, "swiss", (RoundRules(1),), 1, seed=1))
    _play_out(hub, boards, random.Random(1))
    hub.commit(night.start(hub.state, "knockout", (RoundRules(1), RoundRules(3)), None, seed=2))
    _play_out(hub, boards, random.Random(2))
    state = store.load(tmp_path)
    ko = [r for r in state.results if r.startswith("T2-")]
    assert len(ko) == 4 + 2 + 2 + 1 + 1  # main 4, 2, 1; consolation 2, 1
    assert len(state.results) == 4 + len(ko)


def test_forged_stale_and_misplaced_results_change_nothing_and_are_told_once(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    boards = FakeBoards(4)
    hub = _club(tmp_path, boards)
    hub.commit(night.start(hub.state, "swiss", (RoundRules(1),), 2, seed=1))
    asyncio.run(hub.step())
    one, two = boards.boards[0], boards.boards[1]
    real = one.finish("white")
    # from the board it was assigned to: not the players paired, a record that does not replay
    one.finished[:] = [dict(real, white="Mallory"),
                       dict(real, record=" 1 point match\n\n Game 1\n Anna : 0  Eve : 0\n  1) 99: 24/1\n")]
    # from another board: that board's match, and a match the hub never assigned
    two.finished.extend([dict(real), dict(real, match_id="T1-R9-1")])
    before = store.state_path(tmp_path).read_bytes()
    with caplog.at_level(logging.WARNING, "bgboard.club"):
        asyncio.run(hub.step())
        asyncio.run(hub.step())
    assert store.state_path(tmp_path).read_bytes() == before
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 4 and all("\n" not in line for line in lines)  # once each, not once a step
    assert any("did not assign" in line for line in lines) and any("not assigned to" in line for line in lines)
    assert any("players" in line for line in lines) and any("replay" in line for line in lines)
    assert len(one.finished) == 2 and len(two.finished) == 2  # nothing refused was acknowledged


def test_a_board_cut_off_mid_match_reports_when_it_is_back(tmp_path: Path) -> None:
    boards = FakeBoards(4)
    hub = _club(tmp_path, boards)
    hub.commit(night.start(hub.state, "swiss", (RoundRules(1),), 2, seed=1))
    asyncio.run(hub.step())
    board = boards.boards[0]
    board.reachable = False
    board.finish("black")  # it plays on while off the network
    for _ in range(3):
        asyncio.run(hub.step())
    match_id = "T1-R1-1"
    assert match_id not in store.load(tmp_path).results
    board.reachable = True
    asyncio.run(hub.step())
    assert store.load(tmp_path).results[match_id].winner == "black"
    assert board.finished == []


def test_a_result_recorded_but_not_acknowledged_is_acknowledged_after_a_restart_and_counted_once(
        tmp_path: Path) -> None:
    boards = FakeBoards(4)
    hub = _club(tmp_path, boards)
    hub.commit(night.start(hub.state, "swiss", (RoundRules(1),), 2, seed=1))
    asyncio.run(hub.step())
    board = boards.boards[0]
    board.finish("white")

    async def lost(match_id: str) -> None:  # the hub dies between saving the result and the ack
        raise Killed()

    client = boards.client
    boards.client = lambda a, h, k: _without_ack(client(a, h, k), lost)  # type: ignore[method-assign]
    with pytest.raises(Killed):
        asyncio.run(Hub(tmp_path, boards.client).step())
    assert "T1-R1-1" in store.load(tmp_path).results and len(board.finished) == 1
    boards.client = client  # type: ignore[method-assign]
    again = Hub(tmp_path, boards.client)  # a new process: the state from the directory alone
    asyncio.run(again.step())
    assert board.finished == [] and len(store.load(tmp_path).results) == 1


class Killed(Exception):
    """The hub's process ending at that point."""


def _without_ack(client: object, ack: object) -> object:
    client.ack = ack  # type: ignore[attr-defined]
    return client


def test_a_restarted_hub_sends_its_assignments_again_and_the_boards_keep_their_match(tmp_path: Path) -> None:
    boards = FakeBoards(4)
    hub = _club(tmp_path, boards)
    hub.commit(night.start(hub.state, "swiss", (RoundRules(1),), 2, seed=1))
    asyncio.run(hub.step())
    held = [b.assignment for b in boards.boards]
    again = Hub(tmp_path, boards.client)
    asyncio.run(again.step())
    assert [b.assignment for b in boards.boards] == held
    assert all(len(b.assigned_log) == 1 for b in boards.boards)  # the same match_id is one match


def test_a_busy_board_refuses_and_the_match_goes_to_another(tmp_path: Path) -> None:
    boards = FakeBoards(3)
    hub = _club(tmp_path, boards, PLAYERS[:4])
    boards.boards[0].assignment = {"match_id": "someone-else's"}
    hub.commit(night.start(hub.state, "swiss", (RoundRules(1),), 2, seed=1))
    asyncio.run(hub.step())
    state = store.load(tmp_path)
    assert sorted(state.assignments.values()) == sorted(b.board_id for b in boards.boards[1:])


def test_a_match_abandoned_at_its_board_is_sent_again_and_played_to_its_result(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Someone chose New match at a board mid-match: the board still holds the assignment but
    plays it no more, and no result will come. The round must not stall: the hub sends the
    match again to the same board (the same players, from the start) and says so once."""
    boards = FakeBoards(4)
    hub = _club(tmp_path, boards)
    hub.commit(night.start(hub.state, "swiss", (RoundRules(1),), 2, seed=1))
    asyncio.run(hub.step())
    table = boards.boards[0]
    assert table.assignment is not None
    match_id = str(table.assignment["match_id"])
    table.abandoned = True  # a New match at the table
    with caplog.at_level(logging.WARNING, logger="bgboard.club"):
        asyncio.run(hub.step())
        asyncio.run(hub.step())
    assert table.assigned_log == [match_id, match_id] and not table.abandoned
    told = [r.getMessage() for r in caplog.records if "abandoned" in r.getMessage()]
    assert len(told) == 1 and match_id in told[0] and table.name in told[0]
    winner = table.finish("black")["black"]
    asyncio.run(hub.step())
    assert store.load(tmp_path).results[match_id].winner_name() == winner
    assert all(len(b.assigned_log) == 1 for b in boards.boards[1:])  # the other boards played on


def test_a_match_that_ends_while_the_hub_looks_is_collected_not_sent_again(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    """The match ends between the hub's reading of the board's results and of its status (not
    playing, still assigned): it is finished, not abandoned; its result is collected next."""
    from club_fake_board import FakeClient

    boards = FakeBoards(4)
    hub = _club(tmp_path, boards)
    hub.commit(night.start(hub.state, "swiss", (RoundRules(1),), 2, seed=1))
    asyncio.run(hub.step())
    table = boards.boards[0]
    assert table.assignment is not None
    match_id, held = str(table.assignment["match_id"]), dict(table.assignment)
    real_status = FakeClient.status

    async def ends_now(client: FakeClient) -> object:
        if client.board is table and table.assignment is not None:
            table.finish("white")  # the last move, just now: the result is kept first
            return {**(await real_status(client)), "assignment": held, "playing": False}
        return await real_status(client)
    monkeypatch.setattr(FakeClient, "status", ends_now)
    with caplog.at_level(logging.WARNING, logger="bgboard.club"):
        asyncio.run(hub.step())
        asyncio.run(hub.step())
    assert not [r for r in caplog.records if "abandoned" in r.getMessage()]
    assert table.assigned_log[0] == match_id and table.assigned_log.count(match_id) == 1
    assert store.load(tmp_path).results[match_id].winner_name() == held["white"]
