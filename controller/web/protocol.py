"""Messages between the page and the server, checked at the boundary.

The page sends small JSON objects, each of a kind (`PageKind`) with its own fields;
anything malformed (not JSON, `NaN`/`Infinity`, a list where a name belongs, a kind the
page never sends) is answered with one short `notice` line and changes nothing. The server
sends `state` snapshots (see `PageBackend.snapshot`) and notices.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Literal, TypeGuard, TypeVar, Union, get_args

from controller.analysis.tutor import TUTOR_MARKS
from controller.board.profile_sections import BUTTON_KEYS
from controller.engine.board_view import CELLS, COLOURS
from controller.json_value import JsonObject
from controller.show.texts import LANGUAGES

#: what a finger can do on the page: press a profile button, or hold the menu button
PRESSES = frozenset([*BUTTON_KEYS, "menu_hold"])

#: a name a message must be one of (a cell, a colour, a kind)
Name = TypeVar("Name", bound=str)

FAULTS = frozenset(["noise", "unplug", "plug", "flicker", "drop", "flip"])


@dataclass(frozen=True)
class Notice:
    """A notice for the page: the English `text` (logs and tests read it) and a key of the
    page's catalogue (`notice.<key>` in controller/web/static/i18n.js) with its parameters, so the page
    says it in the match's language."""

    key: str
    text: str
    params: dict[str, str] = field(default_factory=dict)

    def message(self) -> JsonObject:
        return {"type": "notice", "text": self.text, "key": self.key, "params": self.params}


#: what an action is answered with: a line for the user (a `Notice`, in the page's
#: language, or plain English), or None when the table's own answer is enough
Answer = Union[str, Notice, None]


class BadMessage(ValueError):
    """A message from the page that cannot be acted on; the text is shown to the user."""


#: every kind of message the page sends (`_PARSERS` checks each)
PageKind = Literal["lift", "place", "auto_step", "cover", "drop_outside", "setup", "bot_move", "undo",
                   "online_leave", "reveal", "back_to_match", "hint", "button", "fault", "new_match", "online",
                   "say", "dice", "die", "phrase", "practice", "command", "language", "tutor"]
PAGE_KINDS: frozenset[PageKind] = frozenset(get_args(PageKind))


@dataclass(frozen=True)
class PageAction:
    """One checked action from the page."""

    kind: PageKind
    cell: str | None = None
    colour: str | None = None
    name: str | None = None
    settings: JsonObject | None = None
    slide: bool = False  # a place that is one point of a slide: it knocks no blot to the bar


def short(value: object, limit: int = 40) -> str:
    """What a notice shows of a value: its repr cut to `limit` characters, or only its
    kind for a list or an object (a notice never echoes a whole message back)."""
    if isinstance(value, list | dict):
        return "a list" if isinstance(value, list) else "an object"
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def _one_of(value: object, names: Collection[Name]) -> TypeGuard[Name]:
    """`value in names` for any JSON value (a list or an object is simply not a name)."""
    return isinstance(value, str) and value in names


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not a number JSON allows")


Message = JsonObject


def parse_message(text: str) -> PageAction:
    """Parse and check one WebSocket text message (raises BadMessage)."""
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError):  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise BadMessage("ignored a message that is not JSON") from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise BadMessage("ignored a message without a type")
    kind = data["type"]
    if not _one_of(kind, PAGE_KINDS):
        raise BadMessage(f"ignored an unknown message type {short(kind)}")
    return _PARSERS[kind](kind, data)


def _hand(kind: PageKind, data: Message) -> PageAction:
    cell = data.get("cell")
    if not _one_of(cell, CELLS):
        raise BadMessage(f"ignored {kind}: {short(cell)} is not a place on the board")
    colour = data.get("colour")
    if colour is not None and not _one_of(colour, COLOURS):
        raise BadMessage(f"ignored {kind}: colour {short(colour)} is neither white nor black")
    return PageAction(kind, cell=cell, colour=colour, slide=data.get("slide") is True)


def _bare(kind: PageKind, data: Message) -> PageAction:
    return PageAction(kind)


