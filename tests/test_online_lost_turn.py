"""A turn played while the connection is down reaches the server once it is back (issue 15,
found against the real bgammon server).

The check by hand cut a player's connection (a TCP proxy) just as its checkers were being
moved: the turn was completed on the table while the link was down, its `reset`, `move`s
and `ok` were "not sent while the connection is down", the session rejoined the match in
half a second, and then both tables waited for ever: the server for the turn, the table
for the server. Nothing confirmed is ever lost: after rejoining, the board the server
sends shows that it still waits for that turn (our dice, the board as it was), so the
turn's commands go again, and play goes on with the positions compared as ever.

Here anna's connection goes through a proxy on loopback that the test cuts when the
server has rolled anna's dice, and that refuses new connections until anna's table has
played the turn into the dead link; then it lets her back. The opponent is a second table; the
turn then agrees with the server's position (compared as every turn is).
"""
from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from controller.bgammon.address import ServerAddress
from controller.online.facts import LOCAL
from controller.online.play import OnlinePlay
from controller.online.session import MatchRequest, OnlineSession
from sim.online_host import SimHost
from tests.online_double import BgammonDouble, Game, until
from tests.test_online_client import address, free_port

pytestmark = pytest.mark.timeout(120)


class CutProxy:
    """Loopback TCP to the double whose connections the test cuts; while `open` is False
    a new connection is closed at once (the network is still down)."""

    def __init__(self, target: ServerAddress) -> None:
        self.target = target
        self.open = True
        self.port = free_port()
        self._pairs: list[tuple[asyncio.StreamWriter, asyncio.StreamWriter]] = []
        self._server: asyncio.base_events.Server | None = None

    async def __aenter__(self) -> "CutProxy":
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", self.port)
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._server is not None
        self._server.close()
        self.cut()

    @property
    def address(self) -> ServerAddress:
        return ServerAddress("127.0.0.1", self.port)

    def cut(self) -> None:
        for a, b in self._pairs:
            a.transport.abort()
            b.transport.abort()
        self._pairs.clear()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if not self.open:
            writer.transport.abort()
            return
        up_reader, up_writer = await asyncio.open_connection(self.target.host, self.target.port)
        self._pairs.append((writer, up_writer))
        await asyncio.gather(self._pipe(reader, up_writer), self._pipe(up_reader, writer))

    @staticmethod
    async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        except (OSError, RuntimeError):
            pass
        finally:
            writer.close()


def _session(where: ServerAddress, name: str, request: MatchRequest, state: Path) -> OnlineSession:
    return OnlineSession(where, name=name, request=request, state_dir=state,
                         rejoin_wait_s=0.3, backoff_s=(0.05, 0.2))


def test_a_turn_played_into_a_dead_connection_is_sent_again_after_rejoining(tmp_path: Path) -> None:
    async def go() -> None:
        async with BgammonDouble(free_port(), seed=3) as double, CutProxy(address(double)) as proxy:
            anna_host, bert_host = SimHost(autoplay="simple", pause_s=1.0), SimHost(autoplay="simple", pause_s=0.05)
            anna = OnlinePlay(_session(proxy.address, "anna", MatchRequest(create="private", points=1, password="pw"),
                                       tmp_path / "a"))
            await anna.open_table(anna_host, state_dir=tmp_path / "a")
            bert = OnlinePlay(_session(address(double), "bert", MatchRequest(join="Guest_anna", password="pw"),
                                       tmp_path / "b"))
            await bert.open_table(bert_host, state_dir=tmp_path / "b")
            runs = asyncio.gather(anna.run(90), bert.run(90))
            game = await _game(double)
            mine = 1 if game.names[1] == "Guest_anna" else 2

            def dice_on_both_sides() -> bool:
                """The server has rolled anna's dice and her table has them: cut before then and
                the roll is lost in the cut (the proxy refuses her rejoining until she has played)."""
                m = anna.host.table.controller.status().match if anna.host is not None else None
                return (game.turn == mine and game.roll1 != 0 and not game.moves and m is not None
                        and m.phase == "move" and m.turn == LOCAL and m.dice is not None
                        and sorted(m.dice) == sorted((game.roll1, game.roll2)))

            # anna has her dice and has moved nothing yet (her table takes a step a second): cut now
            await until("anna's dice rolled, on the server and on her table", dice_on_both_sides, 60)
            dice = (game.roll1, game.roll2)
            assert anna.seat.opponent is not None and anna_host.hands is not None and bert_host.hands is not None
            compared = anna.seat.opponent.compared
            proxy.open = False
            proxy.cut()
            notes = anna.result.notes
            await until("the turn played into the dead link",
                        lambda: "not sent while the connection is down: ok" in notes, 60)
            assert game.turn == mine and (game.roll1, game.roll2) == dice  # the server still waits for it
            proxy.open = True

            await until("the turn passed on the server", lambda: game.turn != mine or game.winner != 0, 20)
            assert any(line.startswith("sent again after rejoining: reset") for line in notes), notes[-8:]
            opponent = anna.seat.opponent
            assert opponent is not None
            await until("anna's turn compared with the server's", lambda: opponent.compared > compared, 20)
            assert opponent.stopped is None
            anna.seat.leave()
            bert.seat.leave()
            ra, rb = await runs
            assert ra.stopped is None and rb.stopped is None and len(ra.reconnects) == 1
    asyncio.run(go())


async def _game(double: BgammonDouble) -> Game:
    await until("both seated", lambda: bool(double.games) and all(double.games[0].names.values()), 30)
    return double.games[0]
