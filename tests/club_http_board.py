"""The in-memory club boards (club_fake_board.py) served over HTTP as the contract says
(`/club/v1/` on the board's port, JSON bodies, 4xx with {"error": one line}, the hub's id
and key in headers, `Host` the address the hub connected to), each on a port of its own on
a thread of its own, so the hub's real aiohttp client, or a `bgboard club serve` process,
talks to them."""
from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Awaitable, Callable

from aiohttp import web

from club.hub.client import Assignment, BoardProblem, BoardUnreachable
from club.tournament.model import Clock, RoundRules
from club_fake_board import FakeBoard, FakeBoards, FakeClient


def _client(board: FakeBoard, request: web.Request) -> FakeClient:
    auth = request.headers.get("Authorization", "")
    key = auth[len("Bearer "):] if auth.startswith("Bearer ") else None
    return FakeClient(board, request.headers.get("X-Club-Hub", ""), key)


def _app(board: FakeBoard, port: list[int]) -> web.Application:
    async def answer(request: web.Request, call: Callable[[], Awaitable[object]]) -> web.StreamResponse:
        if request.host != f"127.0.0.1:{port[0]}" or "Origin" in request.headers:
            return web.json_response({"error": "refused: Host"}, status=403)
        try:
            return web.json_response(await call())
        except BoardProblem as exc:
            return web.json_response({"error": str(exc)}, status=exc.status or 400)
        except BoardUnreachable:
            raise web.HTTPServiceUnavailable() from None

    async def pair(request: web.Request) -> web.StreamResponse:
        body = await request.json()

        async def call() -> object:
            answer = await FakeClient(board, body["hub_id"], None).pair(body["code"], body["hub_id"], body["hub_name"])
            return {"board_id": answer.board_id, "board_name": answer.board_name, "hub_key": answer.hub_key}
        return await answer(request, call)

    async def assign(request: web.Request) -> web.StreamResponse:
        b = await request.json()
        clock = None if b["clock"] is None else Clock(b["clock"]["minutes"], b["clock"]["delay_s"])
        assignment = Assignment(b["match_id"], b["white"], b["black"], RoundRules(b["length"], clock, b["crawford"]))

        async def call() -> object:
            await _client(board, request).assign(assignment)
            return {"accepted": True}
        return await answer(request, call)

    async def results(request: web.Request) -> web.StreamResponse:
        async def call() -> object:
            await _client(board, request).status()  # the door
            return {"results": board.finished}
        return await answer(request, call)

    async def ack(request: web.Request) -> web.StreamResponse:
        match_id = (await request.json())["match_id"]

        async def call() -> object:
            await _client(board, request).ack(match_id)
            return {}
        return await answer(request, call)

    async def status(request: web.Request) -> web.StreamResponse:
        return await answer(request, _client(board, request).status)

    async def live(request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.send_str(json.dumps({"board": board.name, "last_move": ""}))
        async for _ in ws:
            pass
        return ws

    app = web.Application()
    app.router.add_post("/club/v1/pair", pair)
    app.router.add_post("/club/v1/assign", assign)
    app.router.add_get("/club/v1/results", results)
    app.router.add_post("/club/v1/ack", ack)
    app.router.add_get("/club/v1/status", status)
    app.router.add_get("/club/v1/live", live)
    return app


class HttpBoards:
    """`count` fake boards, each served on 127.0.0.1 (its `address` its real one)."""

    def __init__(self, count: int) -> None:
        self.fakes = FakeBoards(count)
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self._thread.start()
        self._runners: list[web.AppRunner] = []
        for board in self.fakes.boards:
            asyncio.run_coroutine_threadsafe(self._serve(board), self.loop).result(10)
        self.fakes.by_address = {b.address: b for b in self.fakes.boards}

    async def _serve(self, board: FakeBoard) -> None:
        port: list[int] = [0]
        runner = web.AppRunner(_app(board, port), access_log=None)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", 0).start()
        port[0] = runner.addresses[0][1]
        board.address = f"http://127.0.0.1:{port[0]}"
        self._runners.append(runner)

    def on_loop(self, action: Callable[[], object]) -> object:
        """Run `action` on the boards' thread (where their state is changed)."""
        async def call() -> object:
            return action()
        return asyncio.run_coroutine_threadsafe(call(), self.loop).result(10)

    def close(self) -> None:
        for runner in self._runners:
            asyncio.run_coroutine_threadsafe(runner.cleanup(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(10)
        self.loop.close()
