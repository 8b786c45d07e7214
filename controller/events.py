"""The controller's typed events (what happened) and effects (what to do about it).

Everything that reaches the controller is one of the events below, each a frozen
dataclass carrying the time it happened on the injected clock (seconds). The controller's
`handle(event)` returns effects, plain values the application carries out (draw a scene,
save the match, buzz, ask the computer for a move); the controller itself does no I/O,
so a test drives it with events and inspects the effects.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Union

from controller.board.reconcile import BoardState
from controller.engine.board_view import Colour
from controller.dice.secret import DiceSecret
from controller.dice.state import DiceError, DiceState
from controller.engine.errors import MatchStateError
from controller.engine.match import Match
from controller.engine.moves import Move
from controller.inputs.menu import LinkName, OnlineWhat
# the press is defined with the buttons (below the events, for the panel and the menu)
from controller.inputs.press import ButtonPressed, menu_pressed  # noqa: F401
from controller.show.content import PairingView, ParamValue, Prompt, Scene
from controller.show.review_notes import ReviewFigures

ActionName = Literal["roll", "done", "double", "take", "drop", "accept", "decline",
                     "resign", "forfeit", "rematch", "reveal", "keep", "undo"]


# -- events ------------------------------------------------------------------------------

@dataclass(frozen=True)
class ReadingReceived:
    """The sensor board reported this board (every SCAN, heartbeats included)."""

    board: BoardState
    at: float


@dataclass(frozen=True)
class LinkChanged:
    """The board session plays (`online`) or does not; `prompt` is what the display must
    say about it (a board of another size, a failing sensor chain, an ERROR), None when
    it plays or is merely offline (controller.table.board_feed makes these from the session)."""

    online: bool
    at: float
    detail: str = ""
    prompt: Prompt | None = None


@dataclass(frozen=True)
class ActionRequested:
    """A player asks for a match action (a button, the menu, a script line, the web page)."""

    side: Colour
    action: ActionName
    at: float
    level: str | None = None


@dataclass(frozen=True)
class Tick:
    """Time passes: settles readings, runs clocks and LED patterns."""

    at: float


@dataclass(frozen=True)
class BotMoved:
    """The computer chose `move` (None: no move) for the turn it was asked about."""

    move: Move | None
    at: float
    turn_token: int = 0


@dataclass(frozen=True)
class BotCube:
    """The computer's cube, resignation or rematch answer: `action` is double, roll, take,
    drop, accept, decline or rematch; `side` is the computer's colour (needed after the
    match, when nobody is on turn)."""

    action: str
    at: float
    turn_token: int = 0
    side: str | None = None


@dataclass(frozen=True)
class DicePhraseGiven:
    """A player's phrase for the verifiable dice (controller/dice/README.md), before the
    match's first roll."""

    side: Colour
    phrase: str
    at: float


@dataclass(frozen=True)
class DiceEntered:
    """Real dice rolled at the table and keyed in (the page's die faces); for the opening
    roll White's die, then Black's."""

    side: Colour
    dice: tuple[int, int]
    at: float


@dataclass(frozen=True)
class DieChosen:
    """The first of the real dice keyed in on the page (its second comes with `DiceEntered`,
    both together): the display's dice entry moves on to the second."""

    die: int
    at: float


@dataclass(frozen=True)
class RemoteActed:
    """The remote player (online) did this on the server: roll, double, take, drop,
    resign (with `level`), accept or rematch; the controller plays it for that side as it
    plays the computer's answers. Its moves arrive as BotMoved."""

    side: Colour
    action: ActionName
    at: float
    level: str | None = None


@dataclass(frozen=True)
class AdoptMatch:
    """Play on from `match` (an online server's state, which is the truth there): the board
    is first set up to it."""

    match: Match
    at: float


@dataclass(frozen=True)
class MatchSeated:
    """Another seating takes the table (online play taking it, or giving the local match
    back): play on from `match` with the dice rolled by `dice` (online: the server's), the
    board first set up to it; the banner of the seating left goes with it. Sent by
    `Table.seat`, which also changes the store the match is saved in. `practice`: the
    key of the marked decision practised from here (controller.table.practice), or None
    for the match itself (the menu then offers "Back to the match")."""

    match: Match
    dice: DiceState
    at: float
    practice: str | None = None


@dataclass(frozen=True)
class LanguageChosen:
    """The table's language changed in the middle of a match (the page's language choice):
    the display, the page and the refusals speak it from now on; the match goes on."""

    language: str
    at: float


@dataclass(frozen=True)
class MatchChosen:
    """A new match with every setting chosen (the page's New match dialog: its length,
    cube, Crawford rule, clock, players, dice and the score it starts from) in place of the
    one at the table, as the menu's New match starts one of a length; the board is first
    set up to it. Refused while a match is played or watched online (the server decides)."""

    match: Match
    at: float


@dataclass(frozen=True)
class TutorChosen:
    """The tutor's setting changed (the page's Tutor choice): the least mark it warns a
    person at the table about (controller.analysis.tutor.TUTOR_MARKS), or "off"; it judges
    from the next action on, and the match goes on."""

    mark: str
    at: float


@dataclass(frozen=True)
class HintRequested:
    """The page's Hint, as the menu's Hint: the best move (the next one if a hint is
    shown) for the person who decides now; refused when there is no hint to give."""

    at: float


@dataclass(frozen=True)
class BannerChanged:
    """A line of online play's own (connecting, waiting for an opponent, connection lost)
    now stands over the phase's prompt; None takes it away (`Table.show_banner`)."""

    banner: Prompt | None
    at: float


