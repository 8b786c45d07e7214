"""`bgboard online`: play on bgammon.org (or any server speaking its protocol) from the board.

Log in as a guest, or as the account named by `--user` or the settings' `online_user`;
its password comes from a file (`--password-file`, or the settings'
`online_password_file`), never from the command line, where every process could read it.
Then `--create public|private [--points N]` a match or `--join ID|USER` one; without
either, the match saved by the last run on that server is resumed. It plays on the real
board (as `bgboard run`: the settings' port and profile, or `--board-port`); `--sim` on the
simulator's board in the browser; `--headless` on the virtual board without a page, its own
checkers moved by a computer level (`--autoplay`, also possible with `--sim`), which is how
two bgboards play a whole match against each other unattended.
"""
from __future__ import annotations

import argparse
import asyncio
import secrets
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from bgboard.commands.board_options import add_config_option
from bgboard.commands.numbers import PORT, seconds, whole
from controller.errors import UsageError
from controller.files import write_atomically

if TYPE_CHECKING:
    from controller.bgammon.address import ServerAddress
    from controller.online.play import BoardOptions
    from controller.online.session import MatchRequest
    from controller.settings import Settings
    from sim.online_host import SimHost

HELP = "play on bgammon.org from the board: create or join a match, the remote player as opponent"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from controller.bgammon.address import DEFAULT_SERVER

    parser.add_argument("--server", default=None, metavar="HOST:PORT", help=f"the server (default {DEFAULT_SERVER})")
    parser.add_argument("--user", help="log in as this account (default: the settings' online_user, else a guest)")
    parser.add_argument("--password-file", metavar="FILE",
                        help="the account's password, one line (default: the settings' online_password_file)")
    parser.add_argument("--guest-name", metavar="NAME", help="as a guest, ask to be called Guest_NAME")
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--create", choices=("public", "private"), help="create a match")
    what.add_argument("--join", metavar="ID|USER", help="join a match by its number or a player's name")
    what.add_argument("--watch", metavar="ID|USER",
                      help="watch a match (read-only): shown on the display and the LEDs (with --sim on the page), nothing played")
    parser.add_argument("--points", type=whole(1, 127), default=1, help="length of a created match (default 1)")
    parser.add_argument("--match-password-file", metavar="FILE",
                        help="a private match's password (create: default a new one, printed)")
    parser.add_argument("--sim", action="store_true", help="play on the simulator's board in the browser")
    parser.add_argument("--headless", action="store_true",
                        help="the virtual board without a page; a computer level moves this side's checkers")
    parser.add_argument("--autoplay", metavar="LEVEL",
                        help="a computer level moves this side's checkers on the virtual board "
                             "(default: simple with --headless, nobody with --sim)")
    parser.add_argument("--port", type=PORT, default=8081, help="the page's TCP port with --sim (default 8081)")
    parser.add_argument("--board-port", metavar="DEVICE",
                        help="the real board's serial port (default: the settings' port)")
    parser.add_argument("--host", default="127.0.0.1", help="the page's address with --sim (default loopback)")
    parser.add_argument("--no-browser", action="store_true", help="with --sim: print the address only")
    parser.add_argument("--say", metavar="TEXT", help="send this chat line once the opponent is there")
    parser.add_argument("--verbose", action="store_true", help="also print the table's announcements and the commands sent")
    add_config_option(parser)
    parser.add_argument("--state-dir", help="where the match and the server match are saved (default: settings)")
    parser.add_argument("--frame", metavar="PNG", help="with --watch: write the display's image here after each change")
    parser.add_argument("--seconds", type=seconds(), help="stop after this many seconds (tests)")


def _real_board(args: argparse.Namespace, settings: Settings) -> BoardOptions:
    """The real board's backends, chosen as `bgboard run` chooses them."""
    from controller.board.profile import default_profile_path, load_profile
    from controller.online.play import BoardOptions
    from controller.settings import is_raspberry_pi

    port = args.board_port or settings.port
    if not port:
        raise UsageError("no board: give --board-port (or the settings' port), or play on --sim")
    if args.autoplay:
        raise UsageError("--autoplay needs the virtual board: --sim or --headless")
    profile = load_profile(settings.profile_path(default_profile_path().parent))
    on_pi = is_raspberry_pi()
    return BoardOptions(port=port, profile=profile, strip="neopixel" if on_pi else "sim",
                        display=None if on_pi else "dummy",
                        pins="rpigpio" if on_pi else "none", brightness=settings.brightness,
                        state_dir=settings.state_dir)


def _sim_host(args: argparse.Namespace, language: str) -> SimHost:
    """The simulator's table: with --sim its page on --host/--port, with --headless a
    computer level's hands on the virtual board (--autoplay, else `simple`)."""
    from sim.online_host import SimHost

    return SimHost(language=language, autoplay=args.autoplay or ("simple" if args.headless else None),
                   page=(args.host, args.port) if args.sim else None)


