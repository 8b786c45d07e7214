"""Scenario scripts (DESIGN.md "Scenario scripts"): parsed into typed commands.

One command a line, `#` starts a comment. Besides the lines DESIGN.md lists, a few
physical happenings the scenario tests need (each is something a person or the world
does to the board, never a shortcut into the controller):

    slide 13 8            a checker slid over the points between, resting briefly on each
    flicker 5 [MS]        a sensor of cell 5 flickers for MS ms (default 400) then stops
    unplug | plug         the USB cable pulled and plugged back
    restart               a power cut: the controller stops dead and starts again,
                          resuming from its saved match (the checkers stay where they are)
    set 13 2 0            a cell's (white, black) counts set by hand (set-up scenarios)
    reset                 every checker put back to the starting position (between games)
    setup                 every cell set as the set-up lights ask (the expected position)
    phrase white WORDS    a player's phrase for verifiable dice (before the first roll)
    reveal                reveal the verifiable dice's seed (on demand: the guarantee ends)

`match` also takes `position=<Position ID>` and `turn=white|black` (a game from a given
position, the side on turn to roll), `score=A-B` (the score before the game) and
`dice=board|entered|verifiable` (controller/dice/README.md). With entered dice a `dice`
line is the real dice keyed in (the opening roll: White's die, then Black's); with
verifiable dice a `dice` line is refused (nobody chooses a roll) and verifiable dice need
the starting position.

Cells are `1`..`24`, `bar`, `off-white`, `off-black`, or `off` (the colour's own tray).
A malformed line raises UsageError naming the line, before anything runs.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, Union

from controller.errors import UsageError

Colour = Literal["white", "black"]
ACTIONS: tuple[str, ...] = ("roll", "done", "double", "take", "drop", "accept", "decline",
                            "resign", "forfeit", "rematch")
RESIGN_LEVELS: tuple[str, ...] = ("single", "gammon", "backgammon")
MATCH_KEYS: dict[str, tuple[str, ...] | None] = {
    "length": None, "opponent": ("human", "simple", "gnubg"), "clock": ("off", "timer", "tournament"),
    "confirm": ("auto", "button"), "crawford": ("on", "off"), "cube": ("on", "off"),
    "language": ("en", "da", "sv"), "seed": None, "position": None, "turn": ("white", "black"),
    "score": None, "dice": ("board", "entered", "verifiable"),
}


@dataclass(frozen=True)
class MatchCmd:
    options: tuple[tuple[str, str], ...] = ()

    def get(self, key: str, default: str) -> str:
        return dict(self.options).get(key, default)


@dataclass(frozen=True)
class DiceCmd:
    dice: tuple[int, int]


@dataclass(frozen=True)
class ActionCmd:
    side: Colour
    action: str
    level: str | None = None


@dataclass(frozen=True)
class LiftCmd:
    cell: str
    colour: Colour | None = None


@dataclass(frozen=True)
class PlaceCmd:
    cell: str
    colour: Colour | None = None


@dataclass(frozen=True)
class MoveCmd:
    frm: str
    to: str
    colour: Colour | None = None


@dataclass(frozen=True)
class SlideCmd:
    frm: str
    to: str
    colour: Colour | None = None


@dataclass(frozen=True)
class HitCmd:
    cell: str


@dataclass(frozen=True)
class WaitCmd:
    seconds: float


@dataclass(frozen=True)
class FlickerCmd:
    cell: str
    ms: int = 400


@dataclass(frozen=True)
class SetCmd:
    cell: str
    white: int
    black: int


@dataclass(frozen=True)
class CableCmd:
    plugged: bool


@dataclass(frozen=True)
class RestartCmd:
    pass


@dataclass(frozen=True)
class SetupCmd:
    """The person sets every cell as the set-up lights ask (the expected position)."""


@dataclass(frozen=True)
class ResetCmd:
    """Every checker put back to the starting position by hand (between games)."""


@dataclass(frozen=True)
class PhraseCmd:
    """A player's phrase for the verifiable dice."""

    side: Colour
    phrase: str


