"""Issues 22.12 and 35.2: a restart while the remote player is in the middle of a turn plays on from
the table's own record.

Found against the real server with an independent protocol client as the remote player,
which sends its steps one at a time: bgboard killed (kill -9) and started again after the
remote player had rolled and stepped took the server's board, with those steps in it, as
the start of the turn; the turn's end was then refused ("no legal 6-5 move reaches the
position the server shows") and bgboard's record of the game was lost. Here the remote
player is such a client (steps one `move` each, driven by the test), the table is anna's
(a computer level's hands on the virtual board); anna's program is stopped without a word
to the server (its connection just closes) in the middle of bert's turn, and started again
with no match named: it rejoins the saved server match, and bert's turn is read as the
move from the position before it.
"""
from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

import pytest

from controller.engine.match import Match
from controller.engine.moves import legal_moves
from controller.bgammon import commands
from controller.online.client import Connection
from controller.online.perspective import board_of_position
from controller.online.play import OnlinePlay
from controller.online.resume import resumed_match
from controller.online.server_match import match_from_state
from controller.online.session import MatchRequest, OnlineSession
from sim.online_host import SimHost
from tests.online_double import BgammonDouble, Game, until
from tests.test_online_client import address, free_port
from tests.test_online_remote import REMOTE, opened, state

pytestmark = pytest.mark.timeout(150)


def _anna(double: BgammonDouble, state: Path, request: MatchRequest | None) -> OnlinePlay:
    session = OnlineSession(address(double), name="anna", request=request, state_dir=state,
                            rejoin_wait_s=0.3, backoff_s=(0.05, 0.2))
    return OnlinePlay(session)


def _hands() -> SimHost:
    """Anna's table: the virtual board, a computer level's hands playing her side."""
    return SimHost(autoplay="simple", pause_s=0.05)


async def _drain(connection: Connection) -> None:
    with contextlib.suppress(Exception):
        while True:
            await connection.next_event()


async def _step(bert: Connection, game: Game) -> bool:
    """One legal step of bert's, sent as the protocol client sends it; False: none is left."""
    steps = game.legal_steps()
    if not steps:
        return False
    done = len(game.moves)
    await bert.send(commands.move(*steps[0]))
    await until("bert's step taken", lambda: len(game.moves) > done, 20)
    return True


def _history(play: OnlinePlay) -> Match:
    table = play.seat.table
    assert table is not None
    return table.controller.status().match


def test_a_restart_in_the_middle_of_the_remote_turn_keeps_the_record_and_takes_the_move(tmp_path: Path) -> None:
    async def go() -> None:
        async with BgammonDouble(free_port(), seed=11) as double:
            state = tmp_path / "anna"
            anna = _anna(double, state, MatchRequest(create="private", points=3, password="pw"))
            await anna.open_table(_hands(), state_dir=state)
            run = asyncio.create_task(anna.run(120))
            bert = await Connection.open(address(double))
            await bert.login("bert")
            await bert.send(commands.join("Guest_anna", "pw"))
            drain = asyncio.create_task(_drain(bert))
            await until("both seated", lambda: bool(double.games) and all(double.games[0].names.values()))
            game = double.games[0]
            me = 1 if game.names[1] == "Guest_bert" else 2
            await bert.send(commands.ROLL)  # bert's opening die
            restarted: OnlinePlay | None = None
            kept: tuple[object, ...] = ()
            while restarted is None:
                await until("bert's move or answer", lambda: game.turn == me and not game.double_offered
                            or game.double_offered and game.turn != me, 30)
                if game.double_offered:
                    await bert.send(commands.OK)  # bert takes
                    await until("the take", lambda: not game.double_offered, 10)
                    continue
                if not game.roll1:
                    await bert.send(commands.ROLL)
                    await until("bert's dice", lambda: game.roll1 != 0, 10)
                opponent = anna.seat.opponent
                ready = opponent is not None and opponent.compared >= 1 and game.legal_steps()
                if ready:
                    await _step(bert, game)  # the first step on the server; now anna's program dies
                    kept = _history(anna).history[-1].actions
                    run.cancel()
                    await asyncio.gather(run, return_exceptions=True)
                    await until("anna gone", lambda: game.clients[3 - me] is None, 10)
                    restarted = _anna(double, state, None)  # no match named: the saved one
                    await restarted.open_table(_hands(), state_dir=state)
                    run = asyncio.create_task(restarted.run(120))
                while await _step(bert, game):
                    pass
                await bert.send(commands.OK)
                await until("bert's turn over", lambda: game.turn != me or game.winner != 0, 20)
            opponent = restarted.seat.opponent
            assert opponent is not None
            await until("anna's next turn compared with the server's",
                        lambda: opponent.compared >= 1 or opponent.stopped is not None, 40)
            assert opponent.stopped is None and opponent.refused == 0, restarted.result.notes[-5:]
            record = _history(restarted).history[-1].actions
            assert record[:len(kept)] == kept and len(record) > len(kept) >= 2  # nothing forgotten, bert's turn in
            assert any(line.startswith("resumed game 1 from the saved match") for line in restarted.result.notes), \
                restarted.result.notes
            restarted.seat.leave()
            result = await run
            assert result.stopped is None
            drain.cancel()
            await bert.close()
    asyncio.run(go())


