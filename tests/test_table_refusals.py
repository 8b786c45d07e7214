"""Every refusal at a table is one typed record, said on the page in the match's language.

The controller refuses an action that is not possible now; the table refuses for the
computer (a level that is not installed, or fails while it thinks); the headless runner
refuses a script line the board cannot carry out. Each is a `Refused` with its English
log line ("rejected: <reason>", unchanged: scripts and logs read it) and a `refused.*`
message key with its parameters, kept by the table. The page's "Not now:" notice says the
reason in the match's language, from the record, never from the log's text; and nothing
in the match changes after a refusal (CODE-REVIEW.md "refusals found by the string
prefix": publish a typed refusal and render it).
"""
from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp

from controller.board.reconcile import BoardState
from controller.bot.base import MatchContext
from controller.controller import Controller
from controller.dice import DiceState
from controller.engine.board_view import cell_counts
from controller.engine.match import Match
from controller.engine.match_settings import MatchSettings
from controller.engine.moves import Move
from controller.engine.position import Position
from controller.errors import BackendUnavailableError
from controller.events import ActionRequested, ReadingReceived, Refused, Tick
from controller.show.texts import render
from controller.table import Table
from controller.table.computer import ComputerSeat
from browser_support import Page, needs_chromium
from sim.page.harness import ServerThread, fast_profile
from browser_support import queue_roll

ENGINE_CRASH = "the engine crashed"


class _CrashingLevel:
    """A computer level whose engine fails whenever it is asked for a move."""

    name = "simple"

    def choose_move(self, position: Position, dice: tuple[int, int], context: MatchContext) -> Move | None:
        raise RuntimeError(ENGINE_CRASH)

    def should_double(self, position: Position, context: MatchContext) -> bool:
        return False

    def should_take(self, position: Position, context: MatchContext) -> bool:
        return True

    def accepts_resignation(self, position: Position, level: int, context: MatchContext) -> bool:
        return False

    def close(self) -> None:
        pass


def _missing_level(level: str) -> _CrashingLevel:
    raise BackendUnavailableError(f"the computer level {level!r} is not installed")


def _sim(tmp_path: Path, language: str, *, opponent: str = "human",
         bots: Callable[[str], Any] | None = None) -> ServerThread:
    settings = tmp_path / "config" / "simulator.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps({"language": language, "opponent": opponent}))
    (tmp_path / "state").mkdir()
    extra = {"bots": bots} if bots is not None else {}
    return ServerThread(state_dir=tmp_path / "state", settings_file=settings,
                        profile=fast_profile(tmp_path), seed=3, **extra)


