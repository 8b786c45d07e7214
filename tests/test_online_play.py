"""Two headless bgboards play a whole match through the protocol double.

Each runs the full table (virtual board on a pseudo-terminal, the controller, the remote
opponent) with a computer level working its own checkers; the remote player's moves are
carried out on each board from its bot-from/bot-to, the dice are the server's, and after
every turn the board's position is compared with the server's.
"""
from __future__ import annotations

import asyncio
from pathlib import Path

from controller.online.play import OnlinePlay
from controller.online.session import MatchRequest, OnlineSession
from sim.online_host import SimHost
from tests.online_double import BgammonDouble
from tests.test_online_client import address, free_port


async def _two_tables(double: BgammonDouble, tmp: Path, points: int) -> tuple[OnlinePlay, OnlinePlay]:
    def session(name: str, request: MatchRequest, sub: str) -> OnlineSession:
        return OnlineSession(address(double), name=name, request=request, state_dir=tmp / sub,
                             rejoin_wait_s=0.3, backoff_s=(0.05, 1.0))

    a = OnlinePlay(session("anna", MatchRequest(create="private", points=points, password="pw"), "a"))
    await a.open_table(SimHost(autoplay="simple", pause_s=0.05), state_dir=tmp / "a")
    b = OnlinePlay(session("bert", MatchRequest(join="Guest_anna", password="pw"), "b"))
    await b.open_table(SimHost(autoplay="simple", pause_s=0.05), state_dir=tmp / "b")
    return a, b


def test_two_boards_play_a_whole_match(tmp_path: Path) -> None:
    async def go() -> None:
        async with BgammonDouble(free_port(), seed=11) as double:
            a, b = await _two_tables(double, tmp_path, 1)
            ra, rb = await asyncio.gather(a.run(240), b.run(240))
            assert ra.over and rb.over, (ra.notes[-5:], rb.notes[-5:])
            assert ra.stopped is None and rb.stopped is None
            game = double.games[0]
            # each board's score is the server's, from its own side
            assert ra.score == (game.score[1 if game.names[1] == "Guest_anna" else 2],
                                game.score[2 if game.names[1] == "Guest_anna" else 1])
            assert rb.score == (ra.score[1], ra.score[0])
            assert max(ra.score) >= 1
            assert ra.turns_compared + rb.turns_compared > 20
            print(f"score {ra.score}, turns compared {ra.turns_compared}+{rb.turns_compared}")
    asyncio.run(go())
