"""The lines the client sends (bgammon PROTOCOL.md "Client commands"), built in one place.

Every command is one line. Spaces are the protocol's separators, so text that goes into a
command is checked here: names are letters, digits and underscores; a password's spaces
become underscores (the protocol says so); a chat line loses its line breaks. A step is
written in the sender's own numbering, as the server reads it: `24/18`, `bar/22`, `6/off`.
A chat line typed by the person (`check_chat`) is one line of printable text, at most
`CHAT_CHARS` characters: nothing the server or the opponent's screen could take as a
control sequence.
"""
from __future__ import annotations

import re
import unicodedata

from controller.errors import UsageError

#: what this client tells the server it is (`loginjson <client> ...`)
CLIENT_NAME = "bgboard-0.1/en"
#: the longest match the server creates
MAX_POINTS = 127
#: the longest chat line the person may send (the page's input holds no more)
CHAT_CHARS = 200
_NAME = re.compile(r"^[A-Za-z0-9_]{1,24}$")


def check_name(name: str) -> str:
    """A user name the server accepts (letters, digits, underscores; not only digits)."""
    if not _NAME.match(name) or name.isdigit():
        raise UsageError(f"user name {name!r}: letters, digits and underscores, not only digits")
    return name


def _password(password: str) -> str:
    if not password or any(c in password for c in "\r\n"):
        raise UsageError("a password must be one non-empty line")
    return password.replace(" ", "_")


def login(name: str | None = None, password: str | None = None) -> str:
    """Log in with JSON events on: as a guest (no name: the server picks one; a name: the
    server calls us Guest_<name>) or as a registered user with a password."""
    parts = ["loginjson", CLIENT_NAME]
    if name:
        parts.append(check_name(name))
        if password:
            parts.append(_password(password))
    return " ".join(parts)


def create(private_password: str | None, points: int) -> str:
    """Create a backgammon match (variant 0) to `points`, public or private."""
    if not 1 <= points <= MAX_POINTS:
        raise UsageError(f"match length {points}: 1..{MAX_POINTS} points")
    if private_password is None:
        return f"create public {points} 0"
    return f"create private {_password(private_password)} {points} 0"


def join(target: str, password: str | None = None) -> str:
    """Join a match by its number or by the name of a player in it."""
    if not (target.isdigit() or _NAME.match(target)):
        raise UsageError(f"join {target!r}: a match number or a player's name")
    return f"join {target}" + (f" {_password(password)}" if password else "")


def space(point: int, *, frm: bool) -> str:
    """A space in the sender's own numbering: 1..24, the bar (25 as a from) or off (0)."""
    if frm and point == 25:
        return "bar"
    if not frm and point == 0:
        return "off"
    if not 1 <= point <= 24:
        raise ValueError(f"no space {point} to move {'from' if frm else 'to'}")
    return str(point)


def move(frm: int, to: int) -> str:
    """One checker's step in the sender's numbering (25 the bar, 0 off)."""
    return f"move {space(frm, frm=True)}/{space(to, frm=False)}"


def check_chat(message: str) -> str:
    """A chat line the person typed, as sent: one line of printable characters (no line
    break, escape or other control character), not empty, at most `CHAT_CHARS` long."""
    text = message.strip()
    if not text:
        raise UsageError("an empty chat line: nothing sent")
    if len(text) > CHAT_CHARS:
        raise UsageError(f"a chat line of {len(text)} characters: at most {CHAT_CHARS}; nothing sent")
    if any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") for c in text):
        raise UsageError("a chat line with a line break or a control character: nothing sent")
    return text


def say(message: str) -> str:
    """A chat line (its line breaks and runs of spaces become one space)."""
    text = " ".join(message.split())
    if not text:
        raise UsageError("an empty chat line")
    return f"say {text}"


def pong(message: str = "bgboard") -> str:
    return f"pong {message.split()[0] if message.split() else 'bgboard'}"


ROLL = "roll"
OK = "ok"
RESET = "reset"
DOUBLE = "double"
RESIGN = "resign"
REMATCH = "rematch"
LEAVE = "leave"
BOARD = "board"
LIST = "list"
DISCONNECT = "disconnect"
