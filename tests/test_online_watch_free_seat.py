"""Watching never takes a seat (issue 15, found against the real bgammon server).

bgammon's `join` seats a client as a player whenever the match has a free seat (its
`addClient`): there is no join "as a spectator only". The check by hand showed what that
does to the player waiting in a match: `bgboard online --watch 2` joined as its opponent,
left again at once, and the waiting player's table read "Guest_678 joined match 2",
"Guest_678 left the match; waiting for them to come back" and tried to start the game.
A match asked for by its number is looked up in the server's match list first (`list`,
PROTOCOL.md: its `Players`); with a free seat the spectator refuses with its one line and
never sends the `join`, so the waiting player sees nobody come and go. A match that is full
is watched as before.
"""
from __future__ import annotations

import asyncio

import pytest

from controller.bgammon import commands
from controller.online.client import Connection, OnlineError
from controller.online.events import Board, Joined
from controller.online.watch import Spectator
from tests.online_double import BgammonDouble, until
from tests.test_online_client import address, free_port
from tests.test_online_watch import hosting

pytestmark = pytest.mark.timeout(60)


async def _seen(connection: Connection, into: list[object]) -> None:
    while True:
        into.append(await connection.next_event())


async def seated(double: BgammonDouble, points: int) -> list[Connection]:
    """anna's match of `points` on the double, and bert in it: both seats taken."""
    players = []
    for name, first in (("anna", commands.create(None, points)), ("bert", commands.join("Guest_anna"))):
        c = await Connection.open(address(double))
        await c.login(name)
        await c.send(first)
        players.append(c)
        await until(f"{name} seated", lambda: bool(double.games) and
                    any(x is not None and x.name == f"Guest_{name}" for x in double.games[0].clients.values()))
    return players


def test_a_match_asked_for_by_number_with_a_free_seat_is_not_joined_at_all() -> None:
    async def go() -> None:
        async with BgammonDouble(free_port()) as double:
            host = await hosting(double)
            seen: list[object] = []
            reader = asyncio.create_task(_seen(host, seen))
            spectator = Spectator(address(double), str(double.games[0].id))
            with pytest.raises(OnlineError) as refused:
                await spectator.run(5)
            assert str(refused.value) == (f"cannot watch match {double.games[0].id} on {address(double)}: "
                                          "it has a free seat (watching would take it)")
            # the waiting player's own `board` after the refusal: whatever the server told it comes first
            asked = len(seen)
            await host.send(commands.BOARD)
            await until("the host's board", lambda: any(isinstance(e, Board) for e in seen[asked:]))
            assert not [e for e in seen if isinstance(e, Joined) and e.player != "Guest_host"], seen
            name = spectator.names[0]
            assert not [line for line in double.received[name] if line.split()[0] == "join"], double.received[name]
            assert spectator.sent == [commands.LIST]
            assert double.games[0].clients[2] is None or double.games[0].clients[1] is None  # the seat is free
            reader.cancel()
            await asyncio.gather(reader, return_exceptions=True)
            await host.close()
    asyncio.run(go())


def test_a_full_match_asked_for_by_number_is_watched() -> None:
    async def go() -> None:
        async with BgammonDouble(free_port()) as double:
            players = await seated(double, 1)
            spectator = Spectator(address(double), str(double.games[0].id))
            await spectator.start()
            assert spectator.watched is not None and spectator.watched.state.spectating
            assert spectator.sent == [commands.LIST, commands.join(str(double.games[0].id))]
            spectator.leave()
            await spectator.follow(5)
            for c in players:
                await c.close()
    asyncio.run(go())
