"""A scenario script's physical lines (`lift`, `place`, `move`, `slide`, `hit`, `flicker`,
`set`, `reset`, `setup`) as gestures of the simulator's one hand (sim/hands.py), the
page's too.

A line without a colour means the side on turn now, and `off` that colour's tray; `place`
without a colour puts down the last checker lifted, and a colour not in the air is a
checker put down from outside (a script may add one). A line the board cannot carry out
(no checker to lift, a full point) changes nothing and is the table's refusal (`rejected:
...` in the line's events), as a script's impossible line should be. The timed lines let
simulated time pass between two gestures, a frame at least, so the firmware sees each.
"""
from __future__ import annotations

from collections.abc import Awaitable, Callable

from controller.board.profile import Profile
from controller.engine.board_view import Colour, other
from controller.engine.position import Position
from controller.events import Refused
from controller.web.protocol import Notice
from sim.hands import Hands
from sim.script_time import FRAME_MS
from sim.virtual_board import VirtualBoard

SLIDE_REST_MS = 100   # a slid checker rests this long on each point it crosses
FLICKER_PERIOD_MS = 70  # a flickering sensor's period

Gesture = Callable[[], "str | Notice | None"]


def board_cell(cell: str, colour: str) -> str:
    """A script's cell as the board names it: `off` is the colour's tray."""
    return f"off-{colour}" if cell == "off" else cell


class ScriptLines:
    """The script's lines on `hands` over `vb` (see the module docstring). `mover` is the
    side on turn now, `refuse` the table's refusal of a line the board cannot carry out,
    `advance` lets simulated time pass between two gestures."""

    def __init__(self, hands: Hands, vb: VirtualBoard, profile: Profile, *, mover: Callable[[], str],
                 refuse: Callable[[Refused], None], advance: Callable[[int], Awaitable[None]]) -> None:
        self.hands, self._vb, self._profile = hands, vb, profile
        self._mover, self._refuse, self._advance = mover, refuse, advance

    def lay_out(self, position: Position | None = None, mover: Colour = "white") -> None:
        """Every checker where `position` has them (default the starting position), seen
        with `mover` on turn."""
        self.hands.lay_out(position or Position.initial(), mover)

    def lift(self, cell: str, colour: str | None) -> bool:
        """A checker of `colour` into the air; False (and refused) when there is none."""
        colour = colour or self._mover()
        return self._gesture(lambda: self.hands.lift(board_cell(cell, colour), colour))

    def place(self, cell: str, colour: str | None) -> None:
        """Put a checker down: of `colour`, else the last one lifted, else the mover's."""
        held = colour or (self.hand_colour() or self._mover())
        at = board_cell(cell, held)
        if any(checker["colour"] == held for checker in self.hands.hand):
            self._gesture(lambda: self.hands.place(at, held, hits=False))
        else:
            self._gesture(lambda: self.hands.put(at, held))

    def hand_colour(self) -> str | None:
        """The colour of the last checker lifted, None with nothing in the air."""
        return self.hands.hand[-1]["colour"] if self.hands.hand else None

    async def move(self, frm: str, to: str, colour: str | None) -> None:
        """Lift and place, a frame apart (enough for the firmware to see each)."""
        colour = colour or self._mover()
        if self.lift(frm, colour):
            await self._advance(FRAME_MS)
            self.place(to, colour)

    async def slide(self, frm: str, to: str, colour: str | None) -> None:
        """A checker slid from point to point, resting a moment on each it crosses."""
        colour = colour or self._mover()
        path: list[str] = [to]
        if frm.isdigit() and to.isdigit():
            step = 1 if int(to) > int(frm) else -1
            path = [str(p) for p in range(int(frm) + step, int(to) + step, step)]
        at = frm
        for cell in path:
            if not self.lift(at, colour):
                return
            self.place(cell, colour)
            at = cell
            if cell != path[-1]:
                await self._advance(SLIDE_REST_MS)

    async def hit(self, cell: str) -> None:
        """The opponent's blot on `cell` taken to the bar."""
        colour = other(self._mover())  # type: ignore[arg-type]
        if self.lift(cell, colour):
            await self._advance(FRAME_MS)
            self.place("bar", colour)

    async def flicker(self, cell: str, ms: int) -> None:
        """The sensor under the top checker of `cell` flickers for `ms` (the board's
        fault, not the hand's)."""
        at = board_cell(cell, self._mover())
        sensors = self._profile.cell_sensors(at)
        w, b = self._vb.counts(at)
        sensor = sensors[min(w + b, len(sensors) - 1)]
        self._vb.flicker(sensor, FLICKER_PERIOD_MS, 1)
        await self._advance(ms)
        self._vb.flicker(sensor, 0)

    def set_cell(self, cell: str, white: int, black: int) -> None:
        self._gesture(lambda: self.hands.set_cell(cell, white, black))

    def _gesture(self, gesture: Gesture) -> bool:
        """One gesture of the hand; what it cannot do is the table's refusal."""
        try:
            said = gesture()
        except (ValueError, KeyError, IndexError) as exc:
            said = str(exc)
        if said is None:
            return True
        text = said.text if isinstance(said, Notice) else said
        self._refuse(Refused.of(text, "board_cannot", text=text))
        return False
