"""The protocol client and the session against the protocol double, over real TCP.

Written from bgammon's PROTOCOL.md and event.go: log-in (guest, named guest, account),
create/join (public, private, by number or by player), unreachable server, refused log-in,
full and unknown matches, keep-alive within the server's 40 s, a dropped connection that
reconnects with backoff and is put back into its match, malformed and unexpected lines.
"""
from __future__ import annotations

import asyncio
import os
import socket
from pathlib import Path

import pytest

from controller.bgammon import commands
from controller.bgammon.address import ServerAddress
from controller.online.client import Connection, LoginRefused, ServerUnreachable
from controller.online.events import (Board, Joined, Moved, ProtocolError, Rolled, Say, Win,
                                      decode_event)
from controller.online.session import LinkDown, LinkUp, MatchRequest, OnlineSession, SavedOnline
from tests.online_double import BgammonDouble

PORTS = range(18510, 18600)  # this feature's range on the shared machine


def free_port() -> int:
    """A port of the range that nothing listens on now. Each of pytest-xdist's workers
    looks in its own part of the range: two workers finding the same port free at once
    would both try to serve on it."""
    worker = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0)
    share = len(PORTS) // 4
    start = PORTS.start + (worker % 4) * share
    for port in range(start, start + share):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {start}..{start + share - 1}")


def run(coro):  # noqa: ANN001, ANN201 - a test helper
    return asyncio.run(asyncio.wait_for(coro, 30))


def address(double: BgammonDouble) -> ServerAddress:
    return ServerAddress("127.0.0.1", double.port)


async def _session(double: BgammonDouble, name: str, request: MatchRequest | None,
                   state_dir: Path | None = None, **kw: object) -> OnlineSession:
    session = OnlineSession(address(double), name=name, request=request, state_dir=state_dir,
                            rejoin_wait_s=0.3, backoff_s=(0.05, 1.0), **kw)  # type: ignore[arg-type]
    await session.start()
    return session


# -- events and commands -----------------------------------------------------------------

def test_events_decode_from_the_servers_json() -> None:
    assert decode_event('{"Type":"say","Player":"bob","Message":"hi there"}') == Say("bob", "hi there")
    assert decode_event('{"Type":"moved","Player":"bob","Moves":[[13,7],[8,7]]}') == Moved("bob", ((13, 7), (8, 7)))
    assert decode_event('{"Type":"rolled","Player":"bob","Roll1":3,"Roll2":1,"Roll3":0}') == Rolled("bob", 3, 1)
    assert decode_event('{"Type":"win","Player":"bob","Points":2,"Rating":0,"Resigned":""}') == Win("bob", 2, "")
    assert decode_event('{"Type":"achievements","Player":"","Achievements":[]}') is None


@pytest.mark.parametrize("line, why", [
    ("hello there", "not JSON"),
    ('{"Player":"x"}', "without an event type"),
    ('{"Type":"teleport"}', "unknown event type 'teleport'"),
    ('{"Type":"moved","Moves":[[13]]}', "moved event whose Moves"),
    ('{"Type":"moved","Moves":[[13,40]]}', "moved event whose Moves"),
    ('{"Type":"rolled","Roll1":7,"Roll2":1}', "rolled event whose Roll1"),
    ('{"Type":"board","Board":[1,2]}', "board event whose Board"),
])
def test_a_malformed_line_is_one_clear_error(line: str, why: str) -> None:
    with pytest.raises(ProtocolError, match=why):
        decode_event(line)


def test_commands_are_single_lines_in_the_senders_numbering() -> None:
    assert commands.move(25, 22) == "move bar/22"
    assert commands.move(3, 0) == "move 3/off"
    assert commands.login("alice", "two words") == f"loginjson {commands.CLIENT_NAME} alice two_words"
    assert commands.create("sesame", 5) == "create private sesame 5 0"
    assert commands.say("hello\nthere") == "say hello there"


# -- log-in ------------------------------------------------------------------------------

def test_unreachable_server_is_one_line() -> None:
    port = free_port()  # nothing listens there

    async def go() -> None:
        with pytest.raises(ServerUnreachable, match=f"cannot reach 127.0.0.1:{port}"):
            await Connection.open(ServerAddress("127.0.0.1", port))
    run(go())


def test_a_server_name_not_found_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35.13: getaddrinfo's own code (-2) read as an errno was "Unknown error -2"."""
    import socket

    async def no_such_name(*args: object, **kwargs: object) -> None:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")  # as getaddrinfo raises it
    monkeypatch.setattr(asyncio, "open_connection", no_such_name)

    async def go() -> None:
        with pytest.raises(ServerUnreachable) as raised:
            await Connection.open(ServerAddress("bgammon.invalid", 1337))
        assert str(raised.value) == "cannot reach bgammon.invalid:1337: Name or service not known"
    run(go())


def test_guest_named_and_account_log_in_and_a_wrong_password_is_refused() -> None:
    async def go() -> None:
        async with BgammonDouble(free_port()) as double:
            double.accounts["carol"] = "sesame"
            guest = await Connection.open(address(double))
            assert (await guest.login()).player_name.startswith("Guest_")
            named = await Connection.open(address(double))
            assert (await named.login("alice")).player_name == "Guest_alice"
            account = await Connection.open(address(double))
            assert (await account.login("carol", "sesame")).player_name == "carol"
            wrong = await Connection.open(address(double))
            with pytest.raises(LoginRefused, match="refused the log-in: No account was found"):
                await wrong.login("dave", "nope")
            for c in (guest, named, account, wrong):
                await c.close()
    run(go())


