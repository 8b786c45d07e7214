"""`open_table`: the one way a table is opened, whatever the front end.

`bgboard run` (the Pi), `bgboard sim --headless` and `bgboard sim` (the browser) all call
it; they differ only in the `BackendChoice` they pass (and in how they let time pass).
It resumes the saved match (or takes the one given), builds the controller, opens the
LEDs, the display, the buttons and buzzer on the named pin factory, the computer's seat
and the board session on the sensor board's port (controller.link.board_session: HELLO checked
against the profile, CONFIG sent, PING, ERROR and faulty sensors as events, which
`BoardFeed` turns into the controller's), and hands back a `Table` that owns them all.
Every part is made before the table or by it, so the table is whole when it is handed
back; the board session is started by the caller (`await table.link.start()`), because
starting it waits for the port.
"""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, replace

from controller.board.profile import Profile
from controller.board.profile_sections import LedConfig
from controller.bot.base import Bot
from controller.controller import Controller, ControllerConfig
from controller.dice import DiceSecret, DiceState
from controller.link.board_events import BoardEvent
from controller.link.board_session import BoardSession
from controller.records.store import TableStore
from controller.engine.match import Match
from controller.errors import BackendUnavailableError, BgboardError
from controller.inputs.buttons import ButtonPanel
from controller.inputs.press import ButtonPressed
from controller.inputs.buzzer import Buzzer
from controller.inputs.pins import PinFactory
from controller.table.backends import BackendChoice, DisplayOutput, LedBackend, LedOutput
from controller.table.choices import TableChoices
from controller.table.computer import ComputerSeat
from controller.table.practice import TablePractice
from controller.table.table import Closeable, Table

log = logging.getLogger("bgboard")


def make_bot(level: str) -> Bot:
    """A computer level by name; BackendUnavailableError if it is not installed."""
    from controller.bot.base import make_bot as factory

    return factory(level)


def _with_players_of(saved: Match, fresh: Match) -> Match:
    """A save from before the match carried who plays each colour: the players the table
    would start a new match with (its settings' opponent plays Black), as that version
    played it, so resuming it does not turn the computer's seat into a person's."""
    players = fresh.settings.players
    settings = replace(saved.settings, white_player=players[0], black_player=players[1])
    return replace(saved, settings=settings)


def _open_leds(choice: LedBackend | LedOutput, config: LedConfig, notes: list[str]) -> LedOutput:
    """The LED strip: the one given, or the one named. One that cannot be driven (its
    driver not installed, the SPI device missing) leaves the table playing without lights,
    said once in the log, rather than `bgboard run` exiting and systemd restarting it in a
    loop until it gives up: the display and the buttons still carry the game, and `bgboard
    selftest` names the fault. A profile's mistake (ProfileError) still stops it with its
    one line."""
    from controller.show.leds import open_strip

    if not isinstance(choice, str):
        return choice
    try:
        return open_strip(choice, config)
    except BackendUnavailableError as error:
        if choice == "sim":
            raise
        line = f"no LEDs: {error}; playing on without them"
        log.warning("%s", line)
        notes.append(line)
        return open_strip("sim", config)


