"""What the board session tells the table: typed events, pure values (no I/O).

The session (`controller.link.board_session`) turns the wire's frames into three kinds of
event, each a frozen dataclass stamped with the session's clock:

- `BoardReading`: a good SCAN from a board whose HELLO matched the profile, already
  converted to the controller's `BoardState` (faulty sensors included, per cell);
- `BoardStatus`: the session's state changed (connecting, online, offline, mismatch,
  scan failing), with one line saying why;
- `BoardErrorReport`: the board sent an ERROR frame (code and text).

They live apart from the session so that the controller and the scene can import them
without pulling in pyserial or asyncio.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from controller.board.profile import CELLS, Profile
from controller.board.reading import Reading
from controller.board.reconcile import BoardState
from controller.link.codec import ErrorCode, FrameError, Hello, Scan


class SessionState(Enum):
    """Where the session stands with the board.

    Only `ONLINE` plays: readings flow to the controller. `MISMATCH` (a board of another
    size or protocol) and `SCAN_FAILING` (the board reports ERROR 4) keep the table from
    playing until a matching HELLO or a good SCAN arrives.
    """

    CONNECTING = "connecting"      # port open (or being opened), no matching HELLO yet
    ONLINE = "online"              # HELLO matched, CONFIG sent: readings flow
    OFFLINE = "offline"            # the port is gone or the board is silent
    MISMATCH = "mismatch"          # HELLO names another size or protocol version
    SCAN_FAILING = "scan-failing"  # the board cannot read its sensors (ERROR 4)
    CLOSED = "closed"              # close() was called

    @property
    def is_playing(self) -> bool:
        return self is SessionState.ONLINE


@dataclass(frozen=True)
class Size:
    """A sensor matrix, rows x cols (`str` prints it as the mismatch line does: 14x13)."""

    rows: int
    cols: int

    def __str__(self) -> str:
        return f"{self.rows}x{self.cols}"


@dataclass(frozen=True)
class BoardStatus:
    """The session's state changed. `detail` is one line for the log and the display
    ("profile 14x13, board 12x12"); `profile_size`/`board_size` and the versions are set
    for a mismatch, `hello` is the last HELLO seen (None before the first)."""

    state: SessionState
    at: float
    detail: str = ""
    hello: Hello | None = None
    profile_size: Size | None = None
    board_size: Size | None = None
    board_version: int | None = None

    @property
    def is_playing(self) -> bool:
        return self.state.is_playing


@dataclass(frozen=True)
class BoardReading:
    """A good SCAN: the reading per cell and the controller's view of it."""

    reading: Reading
    board: BoardState
    at: float

    @property
    def faults(self) -> frozenset[str]:
        """Cells with at least one sensor reading fault."""
        return self.board.faults


@dataclass(frozen=True)
class BoardErrorReport:
    """An ERROR frame from the board: its code (an `ErrorCode` when known) and text."""

    code: int
    text: str
    at: float

    @property
    def kind(self) -> ErrorCode | None:
        try:
            return ErrorCode(self.code)
        except ValueError:
            return None

    @property
    def line(self) -> str:
        """One line for the log: `board error 4 (scan): scan failed: SPI timeout`."""
        kind = self.kind
        name = kind.name.lower().replace("_", " ") if kind is not None else "unknown"
        return f"board error {self.code} ({name}): {self.text}"


BoardEvent = BoardReading | BoardStatus | BoardErrorReport


def fault_line(cells: frozenset[str] | set[str]) -> str:
    """`sensor fault at 13` / `sensor fault at 13, bar` in the profile's cell order."""
    return "sensor fault at " + ", ".join(c for c in CELLS if c in cells)


def read_scan(scan: Scan, profile: Profile, at: float) -> BoardReading:
    """A SCAN as the controller sees it: the one conversion SCAN -> Reading -> BoardState.
    `FrameError` when the SCAN is not exactly the profile's matrix (ceil(rows x cols / 4)
    bytes, DESIGN.md "Wire protocol"): too short it cannot be read, too long it is from
    another board."""
    expected = -(-profile.sensors.count // 4)
    if len(scan.packed) != expected:
        raise FrameError(f"a SCAN of {len(scan.packed)} bytes where the profile's "
                         f"{profile.sensors.rows}x{profile.sensors.cols} matrix takes {expected}")
    reading = Reading.from_sensors(scan.sensors(profile.sensors.count), profile)
    return BoardReading(reading, reading.board_state(), at)
