"""What each scenario-script line does (DESIGN.md "Scenario scripts"): one small step per
kind of line, in a table keyed by the parsed line's type.

A step works through the run it is given (`ScriptRun`: the headless runner): the players'
words become the table's events (an action, the dice, a phrase), the physical lines go to
the simulator's one hand on the virtual board (sim/script_lines.py, sim/hands.py), a finger presses the
table's mock buttons, and the lines that change the run itself (a new match, the cable,
a power cut) are the runner's own. A new kind of line is one parser entry in
sim/script.py and one step here; `STEPS` is checked to cover every kind.

It was the headless runner's `execute`, one `if` per kind of line.
"""
from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol, TypeVar, get_args

from controller.events import ActionRequested, DiceEntered, Event, Refused, RollQueued
from controller.table import Table
from sim import script as sc
from sim.finger import LONG_PRESS_S, TAP_S, Finger, button_key
from sim.script_lines import ScriptLines
from controller.web.dice_panel import dice_event


class ScriptRun(Protocol):
    """What a step works with: the run's table, hand and simulated time."""

    @property
    def now(self) -> float: ...

    @property
    def lines(self) -> ScriptLines: ...

    def ready(self) -> Table: ...

    def dispatch(self, event: Event) -> None: ...

    async def advance(self, ms: int) -> None: ...

    async def new_match(self, command: sc.MatchCmd) -> None: ...

    async def cable(self, plugged: bool) -> None: ...

    async def restart(self) -> None: ...


C = TypeVar("C", bound=sc.Command)
#: a step: what one kind of line does on the run
Step = Callable[[ScriptRun, C], Awaitable[None]]
STEPS: dict[type, Step[sc.Command]] = {}


def step(kind: type[C]) -> Callable[[Step[C]], Step[C]]:
    """Register the decorated function as the step of the lines of type `kind`."""
    def register(fn: Step[C]) -> Step[C]:
        STEPS[kind] = fn  # type: ignore[assignment]  # looked up by the line's own type
        return fn
    return register


async def carry_out(run: ScriptRun, command: sc.Command) -> None:
    """Carry out one parsed script line on `run`."""
    await STEPS[type(command)](run, command)


# -- the players' words ---------------------------------------------------------------------
@step(sc.MatchCmd)
async def _match(run: ScriptRun, command: sc.MatchCmd) -> None:
    await run.new_match(command)


@step(sc.ActionCmd)
async def _action(run: ScriptRun, command: sc.ActionCmd) -> None:
    run.dispatch(ActionRequested(command.side, command.action, run.now, command.level))  # type: ignore[arg-type]


@step(sc.DiceCmd)
async def _dice(run: ScriptRun, command: sc.DiceCmd) -> None:
    """The next roll queued; with entered dice the controller waiting for them gets them
    as keyed in; with verifiable dice refused."""
    table = run.ready()
    status = table.controller.status()
    if status.entering_dice:
        run.dispatch(DiceEntered(status.match.turn or "white", command.dice, run.now))
        return
    run.dispatch(RollQueued(command.dice, run.now))


@step(sc.PhraseCmd)
async def _phrase(run: ScriptRun, command: sc.PhraseCmd) -> None:
    run.dispatch(dice_event("phrase", command.side, command.phrase, run.ready().controller.status().match, run.now))


@step(sc.RevealCmd)
async def _reveal(run: ScriptRun, command: sc.RevealCmd) -> None:
    run.dispatch(dice_event("reveal", "white", "", run.ready().controller.status().match, run.now))


@step(sc.PressCmd)
async def _press(run: ScriptRun, command: sc.PressCmd) -> None:
    """A finger on one of the table's (mock) buttons, held for a tap or a long press."""
    table = run.ready()
    finger = Finger.on(table)
    if finger is None:
        table.refuse(Refused.of("this table has no buttons", "no_buttons"))
        return
    key = button_key(command.side, command.button)
    finger.down(key)
    await run.advance(int((LONG_PRESS_S if command.held else TAP_S) * 1000))
    finger.up(key)


# -- the hand on the board ------------------------------------------------------------------
@step(sc.LiftCmd)
async def _lift(run: ScriptRun, command: sc.LiftCmd) -> None:
    run.lines.lift(command.cell, command.colour)


@step(sc.PlaceCmd)
async def _place(run: ScriptRun, command: sc.PlaceCmd) -> None:
    run.lines.place(command.cell, command.colour)


@step(sc.MoveCmd)
async def _move(run: ScriptRun, command: sc.MoveCmd) -> None:
    await run.lines.move(command.frm, command.to, command.colour)


@step(sc.SlideCmd)
async def _slide(run: ScriptRun, command: sc.SlideCmd) -> None:
    await run.lines.slide(command.frm, command.to, command.colour)


@step(sc.HitCmd)
async def _hit(run: ScriptRun, command: sc.HitCmd) -> None:
    await run.lines.hit(command.cell)


@step(sc.FlickerCmd)
async def _flicker(run: ScriptRun, command: sc.FlickerCmd) -> None:
    await run.lines.flicker(command.cell, command.ms)


@step(sc.SetCmd)
async def _set(run: ScriptRun, command: sc.SetCmd) -> None:
    run.lines.set_cell(command.cell, command.white, command.black)


@step(sc.ResetCmd)
async def _reset(run: ScriptRun, command: sc.ResetCmd) -> None:
    run.lines.lay_out()


@step(sc.SetupCmd)
async def _setup(run: ScriptRun, command: sc.SetupCmd) -> None:
    """Every cell set as the set-up lights ask: the match's position."""
    position, mover = run.ready().controller.status().match.board()
    run.lines.lay_out(position, mover)


# -- time and the run itself ----------------------------------------------------------------
@step(sc.WaitCmd)
async def _wait(run: ScriptRun, command: sc.WaitCmd) -> None:
    await run.advance(int(round(command.seconds * 1000)))


@step(sc.CableCmd)
async def _cable(run: ScriptRun, command: sc.CableCmd) -> None:
    await run.cable(command.plugged)


@step(sc.RestartCmd)
async def _restart(run: ScriptRun, command: sc.RestartCmd) -> None:
    await run.restart()


assert set(STEPS) == set(get_args(sc.Command)), "every kind of script line needs its step"
