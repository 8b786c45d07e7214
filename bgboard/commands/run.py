"""`bgboard run [--profile P] [--port P]`: play on the real board (the Raspberry Pi's service).

Settings (controller/settings.py) give the defaults: the profile, the port, the language,
confirm mode, the opponent and where matches are saved; the options override them. The
saved match is resumed at start, after the board has been set up to its position.
"""
from __future__ import annotations

import argparse
import asyncio
from pathlib import Path
from typing import TYPE_CHECKING

from bgboard.commands.board_options import add_board_options
from bgboard.commands.numbers import PORT, seconds, whole
from controller.errors import UsageError

if TYPE_CHECKING:
    from controller.board.profile import Profile
    from controller.settings import Settings
    from controller.table import Table

HELP = "play on the real board (Raspberry Pi): sensors, LEDs, display, buttons"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_board_options(parser)
    parser.add_argument("--state-dir", help="where matches are saved (default: from the settings)")
    parser.add_argument("--length", type=whole(1, 32767), default=5, help="length of a new match (default 5)")
    parser.add_argument("--position", metavar="ID",
                        help="start a new match from this GNU Backgammon Position ID (White to roll); "
                             "the board is first set up to it")
    parser.add_argument("--score", metavar="W-B",
                        help="start a new match at this score (White's points, then Black's)")
    parser.add_argument("--crawford-played", choices=("yes", "no", "auto"), default="auto",
                        help="with --score: whether the Crawford game has been played "
                             "(default: inferred from the score where only one answer is possible)")
    parser.add_argument("--leds", choices=("neopixel", "sim"), default=None,
                        help="LED backend (default: neopixel on a Pi, sim elsewhere)")
    parser.add_argument("--display", choices=("ssd1306", "sh1106", "dummy"), default=None,
                        help="display driver (default: the profile's)")
    parser.add_argument("--buttons", choices=("rpigpio", "lgpio", "mock", "none"), default=None,
                        help="GPIO pin factory for buttons and buzzer (default: rpigpio on a Pi, none elsewhere)")
    parser.add_argument("--spectators", type=PORT, metavar="PORT",
                        help="serve a read-only page of the match for spectators on this port, with its own "
                             "token (default: the settings' spectator_port; unset: off)")
    parser.add_argument("--page", type=PORT, metavar="PORT",
                        help="serve the board's page for the player's phone on this port: pair by the printed "
                             "address (it carries a token) or its QR code (default: the settings' page_port; unset: off)")
    parser.add_argument("--page-host", metavar="ADDRESS",
                        help="where the board's pages listen (default: the settings' page_host, 127.0.0.1; "
                             "0.0.0.0 for the local network)")
    parser.add_argument("--seconds", type=seconds(), help="stop after this many seconds (tests, benchmarks)")


def run(args: argparse.Namespace) -> int:
    from controller.app import run_table
    from controller.board.profile import default_profile_path, load_profile
    from controller.controller import ControllerConfig
    from controller.engine.errors import EngineError
    from controller.engine.match_settings import MatchSettings
    from controller.engine.match_start import parse_crawford_played, parse_score
    from controller.link.serial_link import check_port
    from controller.settings import is_raspberry_pi, load_settings
    from controller.table.backends import LedBackend, PinBackend
    from controller.table.start import starting_match

    settings = load_settings(args.config)
    if args.profile:
        settings = settings.replace("--profile", profile=args.profile)
    if args.page_host:
        from controller.errors import ProfileError

        try:
            settings = settings.replace("--page-host", page_host=args.page_host)
        except ProfileError as exc:
            raise UsageError(str(exc)) from None
    spectator_port = args.spectators if args.spectators is not None else settings.spectator_port
    page_port = args.page if args.page is not None else settings.page_port
    try:
        match_settings = MatchSettings(length=args.length, confirm=settings.confirm, clock=settings.clock,
                                       dice=settings.dice, black_player=settings.opponent)
        score = parse_score(args.score) if args.score is not None else None
        played = parse_crawford_played(args.crawford_played)
    except EngineError as exc:
        raise UsageError(str(exc)) from None
    # the start is checked before anything opens: a bad position or score is one line, exit 2
    starting_match(match_settings, args.position, score=score or (0, 0), crawford_played=played)
    port = args.port or settings.port
    if not port:
        raise UsageError("no port: give --port (the simulator's board: python -m sim.virtual_board)")
    profile = load_profile(settings.profile_path(default_profile_path().parent))
    check_port(port)  # not a serial port, or another table's: one line before anything opens
    on_pi = is_raspberry_pi()
    leds: LedBackend = args.leds or ("neopixel" if on_pi else "sim")
    buttons: PinBackend = args.buttons or ("rpigpio" if on_pi else "none")
    config = ControllerConfig(language=settings.language, settle_s=profile.timing.settle_ms / 1000,
                              tutor=settings.tutor)
    state_dir = Path(args.state_dir) if args.state_dir else settings.state_dir
    try:
        asyncio.run(run_table(port, profile=profile, state_dir=state_dir, config=config,
                              match_settings=match_settings, position_id=args.position,
                              score=score, crawford_played=played,
                              strip_name=leds,
                              display_driver=args.display or ("dummy" if not on_pi else None),
                              pin_factory=buttons,
                              seconds=args.seconds, brightness=settings.brightness,
                              on_table=lambda table: _open_doors(table, args.config, state_dir, profile,
                                                                 settings, spectator_port, page_port)))
    except KeyboardInterrupt:
        return 130
    return 0


def _open_doors(table: Table, config: str | None, state_dir: Path, profile: Profile, settings: Settings,
                spectator_port: int | None, page_port: int | None) -> None:
    """What the table offers beyond the board: online play from its menu, and with a port
    the spectators' page (controller.web.spectators), with another the player's (controller.web.board_page,
    which plays online through the same door) and the club's door beside it
    (controller.web.club_door: a club hub pairs with the same code), announced on the
    local network when the settings say `club_announce = true`."""
    from controller.online.door import offer_online
    from controller.settings import load_settings

    host = settings.page_host
    door = offer_online(table, lambda: load_settings(config), state_dir / "online")
    if spectator_port is not None:
        from controller.web.spectators import spectate_table

        spectate_table(table, profile, host, spectator_port)
    if page_port is None and settings.club_announce:
        import logging

        logging.getLogger("bgboard").warning("club_announce: the board has no page (set page_port): "
                                             "nothing to announce to a club hub")
    if page_port is not None:
        from controller.web.board_page import PlayerServer, pair_table, print_pairing
        from controller.web.club_door import open_club
        from controller.web.spectators import table_view

        def club(server: PlayerServer) -> None:
            open_club(server, table, table_view(table, profile), state_dir, board_name=settings.club_name)

        pair_table(table, profile, host, page_port, print_pairing, door, more=club)
        if settings.club_announce:
            from controller.web.club_announce import announce_beside

            announce_beside(settings.club_name, host, page_port)