# -- matches -----------------------------------------------------------------------------

def test_create_join_and_play_the_opening_through_the_server() -> None:
    async def go() -> None:
        async with BgammonDouble(free_port()) as double:
            alice = await _session(double, "alice", MatchRequest(create="private", points=3, password="pw"))
            bob = await _session(double, "bob", MatchRequest(join="Guest_alice", password="pw"))
            assert alice.game_id == bob.game_id == 1
            double.dice.append((5, 2))  # opening: player 1's die, player 2's
            await alice.send(commands.ROLL)
            await bob.send(commands.ROLL)
            boards = []
            while len(boards) < 1:
                event = await alice.next_event()
                if isinstance(event, Board) and event.state.turn:
                    boards.append(event.state)
            state = boards[0]
            assert {state.roll1, state.roll2} == {5, 2}
            assert state.player_number == 1 and state.player1.name == "Guest_alice"
            await alice.close()
            await bob.close()
    run(go())


@pytest.mark.parametrize("request_, message", [
    (MatchRequest(join="42"), "cannot join match 42 on 127.0.0.1:\\d+: Match not found."),
    (MatchRequest(join="nobody"), "Match not found."),
    (MatchRequest(join="1", password="wrong"), "Invalid password."),
    (MatchRequest(join="1", password="pw"), "it is full"),
])
def test_unknown_wrong_password_and_full_matches_are_one_line(request_: MatchRequest, message: str) -> None:
    from controller.online.client import OnlineError

    async def go() -> None:
        async with BgammonDouble(free_port()) as double:
            a = await _session(double, "a1", MatchRequest(create="private", points=1, password="pw"))
            b = await _session(double, "b1", MatchRequest(join="1", password="pw"))
            with pytest.raises(OnlineError, match=message):
                await _session(double, "c1", request_)
            await a.close()
            await b.close()
    run(go())


# -- keep-alive, drops, restarts --------------------------------------------------------

def test_keep_alive_writes_within_the_servers_timeout() -> None:
    async def go() -> None:
        # a server that drops a client silent for 0.6 s; the client writes every 0.2 s
        async with BgammonDouble(free_port(), timeout_s=0.6, ping_s=100) as double:
            session = await _session(double, "quiet", MatchRequest(create="public", points=1), keepalive_s=0.2)
            await asyncio.sleep(1.5)  # real time: the server's own read timeout is what is tested
            assert double.game_of("Guest_quiet") is not None
            assert sum(1 for line in double.received["Guest_quiet"] if line.startswith("pong")) >= 5
            await session.close()
    run(go())


def test_ping_is_answered() -> None:
    async def go() -> None:
        async with BgammonDouble(free_port(), ping_s=0.1) as double:
            session = await _session(double, "pinged", MatchRequest(create="public", points=1), keepalive_s=100)
            async def read_on() -> None:
                while True:
                    await session.next_event()
            task = asyncio.create_task(read_on())
            await asyncio.sleep(0.35)
            task.cancel()
            assert any(line == "pong 1" for line in double.received["Guest_pinged"])
            await session.close()
    run(go())


def test_a_dropped_connection_reconnects_and_is_put_back_into_the_match(tmp_path: Path) -> None:
    async def go() -> None:
        async with BgammonDouble(free_port()) as double:
            alice = await _session(double, "alice", MatchRequest(create="public", points=3), tmp_path / "a")
            bob = await _session(double, "bob", MatchRequest(join="1"), tmp_path / "b")
            await alice.send(commands.ROLL)  # the match is under way: seats are kept for these two
            await bob.send(commands.ROLL)
            await asyncio.sleep(0.1)
            double.drop("Guest_alice")
            seen: list[object] = []
            while not any(isinstance(e, LinkDown) for e in seen):
                seen.append(await alice.next_event())
            up = await alice.reconnect()
            assert isinstance(up, LinkUp) and up.attempts >= 1
            back = await alice.next_event()
            assert isinstance(back, Board) and back.state.player1.name == "Guest_alice"
            assert back.state.player2.name == "Guest_bob" and not back.state.spectating
            assert double.game_of("Guest_alice").id == 1  # type: ignore[union-attr]
            print(f"reconnect took {up.seconds * 1000:.0f} ms in {up.attempts} attempt(s)")
            await alice.close()
            await bob.close()
    run(go())


def test_a_restart_resumes_the_saved_server_match(tmp_path: Path) -> None:
    async def go() -> None:
        async with BgammonDouble(free_port()) as double:
            alice = await _session(double, "alice", MatchRequest(create="public", points=3), tmp_path)
            bob = await _session(double, "bob", MatchRequest(join="1"))
            await alice.send(commands.ROLL)
            await bob.send(commands.ROLL)
            await asyncio.sleep(0.1)
            await alice.close()  # bgboard stops
            saved = SavedOnline.load(tmp_path / "online.json")
            assert saved == SavedOnline(str(address(double)), "Guest_alice", 1)
            again = OnlineSession(address(double), state_dir=tmp_path, rejoin_wait_s=0.3)
            joined, state = await again.start()  # no --create/--join: the saved match
            assert isinstance(joined, Joined) and joined.game_id == 1
            assert state.player2.name == "Guest_bob"
            await again.close()
            await bob.close()
    run(go())
