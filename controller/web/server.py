"""The simulator's web server: static page, the display's frame, the match record, and
one WebSocket per tab.

Only one tab plays at a time: the first tab that acts holds the board until it closes or
has been idle for `handover_s` with no checker in the air; actions from any other tab are
ignored with a notice meanwhile, so two tabs can never interleave half-moves, and a tab
forgotten in the background does not lock the board for good.

Only the simulator's own page is answered (`controller.web.guard`: Host, Origin, and a token off
loopback), each tab is paced (`controller.web.pacing`), and a notice never echoes more than a
line of what was sent.
"""
from __future__ import annotations

import asyncio
import json
import logging
import weakref
from pathlib import Path

from aiohttp import WSCloseCode, WSMsgType, web
from aiohttp.typedefs import Handler as RequestHandler

from controller.errors import BgboardError
from controller.web.backend import NoRecord, PageBackend
from controller.web.board_layout import layout_module
from controller.web.club_state import CLUB_PATH
from controller.web.connections import ConnectionKeeper, quiet_server_logs
from controller.web.guard import COOKIE_MAX_AGE_S, Guard
from controller.web.pacing import Pacer
from controller.web.protocol import BadMessage, Notice, parse_message
from controller.web.record import record_filename

STATIC = Path(__file__).resolve().parent / "static"
CELLS_MODULE = layout_module()  # made once: the cells do not change while the server runs
NOTICE_CHARS = 240  # a notice is one line, whatever the message it answers
REFUSED_LOG_S = 60.0  # refused requests are logged at most once a minute, with a count
MAX_MESSAGE = 64 * 1024  # the page's largest message (a new match's settings) is tiny
log = logging.getLogger("bgboard.sim")


