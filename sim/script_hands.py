"""A scenario script's hand on the virtual board: the physical lines (`lift`, `place`,
`move`, `slide`, `hit`, `flicker`, `set`, `reset`, `setup`).

Each works on the virtual board only, as a hand would; the controller learns of it from
the board's SCANs. A line the board cannot carry out (no checker to lift, a full point)
changes nothing and is the table's refusal (`rejected: ...` in the line's events), as a
script's impossible line should be. The hand keeps the colours of the checkers in the
air, so `place` without a colour puts down the last one lifted.

It was part of the headless runner (sim/headless.py); the page's hands are
sim/page/hands.py (a person's, with its helping hands).
"""
from __future__ import annotations

from collections.abc import Awaitable, Callable

from controller.board.profile import Profile
from controller.engine.board_view import Colour, other
from controller.engine.position import Position
from controller.events import Refused
from sim.script_time import FRAME_MS
from sim.virtual_board import VirtualBoard, lay_out

SLIDE_REST_MS = 100   # a slid checker rests this long on each point it crosses
FLICKER_PERIOD_MS = 70  # a flickering sensor's period


def board_cell(cell: str, colour: str) -> str:
    """A script's cell as the board names it: `off` is the colour's tray."""
    return f"off-{colour}" if cell == "off" else cell


class ScriptHands:
    """The script's hand over `vb` (see the module docstring). `mover` is the side on turn
    now (a line without a colour means it), `refuse` the table's refusal of a line the
    board cannot carry out, `advance` lets simulated time pass between two gestures."""

    def __init__(self, vb: VirtualBoard, profile: Profile, *, mover: Callable[[], str],
                 refuse: Callable[[Refused], None], advance: Callable[[int], Awaitable[None]]) -> None:
        self._vb, self._profile = vb, profile
        self._mover, self._refuse, self._advance = mover, refuse, advance
        #: the colours of the checkers in the air, last lifted last
        self.hand: list[str] = []

    def lay_out(self, position: Position | None = None, mover: Colour = "white") -> None:
        """Every checker where `position` has them (default the starting position), seen
        with `mover` on turn."""
        lay_out(self._vb, position or Position.initial(), mover)

    def lift(self, cell: str, colour: str | None) -> None:
        colour = colour or self._mover()
        self._physical(lambda: self.hand.append(self._vb.lift(board_cell(cell, colour), colour)))

    def place(self, cell: str, colour: str | None) -> None:
        """Put a checker down: of `colour`, else the last one lifted, else the mover's."""
        held = colour or (self.hand[-1] if self.hand else self._mover())
        if colour is None and self.hand:
            self.hand.pop()
        elif held in self.hand:
            self.hand.remove(held)
        self._physical(lambda: self._vb.place(board_cell(cell, held), held))

    async def move(self, frm: str, to: str, colour: str | None) -> None:
        """Lift and place, a frame apart (enough for the firmware to see each)."""
        colour = colour or self._mover()
        self._physical(lambda: self._vb.lift(board_cell(frm, colour), colour))
        await self._advance(FRAME_MS)
        self._physical(lambda: self._vb.place(board_cell(to, colour), colour))

    async def slide(self, frm: str, to: str, colour: str | None) -> None:
        """A checker slid from point to point, resting a moment on each it crosses."""
        colour = colour or self._mover()
        path: list[str] = [to]
        if frm.isdigit() and to.isdigit():
            step = 1 if int(to) > int(frm) else -1
            path = [str(p) for p in range(int(frm) + step, int(to) + step, step)]
        at = frm
        for cell in path:
            lift_from, place_on = board_cell(at, colour), board_cell(cell, colour)
            self._physical(lambda: self._vb.lift(lift_from, colour))
            self._physical(lambda: self._vb.place(place_on, colour))
            at = cell
            if cell != path[-1]:
                await self._advance(SLIDE_REST_MS)

    async def hit(self, cell: str) -> None:
        """The opponent's blot on `cell` taken to the bar."""
        colour = other(self._mover())  # type: ignore[arg-type]
        self._physical(lambda: self._vb.lift(cell, colour))
        await self._advance(FRAME_MS)
        self._physical(lambda: self._vb.place("bar", colour))

    async def flicker(self, cell: str, ms: int) -> None:
        """The sensor under the top checker of `cell` flickers for `ms`."""
        at = board_cell(cell, self._mover())
        sensors = self._profile.cell_sensors(at)
        w, b = self._vb.counts(at)
        sensor = sensors[min(w + b, len(sensors) - 1)]
        self._vb.flicker(sensor, FLICKER_PERIOD_MS, 1)
        await self._advance(ms)
        self._vb.flicker(sensor, 0)

    def set_cell(self, cell: str, white: int, black: int) -> None:
        self._physical(lambda: self._vb.set_cell(cell, white, black))

    def _physical(self, action: Callable[[], object]) -> None:
        try:
            action()
        except (ValueError, KeyError, IndexError) as exc:
            self._refuse(Refused.of(str(exc), "board_cannot", text=str(exc)))
