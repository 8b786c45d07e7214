"""Issue 35.3's siblings: every hand that puts a checker onto a full point says it landed.

A point's six sensors all covered, a seventh checker put there is not seen landing; the
table asks for the main button (`TableStatus.awaits_landing`, "White: on 7? Press the
button"). A person presses it; a helping hand that put the checker there (the page's
double-click, cover, take-back) says so itself, as the computer level's hands online do
(tests/test_online_hands.py) and the soak does from the page's snapshot.

White's only legal 1-1 here is 8/7 onto the six checkers on 7 (Black holds White's 6 and
23 points).
"""
from __future__ import annotations

import asyncio
from pathlib import Path

from controller.engine.match_settings import HUMAN, MatchSettings
from controller.engine.position import Position
from controller.events import AdoptMatch
from controller.table.start import starting_match
from sim.page.live import LiveSim
from controller.web.protocol import PageAction
from tests.online_double import until

FULL_SEVEN = Position.from_points({7: 6, 8: 1, 24: 8}, {2: 2, 19: 2, 6: 11})


async def _white_to_play_one_one(tmp: Path) -> LiveSim:
    live = LiveSim(state_dir=tmp / "sim", settings_file=tmp / "dialog.json", seed=3)
    await live.start()
    assert live.table is not None
    settings = MatchSettings(length=7, white_player=HUMAN, black_player=HUMAN, confirm="auto")
    match = starting_match(settings, FULL_SEVEN.id, turn="white").roll("white", (1, 1), now=0.0).match
    live.table.dispatch(AdoptMatch(match, live.table.clock()))
    await live.act(PageAction("setup"))
    await until("the board set up", lambda: not live.table.controller.status().setting_up, 30)  # type: ignore[union-attr]
    return live


def test_a_checker_the_page_helper_plays_onto_a_full_point_counts(tmp_path: Path) -> None:
    async def go() -> None:
        live = await _white_to_play_one_one(tmp_path)
        try:
            assert await live.act(PageAction("auto_step", cell="8")) is None  # the double-click
            c = live.table.controller  # type: ignore[union-attr]
            await until("White's 8/7 counted", lambda: c.status().match.turn == "black", 30)
            assert c.status().match.last_move is not None and [(s.frm, s.to) for s in c.status().match.last_move.steps] == [(8, 7)]
        finally:
            await live.close()
    asyncio.run(go())


def test_a_persons_checker_on_a_full_point_waits_for_their_button(tmp_path: Path) -> None:
    async def go() -> None:
        live = await _white_to_play_one_one(tmp_path)
        try:
            assert await live.act(PageAction("lift", cell="8", colour="white")) is None
            assert await live.act(PageAction("place", cell="7", colour="white")) is None
            c = live.table.controller  # type: ignore[union-attr]
            await until("the table asks for the button", lambda: c.status().awaits_landing, 30)
            assert live.snapshot()["awaits_landing"] is True  # what the soak reads
            for _ in range(5):  # the page's ticks: nobody presses for the person
                live._tick(live._now())
            assert c.status().match.turn == "white" and c.status().awaits_landing
            await live.act(PageAction("button", name="white_main"))
            await until("White's 8/7 counted", lambda: c.status().match.turn == "black", 30)
        finally:
            await live.close()
    asyncio.run(go())


def test_the_tests_own_board_hand_says_its_checker_landed(tmp_path: Path) -> None:
    """The hand the whole-match tests put at the real board's path (tests/board_hands.py)
    looked for the full point in the phase's prompt, which never says it (the display's
    scene does): a bgboard run soak waited there for ever."""
    from sim.virtual_board import execute
    from tests.board_hands import BoardPerson

    class Board:  # the board process's standard input, on the simulator's own virtual board
        def __init__(self, live: LiveSim) -> None:
            self.live = live

        def do(self, line: str) -> str:
            return execute(self.live.vb, line)

    async def go() -> None:
        live = await _white_to_play_one_one(tmp_path)
        try:
            assert live.table is not None
            person = BoardPerson(Board(live), live.table)  # type: ignore[arg-type]
            playing = asyncio.create_task(person.play())
            try:
                await until("White's 8/7 counted", lambda: live.table.controller.status().match.turn == "black", 30)  # type: ignore[union-attr]
            finally:
                playing.cancel()
                await asyncio.gather(playing, return_exceptions=True)
            assert any(press.startswith("white_main") for press in person.presses), person.presses
        finally:
            await live.close()
    asyncio.run(go())
