"""The scene: a pure function from the controller's state to LED roles and the display.

The controller keeps the match as the display shows it (a `DisplayContent` without
hints or prompt) in a `ControllerView` (what the board means right now: the reconciler's verdict, the turn's
plan of legal partials, the opponent's last move, the computer's move to carry out,
the position being set up). `build_scene(view)` decides every lit cell's role and the
one prompt line; nothing here reads a clock or a device, so every screen can be built
in a test from values alone.

Priorities, highest first: the board session's own problem (`board_prompt`: a board of
another size, a sensor chain that fails, an ERROR); a board offline (the prompt says so,
the LEDs keep their meaning); a faulty sensor (`error` on its cell, "sensor fault
at 13": a fault is never read as a missing checker to put back); corrections (`error`
cells and "put 1 white back on 13"); an ambiguous count;
a hit blot still on its point (`hit`); a checker in hand (`origin`, `target` with the dice
labels); the computer's move to carry out (`bot-from`/`bot-to`); set-up (`setup`); the
opponent's last move (`last-from`/`last-to`) until the player starts; the phase's prompt.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from controller.board.reconcile import Ambiguous, Instruction, Matched, Mismatch, Verdict
from controller.engine.board_view import CELLS, Colour, cell_of_point, other, point_of_cell
from controller.engine.position import Position
from controller.engine.turn import TurnPlan
from controller.link.board_events import BoardErrorReport, BoardStatus, SessionState
from controller.link.codec import PROTOCOL_VERSION
from controller.show.content import (DisplayContent, Hint, Prompt,
                                     Scene)


@dataclass(frozen=True)
class ControllerView:
    """Everything the scene needs of the controller at one moment.

    `mover` is the side whose checkers may move now (the side on turn, or the side whose
    move the person carries out for the computer); `plan` the engine's plan of the turn
    (None outside a turn); `current` the last accepted position from the mover's view;
    `last_move` the opponent's last move as (from cell, to cell) pairs, lit while
    `show_last`; `bot_move` the (from, to) pairs of a move to carry out by hand;
    `setup` True while the board is being brought to the expected position (then the
    verdict's mismatch cells are lit `setup`); `prompt` the phase's own prompt line;
    `faults` the cells whose sensors read fault (`BoardState.faults`); `board_prompt`
    what the board session has to say (`board_status_prompt`), None while it plays;
    `hint_move` the (from, to) pairs of gnubg's hinted move, lit `hint`; `banner` what
    online play has to say ("connection lost, rejoining"): it outranks a correction of the
    board, whose cells the LEDs still show.
    """

    table: DisplayContent = field(default_factory=DisplayContent)
    language: str = "en"
    online: bool = True
    mover: Colour | None = None
    verdict: Verdict | None = None
    plan: TurnPlan | None = None
    current: Position | None = None
    last_move: tuple[tuple[str, str], ...] = ()
    show_last: bool = False
    bot_move: tuple[tuple[str, str], ...] = ()
    setup: bool = False
    setup_counts: Mapping[str, tuple[int, int]] | None = None
    prompt: Prompt | None = None
    faults: frozenset[str] = frozenset()
    board_prompt: Prompt | None = None
    hint_move: tuple[tuple[str, str], ...] = ()
    banner: Prompt | None = None


def board_status_prompt(event: BoardStatus | BoardErrorReport | None) -> Prompt | None:
    """The display's line for the board session's last status or ERROR; None when the
    board plays (or is merely offline: `online` covers that)."""
    if isinstance(event, BoardErrorReport):
        return Prompt.of("board_error", code=event.code, text=event.text)
    if event is None:
        return None
    if event.state is SessionState.MISMATCH:
        if event.board_version is not None and event.board_version < PROTOCOL_VERSION:
            return Prompt.of("board_protocol", version=event.board_version)
        if event.board_version is not None and event.board_version > PROTOCOL_VERSION:
            return Prompt.of("board_protocol_newer", version=event.board_version)
        return Prompt.of("board_mismatch", profile=str(event.profile_size),
                         board=str(event.board_size))
    if event.state is SessionState.SCAN_FAILING:
        return Prompt.of("board_scan_failed")
    return None


def build_scene(view: ControllerView) -> Scene:
    """The scene for `view` (see the module docstring for the priorities)."""
    leds = _lights_of_the_turn(view)
    hints: tuple[Hint, ...] = ()
    prompt = view.prompt
    verdict = view.verdict
    if isinstance(verdict, Mismatch):
        leds.clear()
        role = "setup" if view.setup else "error"
        for cell in verdict.cells:
            leds[cell] = role
        if verdict.instructions:
            prompt = _correction(verdict.instructions[0], view)
    elif isinstance(verdict, Ambiguous):
        leds.clear()
        for cell in verdict.cells:
            leds[cell] = "error"
        if prompt is None or prompt.key != "confirm_move":
            prompt = Prompt.of("ambiguous", cell=verdict.cells[0])
    elif isinstance(verdict, Matched) and not view.setup:
        hints, prompt = _matched(verdict, view, leds, prompt)
    if view.banner is not None:
        prompt = view.banner
    prompt = _board_trouble(view, leds, prompt)
    display = replace(view.table, hints=hints, prompt=prompt, language=view.language)
    return Scene(leds, display)


def _lights_of_the_turn(view: ControllerView) -> dict[str, str]:
    """The lights before any reading is judged: the opponent's last move (until the
    player starts), gnubg's hint, or the move to carry out for the computer."""
    if view.setup:
        return {}
    if view.bot_move:
        return _move_lights(view.bot_move, "bot-from", "bot-to")
    if view.hint_move:  # gnubg's hint: where the move goes from and to
        return _move_lights(view.hint_move, "hint", "hint")
    if view.show_last:
        return _move_lights(view.last_move, "last-from", "last-to")
    return {}


