"""Issue 22.11: a server that goes silent with the socket open is noticed, and rejoined.

The real server pings every client every 30 s (bgammon pkg/server/server.go
handlePingClient), so no line at all for longer than that is a dead connection, though TCP
may not say so for many minutes (476 s without a word in the issue's check). Here the
double goes silent for one player while keeping the socket open and reading it; the bound
is short by configuration (`silence_s`), the double's pings frequent, so nothing waits long.
"""
from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from controller.bgammon import commands
from controller.online.events import Board
from controller.online.hearing import SILENCE_S, Hearing
from controller.online.play import OnlinePlay
from controller.online.session import LinkDown, LinkUp, MatchRequest, OnlineSession
from sim.online_host import SimHost
from tests.online_double import BgammonDouble, until
from tests.test_online_client import address, free_port

pytestmark = pytest.mark.timeout(120)


class FakeClock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def test_silence_longer_than_the_bound_is_a_dead_connection() -> None:
    clock = FakeClock()
    hearing = Hearing(10.0, clock)
    clock.t += 9.5
    assert not hearing.deaf and hearing.left_s() == pytest.approx(0.5)
    hearing.heard()  # a ping
    clock.t += 9.5
    assert not hearing.deaf
    clock.t += 0.6
    assert hearing.deaf and hearing.left_s() == 0.0
    assert hearing.why() == "no line from the server in 10 s"
    with pytest.raises(ValueError):
        Hearing(0, clock)


def test_the_default_bound_outlasts_two_of_the_servers_pings() -> None:
    assert SILENCE_S > 2 * 30.0


def _session(double: BgammonDouble, name: str, request: MatchRequest, state: Path,
             silence_s: float = SILENCE_S) -> OnlineSession:
    return OnlineSession(address(double), name=name, request=request, state_dir=state,
                         rejoin_wait_s=0.3, backoff_s=(0.05, 0.2), silence_s=silence_s)


def test_a_silent_server_is_left_and_the_match_rejoined(tmp_path: Path) -> None:
    async def go() -> None:
        async with BgammonDouble(free_port(), ping_s=0.05) as double:
            alice = _session(double, "alice", MatchRequest(create="public", points=3), tmp_path / "a", 0.5)
            await alice.start()
            bob = _session(double, "bob", MatchRequest(join="1"), tmp_path / "b")
            await bob.start()
            await alice.send(commands.ROLL)  # the match is under way: the seats are kept
            await bob.send(commands.ROLL)
            await until("both opening dice", lambda: double.games[0].turn != 0)
            # pings come every 0.05 s (answered inside next_event): a live connection that
            # carries no event for three times the bound is not silent
            with pytest.raises(TimeoutError):
                async with asyncio.timeout(1.5):
                    while True:
                        event = await alice.next_event()
                        assert not isinstance(event, LinkDown), event
            double.silence("Guest_alice")  # open, read, and nothing comes back
            event = await alice.next_event()
            while not isinstance(event, LinkDown):
                event = await alice.next_event()
            assert event.reason.endswith("no line from the server in 0.5 s"), event
            up = await alice.reconnect()
            assert isinstance(up, LinkUp)
            back = await alice.next_event()
            assert isinstance(back, Board) and back.state.player2.name == "Guest_bob"
            assert double.game_of("Guest_alice") is double.games[0]
            assert double.client("Guest_alice").silent is False  # a new connection
            await alice.close()
            await bob.close()
    asyncio.run(asyncio.wait_for(go(), 60))


def test_two_tables_play_on_after_the_server_stalled_for_one(tmp_path: Path) -> None:
    async def go() -> None:
        async with BgammonDouble(free_port(), ping_s=0.05, seed=5) as double:
            anna = OnlinePlay(_session(double, "anna", MatchRequest(create="private", points=1, password="pw"),
                                       tmp_path / "a", 1.0))
            await anna.open_table(SimHost(autoplay="simple", pause_s=0.05), state_dir=tmp_path / "a")
            bert = OnlinePlay(_session(double, "bert", MatchRequest(join="Guest_anna", password="pw"),
                                       tmp_path / "b"))
            await bert.open_table(SimHost(autoplay="simple", pause_s=0.05), state_dir=tmp_path / "b")
            runs = asyncio.gather(anna.run(100), bert.run(100))
            await until("both seated", lambda: bool(double.games) and all(double.games[0].names.values()), 30)
            opponent = anna.seat.opponent
            assert opponent is not None
            await until("a turn of anna's compared", lambda: opponent.compared >= 1, 60)
            double.silence("Guest_anna")  # the socket stays open; nothing comes, nothing is done
            notes = anna.result.notes
            await until("the silence noticed", lambda: any("no line from the server in 1 s" in n for n in notes), 30)
            compared = opponent.compared
            await until("two more turns of anna's compared", lambda: opponent.compared >= compared + 2, 60)
            anna.seat.leave()
            bert.seat.leave()
            ra, rb = await runs
            assert ra.stopped is None and rb.stopped is None, (ra.notes[-6:], rb.notes[-6:])
            assert len(ra.reconnects) == 1 and not rb.reconnects
    asyncio.run(go())
