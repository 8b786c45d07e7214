"""The application: one asyncio event loop around the controller.

`Table` owns the controller and carries out its effects: scenes to the LED strip and the
display, saves of the match (atomic, after each confirmed action), the buzzer, the
computer's decisions, and a log of what happened. It is driven by `dispatch(event)` and
knows nothing of where events come from, so the headless simulator drives it on
simulated time and `run_table` drives it on the real clock:

    link frames --call_soon_threadsafe--> dispatch(ReadingReceived)     (reader thread)
    buttons     --call_soon_threadsafe--> dispatch(ButtonPressed)       (gpiozero thread)
    tick task   ------------------------> dispatch(Tick)                (every 50 ms)

At start the saved match (if any) is resumed, and the board is first set up to its
position (the controller starts in set-up mode).
"""
from __future__ import annotations

import asyncio
import collections
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from controller.board.profile import Profile, load_profile
from controller.board.reading import Reading
from controller.board.reconcile import BoardState
from controller.controller import Controller, ControllerConfig
from controller.dice import TableDice
from controller.engine.match import LEVELS, Match
from controller.engine.match_settings import MatchSettings
from controller.errors import BgboardError
from controller.events import (Announce, AskBot, BotCube, BotMoved, Buzz, Effect, Event, LinkChanged,
                               SaveMatch, ShowScene, Tick)
from controller.records.store import TableStore as MatchStore
from controller.show.content import Scene

log = logging.getLogger("bgboard")
LOG_LINES = 200


def reading_to_state(reading: Reading) -> BoardState:
    """The controller's view of a link reading (counts, saturated and faulty cells)."""
    return reading.board_state()


@dataclass
class Table:
    """The controller and its backends (see the module docstring)."""

    controller: Controller
    strip: Any = None
    display: Any = None
    buzzer: Any = None
    store: MatchStore = field(default_factory=lambda: MatchStore(None))
    bot_factory: Callable[[str], Any] | None = None
    clock: Callable[[], float] = time.monotonic
    #: what happened lately (bounded: a board left on for days keeps only the last lines)
    log_lines: collections.deque[str] = field(default_factory=lambda: collections.deque(maxlen=LOG_LINES))
    on_scene: Callable[[Scene], None] | None = None
    #: with a loop, the computer thinks in a worker thread and its answer comes back as an
    #: event on the loop (the board keeps being read meanwhile); without, it answers at once
    loop: asyncio.AbstractEventLoop | None = None
    _bots: dict[str, Any] = field(default_factory=dict)

    def _ask_in_worker(self, effect: AskBot) -> None:
        assert self.loop is not None
        loop = self.loop
        future = loop.run_in_executor(None, self._ask, effect, 0.0)

        def done(f: "asyncio.Future[Event | None]") -> None:
            try:
                answer = f.result()
            except Exception as exc:  # a bot that fails must not stop the table
                self.log_lines.append(f"computer failed: {exc}")
                log.error("computer failed: %s", exc)
                return
            if answer is not None:
                self.dispatch(replace(answer, at=self.clock()))

        future.add_done_callback(done)

    def dispatch(self, event: Event) -> list[Effect]:
        """Hand one event to the controller and carry out its effects."""
        effects = self.controller.handle(event)
        self.execute(effects, event.at)
        return effects

    def execute(self, effects: list[Effect], now: float) -> None:
        follow: list[Event] = []
        # light first, then save: the person sees the board's answer without waiting for
        # the disk (a save is an fsync on an SD card)
        effects = sorted(effects, key=lambda e: not isinstance(e, ShowScene))
        for effect in effects:
            if isinstance(effect, ShowScene):
                self.show(effect.scene, now)
            elif isinstance(effect, SaveMatch):
                if not self.store.save(effect.match, effect.dice, now=now):
                    self.log_lines.append(self.store.status.line)
            elif isinstance(effect, Buzz):
                if self.buzzer is not None:
                    self.buzzer.play(effect.pattern)
            elif isinstance(effect, Announce):
                self.log_lines.append(effect.text)
                log.info(effect.text)
            elif isinstance(effect, AskBot):
                if self.loop is not None:
                    self._ask_in_worker(effect)
                    continue
                answer = self._ask(effect, now)
                if answer is not None:
                    follow.append(answer)
        for event in follow:
            self.dispatch(event)

    def show(self, scene: Scene, now: float) -> None:
        if self.strip is not None:
            self.strip.update(scene.leds, now)
        if self.display is not None:
            self.display.show(self.store.on_display(scene.display, now), now)
        if self.on_scene is not None:
            self.on_scene(scene)

    def refresh(self, now: float) -> None:
        """Redraw the last scene at `now` (blinking LEDs, a paging prompt); a failed save
        is tried again."""
        self.store.retry(now)
        self.show(self.controller.last_scene, now)

    def _ask(self, effect: AskBot, now: float) -> Event | None:
        """Put the controller's question to the computer level playing that side."""
        if self.bot_factory is None:
            return None
        payload = effect.payload
        side = payload["side"]
        level = self.controller.config.player(side)
        bot = self._bots.get(level)
        if bot is None:
            try:
                bot = self._bots[level] = self.bot_factory(level)
            except BgboardError as exc:  # a level not installed, or no such level
                self.log_lines.append(f"rejected: {exc}")
                return None
        match: Match = payload["match"]
        context = bot_context(match, side)
        position = payload["position"]
        token = effect.turn_token
        if effect.kind == "move":
            return BotMoved(bot.choose_move(position, payload["dice"], context), now, token)
        if effect.kind == "cube":
            return BotCube("double" if bot.should_double(position, context) else "roll", now, token)
        if effect.kind == "take":
            return BotCube("take" if bot.should_take(position, context) else "drop", now, token)
        if effect.kind == "rematch":
            accepted = accepts_rematch(bot, context)
            return BotCube("rematch" if accepted else "decline", now, token, side)
        if effect.kind == "offer_rematch":
            offered = offers_rematch(bot, context, lost=match.winner != side)
            return BotCube("rematch", now, token, side) if offered else None
        level_index = LEVELS.index(payload["level"] or "single") + 1
        accepted = bot.accepts_resignation(match.partial, level_index, context)
        return BotCube("accept" if accepted else "decline", now, token)


