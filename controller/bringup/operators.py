"""The person at the board, at a terminal: requests printed, yes/no answers read.

The input is injected (`read_line`), so a test can answer; the command passes a reader
of standard input that runs in a worker thread, so the event loop keeps receiving the
board's frames while the person thinks.
"""
from __future__ import annotations

from collections.abc import Awaitable, Callable

from controller.bringup.requests import Question, Request

YES = ("", "y", "yes", "j", "ja")
NO = ("n", "no", "nej", "nei")


class ConsoleOperator:
    """A person at a terminal. `read_line` returns None at end of input (taken as "no")."""

    def __init__(self, read_line: Callable[[], Awaitable[str | None]],
                 write: Callable[[str], None]) -> None:
        self._read_line = read_line
        self._write = write

    def say(self, text: str) -> None:
        self._write(text)

    async def do(self, request: Request) -> None:
        self._write(f"> {request}")

    async def confirm(self, question: Question) -> bool:
        while True:
            self._write(f"? {question} [Y/n]")
            line = await self._read_line()
            if line is None:
                return False
            answer = line.strip().lower()
            if answer in YES:
                return True
            if answer in NO:
                return False
            self._write("  please answer y or n")
