"""The running simulator behind the page: the virtual board (the real firmware code) in
real time on a pseudo-terminal, the serial link reading it with pyserial, and the table
(controller, simulated LED strip, dummy OLED, saved matches) on one asyncio loop.

The page's actions become exactly the sensor changes a hand makes (`vb.lift`,
`vb.place`); the controller learns of them only through SCAN frames over the pty, as on
a real board. Conveniences (a checker's highest single step, covering a point with two)
are worked out here from the engine's turn plan and then carried out the same way.
"""
from __future__ import annotations

import logging
import random
from collections.abc import Callable
from pathlib import Path

from controller.board.profile import Profile, load_profile
from controller.bot.base import Bot
from controller.dice import DiceState
from controller.engine.board_view import CELLS, step_cells  # step_cells: tests/test_web_server.py imports it here
from controller.engine.match import Match
from controller.events import ButtonPressed, LanguageChosen, Refused, TutorChosen
from controller.json_value import JsonObject
from controller.online.door import OnlineDoor
from controller.online.watch import WatchedMatch
from controller.settings import Settings, load_settings
from controller.table import BackendChoice, Table, make_bot, open_table
from sim.state_dir import StateDir
from sim.virtual_board import VirtualBoard
from controller.web.dialog import check_dialog, dialog_config, dialog_match, dialog_path, load_dialog, \
    new_match_choice, offered_levels, remember  # check_dialog, dialog_match: tests import them here
from controller.web import online_page, page_actions, table_commands
from controller.web.page_debug import debug_view, trim_frames
from sim.page.faults import PageFaults
from sim.page.fingers import PageFingers
from sim.page.hands import PageHands
from controller.web.practice_page import PagePractice
from controller.web.protocol import Notice, PageAction
from controller.web.record import table_record
from controller.web.refusals import PageRefusals
from controller.web.subscribers import Subscribers
from sim.page.ticks import PageTicks
from controller.web.table_view import display_png, display_version, table_view
from controller.web.spectators import SpectatorView, led_facts
from controller.web.watch_page import watched_view

log = logging.getLogger("bgboard.sim")