def _move_lights(steps: tuple[tuple[str, str], ...], from_role: str, to_role: str) -> dict[str, str]:
    """A move's (from, to) cells lit; a cell both left and reached (8/5 5/4) is a `to`."""
    leds = {frm: from_role for frm, _ in steps}
    leds.update({to: to_role for _, to in steps})
    return leds


def _matched(verdict: Matched, view: ControllerView, leds: dict[str, str],
             prompt: Prompt | None) -> tuple[tuple[Hint, ...], Prompt | None]:
    """A board on the way to an allowed one: a hit blot still to go to the bar, the
    opponent's checker lifted (it goes back), or a checker in hand with its targets."""
    if verdict.hits_pending:
        mover = view.mover or "white"
        for cell in verdict.hits_pending:
            leds[cell] = "hit"
        leds["bar"] = "hit"  # and where it goes: the bar lights until it is there
        return (), Prompt.of("hit_to_bar", colour=other(mover))
    if verdict.in_hand is not None and verdict.in_hand[1] != view.mover and verdict.in_hand[0] != "bar":
        cell, colour = verdict.in_hand  # the opponent's checker lifted: it goes back
        leds.clear()
        leds[cell] = "error"
        return (), Prompt.of("put_back", n=1, colour=colour, cell=cell)
    if verdict.in_hand is not None or verdict.prehit:
        hints = _in_hand(verdict, view, leds)
        if view.mover and verdict.unseen and not view.bot_move:
            for cell in verdict.unseen:  # it may stand there unseen: the button says so
                leds[cell] = "target"
            prompt = Prompt.of("on_full_point", side=view.mover, cell=verdict.unseen[0])
        elif view.mover and view.table.dice and not view.bot_move:
            prompt = Prompt.of("move", side=view.mover, dice=tuple(view.table.dice))
        return hints, prompt
    return (), prompt


def _board_trouble(view: ControllerView, leds: dict[str, str],
                   prompt: Prompt | None) -> Prompt | None:
    """The board's own trouble goes above whatever the reading means: a faulty sensor
    (its cells lit `error`), then the session's line or a plain offline."""
    if view.faults:
        faulty = [cell for cell in CELLS if cell in view.faults]
        for cell in faulty:
            leds[cell] = "error"
        prompt = Prompt.of("sensor_fault", cell=faulty[0])
    if view.board_prompt is not None:
        return view.board_prompt
    if not view.online:
        return Prompt.of("board_offline")
    return prompt


def _in_hand(verdict: Matched, view: ControllerView, leds: dict[str, str]) -> tuple[Hint, ...]:
    """Light the lifted checker's origin and its targets; the hints carry the dice."""
    for cell in [c for c, r in leds.items() if r in ("last-from", "last-to")]:
        del leds[cell]
    mover = view.mover
    hints: list[Hint] = []
    for cell in verdict.prehit:
        leds[cell] = "target"
    if verdict.in_hand is None or mover is None:
        return ()
    cell, colour = verdict.in_hand
    if colour != mover:
        leds["bar"] = "target"  # the hit blot in hand, bound for the bar
        return ()
    if view.bot_move:
        leds[cell] = "origin" if leds.get(cell) != "bot-from" else "bot-from"
        return ()
    leds[cell] = "origin"
    plan = view.plan
    if plan is None:
        return ()
    frm = point_of_cell(cell, mover)
    if frm == 0:
        return ()
    for to, label in sorted(plan.targets(verdict.position, frm).items(), reverse=True):
        target = cell_of_point(to, mover)
        leds[target] = "target"
        hints.append(Hint(target, label))
    for step in plan.steps_into(verdict.position):
        if step.to == frm:  # where the checker now on `frm` came from: moving it back is an undo
            leds.setdefault(cell_of_point(step.frm, mover), "target")
    return tuple(hints)


def _correction(ins: Instruction, view: ControllerView) -> Prompt:
    if view.setup and view.setup_counts is not None:
        cell = ins.to or ins.frm or "bar"
        want = view.setup_counts.get(cell, (0, 0))
        n = want[0] if ins.colour == "white" else want[1]
        return Prompt.of("setup_cell", n=n, colour=ins.colour, cell=cell)
    if ins.kind == "surplus":
        return Prompt.of("too_many", n=ins.n, colour=ins.colour, **{"from": ins.frm or "bar", "to": ins.to or "bar"})
    if ins.kind == "move" or ins.kind == "put":
        return Prompt.of("put_back", n=ins.n, colour=ins.colour, cell=ins.to or "bar")
    return Prompt.of("take_off", n=ins.n, colour=ins.colour, cell=ins.frm or "bar")
