"""A spectator's dropped connection rejoins the match by its number (issue 15, found against
the real bgammon server).

bgammon finds a match by a player's name only among the players connected at that moment
(`join Guest_gina2` answered "Match not found." while Guest_gina2's own link was down and
the match went on waiting for her). A spectator that watches "by player" and loses its
connection while that player is away would then end watching with that line, though the
match is still there. Once joined, the spectator knows the match's number and rejoins with
it. The double here finds players by name as the real server does (connected ones only).
"""
from __future__ import annotations

import asyncio

import pytest

from controller.bgammon import commands
from controller.online.watch import Spectator
from tests.online_double import BgammonDouble, Client, Game, until
from tests.test_online_client import address, free_port
from tests.test_online_watch_free_seat import seated

pytestmark = pytest.mark.timeout(60)


class ConnectedNamesDouble(BgammonDouble):
    """`join NAME` finds a match by a connected player's name only, as bgammon's does."""

    def _do_join(self, c: Client, game: Game | None, params: list[str]) -> None:
        if game is None and params and not params[0].isdigit() and not any(
                x is not None and x.name.lower() == params[0].lower() for g in self.games for x in g.clients.values()):
            c.send({"Type": "failedjoin", "Player": "", "Reason": "Match not found."})
            return
        super()._do_join(c, game, params)


def test_a_spectator_watching_by_name_rejoins_while_that_player_is_away() -> None:
    async def go() -> None:
        async with ConnectedNamesDouble(free_port()) as double:
            players = await seated(double, 3)
            game = double.games[0]
            for c in players:  # the opening roll: the match has begun, its seats are theirs
                await c.send(commands.ROLL)
            await until("the opening rolled", lambda: bool(game.allowed) and game.turn != 0)
            spectator = Spectator(address(double), "Guest_anna", backoff_s=(0.05, 0.5))
            await spectator.start()
            following = asyncio.create_task(spectator.follow(30))

            double.drop("Guest_anna")  # anna's own link is down: the match waits for her
            await until("anna away", lambda: all(x is None or x.name != "Guest_anna" for x in game.clients.values()))
            double.drop(spectator.names[0])  # and now the spectator's
            await until("watching again", lambda: spectator.result.reconnects == 1 and not spectator.rejoining
                        or following.done())
            assert not following.done(), following.result()
            assert spectator.sent[-1] == commands.join(str(game.id))  # by the match's number
            assert spectator.names[1] in (x.name for x in game.spectators)  # a spectator again, no seat taken
            spectator.leave()
            result = await following
            assert not result.over
            for c in players:
                await c.close()
    asyncio.run(go())