class LiveSim:
    """The `SimBackend` of the browser simulator."""

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
        #: the dice the next table opens with (a table's own dice are its state's)
        self.dice = DiceState.seeded(random.Random(seed))
        self.online_settings = online_settings or load_settings
        self.dialog = load_dialog(self.settings_file, self.online_settings)
        #: every level a player may choose, with what a missing one lacks (shown, explained)
        self.levels = offered_levels()
        #: the way in and out of online play at the current table (a new table, a new door)
        self.door: OnlineDoor | None = None
        self.vb = VirtualBoard(self.profile, seed=seed or 0)
        self.led_config = self.profile.leds
        #: faults the page injects into the board's wire and sensors (sim/page/faults.py)
        self.faults = PageFaults(self.vb, self.profile)
        #: the page's hands on the virtual board: the hand and the helping hands (sim/page/hands.py)
        self.hands = PageHands(self.vb, status=lambda: self._ready().controller.status(), changed=self._changed)
        self.table: Table | None = None
        #: the table's refusals, as the page's notices in the match's language
        self.refusals = PageRefusals(self._language)
        #: the tabs told when what the page shows changed (controller/web/subscribers.py)
        self.tabs = Subscribers(self._state_key)
        self._tables = 0  # tables made so far: each new display counts its frames from 0
        #: the loop's clock, the ticks and the frame window (sim/page/ticks.py)
        self.ticks = PageTicks(settle_s=self.profile.timing.settle_ms / 1000, tick=self._tick, changed=self._changed)
        self._frames_window = self.ticks.frames  # tests/test_web_hostile.py reads it here
        #: a finger on the table's buttons (sim/page/fingers.py)
        self.fingers = PageFingers(lambda: self.table, self._now)
        #: the review panel and the practice of a marked decision (controller/web/practice_page.py)
        self.practising = PagePractice(lambda: self.table, self.hands.hand_back, now=self._now, changed=self._changed)

    # -- life cycle ---------------------------------------------------------------------
    async def start(self) -> None:
        self.ticks.bind()
        self.vb.start()
        await self._open_table(None)
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

    def _language(self) -> str:
        """The match's language (the page's too)."""
        return self.table.controller.status().language if self.table is not None else str(self.dialog["language"])

    async def _open_table(self, match: Match | None) -> None:
        """Open the table on the virtual board (every front end's `open_table`): `match`
        None resumes the saved match (or starts one from the dialog); the board is laid out
        as the match stands, then the board session is started."""
        old = self.table
        if old is not None:
            old.close()  # its session lets go of the port now; the new table takes over at once
        backends = BackendChoice(port=self.vb.port, leds="sim", display="dummy", pins="mock",
                                 state_dir=self.state_dir, read_timeout_s=0.02)
        settings = dialog_match(self.dialog).settings
        config = dialog_config(self.dialog, self.profile.timing.settle_ms / 1000)
        table = open_table(self.profile, backends, clock=self._now, config=config,
                           match=match, new_match=lambda: Match.new(settings), dice=self.dice,
                           bots=self.bots, loop=self.ticks.loop)
        self._tables += 1
        self.table = table
        self.door = OnlineDoor(table, settings=self.online_settings, online_dir=self.state_dir / "online",
                               on_change=self._changed)
        table.offer_online(self.door)
        table.on_scene(lambda scene: self._changed())
        table.on_refused(self.refusals.refused)
        table.on_reading(self.ticks.reading_seen)
        table.review_matches(self.practising.cache)
        self.hands.set_board(table.controller.status().match)
        assert table.link is not None
        await table.link.start()
        if old is not None:
            await old.aclose()

    def review_json(self) -> JsonObject:
        return dict(self.practising.document())

    @property
    def bad_scans(self) -> int:
        """SCANs that did not fit the profile's matrix (the board session counts them)."""
        return self.table.link.bad_scans if self.table is not None and self.table.link is not None else 0

    @property
    def watched(self) -> WatchedMatch | None:
        return online_page.watched(self.door)  # controller/web/online_page.py

    @property
    def hand(self) -> list[dict[str, str]]:
        """The checkers in the air (sim/page/hands.py keeps them)."""
        return self.hands.hand

    def helpers(self) -> list[str]:
        """The helping hands that make sense now (sim/page/hands.py)."""
        return self.hands.helpers()

    def _ready(self) -> Table:
        assert self.table is not None
        return self.table

    def _door_table(self) -> tuple[OnlineDoor, Table]:
        assert self.door is not None and self.table is not None
        return self.door, self.table

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

    # -- SimBackend ---------------------------------------------------------------------
    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        return self.tabs.add(callback)

    def on_notice(self, callback: Callable[[Notice], None]) -> Callable[[], None]:
        return self.refusals.on_notice(callback)

    def _changed(self) -> None:
        self.tabs.changed()

    def _state_key(self) -> str:
        if self.table is None:
            return ""
        scene = self.table.controller.status().scene
        board = tuple(self.vb.counts(c) for c in CELLS)
        # the sensors (a flickering one shows) and the second (the link's counters move on)
        review = self.practising.summary()
        watched = self.watched.state if self.watched is not None else None
        return repr((scene, board, watched, tuple(tuple(h.items()) for h in self.hand), self.online,
                     self.display_version(), tuple(self.vb.sensors()), int(self._now()),
                     review["version"] if review else None))

    def display_version(self) -> str:
        return display_version(self.table, self._tables)

    def display_png(self) -> bytes:
        return display_png(self.table)

    def match_record(self) -> str:
        # while a position is practised the record is still the match's (a practice starts
        # from a position no .mat can write), with the match's dice; while a server match
        # is watched, the local match's too (the server keeps the watched one's)
        if self.table is None:
            return ""
        aside = self.practising.practice.match_seating or (self.door.aside if self.door is not None else None)
        return table_record(self.table, aside)

    def snapshot(self) -> JsonObject:
        """What the page shows: the table (controller/web/table_view.py) with the hand, the dialog and
        online play, or while the door watches a server match that match in its place
        (`watched_view`: its checkers, not the board's, and nothing to do)."""
        assert self.table is not None and self.door is not None
        online = self.door.view()
        trim_frames(self._frames_window, self._now())
        watched = self.watched
        return {
            "board": {c: list(self.vb.counts(c)) for c in CELLS},
            "hand": list(self.hand),
            **table_view(self.table, self.led_config, version=self.display_version(), in_hand=bool(self.hand),
                         watching=watched is not None),
            "helpers": self.hands.helpers(),
            "chat": online["chat"],
            "online_play": online,
            "settings": dict(self.dialog),
            "levels": self.levels,
            "review": self.practising.summary(),
            "debug": debug_view(self.vb.sensors(), self.profile, self.table.link, online=self.online,
                                frames=len(self._frames_window), bad_scans=self.bad_scans,
                                flickering=self.faults.flickering),
            **({} if watched is None else watched_view(watched)),
        }

    async def act(self, action: PageAction) -> str | Notice | None:
        """The page's action answered (controller/web/page_actions.py) by its handler here."""
        assert self.table is not None
        return await page_actions.answer(action, self._handlers(), self.refusals, watching=self.watched is not None,
                                         plugged=lambda: self.vb.is_plugged)

    def _handlers(self) -> dict[str, page_actions.Handler]:
        """What each page action does (an async one returns its coroutine)."""
        return {
            **self.hands.handlers(),
            "button": lambda a: self._button(a.name or ""),
            "command": lambda a: table_commands.command(self._ready(), a.name or "", self._now()),
            "fault": lambda a: self.faults.inject(a.name or ""),
            "new_match": lambda a: self._new_match(a.settings or {}),
            "online": lambda a: online_page.join(*self._door_table(), a.settings or {}, self.online_settings),
            "online_leave": lambda a: online_page.leave(*self._door_table()),
            "say": lambda a: self.door.say(a.name or "") if self.door is not None else None,
            "practice": lambda a: self.practising.start(a.name or ""),
            "back_to_match": lambda a: self.practising.back(),
            "dice": self._dice, "die": self._dice, "phrase": self._dice, "reveal": self._dice,
            "language": lambda a: self._chosen("language", LanguageChosen(a.name or "", self._now())),
            "tutor": lambda a: self._chosen("tutor", TutorChosen(a.name or "", self._now())),
            "hint": lambda a: table_commands.ask_hint(self._ready(), self._now()),
        }

    def _chosen(self, key: str, event: LanguageChosen | TutorChosen) -> None:
        """The page's language or tutor: the table's now, the dialog's next match's too
        (remembered with the dialog's other settings where that is possible)."""
        if not any(isinstance(e, Refused) for e in self._ready().dispatch(event)):
            self.dialog[key] = event.language if isinstance(event, LanguageChosen) else event.mark
            remember(self.settings_file, self.dialog)  # read-only: it still changes, only not remembered
        self._changed()

    def _dice(self, action: PageAction) -> None:
        table_commands.dice(self._ready(), action, self._now())  # a refusal answers it (`act`)

    async def _button(self, name: str) -> str | Notice | None:
        return await self.fingers.press(name)  # tests/test_sim_button_taps.py presses here

    async def _new_match(self, data: JsonObject) -> str | Notice | None:
        if (busy := online_page.busy(self.door)) is not None:
            return busy
        self.dialog, match = new_match_choice(data)
        problem = remember(self.settings_file, self.dialog)
        if problem is not None:  # a read-only settings folder: the match starts, only not remembered
            log.warning("the match's settings are not remembered: %s", problem.strerror or problem)
        self.dice = (self.table.controller.state.dice if self.table is not None else self.dice).begin(match)
        # a practice under way ends with the match it came from (the new table has none)
        self.practising.forget()
        await self._open_table(match)
        self._changed()
        return Notice("new_match", f"new match to {self.dialog['length']}", {"n": str(self.dialog["length"])})


def live_view(live: LiveSim) -> SpectatorView:
    """The spectators' view of the simulator's table (`bgboard sim --spectators PORT`)."""
    return SpectatorView(lambda: live.table, live.match_record, live.subscribe, **led_facts(live.profile))
