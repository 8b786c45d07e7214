"""The running simulator behind the page: the virtual board (the real firmware code) in
real time on a pseudo-terminal, the serial link reading it with pyserial, and the table
(controller, simulated LED strip, dummy OLED, saved matches) on one asyncio loop.

The page is the one page of every table (controller/web/table_page.py), its actions held
there once; what is the simulator's is handed to it: the virtual board (sim/page/sim_board.py:
the page's hands become exactly the sensor changes a hand makes, `vb.lift`, `vb.place`, and
the controller learns of them only through SCAN frames over the pty, as on a real board),
a finger on the mock pins for the buttons (sim/page/fingers.py), and the dialog's choices
kept for the next session. This module keeps the life cycle: the board, the ticks, the table.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from controller.board.profile import Profile, load_profile
from controller.bot.base import Bot
from controller.dice import DiceState
from controller.engine.board_view import CELLS, step_cells  # step_cells: tests/test_web_server.py imports it here
from controller.engine.match import Match
from controller.events import ButtonPressed
from controller.json_value import JsonObject
from controller.online.door import OnlineDoor
from controller.online.watch import WatchedMatch
from controller.settings import Settings, load_settings
from controller.table import BackendChoice, Table, make_bot, open_table
from controller.web.dialog import SavedDialog, check_dialog, dialog_config, dialog_match, \
    dialog_path  # check_dialog, dialog_match: tests import them here
from controller.web.protocol import Answer, Notice, PageAction
from controller.web.spectators import SpectatorView, led_facts
from controller.web.subscribers import Subscribers
from controller.web.table_page import TablePage
from sim.hands import Hands
from sim.page.faults import PageFaults
from sim.page.fingers import PageFingers
from sim.page.sim_board import SimBoard
from sim.page.ticks import PageTicks
from sim.state_dir import StateDir
from sim.virtual_board import VirtualBoard

class LiveSim:
    """The `PageBackend` of the browser simulator: the one page of every table
    (controller/web/table_page.py) over the virtual board (sim/page/sim_board.py), the
    table opened once on it, New match the table's `MatchChosen` as on every front end."""

    def __init__(self, *, profile: Profile | None = None, state_dir: Path | None = None,
                 settings_file: Path | None = None, seed: int | None = None,
                 online_settings: Callable[[], Settings] | None = None,
                 bots: Callable[[str], Bot] = make_bot) -> None:
        """`online_settings`: the settings online play reads (server, account, password
        file; default `load_settings()`); `bots`: the computer levels by name."""
        self.bots = bots
        self.profile = profile or load_profile()
        self._state = StateDir(state_dir, "bgboard-sim-")
        self.state_dir = self._state.path
        self.settings_file = settings_file or dialog_path()
        self._seed = seed
        self.online_settings = online_settings or load_settings
        #: the New match dialog's choices, kept for the next session (controller/web/dialog.py)
        self.saved = SavedDialog(self.settings_file, self.online_settings)
        self.vb = VirtualBoard(self.profile, seed=seed or 0)
        self.led_config = self.profile.leds
        #: faults the page injects into the board's wire and sensors (sim/page/faults.py)
        self.faults = PageFaults(self.vb, self.profile)
        #: the hand on the virtual board and the helping hands (sim/hands.py)
        self.hands = Hands(self.vb, status=lambda: self._ready().controller.status(), changed=self._changed)
        self.table: Table | None = None
        #: the way in and out of online play at the table, once it is open
        self.door: OnlineDoor | None = None
        #: the page of the table, once it is open (controller/web/table_page.py)
        self.page: TablePage | None = None
        #: the tabs told when what the page shows changed (controller/web/subscribers.py)
        self.tabs = Subscribers(self._state_key)
        #: the loop's clock, the ticks and the frame window (sim/page/ticks.py)
        self.ticks = PageTicks(settle_s=self.profile.timing.settle_ms / 1000, tick=self._tick, changed=self._changed)
        self._frames_window = self.ticks.frames  # tests/test_web_hostile.py reads it here
        #: a finger on the table's buttons (sim/page/fingers.py)
        self.fingers = PageFingers(lambda: self.table, self._now)

    # -- life cycle ---------------------------------------------------------------------
    async def start(self) -> None:
        self.ticks.bind()
        self.vb.start()
        await self._open_table()
        self.ticks.start()

    async def close(self) -> None:
        self.ticks.close()
        self.faults.close()
        if self.table is not None:
            await self.table.aclose()
        self.vb.close()
        self._state.cleanup()

    def _now(self) -> float:
        return self.ticks.now()

    @property
    def dialog(self) -> JsonObject:
        """The New match dialog's choices now."""
        return self.saved.settings()

    async def _open_table(self) -> None:
        """Open the table on the virtual board (every front end's `open_table`): the saved
        match resumed (or one started from the dialog), the board laid out as the match
        stands, the page put on it, then the board session started."""
        backends = BackendChoice(port=self.vb.port, leds="sim", display="dummy", pins="mock",
                                 state_dir=self.state_dir, read_timeout_s=0.02)
        dialog = self.dialog
        settings = dialog_match(dialog).settings
        config = dialog_config(dialog, self.profile.timing.settle_ms / 1000)
        table = open_table(self.profile, backends, clock=self._now, config=config,
                           new_match=lambda: Match.new(settings), dice=DiceState.seeded(random.Random(self._seed)),
                           bots=self.bots, loop=self.ticks.loop)
        self.table = table
        self.door = OnlineDoor(table, settings=self.online_settings, online_dir=self.state_dir / "online",
                               on_change=self._changed)
        table.offer_online(self.door)
        board = SimBoard(self.vb, self.profile, hands=self.hands, faults=self.faults, table=self._ready,
                         frames=self._frames_window, now=self._now)
        self.page = TablePage(table, board=board, buttons=self.fingers, dialog=self.saved, leds=self.led_config,
                              door=self.door, tabs=self.tabs)
        table.on_reading(self.ticks.reading_seen)
        table.review_matches(self.page.practising.cache)
        self.hands.set_board(table.controller.status().match)
        assert table.link is not None
        await table.link.start()

    def _ready(self) -> Table:
        assert self.table is not None
        return self.table

    def _page(self) -> TablePage:
        assert self.page is not None
        return self.page

    @property
    def bad_scans(self) -> int:
        """SCANs that did not fit the profile's matrix (the board session counts them)."""
        return self.table.link.bad_scans if self.table is not None and self.table.link is not None else 0

    @property
    def watched(self) -> WatchedMatch | None:
        return self.page.watched if self.page is not None else None

    @property
    def hand(self) -> list[dict[str, str]]:
        """The checkers in the air (sim/hands.py keeps them)."""
        return self.hands.hand

    def helpers(self) -> list[str]:
        """The helping hands that make sense now (sim/hands.py)."""
        return self.hands.helpers()

    @property
    def online(self) -> bool:
        return self.table is not None and self.table.controller.status().online

    def _tick(self, now: float) -> None:
        if self.table is not None:
            self.table.tick(now)
            turn = self.table.controller.status().match.turn
            if turn is not None and self.hands.landed_unseen():  # a helper's checker on a full point
                self.table.dispatch(ButtonPressed(turn, "main", now))
            self._changed()

    def _changed(self) -> None:
        self.tabs.changed()

    def _state_key(self) -> str:
        if self.table is None or self.page is None:
            return ""
        scene = self.table.controller.status().scene
        board = tuple(self.vb.counts(c) for c in CELLS)
        # the sensors (a flickering one shows) and the second (the link's counters move on)
        review = self.page.practising.summary()
        watched = self.watched.state if self.watched is not None else None
        return repr((scene, board, watched, tuple(tuple(h.items()) for h in self.hand), self.online,
                     self.display_version(), tuple(self.vb.sensors()), int(self._now()),
                     review["version"] if review else None))

    # -- PageBackend: the table's page ---------------------------------------------------
    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        return self.tabs.add(callback)

    def on_notice(self, callback: Callable[[Notice], None]) -> Callable[[], None]:
        return self._page().on_notice(callback)

    def display_version(self) -> str:
        return self._page().display_version()

    def display_png(self) -> bytes:
        return self._page().display_png()

    def match_record(self) -> str:
        return self._page().match_record()

    def review_json(self) -> JsonObject:
        return self._page().review_json()

    def snapshot(self) -> JsonObject:
        return self._page().snapshot()

    async def act(self, action: PageAction) -> Answer:
        return await self._page().act(action)


def live_view(live: LiveSim) -> SpectatorView:
    """The spectators' view of the simulator's table (`bgboard sim --spectators PORT`)."""
    return SpectatorView(lambda: live.table, live.match_record, live.subscribe, **led_facts(live.profile))
