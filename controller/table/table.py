"""The table: the controller and every backend it drives, on one event loop.

`Table.dispatch(event)` hands an event to the controller and carries out its effects:
scenes to the LED strip and the display, saves of the match (atomic, after each confirmed
action), the buzzer, the computer's decisions, a bounded log of what happened. It knows
nothing of where events come from, so the headless runner drives it on simulated time,
the browser simulator and `bgboard run` on the loop's clock:

    board session --(on the loop)--> BoardFeed --> dispatch(ReadingReceived, LinkChanged)
    buttons     --call_soon_threadsafe--> dispatch(ButtonPressed)                   (gpiozero thread)
    the front end's ticks ---------------> tick: the session's timers, dispatch(Tick)

(On the in-memory cable the session's events come at once, on the thread that runs the
virtual board: there is no other.) The table owns its backends: `close()` (or `with`)
closes the link, the buttons and pin factory, the buzzer, the strip, the display and
every computer level it made. Tables are opened by `controller.table.open_table`, the same
way for every front end, and are whole when it hands them back.
"""
from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable
from dataclasses import replace
from typing import Protocol

from controller.controller import Controller
from controller.events import (Announce, AskBot, BannerChanged, Buzz, ButtonPressed, Effect, Event,
                               LinksRevoked, MatchSeated, OnlineOffered, OnlineRequested, PracticeRequested, ReadingReceived, Refused,
                               ReviewReady, SaveMatch, ShowScene, Tick)
from controller.inputs.buttons import ButtonPanel
from controller.play.showing import shown
from controller.show.content import DisplayContent, Prompt, Scene
from controller.table.backends import BuzzerOutput, DisplayOutput, LedOutput
from controller.link.board_events import BoardEvent
from controller.link.board_session import BoardSession
from controller.records.store import TableStore
from controller.table.board_feed import BoardFeed
from controller.table.choices import TableChoices
from controller.table.listeners import TableListeners
from controller.table.computer import ComputerSeat
from controller.analysis.review import MatchReview, ReviewCache
from controller.table.practice import TablePractice
from controller.table.review import ReviewRunner, default_cache, figures_of
# Seating is imported from here too (the table seats it)
from controller.table.seating import Seating

log = logging.getLogger("bgboard")

#: How many lines of what happened the table keeps (bounded: a board left on for days
#: keeps only the last lines; the page and scripts read the tail).
LOG_LINES = 200


class Closeable(Protocol):
    def close(self) -> None: ...


#: what makes a part that calls the table back, given where its events go
SessionOpener = Callable[[Callable[[BoardEvent], None]], BoardSession]
PanelOpener = Callable[[Callable[[ButtonPressed], None]], ButtonPanel | None]
PracticeOpener = Callable[["Table"], TablePractice]


class Door(Protocol):
    """The way in and out of online play at a table (controller/online/door.py)."""

    def requested(self, what: str) -> None: ...

    async def aclose(self) -> None: ...