@dataclass(frozen=True)
class RevealCmd:
    """Reveal the verifiable dice's seed now."""


Command = Union[PhraseCmd, RevealCmd, MatchCmd, DiceCmd, ActionCmd, LiftCmd, PlaceCmd, MoveCmd, SlideCmd, HitCmd,
                WaitCmd, FlickerCmd, SetCmd, CableCmd, RestartCmd, ResetCmd, SetupCmd]


@dataclass(frozen=True)
class ScriptLine:
    number: int
    text: str
    command: Command


@dataclass(frozen=True)
class Script:
    lines: tuple[ScriptLine, ...] = field(default_factory=tuple)


def _cell(token: str, where: str) -> str:
    t = token.lower()
    if t in ("bar", "off", "off-white", "off-black"):
        return t
    if t.isdigit() and 1 <= int(t) <= 24:
        return str(int(t))
    raise UsageError(f"{where}: {token!r} is not a cell (1-24, bar, off, off-white, off-black)")


def _colour_and_cells(args: list[str], n: int, where: str, usage: str) -> tuple[Colour | None, list[str]]:
    colour: Colour | None = None
    if args and args[0].lower() in ("white", "black"):
        colour = args[0].lower()  # type: ignore[assignment]
        args = args[1:]
    if len(args) != n:
        raise UsageError(f"{where}: expected '{usage}'")
    return colour, [_cell(a, where) for a in args]


def _int(token: str, where: str, what: str) -> int:
    try:
        return int(token)
    except ValueError:
        raise UsageError(f"{where}: {what} must be a whole number, not {token!r}") from None


