"""The room's page server (aiohttp): the page, its JSON, a WebSocket of the boards' live
snapshots, every result's `.mat` and the night's zip. Read-only: it answers GET alone and
every message a screen sends is ignored.

It is guarded as the board's own pages are (`controller.web.guard`): Host checked on every
request, loopback by default; served off loopback (the club's TV, phones on the club's
network) only with the printed link's token, exchanged once for a cookie. The link gives
nothing but a view: there is nothing on this server to change.
"""
from __future__ import annotations

import asyncio
import json
import weakref
from collections.abc import Callable
from pathlib import Path

from aiohttp import WSCloseCode, web
from aiohttp.typedefs import Handler

from club.archive import night_archive
from club.report import record_name
from club.room.live import LiveRelay
from club.room.view import room_view
from club.state.model import ClubState
from controller.web.guard import COOKIE_MAX_AGE_S, Guard

STATIC = Path(__file__).resolve().parent / "static"
ROOM_COOKIE = "bgboard_room"


class RoomServer:
    """The room's aiohttp application over the hub's state and the live relay."""

    def __init__(self, state: Callable[[], ClubState], relay: LiveRelay, guard: Guard) -> None:
        self.state = state
        self.relay = relay
        self.guard = guard
        self._sockets: weakref.WeakSet[web.WebSocketResponse] = weakref.WeakSet()
        self.app = web.Application(middlewares=[self._door])
        self.app.router.add_get("/", self._index)
        self.app.router.add_get("/room.json", self._room)
        self.app.router.add_get("/ws", self._websocket)
        self.app.router.add_get("/records/{name}", self._record)
        self.app.router.add_get("/night.zip", self._archive)
        self.app.on_shutdown.append(self._close)
        self._unlisten = relay.listen(self._live)

    @web.middleware
    async def _door(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.method not in ("GET", "HEAD"):
            return web.Response(status=405, text="the room's page only shows\n")
        refused = self.guard.check(request.method, request.headers, request.query, request.cookies)
        if refused is not None:
            return web.Response(status=403, text=refused + "\n")
        if self.guard.token is not None and "token" in request.query and request.path != "/ws":
            clean = request.rel_url.with_query({k: v for k, v in request.query.items() if k != "token"})
            moved = web.Response(status=303, headers={"Location": str(clean)})
            moved.set_cookie(self.guard.cookie, self.guard.token, httponly=True, samesite="Lax",
                             max_age=COOKIE_MAX_AGE_S)
            return moved
        return await handler(request)

    async def _index(self, request: web.Request) -> web.StreamResponse:
        return web.FileResponse(STATIC / "room.html", headers={"Cache-Control": "no-store"})

    async def _room(self, request: web.Request) -> web.Response:
        return web.json_response(room_view(self.state(), self.relay.snapshots),
                                 headers={"Cache-Control": "no-store"})

    async def _record(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        found = next((r for r in self.state().results.values() if record_name(r) == name), None)
        if found is None:
            return web.Response(status=404, text="no such record\n")
        return web.Response(text=found.record, content_type="text/plain",
                            headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def _archive(self, request: web.Request) -> web.Response:
        return web.Response(body=night_archive(self.state()), content_type="application/zip",
                            headers={"Content-Disposition": 'attachment; filename="club-night.zip"'})

    async def _websocket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(heartbeat=20, max_msg_size=4096)
        await ws.prepare(request)
        self._sockets.add(ws)
        try:
            await ws.send_str(json.dumps(room_view(self.state(), self.relay.snapshots)))
            async for _ignored in ws:  # a screen only watches: whatever it sends does nothing
                pass
        except ConnectionError:
            pass
        finally:
            self._sockets.discard(ws)
        return ws

    def _live(self, board_id: str, snapshot: object) -> None:
        text = json.dumps({"type": "live", "board_id": board_id, "live": snapshot})
        for ws in list(self._sockets):
            if not ws.closed:
                asyncio.ensure_future(_send(ws, text))

    def changed(self) -> None:
        """The night changed (a result, a round): every screen gets the room again."""
        text = json.dumps(room_view(self.state(), self.relay.snapshots))
        for ws in list(self._sockets):
            if not ws.closed:
                asyncio.ensure_future(_send(ws, text))

    async def _close(self, app: web.Application) -> None:
        self._unlisten()
        for ws in list(self._sockets):
            await ws.close(code=WSCloseCode.GOING_AWAY, message=b"the hub stopped")


async def _send(ws: web.WebSocketResponse, text: str) -> None:
    try:
        await ws.send_str(text)
    except (ConnectionError, RuntimeError):
        pass


def room_guard(host: str, port: int) -> Guard:
    """The room's guard: the board pages' own, with its own cookie and name in refusals."""
    from dataclasses import replace

    return replace(Guard.for_server(host, port), cookie=ROOM_COOKIE, serves="club room")