def open_table(profile: Profile, backends: BackendChoice, *, clock: Callable[[], float],
               config: ControllerConfig | None = None, match: Match | None = None,
               new_match: Callable[[], Match] = Match.new, dice: DiceState | None = None,
               bots: Callable[[str], Bot] | None = make_bot,
               loop: asyncio.AbstractEventLoop | None = None) -> Table:
    """Open a table on `profile` with `backends` (see the module docstring).

    The match is `match` if given, else the saved one in `backends.state_dir`, else
    `new_match()`; the language and tutor are `config`'s but for those chosen at the table
    since (kept in `backends.state_dir`: controller/table/choices.py). `loop`: the
    computer thinks in a worker thread of it (the real-time front ends); without, the
    computer answers at once (the headless runner).
    """
    store = TableStore(backends.state_dir)
    secret: DiceSecret | None = None
    resumed = False
    if match is None:
        found = store.resume(clock())
        if found is not None:
            match, secret = found[0], found[1].secret
            resumed = True
            if not store.players_saved:
                match = _with_players_of(match, new_match())
    if match is None:
        match = new_match()
    dice = (dice or DiceState()).adopt(match, secret)
    config = config or ControllerConfig(settle_s=profile.timing.settle_ms / 1000)
    choices = None if backends.state_dir is None else TableChoices(backends.state_dir, config)
    if choices is not None:
        config = choices.resolve(config)  # the language and tutor chosen at the table before
    controller = Controller(match, config=config, dice=dice, now=clock())
    notes: list[str] = []
    led_config = profile.leds
    if backends.brightness is not None:
        led_config = replace(led_config, brightness=backends.brightness)
    leds = _open_leds(backends.leds, led_config, notes)
    opened: list[Closeable] = [leds]
    try:
        display = _open_display(profile, backends.display)
        opened.append(display)
        pins = _open_pins(backends, profile, clock, loop)
        table = Table(controller, leds=leds, display=display, buzzer=pins.buzzer,
                      pin_factory=pins.factory, buttons=pins.panel, store=store,
                      computers=ComputerSeat(bots), clock=clock, loop=loop, choices=choices,
                      link=lambda on_event: _session(profile, backends, clock, on_event),
                      practice=lambda at: TablePractice(at, backends.state_dir))
    except BaseException:
        for part in opened:
            part.close()
        raise
    for line in (*notes, store.damaged, choices.problem if choices is not None else None,
                 "resumed the saved match" if resumed else "new match"):
        if line:
            table.log_lines.append(line)
    return table


def _session(profile: Profile, backends: BackendChoice, clock: Callable[[], float],
             on_event: Callable[[BoardEvent], None]) -> BoardSession:
    """The board session on the chosen link, its events to `on_event` (the table's)."""
    return BoardSession(backends.port, profile, on_event=on_event, clock=clock,
                        ping_interval_s=backends.ping_interval_s,
                        read_timeout=backends.read_timeout_s,
                        offline_after_s=backends.offline_after_s)


def _open_display(profile: Profile, choice: str | DisplayOutput | None) -> DisplayOutput:
    """The display given, or the luma driver named (None: the profile's)."""
    from controller.show.display_backends import Display

    if choice is None or isinstance(choice, str):
        return Display.open(profile.display, choice)
    return choice


@dataclass(frozen=True)
class _Pins:
    """The buttons and buzzer on one pin factory (all None: no buttons)."""

    factory: PinFactory | None = None
    buzzer: Buzzer | None = None
    panel: Callable[[Callable[[ButtonPressed], None]], ButtonPanel | None] | None = None


def _open_pins(backends: BackendChoice, profile: Profile, clock: Callable[[], float],
               loop: asyncio.AbstractEventLoop | None) -> _Pins:
    """Buttons and buzzer on the chosen pin factory; without GPIO the table plays on
    (the page, a script or the menu over the network still act), with one warning."""
    if backends.pins == "none":
        return _Pins()
    from controller.inputs.buttons import make_pin_factory

    try:
        factory = make_pin_factory(backends.pins) if isinstance(backends.pins, str) else backends.pins
        buzzer = Buzzer(profile.buzzer, factory, enabled=backends.buzzer_sound)
    except (ImportError, BgboardError) as exc:
        log.warning("buttons unavailable: %s", exc)
        return _Pins()

    def panel(on_button: Callable[[ButtonPressed], None]) -> ButtonPanel | None:
        """The buttons, their presses to `on_button` (the table's) on the loop's thread."""
        def emit(event: ButtonPressed) -> None:
            # gpiozero calls back from its own threads; the mock pins of the simulators from
            # the loop's own thread, where the event is handled in the loop's next turn too
            if loop is not None:
                loop.call_soon_threadsafe(on_button, event)
            else:
                on_button(event)
        try:
            return ButtonPanel(profile.buttons, factory, emit, clock=clock)
        except (ImportError, BgboardError) as exc:
            log.warning("buttons unavailable: %s", exc)
            return None

    return _Pins(factory, buzzer, panel)
