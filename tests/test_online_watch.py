"""`bgboard online --watch`: a third client watches a match through the protocol double.

The two players are plain protocol clients here (each plays the first legal step the
server offers, then `ok`), so a whole match is quick; the spectator is the real
`Spectator`. Checked: it follows the match to the server's final score, lights every move's
from/to cells on the LEDs, the display names the players and shows the score, it sends
nothing but its log-in, `join`, `leave` and keep-alives, it rejoins after a dropped
connection, and a match with a free seat is not joined as a player.
"""
from __future__ import annotations

import asyncio

import pytest

from bgboard.cli import main
from controller.bgammon import commands
from controller.online.client import Connection, OnlineError
from controller.online.events import Board, GameState
from controller.online.perspective import point_of_space
from controller.online.watch import Spectator
from controller.show.content import Scene
from tests.online_double import BgammonDouble, until
from tests.test_online_cli import double  # noqa: F401  (the double on a thread, for the command)
from tests.test_online_client import address, free_port


def plain_move(s: GameState) -> str | None:
    """What a plain player sends at `s`: a roll when it may, the first legal step the server
    offers, then `ok`; None while it is not its turn (or the game is won)."""
    mine = s.turn == 1 or (s.turn == 0 and s.roll1 == 0)
    if s.winner or not mine or s.spectating:
        return None
    if s.roll1 == 0:
        return commands.ROLL
    if s.available:
        a, b = s.available[0]
        return commands.move(point_of_space(a, "local"), point_of_space(b, "local"))
    return commands.OK


async def _player(double: BgammonDouble, name: str, first: str) -> None:
    """Plays until its match is over: rolls when it may, the first legal step, `ok`."""
    c = await Connection.open(address(double))
    await c.login(name)
    await c.send(first)
    try:
        while True:
            event = await c.next_event()
            if not isinstance(event, Board) or not event.state.player2.name:
                continue
            if event.state.winner:
                return
            line = plain_move(event.state)
            if line is not None:
                await c.send(line)
    finally:
        await c.close()


async def _match(double: BgammonDouble, points: int) -> list[asyncio.Task[None]]:
    """Anna's match on the double with Bert seated in it: both seats taken once this returns."""
    first = asyncio.create_task(_player(double, "anna", commands.create(None, points)))
    await until("anna's match created", lambda: bool(double.games))
    second = asyncio.create_task(_player(double, "bert", commands.join("Guest_anna")))
    await until("bert seated", lambda: all(double.games[0].clients[seat] is not None for seat in (1, 2)))
    return [first, second]


async def hosting(double: BgammonDouble) -> Connection:
    """Guest_host's 1-point match on the double, its second seat free."""
    host = await Connection.open(address(double))
    await host.login("host")
    await host.send(commands.create(None, 1))
    await until("the match created", lambda: bool(double.games))
    return host


def _lit(scene: Scene) -> set[str]:
    return {cell for cell, role in scene.leds.items() if role in ("last-from", "last-to")}


def test_a_spectator_watches_a_whole_match() -> None:
    async def go() -> None:
        async with BgammonDouble(free_port(), seed=5) as double:
            players = await _match(double, 3)
            scenes: list[Scene] = []
            watcher = Spectator(address(double), "Guest_anna", show=scenes.append)
            result = await watcher.run(60)
            await asyncio.gather(*players)
            game = double.games[0]
            assert result.over and result.score == (game.score[1], game.score[2])
            assert max(result.score) >= 3
            winner = game.names[1] if game.score[1] > game.score[2] else game.names[2]
            assert result.lines[-1] == (f"match over: {winner} wins {max(result.score)}-{min(result.score)} "
                                        f"({game.names[1]} {game.score[1]} - {game.score[2]} {game.names[2]})")
            # nothing was sent but the log-in, the join, the leave (and keep-alives)
            sent = [line.split()[0] for line in double.received[watcher.names[0]]]
            assert [word for word in sent if word != "pong"] == ["join", "leave"], sent
            moves = [line for line in result.lines if " moves " in line]
            assert len(moves) > 20
            # every move was lit on the LEDs as it was made (its from and to cells)
            lit = [_lit(s) for s in scenes if _lit(s)]
            assert len(lit) >= len(moves) // 2
            assert scenes[-1].display.score_white == result.score[0]
            assert scenes[-1].display.score_black == result.score[1]
            assert scenes[-1].display.prompt is not None and scenes[-1].display.prompt.key == "watching"
            print(f"watched {len(moves)} moves to {result.score}; LEDs lit {len(lit)} times")
    asyncio.run(go())


def test_the_spectator_rejoins_after_a_dropped_connection() -> None:
    async def go() -> None:
        async with BgammonDouble(free_port(), seed=9) as double:
            players = await _match(double, 3)
            lines: list[str] = []
            watcher = Spectator(address(double), "1", on_line=lines.append, backoff_s=(0.05, 0.5))
            task = asyncio.create_task(watcher.run(60))
            while not any(" moves " in line for line in lines):
                await asyncio.sleep(0.01)
            double.drop(watcher.names[0])
            result = await task
            await asyncio.gather(*players)
            assert result.reconnects == 1 and result.over
            assert any(line.startswith("connection lost, rejoining") for line in result.lines)
            assert result.score == (double.games[0].score[1], double.games[0].score[2])
    asyncio.run(go())


def test_a_match_with_a_free_seat_is_not_joined() -> None:
    async def go() -> None:
        async with BgammonDouble(free_port()) as double:
            host = await hosting(double)
            with pytest.raises(OnlineError, match="has a free seat"):
                await Spectator(address(double), "Guest_host").run(5)
            await asyncio.sleep(0.2)
            assert double.games[0].clients[2] is None or double.games[0].clients[1] is None  # seat left free
            await host.close()
    asyncio.run(go())


def test_watching_an_unknown_match_is_one_line(double: BgammonDouble, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["online", "--server", str(address(double)), "--watch", "42", "--seconds", "5"])
    assert code == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"bgboard online: cannot watch match 42 on {address(double)}: Match not found."]
