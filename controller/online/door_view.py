"""What the page shows of online play at one table: the door's state and its view.

Kept apart from `OnlineDoor` (door.py), which starts, watches and leaves: this module only
reads the door's seat, spectator and settings, and says what they amount to.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Literal, NotRequired, Protocol, TypedDict

if TYPE_CHECKING:
    from controller.online.choice import OnlineChoice
    from controller.online.seat import OnlineSeat
    from controller.online.watch import Spectator
    from controller.settings import Settings

CHAT_SHOWN = 8
#: what online play at a table is doing (the page's `online_play.state`)
DoorState = Literal["off", "connecting", "waiting", "playing", "rejoining", "over", "watching"]


class OnlineView(TypedDict):
    """What the page shows of online play (`LiveSim.snapshot()["online_play"]`)."""

    state: DoorState
    line: str
    failed: bool
    server: str
    match: int
    me: str
    opponent: str
    match_password: str
    chat: list[str]
    user: str
    default_server: str
    saved: str  # "server match" a restart interrupted (the dialog offers to resume it), or ""
    spectator: NotRequired[bool]  # True watching: `me` and `opponent` are the watched match's players


class Door(Protocol):
    """What the view reads of a door (`OnlineDoor`, door.py)."""

    @property
    def seat(self) -> OnlineSeat | None: ...
    @property
    def spectator(self) -> Spectator | None: ...
    @property
    def choice(self) -> OnlineChoice | None: ...
    @property
    def known_settings(self) -> Settings | None: ...
    @property
    def saved_text(self) -> str: ...
    @property
    def state(self) -> DoorState: ...
    @property
    def line(self) -> str: ...
    @property
    def failed(self) -> bool: ...
    @property
    def busy(self) -> bool: ...


def door_state(seat: OnlineSeat | None, spectator: Spectator | None, busy: bool) -> DoorState:
    """The door's state: watching (or rejoining) a match, else the seat's, else
    connecting while the door's task runs, or off."""
    if spectator is not None:
        return "rejoining" if spectator.rejoining else "watching"
    if seat is None:
        return "connecting" if busy else "off"
    if seat.rejoining:
        return "rejoining"
    if seat.waiting:
        return "waiting"
    return "over" if seat.over else "playing"


def online_view(door: Door) -> OnlineView:
    """The page's view of the door: the watched match's players and chat while watching,
    else the seat's."""
    spectator = door.spectator
    watched = spectator.watched if spectator is not None else None
    if spectator is not None and watched is not None:
        return {**_view_of_seat(door), "server": str(spectator.address), "match": spectator.game_id,
                "me": watched.name(1), "opponent": watched.name(2), "chat": watched.chat[-CHAT_SHOWN:],
                "spectator": True}
    return _view_of_seat(door)


def _view_of_seat(door: Door) -> OnlineView:
    seat = door.seat
    session = seat.session if seat is not None else None
    request = session.request if session is not None else None
    private = request is not None and request.create == "private" and request.password or ""
    opponent = seat.opponent.opponent if seat is not None and seat.opponent is not None else ""
    known = door.known_settings
    return {"state": door.state, "line": door.line, "failed": door.failed,
            "server": str(session.address) if session is not None else
            str(door.choice.server) if door.choice is not None else "",
            "match": session.game_id if session is not None else 0,
            "me": (session.name or "") if session is not None else "",
            "opponent": opponent or "", "match_password": private,
            "chat": seat.chat[-CHAT_SHOWN:] if seat is not None else [],
            "user": (known.online_user or "") if known is not None else "",
            "default_server": known.online_server if known is not None else "",
            "saved": "" if door.busy else door.saved_text}
