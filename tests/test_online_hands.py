"""The computer level's hands on the simulator's board (`bgboard online --headless`, and
`--autoplay`) answer a double as the level judges it from the doubler's side, as the
computer's seat at a table does (controller/table/computer.py `answer_with`).

A race the doubler leads by far is passed, and one the doubler trails by far is taken. The
hands once put the question from the taker's side, so they took hopeless doubles and
passed easy takes: online matches between two headless tables ended 12-0, 14-0.
"""
from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from controller.engine.match_settings import HUMAN, MatchSettings
from controller.engine.position import Position
from controller.events import AdoptMatch
from controller.table import make_bot
from controller.table.start import starting_match
from sim.online_hands import SimHands
from sim.page.live import LiveSim
from tests.online_double import until

pytestmark = pytest.mark.timeout(120)


def _race(doubler_pips_on: int, taker_pips_on: int) -> Position:
    """From the doubler's side (Black, on roll): its fifteen checkers on its point
    `doubler_pips_on`, the taker's fifteen on the taker's point `taker_pips_on`."""
    mine = [0] * 25
    theirs = [0] * 25
    mine[doubler_pips_on - 1] = 15
    theirs[taker_pips_on - 1] = 15
    return Position(tuple(mine), tuple(theirs))


async def _answer_of_hands(tmp: Path, position: Position) -> str:
    """Black doubles in `position`; White's hands (the `simple` level) answer: 'take' or 'drop'."""
    live = LiveSim(state_dir=tmp / "sim", settings_file=tmp / "dialog.json", seed=3)
    await live.start()
    try:
        assert live.table is not None
        settings = MatchSettings(length=7, white_player=HUMAN, black_player=HUMAN, confirm="button")
        match = starting_match(settings, position.id, turn="black").double("black", now=0.0).match
        live.table.dispatch(AdoptMatch(match, live.table.clock()))
        hands = SimHands(live, make_bot("simple"), pause_s=0.05)
        working = asyncio.create_task(hands.work())
        try:
            await until("the double answered", lambda: live.table.controller.status().match.phase != "doubled", 30)
        finally:
            working.cancel()
            await asyncio.gather(working, return_exceptions=True)
        after = live.table.controller.status().match
        if after.score == (0, 1):  # the game passed: Black's point, a new game
            return "drop"
        assert after.cube == 2 and after.cube_owner == "white" and after.score == (0, 0)
        return "take"
    finally:
        await live.close()


def test_the_hands_pass_a_race_the_doubler_leads_by_far(tmp_path: Path) -> None:
    # the doubler 15 pips from home, the taker 300
    assert asyncio.run(_answer_of_hands(tmp_path, _race(1, 20))) == "drop"


def test_the_hands_take_a_race_the_doubler_trails_by_far(tmp_path: Path) -> None:
    # the doubler 300 pips from home, the taker 15
    assert asyncio.run(_answer_of_hands(tmp_path, _race(20, 1))) == "take"


def test_the_hands_say_their_checker_landed_on_a_full_point(tmp_path: Path) -> None:
    """Issue 35.3: a step onto a point that already holds six (all its sensors covered) is
    not seen landing; the table asks for the main button, and the hands never pressed it
    (three of 25 headless online matches stopped for ever). Here White's only legal 1-1 is
    8/7 onto six checkers on 7 (Black holds White's 6 and 23 points)."""
    white = Position.from_points({7: 6, 8: 1, 24: 8}, {2: 2, 19: 2, 6: 11})
    assert white.id  # a legal position

    async def go() -> None:
        live = LiveSim(state_dir=tmp_path / "sim", settings_file=tmp_path / "dialog.json", seed=3)
        await live.start()
        try:
            assert live.table is not None
            settings = MatchSettings(length=7, white_player=HUMAN, black_player=HUMAN, confirm="auto")
            match = starting_match(settings, white.id, turn="white").roll("white", (1, 1), now=0.0).match
            live.table.dispatch(AdoptMatch(match, live.table.clock()))
            hands = SimHands(live, make_bot("simple"), pause_s=0.05)
            working = asyncio.create_task(hands.work())
            try:
                await until("White's 8/7 counted", lambda: live.table.controller.status().match.turn == "black", 30)
            finally:
                working.cancel()
                await asyncio.gather(working, return_exceptions=True)
            last = live.table.controller.status().match.last_move
            assert last is not None and last.side == "white" and [(s.frm, s.to) for s in last.steps] == [(8, 7)]
        finally:
            await live.close()
    asyncio.run(go())
