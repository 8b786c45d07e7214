"""`open_table`: the one way a table is opened, whatever the front end.

`bgboard run` (the Pi), `bgboard sim --headless` and `bgboard sim` (the browser) all call
it; they differ only in the `BackendChoice` they pass (and in how they let time pass).
It resumes the saved match (or takes the one given), builds the controller, opens the
LEDs, the display, the buttons and buzzer on the named pin factory, the computer's seat
and the board session on the sensor board's port (controller.link.session: HELLO checked
against the profile, CONFIG sent, PING, ERROR and faulty sensors as events, which
`BoardFeed` turns into the controller's), and hands back a `Table` that owns them all.
The session is made here but started by the caller (`await table.link.start()`), because
starting it waits for the port.
"""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import replace

from controller.board.profile import Profile
from controller.board.profile_sections import LedConfig
from controller.bot.base import Bot
from controller.controller import Controller, ControllerConfig
from controller.dice import DiceSecret, TableDice
from controller.link.board_events import BoardEvent
from controller.link.session import BoardSession
from controller.records.store import TableStore
from controller.engine.match import Match
from controller.errors import BackendUnavailableError, BgboardError
from controller.inputs.buttons import ButtonEvent
from controller.table.backends import BackendChoice, LedBackend
from controller.table.board_feed import BoardFeed
from controller.table.choices import TableChoices
from controller.table.computer import ComputerSeat
from controller.table.practice import TablePractice
from controller.show.leds import LedStrip
from controller.table.table import Table

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


def _open_leds(name: LedBackend, config: LedConfig, table: Table) -> LedStrip:
    """The LED strip; one that cannot be driven (its driver not installed, the SPI device
    missing) leaves the table playing without lights, said once in the log, rather than
    `bgboard run` exiting and systemd restarting it in a loop until it gives up: the
    display and the buttons still carry the game, and `bgboard selftest` names the fault.
    A profile's mistake (ProfileError) still stops it with its one line."""
    from controller.show.leds import open_strip

    try:
        return open_strip(name, config)
    except BackendUnavailableError as error:
        if name == "sim":
            raise
        line = f"no LEDs: {error}; playing on without them"
        log.warning("%s", line)
        table.log_lines.append(line)
        return open_strip("sim", config)


def open_table(profile: Profile, backends: BackendChoice, *, clock: Callable[[], float],
               config: ControllerConfig | None = None, match: Match | None = None,
               new_match: Callable[[], Match] = Match.new, dice: TableDice | None = None,
               bots: Callable[[str], Bot] | None = make_bot,
               loop: asyncio.AbstractEventLoop | None = None) -> Table:
    """Open a table on `profile` with `backends` (see the module docstring).

    The match is `match` if given, else the saved one in `backends.state_dir`, else
    `new_match()`; the language and tutor are `config`'s but for those chosen at the table
    since (kept in `backends.state_dir`: controller/table/choices.py). `loop`: the
    computer thinks in a worker thread of it (the real-time front ends); without, the
    computer answers at once (the headless runner).
    """
    from controller.show.display_backends import Display

    store = TableStore(backends.state_dir)
    dice = dice or TableDice()
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
    dice.adopt(match, secret)
    config = config or ControllerConfig(settle_s=profile.timing.settle_ms / 1000)
    choices = None if backends.state_dir is None else TableChoices(backends.state_dir, config)
    if choices is not None:
        config = choices.resolve(config)  # the language and tutor chosen at the table before
    controller = Controller(match, config=config, dice=dice, now=clock())
    led_config = profile.leds
    if backends.brightness is not None:
        led_config = replace(led_config, brightness=backends.brightness)
    table = Table(controller, store=store, computers=ComputerSeat(bots), clock=clock, loop=loop)
    table.practice = TablePractice(table, backends.state_dir)
    table.choices = choices
    try:
        table.leds = _open_leds(backends.leds, led_config, table)
        table.display = Display.open(profile.display, backends.display)
        _open_pins(table, backends, profile, loop)
        table.feed = feed = BoardFeed()

        def on_board(event: BoardEvent) -> None:
            for translated in feed.events(event):
                table.dispatch(translated)

        table.link = BoardSession(backends.port, profile, on_event=on_board, clock=clock,
                                  ping_interval_s=backends.ping_interval_s,
                                  read_timeout=backends.read_timeout_s,
                                  offline_after_s=backends.offline_after_s,
                                  backoff=backends.link_backoff_s)
    except BaseException:
        table.close()
        raise
    if store.damaged:
        table.log_lines.append(store.damaged)
    if choices is not None and choices.problem:
        table.log_lines.append(choices.problem)
    table.log_lines.append("resumed the saved match" if resumed else "new match")
    return table


def _open_pins(table: Table, backends: BackendChoice, profile: Profile,
               loop: asyncio.AbstractEventLoop | None) -> None:
    """Buttons and buzzer on the named pin factory; without GPIO the table plays on
    (the page, a script or the menu over the network still act), with one warning."""
    if backends.pins == "none":
        return
    from controller.inputs.buttons import ButtonPanel, make_pin_factory
    from controller.inputs.buzzer import Buzzer

    try:
        factory = make_pin_factory(backends.pins)
    except (ImportError, BgboardError) as exc:
        log.warning("buttons unavailable: %s", exc)
        return
    table.pin_factory = factory

    def emit(event: ButtonEvent) -> None:
        # gpiozero calls back from its own threads; the mock pins of the simulators from
        # the loop's own thread, where the event is handled in the loop's next turn too
        if loop is not None:
            loop.call_soon_threadsafe(table.on_button, event)
        else:
            table.on_button(event)

    try:
        table.buzzer = Buzzer(profile.buzzer, factory, enabled=backends.buzzer_sound)
        table.buttons = ButtonPanel(profile.buttons, factory, emit, clock=table.clock)
    except (ImportError, BgboardError) as exc:
        log.warning("buttons unavailable: %s", exc)
