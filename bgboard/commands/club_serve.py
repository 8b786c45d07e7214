"""`bgboard club serve`: the hub's loop and the room's page in one process.

The hub steps every `interval` seconds (collect, pair the next round, assign); the relay
keeps each paired board's live socket open; the room's page shows both. Stopped by Ctrl-C
or SIGTERM; killed at any moment it resumes from the club's directory when started again.
"""
from __future__ import annotations

import asyncio
import logging
import signal
from pathlib import Path

from aiohttp import web

from club.hub.http_client import HttpBoardClient
from club.hub.hub import Hub
from club.room.live import LiveRelay
from club.room.server import RoomServer, room_guard
from controller.errors import BgboardError
from controller.web.connections import quiet_server_logs

log = logging.getLogger("bgboard.club")


async def serve(directory: Path, host: str, port: int, interval_s: float) -> int:
    hub = Hub(directory, HttpBoardClient)
    relay = LiveRelay()
    guard = room_guard(host, port)
    room = RoomServer(lambda: hub.state, relay, guard)
    quiet_server_logs()
    runner = web.AppRunner(room.app, access_log=None)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
    except OSError as exc:
        await runner.cleanup()
        raise BgboardError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    if port == 0:  # any free port: the guard checks the one the system gave
        room.guard = guard = room_guard(host, runner.addresses[0][1])
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    print(f"the room: {guard.url()}", flush=True)
    try:
        while not stop.is_set():
            for board in hub.state.boards:
                relay.follow(board, hub.client(board))
            before = hub.state
            await hub.step()
            if hub.state is not before:
                room.changed()
            try:
                await asyncio.wait_for(stop.wait(), interval_s)
            except asyncio.TimeoutError:
                pass
    finally:
        await relay.stop()
        await runner.cleanup()
    return 0

