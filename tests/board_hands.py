"""A person at a real board (the virtual board as its own process, `board_process`):
what they read is what the table shows (its prompt, its LEDs), what they do goes through
the board process's standard input (checkers lifted and placed, one settled step at a
time) and the table's buttons (a finger on its mock pins).

It plays White's checkers with a computer level, carries out what the LEDs show for the
other side (`bot-from`/`bot-to`), sets the board up when the table asks, and answers the
board's "Was it ...?" and its "on 6? Press the button" (a checker put on a full point is
not seen landing). Each move it carried out for the other side is kept with the
lights it saw, so a test can say what was shown.
"""
from __future__ import annotations

import asyncio
from dataclasses import dataclass

from controller.engine.board_view import CELLS, Colour, cell_counts, other, step_cells
from controller.engine.match import Match
from controller.engine.moves import Move, Step
from controller.table import Table, make_bot
from controller.table.computer import bot_context
from controller.play.showing import phase_prompt
from sim.finger import TAP_S, Finger, button_key
from tests.board_process import BoardProcess


@dataclass(frozen=True)
class Shown:
    """A move carried out for the other side, and the LEDs lit when it was read."""

    move: Move
    lights: dict[str, str]


#: how long a finger rests after a press before it presses again (far above any bounce time)
REST_S = 0.3


class BoardPerson:
    """See the module docstring. `side` is the colour this person plays."""

    def __init__(self, board: BoardProcess, table: Table, *, side: Colour = "white", level: str = "simple",
                 pause_s: float = 0.05) -> None:
        self.board = board
        self.table = table
        self.side = side
        self.bot = make_bot(level)
        self.pause_s = pause_s
        finger = Finger.on(table)
        assert finger is not None, "the table has no buttons: open it with mock pins"
        self.finger = finger
        self.shown: list[Shown] = []
        self.presses: list[str] = []
        self.setups = 0
        self._steps: list[Step] = []
        self._meant = ""
        self._moved_at = 0.0  # when a checker was last lifted or placed

    def _now(self) -> float:
        return asyncio.get_running_loop().time()

    async def play(self) -> None:
        """Act whenever the table has settled on what the last action did (until cancelled)."""
        while True:
            await asyncio.sleep(self.pause_s)
            status = self.table.controller.status()
            if status.settling or status.reading_since < self._moved_at:
                continue  # the board has not read (or settled on) the last checker moved yet
            await self._act()

    async def _act(self) -> None:
        c = self.table.controller
        status = c.status()
        prompt = phase_prompt(c.state)
        if prompt is not None and prompt.key == "confirm_move":
            meant = prompt.as_dict().get("notation") == self._meant
            await self._press(status.match.turn or self.side, "main" if meant else "cube")
        elif status.awaits_landing:  # the checker is on the full point (the display's "on 6?"; the
            # phase's prompt never says it: this hand waited there for ever, issue 35.3)
            await self._press(status.match.turn or self.side, "main")
        elif status.carried_out is not None:
            self._carry_out_shown(status.carried_out.move, status.carried_out.side)
        elif status.setting_up:
            self._set_up()
        elif status.match.phase == "move" and status.match.turn == self.side:
            self._next_step(status.match)
        else:
            self._steps = []
            wanted = {"roll", "take", "accept"}  # never doubles nor resigns, takes every cube
            found = next((a for a in status.actions if a.side == self.side and a.action in wanted and a.button), None)
            if found is not None and found.button is not None:
                await self._press(self.side, found.button)

    async def _press(self, side: Colour, button: str) -> None:
        key = button_key(side, button)
        prompt = phase_prompt(self.table.controller.state)
        self.presses.append(f"{key} ({prompt.key if prompt else ''})")
        self.finger.down(key)
        await asyncio.sleep(TAP_S)
        self.finger.up(key)
        # a finger rests before it presses again: the panel's debounce takes an edge that
        # comes within its bounce time of the last as chatter and restarts its window, so
        # presses 50 ms apart on a loaded machine were all chatter, for ever (a soak stalled)
        await asyncio.sleep(REST_S)

    def _carry_out_shown(self, move: Move, side: Colour) -> None:
        """The other side's move, read from the LEDs and carried out step by step."""
        lights = {cell: role for cell, role in self.table.controller.status().scene.leds.items()
                  if role in ("bot-from", "bot-to")}
        self.shown.append(Shown(move, lights))
        self._meant = move.notation
        for step in move.steps:
            self._carry(step, side)

    def _carry(self, step: Step, side: Colour) -> None:
        frm, to = step_cells(step, side)
        if step.hit:
            self.board.do(f"lift {to} {other(side)}")
            self.board.do(f"place bar {other(side)}")
        self.board.do(f"lift {frm} {side}")
        self.board.do(f"place {to} {side}")
        self._moved_at = self._now()

    def _set_up(self) -> None:
        """Every checker where the match stands, as a person setting up does."""
        self.setups += 1
        position, mover = self.table.controller.status().match.board()
        counts = cell_counts(position, mover)
        for cell in CELLS:
            white, black = counts.get(cell, (0, 0))
            self.board.do(f"set {cell} {white} {black}")
        self._moved_at = self._now()

    def _next_step(self, m: Match) -> None:
        assert m.dice is not None
        if not m.steps and not self._steps:
            move = self.bot.choose_move(m.position, m.dice, bot_context(m, self.side))
            if move is None:
                return
            self._meant, self._steps = move.notation, list(move.steps)
        if self._steps:
            self._carry(self._steps.pop(0), self.side)