def _wait(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, "condition not reached in time"
        time.sleep(0.02)


def _ready(sim: ServerThread) -> None:
    """The board is online and laid out as the match stands."""
    _wait(lambda: sim.inspect(lambda live: live.online and live.table is not None
                              and not live.table.controller.status().setting_up))


async def _notice_after(sim: ServerThread, message: dict[str, str]) -> dict[str, Any]:
    """Send `message` from a tab, then the first `rejected` notice the tab is told."""
    async with aiohttp.ClientSession() as session, session.ws_connect(sim.url + "ws") as ws:
        await ws.receive(timeout=5)  # the first snapshot
        await ws.send_str(json.dumps(message))
        async with asyncio.timeout(15):  # snapshots keep coming: a deadline for the notice
            while True:
                data = json.loads((await ws.receive()).data)
                if data["type"] == "notice" and data.get("key") == "rejected":
                    return dict(data)


def _match(sim: ServerThread) -> Match:
    return sim.inspect(lambda live: live.table.controller.status().match)  # type: ignore[union-attr]


def test_a_refused_action_shows_the_swedish_reason_and_changes_nothing(tmp_path: Path) -> None:
    with _sim(tmp_path, "sv") as sim:
        _ready(sim)
        before = _match(sim)
        notice = asyncio.run(_notice_after(sim, {"type": "command", "name": "black double"}))
        after = _match(sim)
        log = sim.inspect(lambda live: list(live.table.log_lines))  # type: ignore[union-attr]
    swedish = render("refused.phase_opening", {"n": 1}, "sv")
    assert notice["params"]["reason"] == swedish != render("refused.phase_opening", {"n": 1}, "en"), notice
    assert notice["text"] == "rejected: cannot double now: game 1 waits for the opening roll", notice
    assert notice["text"] in log  # the log keeps the English line
    assert after == before


def test_a_failing_computer_level_is_told_to_the_page_in_danish(tmp_path: Path) -> None:
    """The computer (Black) wins the opening roll and its engine fails in its worker: the
    page hears it at once, in Danish, with no action of its own to answer."""
    with _sim(tmp_path, "da", opponent="simple", bots=lambda level: _CrashingLevel()) as sim:
        _ready(sim)
        sim.inspect(lambda live: queue_roll(live, (1, 6)))  # White's die 1, Black's 6: Black starts
        notice = asyncio.run(_notice_after(sim, {"type": "command", "name": "white roll"}))
        match = _match(sim)
        log = sim.inspect(lambda live: list(live.table.log_lines))  # type: ignore[union-attr]
        refused = sim.inspect(lambda live: live.table.last_refused)  # type: ignore[union-attr]
    danish = render("refused.computer_failed", {"side": "black", "level": "simple"}, "da")
    assert notice["params"]["reason"] == danish and "Sort" in danish, notice
    assert notice["text"] == f"rejected: the computer failed: {ENGINE_CRASH}"
    assert notice["text"] in log  # the English line, as before
    assert refused is not None and refused.why.key == "refused.computer_failed"
    # nothing changed: Black is still to move its opening 6-1, no checker moved
    assert (match.phase, match.turn, match.dice, match.steps) == ("move", "black", (1, 6), ())
    assert match.position == Match.new(MatchSettings()).position


@needs_chromium
def test_the_page_shows_the_failing_computer_in_danish(tmp_path: Path, browser: Any) -> None:
    """The same, on the real page in Chromium: its notice list says "Ikke nu:" and the
    Danish reason, with no action of its own to answer."""
    with _sim(tmp_path, "da", opponent="simple", bots=lambda level: _CrashingLevel()) as sim:
        _ready(sim)
        page = Page(browser, sim.url)
        try:
            sim.inspect(lambda live: queue_roll(live, (1, 6)))
            page.page.click('#actions button[data-command="white roll"]')
            shown = page.page.wait_for_selector('#notices li[data-key="rejected"]', timeout=10_000)
            assert shown is not None
            danish = render("refused.computer_failed", {"side": "black", "level": "simple"}, "da")
            assert shown.text_content() == f"Ikke nu: {danish}"
            assert page.errors == []
        finally:
            page.close()


def test_a_level_not_installed_is_refused_by_the_table_with_its_key() -> None:
    """Without a loop (the headless runner) the computer answers at once; a level that is
    not installed is refused there, as one record, and the match waits unchanged."""
    dice = DiceState()
    dice = dice.push((1, 6))
    table = Table(Controller(Match.new(MatchSettings(black_player="gnubg")), dice=dice),
                  computers=ComputerSeat(_missing_level), clock=lambda: 0.0)
    told: list[Refused] = []
    table.on_refused(told.append)
    table.dispatch(ReadingReceived(BoardState.of(cell_counts(Position.initial(), "white")), 0.0))
    table.dispatch(Tick(0.5))
    table.dispatch(ActionRequested("white", "roll", 1.0))
    (refused,) = told
    assert refused.why.key == "refused.computer_missing"
    assert render(refused.why.key, refused.why.as_dict(), "sv") == render("refused.computer_missing",
                                                                          {"level": "gnubg"}, "sv")
    assert table.log_lines[-1] == "rejected: the computer level 'gnubg' is not installed"
    assert table.controller.status().match.turn == "black" and table.controller.status().match.steps == ()
