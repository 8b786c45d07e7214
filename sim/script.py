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
    press white main      a finger on a button (white|black main|cube, or `press menu`);
    hold menu             a long press of the menu button (closes the menu)

`match` takes the options of `MATCH_OPTIONS` (besides DESIGN.md's: `position=<Position
ID>` and `turn=white|black`, a game from a given position; `score=W-B`, the score before
the game, and `crawford_played=yes|no|auto`; `dice=board|entered|verifiable`,
controller/dice/README.md). With entered dice a `dice` line is the real dice keyed in (the
opening roll: White's die, then Black's); with verifiable dice a `dice` line is refused
(nobody chooses a roll) and verifiable dice need the starting position. Every line kind is
an entry of `LINES`.

Cells are `1`..`24`, `bar`, `off-white`, `off-black`, or `off` (the colour's own tray).
Every line is checked before anything runs, with the limits the match itself applies (a
`match` line is built into its match once): a bad line raises UsageError naming the line.
The limits are stated in the README ("Scenario scripts").
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Union

from controller.engine.board_view import Colour
from controller.errors import UsageError
from controller.files import read_text_bounded
from controller.play.possible import ACTION_NAMES

if TYPE_CHECKING:
    from controller.engine.match import Match

ACTIONS: tuple[str, ...] = ACTION_NAMES  # what a player at the table may do (controller.play.possible)
#: the limits of the lines that are not match options (README "Scenario scripts")
WAIT_MAX_S = 86400
FLICKER_MAX_MS = 60000
SEED_MAX = 2**32 - 1


def _whole(low: int, high: int) -> Callable[[str], None]:
    def check(value: str) -> None:
        if not value.isdigit() or not low <= int(value) <= high:
            raise ValueError(f"must be a whole number from {low} to {high}, not {value!r}")
    return check


def _position(value: str) -> None:
    from controller.engine.position import Position

    Position.for_play(value)


def _score(value: str) -> None:
    from controller.engine.match_start import parse_score

    parse_score(value)


@dataclass(frozen=True)
class MatchOption:
    """One `match KEY=VALUE` option: the words it takes (`choices`) or the check of its
    value (`check` raises ValueError with the reason), and the rule in words (README)."""

    rule: str
    choices: tuple[str, ...] | None = None
    check: Callable[[str], None] | None = None

    def validate(self, key: str, value: str) -> None:
        if self.choices is not None and value not in self.choices:
            raise ValueError(f"{key} must be one of {', '.join(self.choices)}, not {value!r}")
        if self.check is not None:
            try:
                self.check(value)
            except ValueError as exc:
                raise ValueError(f"{key} {exc}" if str(exc).startswith("must") else f"{key}: {exc}") from None


def _match_options() -> dict[str, MatchOption]:
    from controller.analysis.tutor import TUTOR_MARKS
    from controller.bot.base import OFFERED_LEVELS
    from controller.engine.clock import CLOCK_MODES
    from controller.engine.match_settings import CONFIRM_MODES, DICE_MODES, MAX_LENGTH
    from controller.engine.match_start import CRAWFORD_PLAYED
    from controller.show.texts import LANGUAGES

    return {
        "length": MatchOption(f"1 to {MAX_LENGTH} (default 5)", check=_whole(1, MAX_LENGTH)),
        "opponent": MatchOption("who plays Black", ("human", *OFFERED_LEVELS)),
        "clock": MatchOption("the clock", CLOCK_MODES),
        "confirm": MatchOption("end of turn", CONFIRM_MODES),
        "crawford": MatchOption("the Crawford rule", ("on", "off")),
        "cube": MatchOption("the doubling cube", ("on", "off")),
        "language": MatchOption("the display's language", LANGUAGES),
        "tutor": MatchOption("the tutor: off, or the least mark it warns about", TUTOR_MARKS),
        "seed": MatchOption(f"the dice's random seed, 0 to {SEED_MAX}", check=_whole(0, SEED_MAX)),
        "position": MatchOption("a GNU Backgammon Position ID of a game not yet over", check=_position),
        "turn": MatchOption("who rolls first from `position`", ("white", "black")),
        "score": MatchOption("W-B, each below the length", check=_score),
        "dice": MatchOption("where the rolls come from", DICE_MODES),
        "crawford_played": MatchOption("at a score with one player at match point: has the Crawford "
                                       "game been played (auto: inferred where the score allows one answer)",
                                       tuple(CRAWFORD_PLAYED)),
    }


#: `match` options by key; a new option is one entry here (its value is checked here,
#: and the whole line once more by building the match: the same limits the match applies)
MATCH_OPTIONS: dict[str, MatchOption] = _match_options()


@dataclass(frozen=True)
class MatchCmd:
    options: tuple[tuple[str, str], ...] = ()

    def get(self, key: str, default: str) -> str:
        return dict(self.options).get(key, default)

    def start(self) -> Match:
        """The match this line starts (settings, score, Crawford game, position), built
        by the engine; UsageError with the engine's one line when it cannot be."""
        from controller.engine.errors import EngineError
        from controller.engine.match import Match
        from controller.engine.match_settings import MatchSettings
        from controller.engine.match_start import parse_crawford_played, parse_score
        from controller.engine.position import Position

        try:
            settings = MatchSettings(length=int(self.get("length", "5")), cube=self.get("cube", "on") == "on",
                                     crawford=self.get("crawford", "on") == "on",
                                     confirm=self.get("confirm", "auto"), clock=self.get("clock", "off"),
                                     dice=self.get("dice", "board"), black_player=self.get("opponent", "human"))
            position_id = self.get("position", "")
            return Match.from_score(settings, parse_score(self.get("score", "0-0")),
                                    parse_crawford_played(self.get("crawford_played", "auto")),
                                    Position.for_play(position_id) if position_id else None,
                                    self.get("turn", "white"))
        except EngineError as exc:
            raise UsageError(str(exc)) from None


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


@dataclass(frozen=True)
class PressCmd:
    """A finger on a button: a side's `main` or `cube` button, or the `menu` button
    (`held`: a long press, which closes the menu)."""

    side: Colour | None
    button: str
    held: bool = False


Command = Union[PhraseCmd, RevealCmd, MatchCmd, DiceCmd, ActionCmd, LiftCmd, PlaceCmd, MoveCmd,
                SlideCmd, HitCmd, WaitCmd, FlickerCmd, SetCmd, CableCmd, RestartCmd, ResetCmd,
                SetupCmd, PressCmd]


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


def _match(args: list[str], where: str) -> Command:
    options: list[tuple[str, str]] = []
    for arg in args:
        key, sep, value = arg.partition("=")
        if not sep or key not in MATCH_OPTIONS:
            raise UsageError(f"{where}: unknown match option {arg!r} (known: {', '.join(MATCH_OPTIONS)})")
        try:
            MATCH_OPTIONS[key].validate(key, value)
        except ValueError as exc:
            raise UsageError(f"{where}: {exc}") from None
        options.append((key, value))
    command = MatchCmd(tuple(options))
    if command.get("dice", "board") == "verifiable" and command.get("position", ""):
        raise UsageError(f"{where}: verifiable dice start from the starting position, not position=")
    try:
        command.start()  # the options together: score and length, Crawford game, position
    except UsageError as exc:
        raise UsageError(f"{where}: {exc}") from None
    return command


def _dice(args: list[str], where: str) -> Command:
    if len(args) == 1 and len(args[0]) == 2:
        args = list(args[0])
    if len(args) != 2 or any(not a.isdigit() or not 1 <= int(a) <= 6 for a in args):
        raise UsageError(f"{where}: expected 'dice D1 D2' with dice 1-6")
    return DiceCmd((int(args[0]), int(args[1])))


def _side_action(head: str) -> Callable[[list[str], str], Command]:
    def parse(args: list[str], where: str) -> Command:
        if not args or args[0].lower() not in ACTIONS:
            raise UsageError(f"{where}: expected '{head} <action>' with an action of {', '.join(ACTIONS)}")
        action = args[0].lower()
        if action == "resign":
            from controller.engine.match import LEVELS

            if len(args) != 2 or args[1].lower() not in LEVELS:
                raise UsageError(f"{where}: expected '{head} resign single|gammon|backgammon'")
            return ActionCmd(head, action, args[1].lower())  # type: ignore[arg-type]
        if len(args) != 1:
            raise UsageError(f"{where}: '{head} {action}' takes no argument")
        return ActionCmd(head, action)  # type: ignore[arg-type]
    return parse


def _one_cell(kind: type[LiftCmd] | type[PlaceCmd], head: str) -> Callable[[list[str], str], Command]:
    def parse(args: list[str], where: str) -> Command:
        colour, cells = _colour_and_cells(args, 1, where, f"{head} [white|black] CELL")
        return kind(cells[0], colour)
    return parse


def _two_cells(kind: type[MoveCmd] | type[SlideCmd], head: str) -> Callable[[list[str], str], Command]:
    def parse(args: list[str], where: str) -> Command:
        colour, cells = _colour_and_cells(args, 2, where, f"{head} [white|black] FROM TO")
        return kind(cells[0], cells[1], colour)
    return parse


def _hit(args: list[str], where: str) -> Command:
    if len(args) != 1:
        raise UsageError(f"{where}: expected 'hit POINT'")
    cell = _cell(args[0], where)
    if not cell.isdigit():
        raise UsageError(f"{where}: a hit blot stands on a point 1-24, not {cell!r}")
    return HitCmd(cell)


def _wait(args: list[str], where: str) -> Command:
    try:
        seconds = float(args[0]) if len(args) == 1 else -1.0
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds <= WAIT_MAX_S:
        raise UsageError(f"{where}: expected 'wait SECONDS' (0 to {WAIT_MAX_S})")
    return WaitCmd(seconds)


def _flicker(args: list[str], where: str) -> Command:
    if len(args) not in (1, 2):
        raise UsageError(f"{where}: expected 'flicker CELL [MS]'")
    ms = _int(args[1], where, "MS") if len(args) == 2 else 400
    if not 1 <= ms <= FLICKER_MAX_MS:
        raise UsageError(f"{where}: flicker MS must be 1 to {FLICKER_MAX_MS}, not {ms}")
    return FlickerCmd(_cell(args[0], where), ms)


def _set(args: list[str], where: str) -> Command:
    from controller.engine.position import CHECKERS

    if len(args) != 3:
        raise UsageError(f"{where}: expected 'set CELL WHITE BLACK'")
    white, black = _int(args[1], where, "WHITE"), _int(args[2], where, "BLACK")
    if not (0 <= white <= CHECKERS and 0 <= black <= CHECKERS):
        raise UsageError(f"{where}: set counts must be 0 to {CHECKERS}, not {white} and {black}")
    return SetCmd(_cell(args[0], where), white, black)


def _phrase(args: list[str], where: str) -> Command:
    if not args or args[0].lower() not in ("white", "black"):
        raise UsageError(f"{where}: expected 'phrase white|black WORDS'")
    return PhraseCmd(args[0].lower(), " ".join(args[1:]))  # type: ignore[arg-type]


def _bare(head: str, make: Callable[[], Command]) -> Callable[[list[str], str], Command]:
    def parse(args: list[str], where: str) -> Command:
        if args:
            raise UsageError(f"{where}: '{head}' takes no argument")
        return make()
    return parse


def _press(head: str, args: list[str], where: str) -> PressCmd:
    """`press white main`, `press black cube`, `press menu`, `hold menu` (a long press)."""
    if args == ["menu"]:
        return PressCmd(None, "menu", held=head == "hold")
    if head == "press" and len(args) == 2 and args[0] in ("white", "black") and args[1] in ("main", "cube"):
        return PressCmd(args[0], args[1])  # type: ignore[arg-type]
    raise UsageError(f"{where}: expected 'press white|black main|cube', 'press menu' or 'hold menu'")


#: every line a script may hold, by its first word; a new kind of line is one entry here
LINES: dict[str, Callable[[list[str], str], Command]] = {
    "match": _match,
    "dice": _dice,
    "white": _side_action("white"),
    "black": _side_action("black"),
    "lift": _one_cell(LiftCmd, "lift"),
    "place": _one_cell(PlaceCmd, "place"),
    "move": _two_cells(MoveCmd, "move"),
    "slide": _two_cells(SlideCmd, "slide"),
    "hit": _hit,
    "wait": _wait,
    "flicker": _flicker,
    "set": _set,
    "unplug": _bare("unplug", lambda: CableCmd(False)),
    "plug": _bare("plug", lambda: CableCmd(True)),
    "setup": _bare("setup", SetupCmd),
    "reset": _bare("reset", ResetCmd),
    "restart": _bare("restart", RestartCmd),
    "phrase": _phrase,
    "reveal": _bare("reveal", RevealCmd),
    "press": lambda args, where: _press("press", [a.lower() for a in args], where),
    "hold": lambda args, where: _press("hold", [a.lower() for a in args], where),
}


def parse_line(text: str, number: int, source: str = "script") -> Command | None:
    """The command of one line, or None for a blank or comment line."""
    body = text.split("#", 1)[0].strip()
    if not body:
        return None
    where = f"{source} line {number}"
    words = body.split()
    parse = LINES.get(words[0].lower())
    if parse is None:
        raise UsageError(f"{where}: unknown command {words[0]!r}")
    return parse(words[1:], where)


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
        text = read_text_bounded(p)
    except FileNotFoundError:
        raise UsageError(f"{p}: no such script file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{p}: cannot read the script: {exc}") from None
    return parse_script(text, str(p))
