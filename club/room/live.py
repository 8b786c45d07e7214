"""Each paired board's live feed, relayed: the hub keeps one socket per board open (the
board's `/club/v1/live`, its spectators' snapshot) and holds the latest snapshot of each,
so any number of screens in the room cost the boards one socket each, not one per screen."""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from club.hub.client import BoardClient, BoardProblem, BoardUnreachable
from club.state.model import Board
from controller.json_value import JsonObject

log = logging.getLogger("bgboard.club")
#: the longest wait before a board's socket is tried again
RETRY_MAX_S = 10.0


class LiveRelay:
    """The latest snapshot of every board, and who wants to hear of a new one."""

    def __init__(self) -> None:
        self.snapshots: dict[str, JsonObject] = {}
        self._listeners: list[Callable[[str, JsonObject], None]] = []
        self._tasks: dict[str, asyncio.Task[None]] = {}

    def listen(self, callback: Callable[[str, JsonObject], None]) -> Callable[[], None]:
        self._listeners.append(callback)
        return lambda: self._listeners.remove(callback) if callback in self._listeners else None

    def received(self, board_id: str, snapshot: JsonObject) -> None:
        self.snapshots[board_id] = snapshot
        for callback in list(self._listeners):
            callback(board_id, snapshot)

    def follow(self, board: Board, client: BoardClient) -> None:
        """Keep `board`'s socket open from now on (again after it drops)."""
        if board.board_id not in self._tasks:
            self._tasks[board.board_id] = asyncio.ensure_future(self._follow(board.board_id, client))

    async def _follow(self, board_id: str, client: BoardClient) -> None:
        wait = 0.5
        while True:
            try:
                async for snapshot in client.live():
                    wait = 0.5
                    self.received(board_id, snapshot)
            except (BoardUnreachable, BoardProblem):
                pass
            await asyncio.sleep(wait)
            wait = min(wait * 2, RETRY_MAX_S)

    async def stop(self) -> None:
        for task in self._tasks.values():
            task.cancel()
        await asyncio.gather(*self._tasks.values(), return_exceptions=True)
        self._tasks.clear()