@dataclass(frozen=True)
class ReviewReady:
    """The table's review of the finished games is ready (controller.analysis.review): the
    display shows each player's PR and rating between games."""

    figures: ReviewFigures
    at: float


@dataclass(frozen=True)
class WatchShown:
    """A server match watched from the board's menu (controller/online/door.py) shows
    `scene` in place of the match's; meanwhile the board is not read and only the menu's
    buttons count (the door has set the local match aside with `Table.seat`). `scene`
    None: watching ended."""

    scene: Scene | None
    at: float


@dataclass(frozen=True)
class OnlineOffered:
    """Whether the menu offers "Play online" (`what` "play": the table has an online door)
    or "Watch online" ("watch": the settings name a match to watch)."""

    what: Literal["play", "watch"]
    offered: bool
    at: float


@dataclass(frozen=True)
class LinkPublished:
    """A board's page (`bgboard run --page/--spectators`) is reachable at the link `view`
    shows: the menu offers it as a QR code (controller/web/page_links.py)."""

    name: LinkName
    view: PairingView
    at: float


@dataclass(frozen=True)
class RollQueued:
    """The next roll is `dice` (a scenario script's `dice` line; for the opening roll White's
    die, then Black's); refused where nobody may choose a roll (verifiable dice, online)."""

    dice: tuple[int, int]
    at: float


@dataclass(frozen=True)
class DiceSeeded:
    """The board's dice roll from `seed` from now on (a scenario script's `match seed=N`:
    the same rolls on every run); their mode and queued rolls stay."""

    seed: int
    at: float


@dataclass(frozen=True)
class ServerRolled:
    """Online the server rolled `dice`: the table's next roll gives them (server dice)."""

    dice: tuple[int, int]
    at: float


Event = Union[ReadingReceived, LinkChanged, ActionRequested, ButtonPressed, Tick, BotMoved,
              BotCube, DicePhraseGiven, DiceEntered, DieChosen, RemoteActed, AdoptMatch, MatchSeated,
              BannerChanged, ReviewReady, WatchShown, OnlineOffered, LanguageChosen, MatchChosen, TutorChosen,
              HintRequested, LinkPublished, RollQueued, DiceSeeded, ServerRolled]


# -- effects -----------------------------------------------------------------------------

@dataclass(frozen=True)
class ShowScene:
    """Draw this scene on the LEDs and the display (backends skip unchanged frames)."""

    scene: Scene


@dataclass(frozen=True)
class SaveMatch:
    """Save this match now (after a confirmed action); `controller.records.saved` writes
    it atomically, with the secret of its verifiable dice (saved beside it) if it has one."""

    match: Match
    dice: DiceSecret | None = None


@dataclass(frozen=True)
class Buzz:
    """Sound the buzzer: `error` (a wrong placement, a refused action) or `warning` (time)."""

    pattern: Literal["error", "warning"]


@dataclass(frozen=True)
class Announce:
    """Something worth logging, as a short stable text ("white rolled 3-1",
    "rejected: black cannot double now")."""

    text: str


@dataclass(frozen=True)
class Refused:
    """An action that is not possible now was asked for, and nothing changed. `reason` is
    the log's English line ("black cannot double: ...", shown as "rejected: <reason>",
    which scripts read); `why` is the same reason for the players, a message key
    `refused.<name>` of `controller.show.texts` with its parameters, so the page and the
    display say it in the match's language. The controller's refusals are effects; the
    table makes its own (the computer failing) and a front end's (a script line the board
    cannot carry out) the same way, and keeps each (`Table.refuse`)."""

    reason: str
    why: Prompt = Prompt("refused.not_now")

    @classmethod
    def of(cls, reason: str, key: str, **params: ParamValue) -> "Refused":
        """`Refused.of("black is played by the computer", "computer_plays", side="black")`."""
        return cls(reason, Prompt.of(f"refused.{key}", **params))

    @classmethod
    def from_error(cls, error: MatchStateError | DiceError) -> "Refused":
        """The refusal of a match or dice error: its line, and the reason it names."""
        return cls.of(str(error), error.key or "not_now", **error.params)


@dataclass(frozen=True)
class AskBot:
    """Ask the computer playing `side` for its decision in `match` (a move, whether to
    double, take, accept a resignation or a rematch); it answers with BotMoved or BotCube
    carrying `turn_token`, so a stale answer is ignored."""

    kind: Literal["move", "cube", "take", "resign", "rematch", "offer_rematch"]
    turn_token: int
    side: Colour
    match: Match


@dataclass(frozen=True)
class OnlineRequested:
    """The menu's "Play online" (`play`: a match from the settings), "Watch online"
    (`watch`: the settings' `online_watch`) or "Leave online play" / "Leave watching"
    (`leave`); the table hands it to its online door (controller/online/door.py)."""

    what: OnlineWhat


@dataclass(frozen=True)
class PracticeRequested:
    """The menu's "Practise a marked move" (`key`: the marked decision chosen) or "Back to
    the match" (None); the table hands it to its practice (controller/table/practice.py)."""

    key: str | None


@dataclass(frozen=True)
class LinksRevoked:
    """The menu's "new page links": the table's pages (controller/web/board_page.py, the
    spectators') take new tokens, so every phone paired so far must scan again."""


Effect = Union[ShowScene, SaveMatch, Buzz, Announce, Refused, AskBot, OnlineRequested, PracticeRequested,
               LinksRevoked]
