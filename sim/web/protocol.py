"""Messages between the simulator page and the server, checked at the boundary.

The page sends small JSON objects; anything malformed is answered with one `notice`
line and changes nothing. The server sends `state` snapshots (see `SimBackend.snapshot`).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

CELLS = frozenset([str(p) for p in range(1, 25)] + ["bar", "off-white", "off-black"])
COLOURS = frozenset(["white", "black"])
BUTTONS = frozenset(["white_main", "white_cube", "black_main", "black_cube", "menu"])
FAULTS = frozenset(["noise", "unplug", "plug", "flicker", "drop", "flip"])


class BadMessage(ValueError):
    """A message from the page that cannot be acted on; the text is shown to the user."""


@dataclass(frozen=True)
class PageAction:
    """One checked action from the page."""

    kind: str
    cell: str | None = None
    colour: str | None = None
    name: str | None = None
    settings: dict[str, Any] | None = None


def parse_message(text: str) -> PageAction:
    """Parse and check one WebSocket text message (raises BadMessage)."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise BadMessage("ignored a message that is not JSON") from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise BadMessage("ignored a message without a type")
    kind = data["type"]
    if kind in ("lift", "place", "auto_step", "cover"):
        cell = data.get("cell")
        if cell not in CELLS:
            raise BadMessage(f"ignored {kind}: {cell!r} is not a place on the board")
        colour = data.get("colour")
        if colour is not None and colour not in COLOURS:
            raise BadMessage(f"ignored {kind}: colour {colour!r} is neither white nor black")
        return PageAction(kind, cell=cell, colour=colour)
    if kind in ("drop_outside", "setup", "bot_move"):
        return PageAction(kind)
    if kind == "button":
        if data.get("name") not in BUTTONS:
            raise BadMessage(f"ignored an unknown button {data.get('name')!r}")
        return PageAction(kind, name=data["name"])
    if kind == "fault":
        if data.get("name") not in FAULTS:
            raise BadMessage(f"ignored an unknown fault {data.get('name')!r}")
        return PageAction(kind, name=data["name"])
    if kind == "new_match":
        settings = data.get("settings")
        if not isinstance(settings, dict):
            raise BadMessage("ignored new match: settings missing")
        return PageAction(kind, settings=settings)
    if kind == "command":
        if not isinstance(data.get("name"), str):
            raise BadMessage("ignored a command without a name")
        return PageAction(kind, name=data["name"])
    raise BadMessage(f"ignored an unknown message type {kind!r}")