class Table:
    """One table (see the module docstring). Made by `open_table`; a test may build one
    directly around a controller with only the backends it needs."""

    def __init__(self, controller: Controller, *, leds: LedOutput | None = None,
                 display: DisplayOutput | None = None, buzzer: BuzzerOutput | None = None,
                 pin_factory: Closeable | None = None, buttons: PanelOpener | None = None,
                 link: SessionOpener | None = None, practice: PracticeOpener | None = None,
                 store: TableStore | None = None, computers: ComputerSeat | None = None,
                 choices: TableChoices | None = None,
                 clock: Callable[[], float], loop: asyncio.AbstractEventLoop | None = None) -> None:
        """The parts that call the table back (the board session, the buttons, the
        practice) are given as openers, which the table calls with where their events go;
        the others as they are. The table owns every one (`close`)."""
        self.controller = controller
        self.leds = leds
        self.display = display
        self.buzzer = buzzer
        self.pin_factory = pin_factory
        self.store = store or TableStore(None)
        self.computers = computers or ComputerSeat(None)
        #: where the language and tutor chosen here are kept across a restart (None: not kept)
        self.choices = choices
        self.clock = clock
        #: with a loop, the computer thinks in a worker thread and its answer comes back as
        #: an event on the loop (the board keeps being read meanwhile); without, at once
        self.loop = loop
        self.log_lines: deque[str] = deque(maxlen=LOG_LINES)
        self.last_refused: Refused | None = None  # the newest refusal (see `refuse`)
        #: online play can be started here (the menu offers it); see `offer_online`
        self.online: Door | None = None
        self._listeners = TableListeners()
        #: board readings handled so far (a front end waits for the first after a reconnection)
        self.readings = 0
        #: the match's review after each finished game (`review_matches`), or None
        self.review: ReviewRunner | None = None
        self._closed = False
        self._feed = BoardFeed()
        self.link: BoardSession | None = link(self._on_board) if link is not None else None
        self.buttons: ButtonPanel | None = buttons(self.on_button) if buttons is not None else None
        #: the practice of a marked decision of the review here (the menu offers it)
        self.practice: TablePractice | None = practice(self) if practice is not None else None

    # -- events in, effects out -----------------------------------------------------------
    def dispatch(self, event: Event) -> list[Effect]:
        """Hand one event to the controller and carry out its effects."""
        if self._closed:
            return []
        effects = self.controller.handle(event)
        self._listeners.step_taken()
        self.execute(effects, event.at)
        state = self.controller.state
        if self.choices is not None:
            self.choices.keep(state.config)
        if self.review is not None and state.table.practising is None:  # a practice is not the match
            self.review.match_changed(state.match)
        if isinstance(event, ReadingReceived):
            self.readings += 1
            self._listeners.reading_handled()
        return effects

    def execute(self, effects: list[Effect], now: float) -> None:
        follow: list[Event] = []
        # light first, then save: the person sees the board's answer without waiting for
        # the disk (a save is an fsync on an SD card)
        for effect in sorted(effects, key=lambda e: not isinstance(e, ShowScene)):
            if isinstance(effect, ShowScene):
                self.show(effect.scene, now)
            elif isinstance(effect, SaveMatch):
                self._save(effect, now)
            elif isinstance(effect, Buzz):
                if self.buzzer is not None:
                    self.buzzer.play(effect.pattern)
            elif isinstance(effect, Refused):
                self.refuse(effect)
            elif isinstance(effect, Announce):
                self._log(effect.text)
            elif isinstance(effect, (OnlineRequested, PracticeRequested)):
                self._hand_on(effect)
            elif isinstance(effect, LinksRevoked):
                self._listeners.links_revoked()
            elif isinstance(effect, AskBot):
                answer = self.computers.ask(effect, now, self)  # None: it answers later, or never
                if answer is not None:
                    follow.append(answer)
        for event in follow:
            self.dispatch(event)

    def refuse(self, refused: Refused) -> None:
        """Something asked for cannot be done, and nothing changed: the controller's refusals,
        the computer's (a level not installed or failing) and a front end's own (a script's
        impossible line). The log says it in English ("rejected: <reason>", which scripts read);
        the record (its `refused.*` key) is kept (`last_refused`) and handed to the listeners."""
        self._log(f"rejected: {refused.reason}")
        self.last_refused = refused
        self._listeners.refusal(refused)

    def on_links_revoked(self, listener: Callable[[], None]) -> None:
        """Call `listener()` when the menu revokes the pages' links (each page takes a new token)."""
        self._listeners.revoked.append(listener)

    def on_step(self, listener: Callable[[], None]) -> None:
        """Call `listener()` after every event the controller took, before its effects (web/club_table.py)."""
        self._listeners.stepped.append(listener)

    def on_refused(self, listener: Callable[[Refused], None]) -> None:
        """Call `listener(refused)` after every refusal at this table."""
        self._listeners.refused.append(listener)

    def _hand_on(self, request: OnlineRequested | PracticeRequested) -> None:
        """The menu's way into (or out of) online play or a practice, to its owner here."""
        if isinstance(request, OnlineRequested) and self.online is not None:
            self.online.requested(request.what)
        elif isinstance(request, PracticeRequested) and self.practice is not None:
            self.practice.requested(request.key)

    def _log(self, text: str) -> None:
        self.log_lines.append(text)
        log.info(text)

    def _save(self, effect: SaveMatch, now: float) -> None:
        """Save (the store retries a failed save and says so on the display)."""
        if not self.store.save(effect.match, effect.dice, now=now):
            self.log_lines.append(self.store.status.line)

    # -- what is shown --------------------------------------------------------------------
    def on_scene(self, listener: Callable[[Scene], None]) -> None:
        """Call `listener(scene)` after every scene shown (the simulator page's push)."""
        self._listeners.scene.append(listener)

    def on_reading(self, listener: Callable[[], None]) -> None:
        """Call `listener()` after every board reading handled (a loop's wake-up)."""
        self._listeners.reading.append(listener)

    def show(self, scene: Scene, now: float) -> None:
        if self._closed:
            return  # a timer that fires after the table closed shows nothing
        if self.leds is not None:
            self.leds.update(scene.leds, now)
        if self.display is not None:
            self.display.show(_warned(scene.display, self.store.warning(now)), now)
        self._listeners.scene_shown(scene)

    def refresh(self, now: float) -> None:
        """Redraw the last scene at `now` (blinking LEDs, a paging prompt); a failed save
        is tried again."""
        self.store.retry(now)
        self.show(shown(self.controller.state), now)

    def tick(self, now: float) -> None:
        """Time passes: the board session's (its PINGs, a silent board), the controller's
        `Tick` (settling, clocks, automatic rolls), then the scene redrawn and a failed save
        tried again. Every front end's clock (`bgboard run`, the page, the scripts) ticks
        the table this one way."""
        if self.link is not None and not self._closed:
            self.link.tick(now)
        self.dispatch(Tick(now))
        self.refresh(now)

    def next_light_change(self, now: float) -> float | None:
        """When the LEDs next change by themselves (a blink, a pulse), or None."""
        leds = shown(self.controller.state).leds
        return self.leds.next_change(leds, now) if self.leds is not None and leds else None

    # -- online play -------------------------------------------------------------------------
    def offer_online(self, door: Door) -> None:
        """Let online play start and end here (the menu's "Play online"): the remote player
        then sits at this table as the computer does; the table closes the door with itself."""
        self.online = door
        self.dispatch(OnlineOffered("play", True, self.clock()))

    def show_banner(self, prompt: Prompt | None) -> None:
        """A line over the phase's prompt (online play's, the club's seats), drawn at once; None: away."""
        self.dispatch(BannerChanged(prompt, self.clock()))

    @property
    def seating(self) -> Seating:
        """The match played here now, with its dice and store."""
        state = self.controller.state
        return Seating(state.match, state.dice, self.store, state.table.practising)

    def seat(self, seating: Seating, now: float) -> Seating:
        """Play `seating` here from `now` on (online play taking the table, or giving it
        back); returns the seating it replaces, to be seated again later. The match being
        left is saved in its own store first, so nothing confirmed is lost; the board is
        set up to the new match."""
        left = self.seating
        self._save(SaveMatch(left.match, left.dice.secret), self.controller.state.now)
        self.store = seating.store
        self.dispatch(MatchSeated(seating.match, seating.dice, now, seating.practice))
        return left

    # -- the review -------------------------------------------------------------------------
    def review_matches(self, cache: Callable[[], ReviewCache] = default_cache) -> None:
        """Review the match after each finished game, off the loop when there is one; the
        display then shows each player's PR and rating (controller.table.review). `cache`
        gives the analysis cache (called in the worker; a front end may keep one across
        tables)."""
        if self.review is None:
            self.review = ReviewRunner(self._review_ready, loop=self.loop, cache=cache)
            self.review.match_changed(self.controller.state.match)

    def _review_ready(self, review: MatchReview) -> None:
        self.dispatch(ReviewReady(figures_of(review), self.clock()))

    # -- the board and the buttons ------------------------------------------------------------
    def _on_board(self, event: BoardEvent) -> None:
        """An event of the board session, as the controller's events (BoardFeed)."""
        for translated in self._feed.events(event):
            self.dispatch(translated)

    def on_button(self, event: ButtonPressed) -> None:
        """A press from the panel or the page (already on the loop's thread), stepped at the
        table's now: the panel stamped its edge on a gpiozero thread, and the step must see
        its events in the order of its own clock."""
        self.dispatch(replace(event, at=self.clock()))

    # -- life cycle -------------------------------------------------------------------------
    def close(self) -> None:
        """Close every backend the table owns (each at most once)."""
        if self._closed:
            return
        self._closed = True
        if self.link is not None:
            self.link.stop()
        for part in (self.buttons, self.buzzer, self.pin_factory, self.leds, self.display):
            if part is not None:
                try:
                    part.close()
                except Exception as exc:  # closing one part must not keep the others open
                    log.warning("closing %s failed: %s", type(part).__name__, exc)
        self.computers.close()
        if self.review is not None:
            self.review.close()

    async def aclose(self) -> None:
        """`close()`, then wait for the board session to wind down (front ends on a loop);
        also after a `close()`, to let its task end."""
        self.close()
        if self.online is not None:
            door, self.online = self.online, None
            await door.aclose()
        if self.link is not None:
            await self.link.close()

    def __enter__(self) -> "Table":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def busy(table: Table, now: float) -> bool:
    """Whether the table's next tick is due soon: a reading settling, LEDs blinking or
    pulsing, a clock running, an automatic roll waiting. Front ends tick an idle table
    less often (`bgboard run` four times a second, the headless runner once a minute of a
    long wait)."""
    status = table.controller.status()
    if status.settling or status.roll_due is not None or status.clock_running:
        return True
    return table.next_light_change(now) is not None


def _warned(content: DisplayContent, warning: str | None) -> DisplayContent:
    """`content` with a failed save's warning (the store's prompt key) in place of its prompt."""
    return content if warning is None else replace(content, prompt=Prompt.of(warning))
