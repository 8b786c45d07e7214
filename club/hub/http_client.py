"""The hub's `BoardClient` over HTTP: aiohttp's client onto the board's `/club/v1/`.

The hub sends no Origin and `Host` as the address it connects to (aiohttp's default), the
hub's id and key on every call but the pairing, bodies of at most 64 KiB, and reads the
answers field by field (`club.hub.client`). No answer within `TIMEOUT_S` is
`BoardUnreachable`; a 4xx is a `BoardProblem` with the board's one line.
"""
from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import cast

import aiohttp

from club.hub.client import (Assignment, BoardProblem, BoardReport, BoardUnreachable, PairAnswer,
                             pair_answer, reports_of)
from controller.json_value import JsonObject

PREFIX = "/club/v1/"
TIMEOUT_S = 5.0
#: a board's results may be larger than a body (records): the most the hub reads of them
MAX_RESULTS = 16 * 1024 * 1024


class HttpBoardClient:
    """One board at `address` (`http://host:port`)."""

    def __init__(self, address: str, hub_id: str, hub_key: str | None) -> None:
        self.address = address.rstrip("/")
        self.headers = {} if hub_key is None else {"Authorization": f"Bearer {hub_key}", "X-Club-Hub": hub_id}

    async def _call(self, method: str, call: str, body: JsonObject | None = None) -> object:
        timeout = aiohttp.ClientTimeout(total=TIMEOUT_S)
        try:
            async with aiohttp.ClientSession(timeout=timeout, read_bufsize=2 ** 16) as session:
                async with session.request(method, f"{self.address}{PREFIX}{call}", json=body,
                                           headers=self.headers, allow_redirects=False) as answer:
                    data = await answer.content.read(MAX_RESULTS)
                    status = answer.status
        except (aiohttp.ClientError, asyncio.TimeoutError, OSError) as exc:
            raise BoardUnreachable(str(exc)[:120] or type(exc).__name__) from None
        payload = _json(data)
        if status >= 400:
            line = payload.get("error") if isinstance(payload, dict) else None
            raise BoardProblem(str(line or f"HTTP {status}")[:200], status)
        return payload

    async def pair(self, code: str, hub_id: str, hub_name: str) -> PairAnswer:
        return pair_answer(await self._call("POST", "pair", {"code": code, "hub_id": hub_id, "hub_name": hub_name}))

    async def status(self) -> JsonObject:
        payload = await self._call("GET", "status")
        if not isinstance(payload, dict):
            raise BoardProblem("the board's status is not a JSON object")
        return cast(JsonObject, payload)

    async def assign(self, assignment: Assignment) -> None:
        await self._call("POST", "assign", assignment.body())

    async def results(self) -> list[BoardReport | BoardProblem]:
        return reports_of(await self._call("GET", "results"))

    async def ack(self, match_id: str) -> None:
        await self._call("POST", "ack", {"match_id": match_id})

    async def live(self) -> AsyncIterator[JsonObject]:
        """The board's live snapshots as they come (ends when the socket closes)."""
        try:
            async with aiohttp.ClientSession() as session:
                async with session.ws_connect(f"{self.address}{PREFIX}live", headers=self.headers,
                                              heartbeat=20, max_msg_size=4 * 1024 * 1024) as ws:
                    async for message in ws:
                        if message.type != aiohttp.WSMsgType.TEXT:
                            break
                        snapshot = _json(message.data.encode())
                        if isinstance(snapshot, dict):
                            yield cast(JsonObject, snapshot)
        except (aiohttp.ClientError, asyncio.TimeoutError, OSError) as exc:
            raise BoardUnreachable(str(exc)[:120] or type(exc).__name__) from None


def _json(data: bytes) -> object:
    try:
        return json.loads(data.decode("utf-8")) if data else None
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None
