"""The page's way into online play: the New match dialog's "Online (bgammon.org)" and
"watch a match" forms, and its Leave button, each answered with the page's notice.

The table's `OnlineDoor` does the playing and watching; what is left here is reading the
page's form (a bad choice is one line and nothing starts) and refusing what cannot be
while online play is under way. It was part of `LiveSim`; it reads only the door, the
table and the settings online play uses (read when a form comes: a bad file is the
form's one line too).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping

from controller.errors import BgboardError
from controller.online.door import OnlineDoor
from controller.online.watch import WatchedMatch
from controller.settings import Settings
from controller.table import Table
from controller.web.protocol import Notice


def join(door: OnlineDoor, table: Table, form: Mapping[str, object], settings: Callable[[], Settings]) -> Notice:
    """The dialog's "Online (bgammon.org)": connect in the background (the page shows
    what happens, `online_play`); a bad choice is one line and nothing starts."""
    from controller.online.choice import from_form

    if door.busy:
        return Notice("online_busy", "already playing online: leave first")
    if form.get("match") == "watch":
        return watch(door, table, form, settings)
    try:
        choice = from_form(form, settings())
    except BgboardError as exc:
        return _failed(door, exc)
    door.start(choice)
    return Notice("online_connecting", f"connecting to {choice.server}", {"server": str(choice.server)})


def watch(door: OnlineDoor, table: Table, form: Mapping[str, object], settings: Callable[[], Settings]) -> Notice:
    """The dialog's "watch a match": the table's door watches it, as from the board's
    menu, and the page shows it read-only (`watched_view`) until it is left."""
    from controller.online.choice import watch_from_form

    if table.controller.status().playing_online:
        return Notice("online_busy", "already playing online: leave first")
    try:
        server, target, password = watch_from_form(form, settings())
    except BgboardError as exc:
        return _failed(door, exc)
    door.watch(server, target, password)
    return Notice("online_connecting", f"connecting to {server}", {"server": str(server)})


def leave(door: OnlineDoor, table: Table) -> Notice | None:
    """Leave online play (whoever seated the remote player: the dialog, the menu, or
    `bgboard online --sim`), or stop connecting."""
    seat = table.online
    if table.controller.status().playing_online and seat is not None:
        seat.requested("leave")
    elif not door.leave():
        return Notice("online_off", "not playing online")
    return None


def busy(door: OnlineDoor | None) -> Notice | None:
    """Why the New match dialog's match cannot start now (online play under way: connecting,
    playing or watching), or None."""
    if door is not None and door.busy:
        return Notice("online_busy", "this match is played online; leave online play first")
    return None


def watched(door: OnlineDoor | None) -> WatchedMatch | None:
    """The server match `door` watches now (the board's menu or the dialog started it):
    the page shows it in place of the local match, which waits untouched."""
    spectator = door.spectator if door is not None else None
    return spectator.watched if spectator is not None else None


def _failed(door: OnlineDoor, exc: BgboardError) -> Notice:
    door.fail(str(exc))
    return Notice("online_failed", str(exc), {"reason": str(exc)})
