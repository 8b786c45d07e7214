"""The value types of a scene: what every LED and the display show at one moment.

A scene is plain data, built by the pure scene function from the controller's state and
turned into light by the backends (`leds`, `display`). Keeping it as frozen values means
a backend can compare the new scene with the last one and write nothing when nothing
changed, and a test can build any screen without a controller.

The display's prompt is a message key with parameters, not an English string: the text
is looked up in `controller.show.texts` in the language chosen in the settings, at the
moment of drawing.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping, Union

from controller.board.profile_sections import ROLES
from controller.engine.board_view import CELLS, COLOURS, CUBE_OWNERS, Colour, CubeOwner
from controller.engine.errors import ReasonParam
from controller.show.texts import LANGUAGES


#: a message parameter (the engine's refusal reasons carry the same kind)
ParamValue = ReasonParam


def _check_side(name: str, value: object, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(allowed)}, not {value!r}")


def _check_seconds(name: str, value: float) -> None:
    if value < 0:
        raise ValueError(f"{name} must not be negative, not {value!r}")


@dataclass(frozen=True)
class MoveTimerView:
    """The seeds' timer of one side: the move timer runs first, then the time bank."""

    move_seconds: float
    bank_seconds: float
    warning: bool = False

    def __post_init__(self) -> None:
        _check_seconds("move_seconds", self.move_seconds)
        _check_seconds("bank_seconds", self.bank_seconds)


@dataclass(frozen=True)
class TournamentClockView:
    """A tournament clock of one side: the delay left this turn, then the reserve."""

    delay_seconds: float
    reserve_seconds: float
    warning: bool = False

    def __post_init__(self) -> None:
        _check_seconds("delay_seconds", self.delay_seconds)
        _check_seconds("reserve_seconds", self.reserve_seconds)


ClockView = Union[MoveTimerView, TournamentClockView]


@dataclass(frozen=True)
class Hint:
    """A legal target of the checker in hand and the dice it uses ("5", "3", "5+3")."""

    cell: str
    dice: str

    def __post_init__(self) -> None:
        if self.cell not in CELLS:
            raise ValueError(f"hint cell must be one of the board's cells, not {self.cell!r}")
        if not self.dice:
            raise ValueError("hint dice label must not be empty")


@dataclass(frozen=True)
class Prompt:
    """A message key of `controller.show.texts` and its parameters, in a fixed order."""

    key: str
    params: tuple[tuple[str, ParamValue], ...] = ()

    @classmethod
    def of(cls, key: str, **params: ParamValue) -> "Prompt":
        """`Prompt.of("put_back", n=1, colour="white", cell="13")`."""
        return cls(key, tuple(sorted(params.items())))

    def as_dict(self) -> dict[str, ParamValue]:
        return dict(self.params)


#: the largest QR code the pairing screen draws (controller/show/pairing.py: 2 px a module
#: and a quiet zone in the display's 64 rows): a version 3 code, 29 modules a side
PAIRING_MODULES = 30


@dataclass(frozen=True)
class PairingView:
    """A page's link on the pairing screen (controller/show/pairing.py): `modules` its QR
    code's rows ("1" dark), none when the link needs a bigger code; `title` (a message
    key) and `lines` (the address and token, in no language) the text beside it."""

    title: str
    lines: tuple[str, ...]
    modules: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        size = len(self.modules)
        if size > PAIRING_MODULES or any(len(row) != size or set(row) - {"0", "1"} for row in self.modules):
            raise ValueError(f"a QR code's modules are a square of '0'/'1' rows, at most {PAIRING_MODULES} a side")


@dataclass(frozen=True)
class DisplayContent:
    """Everything the 128x64 display shows; sides are "white"/"black", dice 1..6.

    `dice` is empty before a roll; for the opening roll it holds White's die, then
    Black's. `match_length` 0 means no length is shown (a money session, or set-up).
    `pips_*` None hides the pip counts (set-up of a position still unknown). `notes` are
    shown under the prompt's first line, which stays (the players' ratings after a game);
    `pr_*` a player's PR shown in place of the pips (after a game).
    """

    turn: Colour | None = None
    dice: tuple[int, ...] = ()
    cube_value: int = 1
    cube_owner: CubeOwner = "center"
    cube_enabled: bool = True
    crawford: bool = False
    score_white: int = 0
    score_black: int = 0
    match_length: int = 0
    pips_white: int | None = None
    pips_black: int | None = None
    clock_white: ClockView | None = None
    clock_black: ClockView | None = None
    hints: tuple[Hint, ...] = ()
    prompt: Prompt | None = None
    language: str = "en"
    notes: tuple[Prompt, ...] = ()
    pr_white: str | None = None
    pr_black: str | None = None
    #: a page's link to scan in place of everything else (the menu's "phone page")
    pairing: PairingView | None = None

    def __post_init__(self) -> None:
        if self.turn is not None:
            _check_side("turn", self.turn, COLOURS)
        _check_side("cube_owner", self.cube_owner, CUBE_OWNERS)
        _check_side("language", self.language, LANGUAGES)
        if len(self.dice) > 2 or any(not 1 <= die <= 6 for die in self.dice):
            raise ValueError(f"dice must be up to two values 1..6, not {self.dice!r}")
        if self.cube_value not in (1, 2, 4, 8, 16, 32, 64):
            raise ValueError(f"cube_value must be a power of two up to 64, not {self.cube_value!r}")
        for name in ("score_white", "score_black", "match_length"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must not be negative")
        object.__setattr__(self, "dice", tuple(self.dice))
        object.__setattr__(self, "hints", tuple(self.hints))
        object.__setattr__(self, "notes", tuple(self.notes))

    def clock(self, side: Colour) -> ClockView | None:
        return self.clock_white if side == "white" else self.clock_black

    def score(self, side: Colour) -> int:
        return self.score_white if side == "white" else self.score_black

    def pips(self, side: Colour) -> int | None:
        return self.pips_white if side == "white" else self.pips_black

    def pr(self, side: Colour) -> str | None:
        return self.pr_white if side == "white" else self.pr_black


@dataclass(frozen=True)
class Scene:
    """What every LED and the display show: `leds` maps lit cells to roles (unlit cells
    are absent), `display` is the display's content."""

    leds: Mapping[str, str] = field(default_factory=dict)
    display: DisplayContent = field(default_factory=DisplayContent)

    def __post_init__(self) -> None:
        for cell, role in self.leds.items():
            if cell not in CELLS:
                raise ValueError(f"unknown cell {cell!r} in scene")
            if role not in ROLES:
                raise ValueError(f"unknown role {role!r} for cell {cell} in scene")
        object.__setattr__(self, "leds", MappingProxyType(dict(self.leds)))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Scene):
            return NotImplemented
        return dict(self.leds) == dict(other.leds) and self.display == other.display

    def __hash__(self) -> int:
        return hash((frozenset(self.leds.items()), self.display))

    def __repr__(self) -> str:
        return f"Scene(leds={dict(self.leds)!r}, display={self.display!r})"