Parser = Callable[[PageKind, Message], PageAction]


def _named(names: Collection[str], refusal: Callable[[str], str]) -> Parser:
    """A message whose "name" must be one of `names`; `refusal(shown name)` is the notice
    for any other."""
    def parse(kind: PageKind, data: Message) -> PageAction:
        name = data.get("name")
        if not _one_of(name, names):
            raise BadMessage(refusal(short(name)))
        return PageAction(kind, name=name)
    return parse


#: a profile button, or `menu_hold`: the menu button held (it closes the menu)
_button = _named(PRESSES, lambda name: f"ignored an unknown button {name}")
_fault = _named(FAULTS, lambda name: f"ignored an unknown fault {name}")
#: the page's language and tutor setting in the middle of a match
_language = _named(LANGUAGES, lambda name: f"ignored a language {name}: choose {', '.join(LANGUAGES)}")
_tutor = _named(TUTOR_MARKS, lambda name: f"ignored a tutor setting {name}: choose {', '.join(TUTOR_MARKS)}")


def _settings(kind: PageKind, data: Message) -> PageAction:
    """New match, or online: the dialog's "Online (bgammon.org)" choice."""
    settings = data.get("settings")
    if not isinstance(settings, dict):
        raise BadMessage(f"ignored {kind.replace('_', ' ')}: settings missing")
    return PageAction(kind, settings=settings)


def _say(kind: PageKind, data: Message) -> PageAction:
    """A chat line to the online opponent (checked further by commands.check_chat)."""
    said = data.get("text")
    if not isinstance(said, str) or len(said) > 1000:
        raise BadMessage("ignored a chat line: a short text is needed")
    return PageAction(kind, name=said)


def _dice(kind: PageKind, data: Message) -> PageAction:
    """Real dice keyed in: {"dice": [5, 2]} (the opening: White's die first)."""
    dice = data.get("dice")
    if not (isinstance(dice, list) and len(dice) == 2
            and all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice)):
        raise BadMessage(f"ignored dice {short(dice)}: two numbers 1-6 are needed")
    return PageAction(kind, name=f"{dice[0]}{dice[1]}")


def _die(kind: PageKind, data: Message) -> PageAction:
    """The first of real dice keyed in: {"die": 5}."""
    die = data.get("die")
    if not (isinstance(die, int) and not isinstance(die, bool) and 1 <= die <= 6):
        raise BadMessage(f"ignored a die {short(die)}: a number 1-6 is needed")
    return PageAction(kind, name=str(die))


def _phrase(kind: PageKind, data: Message) -> PageAction:
    """A player's phrase for verifiable dice."""
    phrase = data.get("text")
    side = data.get("side")
    if not _one_of(side, COLOURS) or not isinstance(phrase, str) or len(phrase) > 200:
        raise BadMessage("ignored a dice phrase: a side and a short text are needed")
    return PageAction(kind, colour=side, name=phrase)


def _practice(kind: PageKind, data: Message) -> PageAction:
    """Set a marked decision of the review up on the board."""
    key = data.get("key")
    if not isinstance(key, str) or len(key) > 40:
        raise BadMessage(f"ignored a set-up request: {short(key)} names no decision")
    return PageAction(kind, name=key)


def _command(kind: PageKind, data: Message) -> PageAction:
    name = data.get("name")
    if not isinstance(name, str):
        raise BadMessage("ignored a command without a name")
    return PageAction(kind, name=name)


#: each message type the page may send, and how it is checked
_PARSERS: dict[PageKind, Parser] = {
    **dict.fromkeys(("lift", "place", "auto_step", "cover"), _hand),
    **dict.fromkeys(("drop_outside", "setup", "bot_move", "undo", "online_leave", "reveal",
                     "back_to_match", "hint"), _bare),
    "button": _button, "fault": _fault, "new_match": _settings, "online": _settings, "say": _say,
    "dice": _dice, "die": _die, "phrase": _phrase, "practice": _practice, "command": _command, "language": _language,
    "tutor": _tutor,
}
assert set(_PARSERS) == PAGE_KINDS, "every kind of page message needs its parser"
