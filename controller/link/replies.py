"""Requests waiting for their replies: the futures that the board session's frames
resolve (the zigpy-znp shape), one job apart from the session's handshake."""
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
