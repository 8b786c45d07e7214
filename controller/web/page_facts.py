"""What the simulator page shows beside the board that a snapshot of cells and LEDs does
not say: the dice as they lie (used ones marked), the cube's place, the clock, the game's
move list, the players, the computer's move as from/to pairs, and the announcement of the
moment. Read from the controller's frozen `TableStatus` (and the display's language), as
plain JSON for `LiveSim.snapshot`; the words are the product's own (`controller.show.texts`)
in the match's language.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypedDict

from controller.board.profile_sections import RoleLight
from controller.engine.board_view import COLOURS, Colour, other, step_cells
from controller.json_value import JsonObject
from controller.show.match_content import offered_cube
from controller.engine.match import Match
from controller.engine.match_history import CubeRecord, ResignRecord, TurnRecord
from controller.engine.moves import Step
from controller.engine.notation import format_move
from controller.engine.xgid import match_xgid
from controller.play.status import TableStatus
from controller.play.tracker import steps_carried
from controller.show.announce import announcements, opening_roll
from controller.show.content import Prompt
from controller.show.texts import render


class Die(TypedDict):
    value: int
    colour: str
    used: bool


class MoveEntry(TypedDict):
    side: str
    kind: str  # move, double, take, drop, resign, accept, decline
    dice: str
    notation: str
    value: int
    current: bool


def page_facts(status: TableStatus, language: str) -> JsonObject:
    """The extra snapshot fields (see the module docstring), words in `language`."""
    m = status.match
    computer = [side for side in COLOURS if m.settings.is_computer(side)]
    said = announcements(m, computer, status.opening_tie)
    plan = status.carried_out
    done = steps_carried(plan, status.verdict) if plan is not None else 0  # steps on the board already
    return {
        "dice_view": dice_view(m, (*(plan.move.steps[:done] if plan is not None else ()), *status.held_steps)),
        "pips_view": held_pips(m, status.held_steps),
        "cube_view": None if not m.cube_enabled else
        dict(zip(("value", "owner"), offered_cube(m)), offered=m.phase == "doubled"),
        "clock": clock_view(m, status.now),
        "moves": move_list(m, status.held_steps),
        "players": {side: m.settings.player(side) for side in COLOURS},
        "bot_move": [list(step_cells(s, plan.side)) for s in plan.move.steps[done:]] if plan is not None else [],
        "winner": m.winner,
        "announcement": [{"key": p.key, "text": _text(p, language)} for p in said],
        "xgid": match_xgid(m),
    }


def _text(prompt: Prompt, language: str) -> str:
    return render(prompt.key, prompt.as_dict(), language)


def held_pips(m: Match, held: Sequence[Step]) -> dict[str, int] | None:
    """The pips of the board with a move the tutor holds standing on it (None: the
    match's own), as the display counts them."""
    if not held or m.turn is None:
        return None
    position = m.partial
    for step in held:
        position = position.after(step)
    mine, theirs = position.pips()
    return {m.turn: mine, other(m.turn): theirs}


def dice_view(m: Match, carried: Sequence[Step] = ()) -> list[Die]:
    """The dice on the table: two (four for doubles) of the side on turn, or the opening's
    one die each; a die is used once a step of the turn played it, or a step of the
    computer's move `carried` out by hand so far."""
    if m.dice is None or m.turn is None:
        return []
    # the opening roll as the display says it (announce.opening_roll): a game started from a
    # set position (a practice of move 11) has an ordinary roll (issue 35.15)
    if opening_roll(m) is not None:
        white, black = m.dice
        dice = [(white, "white"), (black, "black")]
    else:
        d1, d2 = m.dice
        dice = [(d1, m.turn), (d2, m.turn)] * (2 if d1 == d2 else 1)
    used = [False] * len(dice)
    for step in [*m.steps, *carried] if m.phase == "move" else ():
        for i, (value, _) in enumerate(dice):
            if not used[i] and value == step.die:
                used[i] = True
                break
    return [{"value": v, "colour": c, "used": u} for (v, c), u in zip(dice, used)]


class ClockSide(TypedDict):
    main: float  # seconds left of the move timer (timer) or the delay (tournament)
    store: float  # seconds left in the bank (timer) or the reserve (tournament)
    running: bool
    warning: bool


class ClockFacts(TypedDict):
    mode: str
    expired: str | None
    white: ClockSide
    black: ClockSide


def clock_view(m: Match, now: float) -> ClockFacts | None:
    """Both players' time at `now`: the move timer (or delay) and the bank (or reserve),
    which side runs, and whether its time is short."""
    reading = m.clock_reading(now)
    if reading is None:
        return None

    def side(colour: Colour) -> ClockSide:
        r = reading.side(colour)
        running = reading.running == colour
        return {"main": round(max(0.0, r.allowance), 1), "store": round(max(0.0, r.bank), 1),
                "running": running, "warning": reading.warning and running}
    return {"mode": reading.mode, "expired": reading.expired, "white": side("white"), "black": side("black")}


def move_list(m: Match, held: Sequence[Step] = ()) -> list[MoveEntry]:
    """The current game's actions in gnubg's style (dice as "52", the opening roll's the
    higher first as its starter plays them; moves in the mover's own numbering), and the
    move being made, if any, with the steps of a move the tutor holds (`held`: they stand
    on the board, as the display and the pips count them)."""
    if not m.history:
        return []
    out: list[MoveEntry] = []
    for a in m.history[-1].actions:
        if isinstance(a, TurnRecord):
            out.append(_entry(a.side, "move", dice=_dice(a.dice, a.opening), notation=format_move(a.steps)))
        elif isinstance(a, CubeRecord):
            out.append(_entry(a.side, a.action, value=a.value))
        elif isinstance(a, ResignRecord):
            out.append(_entry(a.side, "resign" if a.action == "offer" else a.action, notation=a.level))
    if m.phase == "move" and m.turn is not None and m.dice is not None:
        out.append(_entry(m.turn, "move", dice=_dice(m.dice, opening_roll(m) is not None),
                          notation=format_move((*m.steps, *held)), current=True))
    return out


def _dice(dice: tuple[int, int], opening: bool) -> str:
    return f"{max(dice)}{min(dice)}" if opening else f"{dice[0]}{dice[1]}"


def _entry(side: Colour, kind: str, *, dice: str = "", notation: str = "", value: int = 0,
           current: bool = False) -> MoveEntry:
    return {"side": side, "kind": kind, "dice": dice, "notation": notation, "value": value, "current": current}


def led_view(leds: Mapping[str, str], roles: Mapping[str, RoleLight]) -> dict[str, dict[str, str]]:
    """The page's `leds`: each lit cell's role with its colour and pattern (the profile's)."""
    view = {}
    for cell, role in leds.items():
        light = roles.get(role)
        if light is not None:
            r, g, b = light.color
            view[cell] = {"role": role, "color": f"#{r:02x}{g:02x}{b:02x}", "pattern": light.pattern}
    return view
