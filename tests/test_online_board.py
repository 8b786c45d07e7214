"""`bgboard online` on the real board's path: `run_table` over a serial port, the virtual
board as its own process behind a real pseudo-terminal (the firmware code behind it),
against the protocol double over loopback TCP.

The person at that board (`board_hands.BoardPerson`) works it only through the board
process's own inputs and the table's buttons: sets it up, rolls, takes a double, plays White's moves
checker by checker, carries out the remote player's moves as the LEDs show them. The
remote player is a second bgboard (headless, a computer level moving its checkers).
"""
from __future__ import annotations

import asyncio
from pathlib import Path

from controller.engine.board_view import step_cells
from controller.engine.match_history import TurnRecord
from controller.online.play import BoardHost, BoardOptions, OnlinePlay
from controller.online.session import MatchRequest, OnlineSession
from sim.online_host import SimHost
from sim.page.harness import fast_profile
from tests.board_hands import BoardPerson
from tests.board_process import board_process
from tests.online_double import BgammonDouble
from tests.test_online_client import address, free_port


def _session(double: BgammonDouble, name: str, request: MatchRequest, state: Path) -> OnlineSession:
    return OnlineSession(address(double), name=name, request=request, state_dir=state,
                         rejoin_wait_s=0.3, backoff_s=(0.05, 1.0))


def test_a_whole_match_on_the_real_board(tmp_path: Path) -> None:
    profile = fast_profile(tmp_path)
    with board_process(tmp_path / "fast.toml") as board:
        async def go() -> None:
            async with BgammonDouble(free_port(), seed=3) as double:
                here = OnlinePlay(_session(double, "anna", MatchRequest(create="private", points=2, password="pw"),
                                           tmp_path / "a"))
                await here.open_table(BoardHost(BoardOptions(
                    port=board.port, profile=profile, strip="sim", display="dummy", pins="mock", brightness=None), "en"),
                    state_dir=tmp_path / "a")
                there = OnlinePlay(_session(double, "bert", MatchRequest(join="Guest_anna", password="pw"),
                                            tmp_path / "b"))
                await there.open_table(SimHost(autoplay="simple", pause_s=0.05), state_dir=tmp_path / "b")
                person = BoardPerson(board, here.host.table)
                hands = asyncio.create_task(person.play())

                async def play_here() -> object:
                    try:
                        return await here.run(300)
                    finally:
                        hands.cancel()

                ours, theirs = await asyncio.gather(play_here(), there.run(300))
                await asyncio.gather(hands, return_exceptions=True)
                _check(double, here, there, person, ours, theirs)  # type: ignore[arg-type]
        asyncio.run(go())


def _check(double: BgammonDouble, here: OnlinePlay, there: OnlinePlay, person: BoardPerson,
           ours: object, theirs: object) -> None:
    from controller.online.play import PlayResult

    assert isinstance(ours, PlayResult) and isinstance(theirs, PlayResult)
    assert ours.over and theirs.over, (ours.notes[-5:], theirs.notes[-5:])
    assert ours.stopped is None and theirs.stopped is None
    game = double.games[0]
    anna = 1 if game.names[1] == "Guest_anna" else 2
    assert ours.score == (game.score[anna], game.score[3 - anna]) and max(ours.score) >= 1
    assert theirs.score == (ours.score[1], ours.score[0])
    # the remote player's moves are the ones carried out on this board, each as its LEDs showed
    assert ours.match is not None and theirs.match is not None  # the online matches as they ended
    played_there = [a for g in theirs.match.history for a in g.actions
                    if isinstance(a, TurnRecord) and a.side == "white" and a.steps]
    assert [s.move.steps for s in person.shown] == [a.steps for a in played_there]
    for shown in person.shown:
        cells = [step_cells(step, "black") for step in shown.move.steps]
        assert set(shown.lights) == {c for pair in cells for c in pair}
        assert all(shown.lights[to] == "bot-to" for _, to in cells)
    # this board's own moves went to the server checker by checker, each turn ended by `ok`
    played_here = [a for g in ours.match.history for a in g.actions
                   if isinstance(a, TurnRecord) and a.side == "white" and a.steps]
    assert played_here and sum(1 for line in ours.sent if line.startswith("move ")) == \
        sum(len(a.steps) for a in played_here)
    # the board's own buttons: the opening roll, a roll where a double was possible, their
    # double taken (this seed's match has one)
    assert {"white_main (opening_roll)", "white_main (roll_or_double)",
            "white_main (double_offered)"} <= set(person.presses)
    assert person.setups >= 1  # the empty board was set up to the server's position
    print(f"score {ours.score}, {len(person.shown)} remote moves carried out, {len(played_here)} played here, "
          f"turns compared {ours.turns_compared}")
