"""`bgboard sim` in a browser: start the live simulator and its web server, print the
address, open it in the default browser, run until Ctrl-C."""
from __future__ import annotations

import asyncio
import errno
import signal
import socket
import sys
import webbrowser
from pathlib import Path

from aiohttp import web

from controller.errors import BgboardError, UsageError
from sim.page.live import LiveSim
from controller.web.club_table import ClubTable
from controller.web.server import SimServer


async def serve(host: str, port: int, *, open_browser: bool, state_dir: Path | None,
                profile_path: str | None, seed: int | None,
                ready: asyncio.Future[str] | None = None, seconds: float | None = None,
                spectators: int | None = None) -> None:
    """Run the simulator until cancelled (or for `seconds`); with `spectators`, the
    spectators' read-only page on that port too (controller.web.spectators)."""
    from controller.board.profile import load_profile

    profile = load_profile(profile_path) if profile_path else None
    live = LiveSim(profile=profile, state_dir=state_dir, seed=seed)
    await live.start()
    server = SimServer(live)
    club = _club(server, live, port)
    try:
        runner = await server.start(host, port)
    except OSError as exc:
        await live.close()
        if exc.errno == errno.EADDRINUSE:
            raise BgboardError(f"port {port} on {host} is in use; choose another with --port") from None
        raise BgboardError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    assert server.guard is not None
    url = server.guard.url()
    print(url, flush=True)
    print(f"club code: {club.code()}", flush=True)  # a club hub pairs with it (controller/web/club_door.py)
    watchers = None if spectators is None else await _spectators(runner, live, host, spectators)
    if not server.guard.loopback:
        print(f"bgboard sim: warning: listening on {host}, reachable from other machines; "
              "only the address above (with its token) is answered; from another machine use "
              "this one's address with the same ?token= (no browser is opened: its command line would show "
              "the token to every local user)", file=sys.stderr, flush=True)
    if ready is not None and not ready.done():
        ready.set_result(url)
    if open_browser and server.guard.loopback:  # a token on a browser's command line is in `ps`
        try:
            webbrowser.open(url)
        except webbrowser.Error:
            pass
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError):
            pass
    try:
        if seconds is None:
            await stop.wait()
        else:
            try:
                await asyncio.wait_for(stop.wait(), seconds)
            except TimeoutError:
                pass
    finally:
        if watchers is not None:
            await watchers.cleanup()
        await runner.cleanup()
        await live.close()


def _club(server: SimServer, live: LiveSim, port: int) -> ClubTable:
    """The club's door on the simulator's server (controller/web/club_door.py), kept in
    its state directory; the board is called by the settings' `board_name` or this
    machine's name with the port."""
    from controller.errors import BgboardError
    from controller.web.club_door import open_club
    from sim.page.live import live_view

    assert live.table is not None
    try:
        name = live.online_settings().board_name or f"{socket.gethostname()}-{port}"
    except BgboardError:
        name = f"{socket.gethostname()}-{port}"
    return open_club(server, live.table, live_view(live), live.state_dir, board_name=name)


async def _spectators(runner: web.AppRunner, live: LiveSim, host: str, port: int) -> web.AppRunner:
    """Start the spectators' page beside the simulator's and print its address."""
    from controller.web.spectators import serve_spectators
    from sim.page.live import live_view

    try:
        watchers, server = await serve_spectators(live_view(live), host, port)
    except OSError as exc:
        await runner.cleanup()
        await live.close()
        raise BgboardError(f"cannot serve the spectators' page on {host}:{port}: {exc.strerror}") from None
    assert server.guard is not None
    print(f"spectators: {server.guard.url()}", flush=True)
    return watchers


def run_browser(host: str, port: int, *, open_browser: bool, state_dir: str | None,
                profile_path: str | None, seed: int | None, spectators: int | None = None) -> int:
    if not 0 <= port <= 65535:
        raise UsageError(f"--port {port} is not a TCP port (0-65535)")
    directory = Path(state_dir) if state_dir else default_state_dir(port)
    asyncio.run(serve(host, port, open_browser=open_browser, state_dir=directory,
                      profile_path=profile_path, seed=seed, spectators=spectators))
    return 0


def default_state_dir(port: int = 8080) -> Path:
    """Where the simulator keeps its saved match, so a restart resumes it: one per port,
    so two simulators started side by side each keep their own match."""
    import os

    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    path = Path(base) / "bgboard" / ("simulator" if port == 8080 else f"simulator-{port}")
    path.mkdir(parents=True, exist_ok=True)
    return path