async def _bert_plays(bert: Connection, game: Game, me: int, before_ok: list[asyncio.Event]) -> None:
    """bert's turns, step by step, for ever: takes every double; before each `ok` the first
    event of `before_ok` (if any) is set and awaited cleared (the test acts in between)."""
    while True:
        await until("bert's move or answer", lambda: game.turn == me and not game.double_offered
                    or game.double_offered and game.turn != me, 60)
        if game.double_offered:
            await bert.send(commands.OK)
            await until("the take", lambda: not game.double_offered, 10)
            continue
        if not game.roll1:
            await bert.send(commands.ROLL)
            await until("bert's dice", lambda: game.roll1 != 0, 10)
        while await _step(bert, game):
            pass
        if before_ok:
            gate = before_ok[0]
            gate.set()
            await until("the test done before bert's ok", lambda: not gate.is_set(), 60)
            before_ok.pop(0)
        await bert.send(commands.OK)
        await until("bert's turn over", lambda: game.turn != me or game.winner != 0, 20)


def test_a_restart_right_after_the_remote_turn_ended_keeps_the_record_and_takes_the_move(tmp_path: Path) -> None:
    """Issue 35.2: killed right after bert's `ok` (the server passed the turn to anna and
    rolled for her), before anna's table counted bert's move: the restart took the server's
    position and dropped the game's earlier turns from the record."""
    async def go() -> None:
        async with BgammonDouble(free_port(), seed=11) as double:
            state = tmp_path / "anna"
            anna = _anna(double, state, MatchRequest(create="private", points=3, password="pw"))
            await anna.open_table(_hands(), state_dir=state)
            run = asyncio.create_task(anna.run(120))
            bert = await Connection.open(address(double))
            await bert.login("bert")
            await bert.send(commands.join("Guest_anna", "pw"))
            drain = asyncio.create_task(_drain(bert))
            await until("both seated", lambda: bool(double.games) and all(double.games[0].names.values()))
            game = double.games[0]
            me = 1 if game.names[1] == "Guest_bert" else 2
            await bert.send(commands.ROLL)  # bert's opening die
            gates = [asyncio.Event() for _ in range(3)]
            plays = asyncio.create_task(_bert_plays(bert, game, me, list(gates)))
            for gate in gates[:2]:  # two of bert's turns played through as usual
                await until("bert's turn ready to end", gate.is_set, 60)
                gate.clear()
            gate = gates[2]
            await until("bert's third turn ready to end", gate.is_set, 60)
            assert isinstance(anna.host, SimHost) and anna.host.hands is not None
            anna.host.hands.pause_s = 3600.0  # anna's hands stop: her table will not count bert's move
            kept = _history(anna).history[-1].actions
            gate.clear()
            await until("the server passed the turn to anna", lambda: game.turn == 3 - me or game.winner != 0, 20)
            await until("anna's table shows bert's move to carry out",
                        lambda: anna.seat.table is not None and anna.seat.table.controller.status().carried_out is not None, 20)
            assert _history(anna).history[-1].actions == kept  # not counted at her table yet
            run.cancel()
            await asyncio.gather(run, return_exceptions=True)
            await until("anna gone", lambda: game.clients[3 - me] is None, 10)
            restarted = _anna(double, state, None)  # no match named: the saved one
            await restarted.open_table(_hands(), state_dir=state)
            run = asyncio.create_task(restarted.run(120))
            opponent = restarted.seat.opponent
            assert opponent is not None
            await until("anna's next turn compared with the server's",
                        lambda: opponent.compared >= 1 or opponent.stopped is not None, 60)
            assert opponent.stopped is None and opponent.refused == 0, restarted.result.notes[-5:]
            assert any(line.startswith("resumed game 1 from the saved match") for line in restarted.result.notes), \
                restarted.result.notes
            record = _history(restarted).history[-1].actions
            assert record[:len(kept)] == kept and len(record) > len(kept) + 1  # nothing forgotten, bert's turn in
            restarted.seat.leave()
            result = await run
            assert result.stopped is None
            plays.cancel()
            drain.cancel()
            await asyncio.gather(plays, drain, return_exceptions=True)
            await bert.close()
    asyncio.run(go())


def test_a_restart_before_the_table_saw_their_roll_reads_the_roll_from_their_move() -> None:
    """The saved match at bert's roll (his dice not seen yet), the server at anna's turn:
    the only roll whose legal move reaches the server's board is taken as his."""
    table = opened((3, 1))
    ours = next(x for x in table.c.status().match.legal_moves() if x.notation == "8/5 6/5")
    table.hands(ours.result, "white")
    saved = table.c.status().match
    assert saved.turn == REMOTE and saved.phase == "roll"
    move = next(x for x in legal_moves(saved.position, (6, 4)) if x.notation == "24/14")
    server = state(board_of_position(move.result, "remote"), turn=1, roll=(2, 1))
    fresh = match_from_state(server, saved.settings)
    resumed = resumed_match(saved, server, fresh)
    assert resumed is not fresh and resumed.phase == "move" and resumed.turn == REMOTE
    assert sorted(resumed.dice or ()) == [4, 6] and resumed.history == saved.history
    # a board no roll of theirs reaches from the saved position: the server's state it is
    elsewhere = state(board_of_position(saved.position, "remote"), turn=1, roll=(2, 1))
    assert resumed_match(saved, elsewhere, match_from_state(elsewhere, saved.settings)).turn == "white"
