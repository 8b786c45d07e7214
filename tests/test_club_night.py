"""A club night end to end (issue 36's "done when"): 8 virtual boards (sim/club_boards.py:
headless tables, the real firmware on the in-memory cable, computer hands on both sides),
8 players, a 3-round Swiss of 1-point matches and then a knockout of 1- and 3-point
matches, run by the hub over HTTP as on a club's network. Every record is replayed clean,
and the standings are what the formats' rules give from the records' own final scores."""
from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from club.hub.http_client import HttpBoardClient
from club.hub.hub import Hub
from club.state import night, store
from club.state.model import ClubState
from club.tournament.knockout import places
from club.tournament.model import RoundRules
from club.tournament.swiss import standings
from controller.records.replay import replay_text
from sim.club_room_process import club_room

PLAYERS = ["Anna", "Bjørn", "Carl", "Dora", "Eve", "Finn", "Gry", "Hans"]
NIGHT_S = 1200.0  # the most the night may take on a loaded machine (measured: about 6 minutes)


@pytest.fixture()
def room(tmp_path: Path) -> Iterator[list[dict[str, str]]]:
    with club_room(tmp_path, 8) as lines:
        yield lines


def _winner(result_record: str) -> str:
    """The match's winner as its record says (the player with the higher final score)."""
    report = replay_text(result_record)
    assert report.ok and report.in_progress is None, report.problem_line()
    return report.players[0] if report.final[0] > report.final[1] else report.players[1]


async def _run(hub: Hub, until: int) -> None:
    deadline = time.monotonic() + NIGHT_S
    while not (night.finished(hub.state, hub.state.tournaments[-1]) and len(hub.state.results) >= until):
        assert time.monotonic() < deadline, f"the night stopped at {len(hub.state.results)} results"
        await hub.step()
        await asyncio.sleep(0.2)


@pytest.mark.slow
@pytest.mark.timeout(NIGHT_S + 120)
def test_a_club_night_on_eight_virtual_boards(tmp_path: Path, room: list[dict[str, str]]) -> None:
    club = tmp_path / "club"
    state = store.create(club, "Thursday club")
    for name in PLAYERS:
        state = night.add_player(state, name)
    store.save(club, state)
    hub = Hub(club, HttpBoardClient)
    for line in room:
        asyncio.run(hub.pair(line["url"], None))
    hub.commit(night.start(hub.state, "swiss", (RoundRules(1),), 3, seed=36))
    asyncio.run(_run(hub, 12))
    hub.commit(night.start(hub.state, "knockout", (RoundRules(1), RoundRules(3)), None, seed=36))
    asyncio.run(_run(hub, 12 + 10))

    state: ClubState = store.load(club)
    assert len(state.results) == 8 * 3 // 2 + 10  # 12 Swiss matches; knockout 4 + 2 + 1, consolation 2 + 1
    from_records = {match_id: _winner(r.record) for match_id, r in state.results.items()}
    assert from_records == night.winners(state)
    for match_id, result in state.results.items():  # the knockout's night round 1 alone is to 1 point
        assert result.length == (3 if match_id.startswith("T2-") and not match_id.startswith("T2-MR1-") else 1)
    swiss, knockout = state.tournaments
    assert len(swiss.rounds) == 3
    met = [frozenset((p.white, p.black)) for r in swiss.rounds for p in r.pairings]
    assert len(set(met)) == 12  # no rematch
    table = standings(PLAYERS, swiss.rounds, from_records, 36)
    assert sum(s.score for s in table) == 12
    assert places(PLAYERS, from_records, knockout.prefix)[0][0] == "1"