class SimServer:
    """aiohttp application around a `PageBackend`."""

    def __init__(self, backend: PageBackend, *, handover_s: float = 30.0) -> None:
        self.backend = backend
        self.handover_s = handover_s
        self._sockets: weakref.WeakSet[web.WebSocketResponse] = weakref.WeakSet()
        self._player: web.WebSocketResponse | None = None
        self._player_acted = 0.0
        self._push_pending = False
        self.guard: Guard | None = None
        self.keeper: ConnectionKeeper | None = None
        self._refused = 0
        self._refused_told = float("-inf")
        self.app = web.Application(middlewares=[self._door])
        self.app.router.add_get("/", self._index)
        self.app.router.add_get("/display.png", self._display)
        self.app.router.add_get("/cells.js", self._cells)
        self.app.router.add_get("/match.mat", self._record)
        self.app.router.add_get("/review.json", self._review)
        self.app.router.add_get("/ws", self._websocket)
        self.app.on_shutdown.append(self._close_sockets)
        self.app.router.add_static("/static/", STATIC, show_index=False)
        self._unsubscribe = backend.subscribe(self._changed)
        self._unnotice = backend.on_notice(self._told)

    # -- HTTP --------------------------------------------------------------------------
    @web.middleware
    async def _door(self, request: web.Request, handler: RequestHandler) -> web.StreamResponse:
        """Every request passes the guard first (see `controller.web.guard`)."""
        guard = self.guard
        if guard is None:
            return web.Response(status=503, text="the simulator is starting\n")
        club = request.path.startswith(CLUB_PATH)
        refused = guard.check_program(request.headers) if club else \
            guard.check(request.method, request.headers, request.query, request.cookies)
        if refused is not None:
            self._refused += 1
            now = asyncio.get_running_loop().time()
            if now - self._refused_told >= REFUSED_LOG_S:  # a page retrying is one line a minute
                self._refused_told = now
                log.warning("%s %s: %s (%d refused so far)", request.method, request.path[:80], refused,
                            self._refused)
            if club:  # a hub reads JSON (../notes/club-contract.md)
                return web.json_response({"error": refused}, status=403)
            return web.Response(status=403, text=refused + "\n", content_type="text/plain")
        if guard.token is not None and "token" in request.query and request.path != "/ws":
            # the token is exchanged for the cookie and leaves the address bar and history
            clean = request.rel_url.with_query({k: v for k, v in request.query.items() if k != "token"})
            moved = web.Response(status=303, headers={"Location": str(clean)})
            moved.set_cookie(guard.cookie, guard.token, httponly=True, samesite="Lax", max_age=COOKIE_MAX_AGE_S)
            return moved
        response: web.StreamResponse = await handler(request)
        return response

    async def _index(self, request: web.Request) -> web.StreamResponse:
        # never from the browser's cache: a reload after "New page links" must be refused
        return web.FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})

    async def _cells(self, request: web.Request) -> web.Response:
        """The board's cells laid out, as the ES module board.js imports (board_layout.py)."""
        return web.Response(text=CELLS_MODULE, content_type="text/javascript")

    async def _display(self, request: web.Request) -> web.Response:
        return web.Response(body=self.backend.display_png(), content_type="image/png",
                            headers={"Cache-Control": "no-store"})

    async def _record(self, request: web.Request) -> web.Response:
        try:
            text = self.backend.match_record()
        except NoRecord as exc:
            return web.Response(status=404, text=f"{exc}\n", content_type="text/plain")
        except (BgboardError, ValueError) as exc:
            return web.Response(status=500, text=f"cannot write the match record: {exc}\n",
                                content_type="text/plain")
        return web.Response(
            text=text, content_type="text/plain",
            headers={"Content-Disposition": f'attachment; filename="{record_filename(text)}"'},
        )

    async def _review(self, request: web.Request) -> web.Response:
        """The match's review for the page's panel (controller.web.review_page)."""
        return web.json_response(self.backend.review_json(), headers={"Cache-Control": "no-store"})

    # -- WebSocket ---------------------------------------------------------------------
    async def _websocket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(heartbeat=20, max_msg_size=MAX_MESSAGE)
        await ws.prepare(request)
        self._sockets.add(ws)
        pacer = Pacer()
        loop = asyncio.get_running_loop()
        try:
            await _send(ws, json.dumps({"type": "state", **self.backend.snapshot()}))
            async for msg in ws:
                if not pacer.allow(loop.time()):
                    told = pacer.notice(loop.time())
                    if told:
                        await self._notice(ws, told)
                    continue
                if msg.type != WSMsgType.TEXT:
                    await self._notice(ws, "ignored a message that is not text")
                    continue
                await self._handle(ws, msg.data)
        except ConnectionError:
            pass  # the tab went away mid-answer: nothing to tell anyone
        finally:
            self._sockets.discard(ws)
            if self._player is ws:
                self._player = None
        return ws

    async def _close_sockets(self, app: web.Application) -> None:
        """A stopping simulator tells its tabs (they show it and try again) instead of
        leaving them waiting on a socket nobody answers."""
        if self.keeper is not None:
            self.keeper.stop()
        for ws in list(self._sockets):
            await ws.close(code=WSCloseCode.GOING_AWAY, message=b"simulator stopped")

    async def _handle(self, ws: web.WebSocketResponse, text: str) -> None:
        try:
            action = parse_message(text)
        except BadMessage as exc:
            await self._notice(ws, str(exc))
            return
        now = asyncio.get_running_loop().time()
        if self._player is not None and self._player is not ws and not self._player.closed:
            idle = now - self._player_acted >= self.handover_s
            if not idle or self.backend.snapshot().get("hand"):
                await self._notice(ws, Notice("watching", "another browser tab is playing on this board; this tab only watches"))
                return
            await self._notice(self._player, "another browser tab plays now; this tab only watches")
        self._player = ws
        self._player_acted = now
        try:
            notice = await self.backend.act(action)
        except Exception as exc:  # noqa: BLE001 - one line for the tab and the log, the socket lives on
            log.error("ignored %s: %s: %s", action.kind, type(exc).__name__, str(exc)[:NOTICE_CHARS])
            notice = f"ignored {action.kind}: {type(exc).__name__}"
        if notice:
            # the acting tab gets the state its action left before the notice about it,
            # so whatever reacts to the notice already sees that state
            await _send(ws, json.dumps({"type": "state", **self.backend.snapshot()}))
            await self._notice(ws, notice)
        self._changed()

    async def _notice(self, ws: web.WebSocketResponse, notice: str | Notice) -> None:
        if isinstance(notice, Notice):
            message = {**notice.message(), "text": one_line(notice.text)}
        else:
            message = {"type": "notice", "text": one_line(notice)}
        await _send(ws, json.dumps(message))

    def _told(self, notice: Notice) -> None:
        """A notice no action asked for (the computer failed): to the tab that plays, or
        to every tab while none has acted yet."""
        player = self._player
        for ws in [player] if player is not None and not player.closed else list(self._sockets):
            asyncio.ensure_future(self._notice(ws, notice))

    def _changed(self) -> None:
        """Coalesce change notifications into one push per event-loop turn."""
        if self._push_pending:
            return
        self._push_pending = True
        asyncio.get_running_loop().call_soon(self._push)

    def _push(self) -> None:
        self._push_pending = False
        payload = json.dumps({"type": "state", **self.backend.snapshot()})
        for ws in list(self._sockets):
            if not ws.closed:
                asyncio.ensure_future(_send(ws, payload))

    async def start(self, host: str, port: int) -> web.AppRunner:
        """Listen on `host:port` (0: any free port); the guard then knows the port."""
        runner = web.AppRunner(self.app, access_log=None)
        await runner.setup()
        quiet_server_logs()  # a malformed request or a failed accept: one line a minute
        self.keeper = ConnectionKeeper(runner.server)  # headers in time, connections capped
        self.keeper.start()
        site = web.TCPSite(runner, host, port)
        await site.start()
        bound = runner.addresses[0][1] if runner.addresses else port
        self.guard = Guard.for_server(host, bound)
        return runner


def one_line(text: str, limit: int = NOTICE_CHARS) -> str:
    """`text` as one line of at most `limit` characters (what a notice may say)."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "\u2026"


async def _send(ws: web.WebSocketResponse, payload: str) -> None:
    """Send to a tab; a tab that went away meanwhile (even mid-answer) is simply gone (its
    handler cleans up), not an error to log."""
    if ws.closed:
        return
    try:
        await ws.send_str(payload)
    except (ConnectionError, RuntimeError):
        pass