def _watch_on_page(args: argparse.Namespace, settings: Settings, address: ServerAddress, password: str | None) -> int:
    """`--watch --sim`: the match shown on the simulator's page (controller.web.watch_page), read-only."""
    from controller.online.watch import Spectator
    from controller.web.watch_page import watch_on_page

    def url(line: str) -> None:
        print(f"the board: {line}", flush=True)
        if not args.no_browser:
            import webbrowser

            webbrowser.open(line)

    spectator = Spectator(address, args.watch, password=password, language=settings.language,
                          on_line=lambda line: print(line, flush=True))
    asyncio.run(watch_on_page(spectator, args.host, args.port, seconds=args.seconds, on_url=url))
    return 0


def _watch(args: argparse.Namespace, settings: Settings, address: ServerAddress, password: str | None) -> int:
    """`--watch`: the match shown on this board's display and LEDs (as `bgboard run` picks
    them), every event printed; nothing but the join and the leave is sent."""
    if args.sim:
        return _watch_on_page(args, settings, address, password)
    from controller.board.profile import default_profile_path, load_profile
    from controller.online.watch import Spectator
    from controller.settings import is_raspberry_pi
    from controller.show.content import Scene
    from controller.show.display_backends import Display
    from controller.show.leds import open_strip

    profile = load_profile(settings.profile_path(default_profile_path().parent))
    on_pi = is_raspberry_pi()
    strip = open_strip("neopixel" if on_pi else "sim", profile.leds)
    display = Display.open(profile.display, None if on_pi else "dummy")
    frame = Path(args.frame).expanduser() if args.frame else None

    def show(scene: Scene) -> None:
        strip.update(scene.leds, 0.0)
        display.show(scene.display)
        if frame is not None:
            write_atomically(frame, display.frame_png())  # a viewer never reads half a frame

    spectator = Spectator(address, args.watch, password=password, language=settings.language, show=show,
                          on_line=lambda line: print(line, flush=True))
    try:
        asyncio.run(spectator.run(args.seconds))
    finally:
        strip.close()
        display.close()
    return 0


def run(args: argparse.Namespace) -> int:
    from controller.bgammon.address import DEFAULT_SERVER, ServerAddress
    from controller.online.play import BoardHost, play_online
    from controller.online.session import OnlineSession
    from controller.settings import load_settings

    if args.sim and args.headless:
        raise UsageError("choose one board: --sim, --headless, or neither for the real board")
    settings = load_settings(args.config)
    board = None if args.sim or args.headless or args.watch else _real_board(args, settings)
    address = ServerAddress.parse(args.server or DEFAULT_SERVER)
    user, password = _login(args, settings)
    match_password = _match_password(args)
    if args.watch:
        return _watch(args, settings, address, match_password)
    request = _match_request(args, match_password)
    state_dir = Path(args.state_dir).expanduser() if args.state_dir else settings.state_dir / "online"
    session = OnlineSession(address, name=user, password=password, request=request, state_dir=state_dir)
    host = BoardHost(board, settings.language) if board is not None else _sim_host(args, settings.language)
    result = asyncio.run(play_online(session, host, seconds=args.seconds, state_dir=state_dir,
                                     greeting=args.say, verbose=args.verbose, on_line=_printer(args)))
    if result.stopped is not None and not result.over:
        print(f"bgboard online: stopped: {result.stopped}", file=sys.stderr)
    return 0


def _login(args: argparse.Namespace, settings: Settings) -> tuple[str | None, str | None]:
    """The name to log in with and its password (read from its file): `--user` or the
    settings' account, else a guest, `Guest_NAME` when `--guest-name` asks for it."""
    from controller.online.choice import read_secret
    from controller.bgammon.commands import check_name

    user = args.user or settings.online_user
    if user:
        check_name(user)
        password_file = args.password_file or settings.online_password_file
        if password_file is None:
            raise UsageError(f"--user {user} needs its password in a file: --password-file FILE "
                             "or the settings' online_password_file")
        return user, read_secret(password_file, "password file")
    if args.guest_name:
        return check_name(args.guest_name), None
    return user, None


def _match_password(args: argparse.Namespace) -> str | None:
    """The password of the match to create, join or watch, from its file if one is named."""
    from controller.online.choice import read_secret

    if args.match_password_file:
        return read_secret(args.match_password_file, "match password file")
    return None


def _match_request(args: argparse.Namespace, match_password: str | None) -> MatchRequest | None:
    """What to ask the server for: create or join a match; None resumes the saved one. A
    private match without a password file gets a new password, printed to pass on."""
    from controller.online.session import MatchRequest

    if args.create:
        if args.create == "private" and match_password is None:
            match_password = secrets.token_hex(4)
            print(f"private match password: {match_password}", flush=True)
        return MatchRequest(create=args.create, points=args.points, password=match_password)
    if args.join:
        return MatchRequest(join=args.join, password=match_password)
    return None


def _printer(args: argparse.Namespace) -> Callable[[str], None]:
    """Each line of the session printed; with `--sim`, the board's page is also opened in
    the browser when its address is announced (unless `--no-browser`)."""
    def say(line: str) -> None:
        print(line, flush=True)
        if args.sim and line.startswith("the board: ") and not args.no_browser:
            import webbrowser

            webbrowser.open(line.removeprefix("the board: "))

    return say