def accepts_rematch(bot: Any, context: Any) -> bool:
    """The computer's answer to a rematch offer (``controller.bot.base``)."""
    from controller.bot.base import accepts_rematch as answer

    return answer(bot, context)


def offers_rematch(bot: Any, context: Any, lost: bool) -> bool:
    """Whether the computer offers a rematch itself (``controller.bot.base``)."""
    from controller.bot.base import offers_rematch as answer

    return answer(bot, context, lost)


def bot_context(match: Match, side: str) -> Any:
    """The computer's view of the match: its own score away first, cube ownership."""
    from controller.bot.base import MatchContext

    me = 0 if side == "white" else 1
    owner = match.cube_owner
    length = match.length
    return MatchContext(length=length, bot_away=max(1, length - match.score[me]),
                        opponent_away=max(1, length - match.score[1 - me]), cube=match.cube,
                        owner="center" if owner is None else ("bot" if owner == side else "opponent"),
                        crawford=match.crawford)


def make_bot(level: str) -> Any:
    """A computer level by name (`simple`, `gnubg`); BackendUnavailableError if missing."""
    from controller.bot.base import make_bot as factory

    return factory(level)


def new_match(settings: MatchSettings, position_id: str | None = None,
              turn: str = "white", score: tuple[int, int] = (0, 0),
              crawford_played: bool | None = None) -> Match:
    """A new match from `score` (``Match.from_score``: the Crawford game played or not,
    inferred where the score allows one answer); with `position_id` its first game starts
    from that position with `turn` to roll (the board is then set up to it cell by cell).
    UsageError with one line for a bad ID, a finished position or an impossible score."""
    from controller.engine.errors import EngineError
    from controller.engine.position import Position
    from controller.errors import UsageError

    try:
        start = Position.for_play(position_id) if position_id else None
        return Match.from_score(settings, score, crawford_played, start, turn)
    except EngineError as exc:
        raise UsageError(str(exc)) from None


# -- the real board ------------------------------------------------------------------------

