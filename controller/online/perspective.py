"""The server's view of a game and the engine's, converted in this one module.

The server shows every game from player 1's side: the receiving player (``local`` here)
is always player 1, their checkers are positive counts, they move from space 24 towards
space 1, and the 28 spaces are

    0       the local player's off tray        25  the remote player's off tray
    1..24   points, in the local player's numbering
    26      the local player's bar             27  the remote player's bar

The engine sees a position from the player on roll (`Position.mine` in their own
numbering 1..24, the bar last; `Position.theirs` the same for the other). So the local
player's point p is space p, and the remote player's point p is space 25 - p. A step
(`Step.frm`/`Step.to`, 25 = bar, 0 = off, in the mover's numbering) becomes a pair of
spaces the same way; the server reads the local player's commands in their own
numbering, so the pair of a local step is also what `commands.move` writes.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from controller.engine.moves import BAR_POINT, OFF, Step
from controller.engine.position import BAR, CHECKERS, Position
from controller.online.events import BOARD_SPACES, ProtocolError

Seat = Literal["local", "remote"]
LOCAL_OFF, REMOTE_OFF, LOCAL_BAR, REMOTE_BAR = 0, 25, 26, 27


def space_of_point(point: int, seat: Seat, *, frm: bool) -> int:
    """The server space of `seat`'s own point (25 = bar as a from, 0 = off as a to)."""
    if frm and point == BAR_POINT:
        return LOCAL_BAR if seat == "local" else REMOTE_BAR
    if not frm and point == OFF:
        return LOCAL_OFF if seat == "local" else REMOTE_OFF
    if not 1 <= point <= 24:
        raise ValueError(f"point {point} is not 1..24")
    return point if seat == "local" else 25 - point


def point_of_space(space: int, seat: Seat) -> int:
    """`seat`'s own point of a server space (25 = its bar, 0 = its off tray); ProtocolError
    for the other seat's bar or off tray, which `seat`'s checkers never use."""
    if space == (LOCAL_BAR if seat == "local" else REMOTE_BAR):
        return BAR_POINT
    if space == (LOCAL_OFF if seat == "local" else REMOTE_OFF):
        return OFF
    if not 1 <= space <= 24:
        raise ProtocolError(f"space {space} is not one the {seat} player's checkers use")
    return space if seat == "local" else 25 - space


def spaces_of_step(step: Step, seat: Seat) -> tuple[int, int]:
    """A step of `seat` (its numbering) as the server's (from, to) spaces."""
    return space_of_point(step.frm, seat, frm=True), space_of_point(step.to, seat, frm=False)


def step_of_spaces(spaces: tuple[int, int], seat: Seat, before: Position) -> Step:
    """The server's (from, to) spaces of a step of `seat` as an engine step; `before` is the
    position seen by `seat` (it says whether the step hits). The die is the distance (for a
    bearing off: the point's number; the engine takes a higher die where the rules do)."""
    frm, to = point_of_space(spaces[0], seat), point_of_space(spaces[1], seat)
    if frm == OFF or to == BAR_POINT or (to != OFF and to >= frm):
        raise ProtocolError(f"{spaces[0]}/{spaces[1]} is not a forward step of the {seat} player")
    die = frm - to
    hit = to != OFF and before.opponent_on(to) == 1
    return Step(frm, to, min(die, 6) if to == OFF else die, hit)


def position_of_board(board: Sequence[int], mover: Seat) -> Position:
    """The server's board as the engine's position seen by `mover`. ProtocolError when the
    board is not one (wrong length, more than 15 a side, off trays that do not add up)."""
    if len(board) != BOARD_SPACES:
        raise ProtocolError(f"a board has {BOARD_SPACES} spaces, the server sent {len(board)}")
    local = [0] * 25
    remote = [0] * 25
    for space in range(1, 25):
        count = board[space]
        if count > 0:
            local[space - 1] = count
        elif count < 0:
            remote[24 - space] = -count
    local[BAR] = board[LOCAL_BAR]
    remote[BAR] = -board[REMOTE_BAR]
    offs = (board[LOCAL_OFF], -board[REMOTE_OFF])
    for name, side, off in (("local", local, offs[0]), ("remote", remote, offs[1])):
        if min(side) < 0 or off < 0 or sum(side) + off != CHECKERS:
            raise ProtocolError(f"the server's board does not hold 15 {name} checkers "
                                f"({sum(side)} on the board, {off} off)")
    mine, theirs = (local, remote) if mover == "local" else (remote, local)
    return Position.checked(mine, theirs)


def board_of_position(position: Position, mover: Seat) -> tuple[int, ...]:
    """The engine's position seen by `mover` as the server's 28-space board."""
    local, remote = (position.mine, position.theirs) if mover == "local" else (position.theirs, position.mine)
    board = [0] * BOARD_SPACES
    for point in range(1, 25):
        board[point] += local[point - 1]
        board[25 - point] -= remote[point - 1]
    board[LOCAL_BAR] = local[BAR]
    board[REMOTE_BAR] = -remote[BAR]
    board[LOCAL_OFF] = CHECKERS - sum(local)
    board[REMOTE_OFF] = -(CHECKERS - sum(remote))
    return tuple(board)


def swap_seats(board: Sequence[int]) -> tuple[int, ...]:
    """The same board as the other player receives it (what the server does for player 2)."""
    out = [0] * BOARD_SPACES
    for space in range(1, 25):
        out[space] = -board[25 - space]
    out[LOCAL_OFF], out[REMOTE_OFF] = -board[REMOTE_OFF], -board[LOCAL_OFF]
    out[LOCAL_BAR], out[REMOTE_BAR] = -board[REMOTE_BAR], -board[LOCAL_BAR]
    return tuple(out)


def swap_spaces(spaces: tuple[int, int]) -> tuple[int, int]:
    """A (from, to) pair as the other player receives it."""
    def one(space: int) -> int:
        return {LOCAL_OFF: REMOTE_OFF, REMOTE_OFF: LOCAL_OFF, LOCAL_BAR: REMOTE_BAR,
                REMOTE_BAR: LOCAL_BAR}.get(space, 25 - space)
    return one(spaces[0]), one(spaces[1])
