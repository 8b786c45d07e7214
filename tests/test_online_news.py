"""Issue 22 item 3: online play's reason on the display was cut at 60 characters, so a
line such as "cannot log in to bgammon.org:1337: Unknown username or password" ended at
"...1337: Unknown" and the reason never showed. The display pages through long lines: the
banner carries the whole line and stays until every page was seen."""
from __future__ import annotations

import asyncio

from controller.online.news import FAILED_SHOWN_S, DoorNews
from controller.show.content import DisplayContent, Prompt
from controller.show.display import PAGE_SECONDS, PROMPT_LINES, prompt_lines, visible_lines

REASON = ("cannot log in to bgammon.org:1337: Unknown username or password "
          "(the server said: account locked for 10 minutes)")


def _shown(reason: str) -> tuple[list[Prompt | None], float]:
    shown: list[Prompt | None] = []

    async def main() -> float:
        news = DoorNews(shown.append, lambda: None)
        loop = asyncio.get_running_loop()
        news.fail(reason)
        assert news._clear is not None
        delay = news._clear.when() - loop.time()
        news.close()
        return delay

    return shown, asyncio.run(main())


def test_the_whole_reason_reaches_the_display_page_by_page() -> None:
    shown, delay = _shown(REASON)
    prompt = shown[-1]
    assert prompt is not None
    lines = prompt_lines(DisplayContent(prompt=prompt))
    assert len(lines) > PROMPT_LINES  # it pages
    pages = -(-len(lines) // PROMPT_LINES)
    seen = {line for k in range(pages) for line in visible_lines(lines, k * PAGE_SECONDS)}
    assert " ".join(line for line in lines if line in seen).endswith("10 minutes)")
    assert delay >= pages * PAGE_SECONDS  # every page shown before the banner goes


def test_a_short_reason_stays_the_usual_time_and_a_huge_one_is_bounded() -> None:
    assert _shown("no such server")[1] >= FAILED_SHOWN_S - 0.1
    shown, delay = _shown("x" * 5000)
    prompt = shown[-1]
    assert prompt is not None and len(prompt.as_dict()["text"]) <= 160
    assert delay < 120
