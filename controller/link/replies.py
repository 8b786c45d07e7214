"""Requests waiting for their replies: the futures that the board session's frames
resolve (the zigpy-znp shape), one job apart from the session's handshake, for callers on
an event loop (the session itself waits for nothing: controller/link/liveness.py).

    requests = Requests(send, timeout_s=0.5, port="/dev/ttyACM0")
    await requests.request(HelloRequest(), Hello)      # the next HELLO; TimeoutError if none
    future = requests.expect(Pong, lambda p: p.payload == b"x")   # the future alone
    requests.resolve(message)                          # each frame, as it arrives
"""
from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from controller.link.codec import Message

M = TypeVar("M", bound=Message)


@dataclass
class _Waiter:
    """A request waiting for its reply: what it accepts and the future to resolve."""

    accepts: Callable[[Message], bool]
    future: asyncio.Future[Any]  # resolved with the message `accepts` let through


class Replies:
    """The futures waiting for a reply; each message resolves the oldest that accepts it."""

    def __init__(self) -> None:
        self._waiting: list[_Waiter] = []

    def expect(self, reply: type[M], match: Callable[[M], bool] = lambda m: True) -> asyncio.Future[M]:
        """A future that the next `reply` which `match`es resolves; cancel it to stop waiting."""
        future: asyncio.Future[M] = asyncio.get_running_loop().create_future()

        def accepts(m: Message) -> bool:
            return isinstance(m, reply) and match(m)

        waiter = _Waiter(accepts, future)
        self._waiting.append(waiter)
        future.add_done_callback(lambda _: self._forget(waiter))
        return future

    def _forget(self, waiter: _Waiter) -> None:
        if waiter in self._waiting:
            self._waiting.remove(waiter)

    def resolve(self, message: Message) -> None:
        """Hand `message` to the oldest waiting request that accepts it, if any."""
        for waiter in self._waiting:
            if not waiter.future.done() and waiter.accepts(message):
                waiter.future.set_result(message)
                return

    def cancel_all(self) -> None:
        """Stop every wait (the session closed)."""
        for waiter in self._waiting:
            waiter.future.cancel()
        self._waiting.clear()


class Requests(Replies):
    """Requests sent through `send` and the replies they wait for, on the loop's time."""

    def __init__(self, send: Callable[[Message], bool], *, timeout_s: float, port: str) -> None:
        super().__init__()
        self._send, self.timeout_s, self._port = send, timeout_s, port

    async def request(self, message: Message, reply: type[M], *,
                      match: Callable[[M], bool] = lambda m: True,
                      timeout: float | None = None) -> M:
        """Send `message` and wait for the next `reply` that `match`es; TimeoutError when
        none comes within `timeout` (default `timeout_s`) of the loop's time."""
        future = self.expect(reply, match)
        if not self._send(message):
            future.cancel()
            raise TimeoutError(f"{self._port}: the port is down")
        return await asyncio.wait_for(future, timeout or self.timeout_s)