def parse_line(text: str, number: int, source: str = "script") -> Command | None:
    """The command of one line, or None for a blank or comment line."""
    body = text.split("#", 1)[0].strip()
    if not body:
        return None
    where = f"{source} line {number}"
    words = body.split()
    head, args = words[0].lower(), words[1:]
    if head == "match":
        options: list[tuple[str, str]] = []
        for arg in args:
            key, sep, value = arg.partition("=")
            if not sep or key not in MATCH_KEYS:
                raise UsageError(f"{where}: unknown match option {arg!r} (known: {', '.join(MATCH_KEYS)})")
            allowed = MATCH_KEYS[key]
            if allowed is not None and value not in allowed:
                raise UsageError(f"{where}: {key} must be one of {', '.join(allowed)}, not {value!r}")
            if key in ("length", "seed") and (not value.isdigit() or (key == "length" and int(value) < 1)):
                raise UsageError(f"{where}: {key} must be a positive whole number, not {value!r}")
            if key == "score" and not _is_score(value):
                raise UsageError(f"{where}: score must look like 2-1 (white-black), not {value!r}")
            if key == "position":
                from controller.engine.position import Position

                try:
                    Position.from_id(value)
                except ValueError as exc:
                    raise UsageError(f"{where}: {exc}") from None
            options.append((key, value))
        found = dict(options)
        if found.get("dice") == "verifiable" and "position" in found:
            raise UsageError(f"{where}: verifiable dice start from the starting position, not position=")
        if "score" in found:
            length = int(found.get("length", "5"))
            if max(int(x) for x in found["score"].split("-")) >= length:
                raise UsageError(f"{where}: score {found['score']} is already past a {length}-point match")
        return MatchCmd(tuple(options))
    if head == "dice":
        if len(args) == 1 and len(args[0]) == 2:
            args = list(args[0])
        if len(args) != 2 or any(not a.isdigit() or not 1 <= int(a) <= 6 for a in args):
            raise UsageError(f"{where}: expected 'dice D1 D2' with dice 1-6")
        return DiceCmd((int(args[0]), int(args[1])))
    if head in ("white", "black"):
        if not args or args[0].lower() not in ACTIONS:
            raise UsageError(f"{where}: expected '{head} <action>' with an action of {', '.join(ACTIONS)}")
        action = args[0].lower()
        if action == "resign":
            if len(args) != 2 or args[1].lower() not in RESIGN_LEVELS:
                raise UsageError(f"{where}: expected '{head} resign single|gammon|backgammon'")
            return ActionCmd(head, action, args[1].lower())  # type: ignore[arg-type]
        if len(args) != 1:
            raise UsageError(f"{where}: '{head} {action}' takes no argument")
        return ActionCmd(head, action)  # type: ignore[arg-type]
    if head in ("lift", "place"):
        colour, cells = _colour_and_cells(args, 1, where, f"{head} [white|black] CELL")
        return (LiftCmd if head == "lift" else PlaceCmd)(cells[0], colour)
    if head in ("move", "slide"):
        colour, cells = _colour_and_cells(args, 2, where, f"{head} [white|black] FROM TO")
        return (MoveCmd if head == "move" else SlideCmd)(cells[0], cells[1], colour)
    if head == "hit":
        if len(args) != 1:
            raise UsageError(f"{where}: expected 'hit POINT'")
        cell = _cell(args[0], where)
        if not cell.isdigit():
            raise UsageError(f"{where}: a hit blot stands on a point 1-24, not {cell!r}")
        return HitCmd(cell)
    if head == "wait":
        try:
            seconds = float(args[0]) if len(args) == 1 else -1.0
        except ValueError:
            seconds = -1.0
        if not 0 <= seconds <= 86400:
            raise UsageError(f"{where}: expected 'wait SECONDS' (0 to 86400)")
        return WaitCmd(seconds)
    if head == "flicker":
        if len(args) not in (1, 2):
            raise UsageError(f"{where}: expected 'flicker CELL [MS]'")
        ms = _int(args[1], where, "MS") if len(args) == 2 else 400
        return FlickerCmd(_cell(args[0], where), ms)
    if head == "set":
        if len(args) != 3:
            raise UsageError(f"{where}: expected 'set CELL WHITE BLACK'")
        return SetCmd(_cell(args[0], where), _int(args[1], where, "WHITE"), _int(args[2], where, "BLACK"))
    if head in ("unplug", "plug"):
        if args:
            raise UsageError(f"{where}: '{head}' takes no argument")
        return CableCmd(head == "plug")
    if head == "setup":
        if args:
            raise UsageError(f"{where}: 'setup' takes no argument")
        return SetupCmd()
    if head == "reset":
        if args:
            raise UsageError(f"{where}: 'reset' takes no argument")
        return ResetCmd()
    if head == "phrase":
        if not args or args[0].lower() not in ("white", "black"):
            raise UsageError(f"{where}: expected 'phrase white|black WORDS'")
        return PhraseCmd(args[0].lower(), " ".join(args[1:]))  # type: ignore[arg-type]
    if head == "reveal":
        if args:
            raise UsageError(f"{where}: 'reveal' takes no argument")
        return RevealCmd()
    if head == "restart":
        if args:
            raise UsageError(f"{where}: 'restart' takes no argument")
        return RestartCmd()
    raise UsageError(f"{where}: unknown command {words[0]!r}")


def _is_score(value: str) -> bool:
    a, sep, b = value.partition("-")
    return bool(sep) and a.isdigit() and b.isdigit()


def parse_script(text: str, source: str = "script") -> Script:
    """Every command of a script; UsageError on the first malformed line."""
    lines: list[ScriptLine] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        command = parse_line(raw, number, source)
        if command is not None:
            lines.append(ScriptLine(number, raw.strip(), command))
    return Script(tuple(lines))


def load_script(path: str | Path) -> Script:
    """Read and parse a script file; a missing or unreadable file is a UsageError."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UsageError(f"{p}: no such script file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{p}: cannot read the script: {exc}") from None
    return parse_script(text, str(p))
