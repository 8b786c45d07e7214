"""The club's door on the board's web server: `/club/v1/` (../notes/club-contract.md).

The same server that serves the phone's page (`bgboard run --page`) or the simulator's
(`bgboard sim`) answers a club hub here: `pair`, `status`, `assign`, `results`, `ack` as
JSON over HTTP, and `live`, a WebSocket that sends the spectators' snapshot now and on
every change. The server's guard checks each request's `Host` as it does a phone's and
refuses any with an `Origin` (a hub is a program; no web page may call this); every call
but `pair` carries the paired hub's id and key (club_table.py). A refusal is HTTP 4xx with
`{"error": "<one line>"}`, and nothing changes.
"""
from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from pathlib import Path

from aiohttp import WSMsgType, web

from controller.json_value import JsonObject
from controller.table import Table
from controller.web.club_state import CLUB_PATH, ClubRefusal, ClubStore
from controller.web.club_table import ClubTable, utc_now
from controller.web.page_links import page_token
from controller.web.server import SimServer, one_line
from controller.web.spectators import SpectatorView

log = logging.getLogger("bgboard")

MAX_BODY = 64 * 1024
#: the live socket's snapshots: at most this many a second (the spectators' pace)
LIVE_PER_S = 4.0

JsonCall = Callable[[object], JsonObject]


class ClubDoor:
    """The routes of `club` on a server (`install`), the live socket fed from `view`."""

    def __init__(self, club: ClubTable, view: SpectatorView) -> None:
        self.club = club
        self.view = view

    def install(self, app: web.Application) -> None:
        """Add the club's routes to `app` (before its server starts)."""
        app.router.add_post(CLUB_PATH + "pair", self._answer(self.club.pair, paired=False))
        app.router.add_get(CLUB_PATH + "status", self._answer(lambda body: self.club.status(), read=False))
        app.router.add_post(CLUB_PATH + "assign", self._answer(self.club.assign))
        app.router.add_get(CLUB_PATH + "results", self._answer(lambda body: self.club.results(), read=False))
        app.router.add_post(CLUB_PATH + "ack", self._answer(self.club.ack))
        app.router.add_get(CLUB_PATH + "live", self._live)

    def _answer(self, call: JsonCall, *, paired: bool = True, read: bool = True
                ) -> Callable[[web.Request], Awaitable[web.Response]]:
        """A handler: the hub checked (unless pairing), the JSON body read (for a POST),
        `call` answered as JSON, or its refusal in one line."""
        async def handle(request: web.Request) -> web.Response:
            try:
                if paired:
                    self._authorize(request)
                body = await _body(request) if read else None
                return web.json_response(call(body))
            except ClubRefusal as refusal:
                log.warning("club: %s %s: %s", request.method, request.path, refusal.line)
                return web.json_response({"error": one_line(refusal.line)}, status=refusal.status)
            except OSError as exc:
                line = f"the board cannot keep it: {exc.strerror or exc}"
                log.error("club: %s", line)
                return web.json_response({"error": one_line(line)}, status=503)
        return handle

    def _authorize(self, request: web.Request) -> None:
        self.club.authorize(request.headers.get("Authorization"), request.headers.get("X-Club-Hub"))

    async def _live(self, request: web.Request) -> web.StreamResponse:
        """The live snapshot as a WebSocket; what the hub sends on it is ignored."""
        try:
            self._authorize(request)
        except ClubRefusal as refusal:
            return web.json_response({"error": refusal.line}, status=refusal.status)
        ws = web.WebSocketResponse(heartbeat=20, max_msg_size=MAX_BODY)
        await ws.prepare(request)
        changed = asyncio.Event()
        stop = self.view.subscribe(changed.set)
        feed = asyncio.ensure_future(self._feed(ws, changed))
        try:
            async for message in ws:
                if message.type == WSMsgType.ERROR:
                    break  # read-only: anything else the hub sends is ignored
        finally:
            stop()
            feed.cancel()
        return ws

    async def _feed(self, ws: web.WebSocketResponse, changed: asyncio.Event) -> None:
        sent = None
        while not ws.closed:
            changed.clear()
            payload = json.dumps(self.view.snapshot())
            if payload != sent:
                try:
                    await ws.send_str(payload)
                except (ConnectionError, RuntimeError):
                    return
                sent = payload
            await changed.wait()
            await asyncio.sleep(1.0 / LIVE_PER_S)  # a burst of changes is one snapshot


async def _body(request: web.Request) -> object:
    """The request's JSON body (ClubRefusal 400: too big, not UTF-8, not JSON)."""
    if (request.content_length or 0) > MAX_BODY:
        raise ClubRefusal(400, f"the body is larger than {MAX_BODY // 1024} KiB")
    data = await request.content.read(MAX_BODY + 1)
    if len(data) > MAX_BODY:
        raise ClubRefusal(400, f"the body is larger than {MAX_BODY // 1024} KiB")
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise ClubRefusal(400, f"malformed JSON: {str(exc)[:80]}") from None


def open_club(server: SimServer, table: Table, view: SpectatorView, state_dir: Path, *, board_name: str,
              wall: Callable[[], datetime] = utc_now) -> ClubTable:
    """The club's door on `server` (before it starts), for `table`: kept in `state_dir/club`,
    paired by the server's page token, or on a page that needs none (the simulator on
    loopback) by a code of the club's own (`ClubTable.code`)."""
    own = [page_token()]

    def code() -> str | None:
        guard = server.guard
        return guard.token if guard is not None and guard.token is not None else own[0]

    table.on_links_revoked(lambda: own.__setitem__(0, page_token()))

    club = ClubTable(table, ClubStore(state_dir / "club"), board_name=board_name, code=code,
                     live=view.snapshot, wall=wall)
    ClubDoor(club, view).install(server.app)
    return club
