"""The one line online play shows, and the display's banner that says it for a while.

The door, its seat and its spectator all tell the page, the log and the display what
happens (connecting, news, the one clear line of an error). Kept here so that the line,
whether it is a failure and the timer that takes the banner down again live in one place:
`DoorNews` gets the table's `show_banner` and the page's `on_change`, nothing more.
"""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from controller.show import texts
from controller.show.content import Prompt
from controller.show.display import PAGE_SECONDS, PROMPT_LINES, WIDTH, wrap
from controller.show.fonts import SMALL

log = logging.getLogger("bgboard.online")
#: how long the display shows why online play could not start, at the least
FAILED_SHOWN_S = 8.0
#: the longest line the display pages through (a server's text may be any length)
SHOWN_CHARS = 160


def shown_for(text: str) -> float:
    """Seconds the banner stays: every page of its wrapped lines seen, at least 8 s."""
    lines = wrap(texts.render("online_failed", {"text": text}, "en"), SMALL, WIDTH)
    pages = -(-len(lines) // PROMPT_LINES)
    return max(FAILED_SHOWN_S, (pages + 1) * PAGE_SECONDS)


class DoorNews:
    """The last line (`line`, `failed` when it says why online play stopped) and the banner."""

    def __init__(self, show_banner: Callable[[Prompt | None], None], on_change: Callable[[], None]) -> None:
        self._show_banner = show_banner
        self._on_change = on_change
        self.line = ""
        self.failed = False
        self._clear: asyncio.TimerHandle | None = None

    def say(self, line: str) -> None:
        self.line = line
        log.info("online: %s", line)
        self._on_change()

    def fail(self, reason: str) -> None:
        """Say why online play could not start or went on no longer (page, log, display)."""
        self.failed = True
        self.notice(reason)

    def notice(self, line: str) -> None:
        """`line` on the page, in the log and for a few seconds on the display."""
        self.say(line)
        # the whole line, paged by the display: cut at 60 characters it ended mid-sentence
        # ("...bgammon.org:1337: Unknown") with the reason itself gone
        text = line if len(line) <= SHOWN_CHARS else line[:SHOWN_CHARS - 3] + "..."
        self.banner(Prompt.of("online_failed", text=text))
        loop = asyncio.get_running_loop()
        if self._clear is not None:
            self._clear.cancel()
        self._clear = loop.call_later(shown_for(text), self.banner, None)

    def banner(self, prompt: Prompt | None) -> None:
        if self._clear is not None and prompt is not None:
            self._clear.cancel()
            self._clear = None
        self._show_banner(prompt)
        self._on_change()

    def close(self) -> None:
        """The table closes: the banner's timer is not needed any more."""
        if self._clear is not None:
            self._clear.cancel()
