"""The table's refusals as the page's "Not now: <reason>" notice, in the match's language.

Every refusal at a table is one typed record (`controller.events.Refused`: the log's
English line and a `refused.*` message key with its parameters), handed over by
`Table.on_refused`; nothing here reads the log. A refusal made while a page action is
carried out (a button, a command, dice keyed in) is that action's answer, sent to the tab
that acted; one made at another time (the computer failing in its worker thread, a
reading the controller refuses) is told to the page as it happens, through `on_notice`.
The notice keeps the English line as its text (logs and tests read it) and gives the
reason rendered in the match's language (controller/show/texts.py); the page's catalogue
(controller/web/static/i18n.js) only puts "Not now:" before it.
"""
from __future__ import annotations

from collections.abc import Awaitable, Callable

from controller.events import Refused
from controller.show.texts import render
from controller.web.protocol import Answer, Notice



def refusal_notice(refused: Refused, language: str) -> Notice:
    """The page's notice of `refused`, its reason said in `language`."""
    why = refused.why
    return Notice("rejected", f"rejected: {refused.reason}",
                  {"reason": render(why.key, why.as_dict(), language)})


class PageRefusals:
    """The refusals of the page's table, as notices (see the module docstring)."""

    def __init__(self, language: Callable[[], str]) -> None:
        self._language = language  # the match's, asked when a refusal is told
        self._acting = 0  # page actions under way
        self._made: list[Refused] = []  # refusals made while one was
        self._listeners: list[Callable[[Notice], None]] = []

    def refused(self, refused: Refused) -> None:
        """The table refused something (`Table.on_refused`)."""
        if self._acting:
            self._made.append(refused)
            return
        notice = refusal_notice(refused, self._language())
        for tell in list(self._listeners):
            tell(notice)

    async def answering(self, action: Awaitable[Answer]) -> Answer:
        """Carry out a page action; its answer, else the newest refusal it met."""
        self._acting += 1
        try:
            answer = await action
        finally:
            self._acting -= 1
        made, self._made = self._made, []
        if answer is None and made:
            return refusal_notice(made[-1], self._language())
        return answer

    def on_notice(self, callback: Callable[[Notice], None]) -> Callable[[], None]:
        """Call `callback(notice)` for each refusal no page action met; returns unsubscribe."""
        self._listeners.append(callback)
        return lambda: self._listeners.remove(callback)
