"""How one page action is answered, whatever it does: refused while a server match is
watched (except what still means something then), carried out by its handler, a bad one
(an unknown kind, a value the handler rejects) as one line, the table's refusal as the
answer, and a hand on an unplugged board told why nothing happens.

`TablePage` keeps the one table of actions (what each action does at its table, for every
front end); the rules of answering are here, one function over that table.
"""
from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Mapping

from controller.errors import BgboardError
from controller.web.protocol import Answer, Notice, PageAction, PageKind
from controller.web.refusals import PageRefusals
from controller.web.watch_page import READ_ONLY

#: what a page action does: its answer, or (an async one) the coroutine that answers it
Handler = Callable[[PageAction], Answer | Awaitable[Answer]]
#: the page actions a hand does on the board (the controller sees them only through the cable)
PHYSICAL: frozenset[PageKind] = frozenset(["lift", "place", "drop_outside", "auto_step", "cover", "setup",
                                           "bot_move", "undo"])
#: the page actions that still mean something while a server match is watched: the table's
#: buttons (the menu leaves watching; the controller refuses the others with its own line),
#: Leave, and the choices that answer "leave first" or, for chat, why nothing is sent
WHILE_WATCHING: frozenset[PageKind] = frozenset(["button", "online_leave", "online", "new_match", "say"])


async def answer(action: PageAction, handlers: Mapping[PageKind, Handler], refusals: PageRefusals, *,
                 watching: bool, plugged: Callable[[], bool]) -> Answer:
    """Carry out `action` (see the module docstring); `plugged` is asked once it is done."""
    kind = action.kind
    if watching and kind not in WHILE_WATCHING:
        return READ_ONLY
    said = await refusals.answering(_carry_out(action, handlers))
    if kind in PHYSICAL and not plugged() and said is None:
        return Notice("unplugged", "the cable is pulled: the controller sees this when it is plugged in again")
    return said


async def _carry_out(action: PageAction, handlers: Mapping[PageKind, Handler]) -> Answer:
    handler = handlers.get(action.kind)
    if handler is None:
        return f"ignored an unknown action {action.kind!r}"
    try:
        said = handler(action)
        return await said if inspect.isawaitable(said) else said
    except (BgboardError, ValueError, KeyError, IndexError) as exc:
        return f"ignored: {exc}"