async def run_table(port: str, *, profile: Profile | None = None, state_dir: Path | None = None,
                    config: ControllerConfig | None = None, match_settings: MatchSettings | None = None,
                    position_id: str | None = None, score: tuple[int, int] | None = None,
                    crawford_played: bool | None = None,
                    strip_name: str = "neopixel", display_driver: str | None = None,
                    pin_factory: str | None = "pi", seconds: float | None = None,
                    tick_s: float = 0.05, idle_tick_s: float = 0.25,
                    brightness: float | None = None,
                    fixed: tuple[Match, TableDice] | None = None,
                    on_table: Callable[[Table], None] | None = None) -> Table:
    """Play on a board at `port` until cancelled (or for `seconds`): the Pi's main loop.
    `brightness` (0..1, the settings' value) overrides the profile's LED brightness.
    `fixed` plays this match with these dice and no computer (online: the server's match
    and dice, the remote player driven from outside through `on_table`'s table)."""
    from controller.board_feed import BoardFeed
    from controller.link.board_events import BoardEvent
    from controller.link.session import BoardSession
    from controller.show.display_backends import Display
    from controller.show.leds import open_strip

    profile = profile or load_profile()
    store = MatchStore(state_dir)
    loop = asyncio.get_running_loop()
    resumed = store.resume(loop.time()) if state_dir is not None else None
    table: Table
    if fixed is not None:
        match, dice = fixed
    elif resumed is None or position_id or score is not None:
        match, dice = new_match(match_settings or MatchSettings(), position_id, score=score or (0, 0),
                                crawford_played=crawford_played), TableDice()
    else:
        match, dice = resumed
    config = config or ControllerConfig(settle_s=profile.timing.settle_ms / 1000)
    now = loop.time
    controller = Controller(match, config=config, dice=dice, now=now())
    led_config = profile.leds
    if brightness is not None:
        led_config = replace(led_config, brightness=brightness)
    strip = open_strip(strip_name, led_config)
    display = Display.open(profile.display, display_driver)
    buzzer = None
    panel = None
    if pin_factory is not None:
        try:
            from controller.inputs.buttons import ButtonPanel, make_pin_factory
            from controller.inputs.buzzer import Buzzer

            factory = make_pin_factory(pin_factory)
            buzzer = Buzzer(profile.buzzer, factory)
            def emit(ev: Any) -> None:
                loop.call_soon_threadsafe(_button, table, ev, now)

            panel = ButtonPanel(profile.buttons, factory, emit)
        except (ImportError, BgboardError) as exc:
            log.warning("buttons unavailable: %s", exc)
    table = Table(controller, strip=strip, display=display, buzzer=buzzer, store=store,
                  bot_factory=make_bot if fixed is None else None, clock=now, loop=loop)
    if on_table is not None:
        on_table(table)

    wake = asyncio.Event()

    feed = BoardFeed()

    def on_board(event: BoardEvent) -> None:
        for translated in feed.events(event):
            table.dispatch(translated)
        wake.set()

    # the session checks HELLO against the profile, sends CONFIG and PINGs; a longer read
    # timeout wakes the reader thread less often when the board is quiet (a frame still
    # returns the read at once, so latency is not affected)
    link = BoardSession(port, profile, on_event=on_board, clock=now, read_timeout=0.1)
    end = None if seconds is None else now() + seconds
    table.refresh(now())
    await _connect(link, table, now, end)
    try:
        while end is None or now() < end:
            pause = tick_s if _busy(table, now()) else idle_tick_s
            wake.clear()
            try:
                await asyncio.wait_for(wake.wait(), pause)
            except asyncio.TimeoutError:
                pass
            table.dispatch(Tick(now()))
            table.refresh(now())
    finally:
        await link.close()
        if panel is not None:
            panel.close()
        strip.close()
    return table


def _busy(table: Table, now: float) -> bool:
    """Whether the next tick is due soon: a reading settling, LEDs blinking or pulsing, a
    clock running, an automatic roll waiting. Idle, the loop ticks four times a second."""
    c = table.controller
    if c.raw is not None and c.raw != c.settled:
        return True
    if c.roll_due is not None or (c.match.clock is not None and not c.match.is_over):
        return True
    strip = table.strip
    leds = c.last_scene.leds
    return bool(leds) and strip is not None and strip.next_change(leds, now) is not None


async def _connect(link: Any, table: Table, now: Callable[[], float], end: float | None,
                   retry_s: float = 0.5) -> None:
    """Open the link; while the board is missing, show "board offline" and keep trying
    (the Pi's service starts before anyone plugs the board in)."""
    from controller.errors import LinkError

    told = False
    while True:
        try:
            await link.start()
            return
        except LinkError as exc:
            if not told:
                told = True
                log.warning("waiting for the board: %s", exc)
                table.dispatch(LinkChanged(False, now(), str(exc)))
            if end is not None and now() >= end:
                raise
            await asyncio.sleep(retry_s)
            table.dispatch(Tick(now()))
            table.refresh(now())


def _button(table: Table, event: Any, clock: Callable[[], float]) -> None:
    """A gpiozero button event (on the loop by now), turned into the controller's own event."""
    from controller.events import ButtonPressed, MenuPressed

    side = getattr(event, "side", None)
    kind = getattr(event, "button", None)
    held = type(event).__name__ == "ButtonHeld"
    if kind == "menu":
        table.dispatch(MenuPressed(clock(), held=held))
    elif not held and side in ("white", "black") and kind in ("main", "cube"):
        table.dispatch(ButtonPressed(side, kind, clock()))
