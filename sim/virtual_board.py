"""The virtual board: the real firmware code, simulated hall sensors, a pseudo-terminal.

`VirtualBoard` runs `firmware/board.py` (with `firmware/chain.py`, `levels.py`,
`calstore.py`, `debounce.py`, `wire.py`) on a simulated chain of multiplexer modules
(sim/vboard_hardware.py) and writes its frames to a pty, so the controller opens
`vb.port` with pyserial exactly like `/dev/ttyACM0`. Its flash (`vb.storage`, kept
across reboots) holds the calibration of its parts from the factory, unless it is
made with `calibrated=False`.

Two ways to drive time:
- real time: `vb.start()` runs a background thread that ticks the firmware on the
  monotonic clock (the browser simulator, `bgboard monitor --sim`); `vb.stop()`.
- manual: `vb.advance(ms)` moves a fake clock and runs everything due meanwhile
  (deterministic scripts and tests). Host frames (HELLO?, PING, CONFIG) are read
  whenever the firmware runs, so in manual mode they are answered at the next advance.

Stable API (others call it):

    vb = VirtualBoard(profile=None, *, seed=0, link_dir=None, size=None, boot_timing=None,
                      calibrated=True, parts="random", cable=None)   # parts: "typical", "random", "worst"; cable: MemoryCable() (sim/memory_cable.py)
    vb.port                                   # the path to open (a symlink that survives plug/unplug)
    vb.set_cell(cell, white, black); vb.place(cell, colour); vb.lift(cell, colour=None)
    vb.counts(cell) -> (white, black); vb.clear()
    vb.noise(n_bytes); vb.drop_bytes(p); vb.flip_bytes(p)
    vb.flicker(sensor, period_ms=10, value=None); vb.stick(sensor, value_or_None)
    vb.unplug(); vb.plug(); vb.is_plugged
    vb.fail_chain(reason_or_None)             # the chain fails to read: ERROR 4, no SCAN
    vb.push(cell, dx_mm, dy_mm, index=-1)     # a checker slid off its slot's centre
    vb.drift(sensitivity=1, br=1, vq_mv=0)    # temperature since calibration (factors)
    vb.unplug_module(m_or_None); vb.stick_mux(m, channel_or_None); vb.sensor_supply(volts)
    vb.black_reads_white(sensor)              # a sensor reads a black checker as white
    vb.storage                                # the flash's files (sim/vboard_flash.py)
    vb.flash(rows, cols)                      # firmware for another matrix size (reboots)
    vb.reboot(watchdog=False)                 # restart; with watchdog, ERROR 3 after HELLO
    vb.size -> (rows, cols); vb.timing -> (scan_period, debounce, heartbeat); vb.configs
    vb.start(); vb.stop(); vb.advance(ms); vb.now_ms
    vb.close()          # also a context manager

Every sensor is its own DRV5053RA read through the chain, its bus and the ADC
(sim/vboard_sensing.py); `stick(sensor, 3)` is a dead sensor (no output: 0 V).
Cells are '1'..'24', 'bar', 'off-white', 'off-black' (ints accepted for points);
colours 'white' / 'black'. Every call is thread-safe (one lock around the firmware).
Plugging back in restarts the firmware (a bus-powered board reboots): HELLO with seq 0.
"""
from __future__ import annotations

import argparse
import sys
import threading
from collections.abc import Callable
from pathlib import Path

from controller.board.profile import Profile, Timing, load_profile
from controller.engine.board_view import Colour, cell_counts
from controller.engine.position import Position
from firmware.board import Board
from firmware.calstore import CAL_FILE, Store, encode
from firmware.chain import Chain, module_sizes
from sim.vboard_chain import TokenChain
from sim.vboard_clock import BoardClock
from sim.vboard_controls import SensingControls
from sim.vboard_flash import MemoryFlash
from sim.line_faults import BoardCable
from sim.vboard_parts import PartKind
from sim.vboard_pty import PtyCable
from sim.vboard_sensing import build


class VirtualBoard(SensingControls):
    """A sensor board in software; see the module docstring for the API (its sensing
    faults and finer moves: sim/vboard_controls.py)."""

    def __init__(self, profile: Profile | None = None, *, seed: int = 0,
                 link_dir: str | Path | None = None,
                 firmware_version: str = "bgboard-fw 2.0 (virtual)",
                 tick_s: float = 0.002,
                 mono_ms: Callable[[], float] | None = None,
                 size: tuple[int, int] | None = None,
                 boot_timing: Timing | None = None, calibrated: bool = True,
                 parts: PartKind = "random", cable: BoardCable | None = None) -> None:
        self.profile = profile if profile is not None else load_profile()
        #: the matrix the firmware was built for (a board flashed for another profile
        #: reports it in HELLO and scans that many sensors); default: the profile's
        self.size = size or (self.profile.sensors.rows, self.profile.sensors.cols)
        #: the timing the firmware boots with (a real board: its built-in defaults, until
        #: the host's CONFIG arrives); None: firmware/board.py's defaults
        self.boot_timing = boot_timing
        self._watchdog_boot = False
        #: the sensing hardware: every sensor's part, the checkers, the chain (sim/vboard_sensing.py)
        self.hardware = build(self.profile, parts, seed, lambda: self.now_ms)
        self.field = self.hardware.field
        self.chain = self._chain()
        n = self.size[0] * self.size[1]
        #: the Pico's flash: the factory calibration of the board's parts, or nothing
        self.storage = MemoryFlash({CAL_FILE: encode(self.hardware.factory_table(n))} if calibrated else {})
        #: the line to the host: a pseudo-terminal at `port` unless another is given
        self.cable: BoardCable = cable if cable is not None else PtyCable(link_dir, seed=seed)
        self.firmware_version = firmware_version
        self._lock = threading.RLock()
        self.clock = BoardClock(mono_ms)
        self._tick_s = tick_s
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self.boots = 0
        self.firmware: Board = self._boot()

    # -- time ---------------------------------------------------------------------------
    @property
    def now_ms(self) -> int:
        """The firmware's clock (ms): real time since start() or the manual clock."""
        return self.clock.now_ms

    def _chain(self) -> TokenChain:
        """The modules the firmware scans: the board's own, or for firmware flashed for
        another matrix, modules of the sizes that firmware expects over the same sensors
        (those past the board's read as empty typical parts)."""
        rows, cols = self.size
        if rows * cols == self.profile.sensors.count:
            return self.hardware.chain
        return TokenChain(module_sizes(rows * cols), self.hardware.sensors, lambda: self.now_ms)

    def _boot(self) -> Board:
        """Power-up with the firmware's built-in timing (the host's CONFIG changes it)."""
        rows, cols = self.size
        sensors = Chain(self.chain, self.chain.sizes)
        store = Store(self.storage.open, self.storage.rename, self.storage.remove)
        t = self.boot_timing
        if t is None:
            board = Board(sensors, self.cable.write, self.clock.ticks_ms, self.clock.ticks_diff, rows, cols,
                          firmware=self.firmware_version, watchdog_reset=self._watchdog_boot,
                          store=store)
        else:
            board = Board(sensors, self.cable.write, self.clock.ticks_ms, self.clock.ticks_diff, rows, cols,
                          firmware=self.firmware_version, watchdog_reset=self._watchdog_boot,
                          scan_period=t.scan_period_ms, debounce=t.debounce_scans,
                          heartbeat=t.heartbeat_ms, store=store)
        self._watchdog_boot = False
        board.boot()
        self.boots += 1
        return board

    def reboot(self, watchdog: bool = False) -> None:
        """Restart the firmware (HELLO with seq 0, timing back to its defaults); with
        `watchdog`, as after a watchdog reset: ERROR 3 follows the HELLO."""
        with self._lock:
            self._watchdog_boot = watchdog
            self.firmware = self._boot()

    def flash(self, rows: int, cols: int) -> None:
        """Flash firmware built for a rows x cols matrix, and restart it."""
        if not (1 <= rows <= 64 and 1 <= cols <= 64):
            raise ValueError(f"matrix {rows}x{cols} out of 1..64")
        with self._lock:
            self.size = (rows, cols)
            fail = self.chain.fail
            self.chain = self._chain()
            self.chain.fail = fail
            self.firmware = self._boot()

    @property
    def timing(self) -> tuple[int, int, int]:
        """What the firmware runs on now: scan period ms, debounce scans, heartbeat ms."""
        with self._lock:
            fw = self.firmware
            return fw.scan_period, fw.debouncer.count, fw.heartbeat

    @property
    def configs(self) -> int:
        """CONFIG frames the running firmware applied since it booted."""
        return self.firmware.configs

    def _run_once(self) -> None:
        data = self.cable.read()
        if data:
            self.firmware.receive(data)
        self.firmware.step()

    def advance(self, ms: int) -> None:
        """Manual mode: let `ms` milliseconds pass on the fake clock, running all that is due."""
        if self.clock.realtime:
            raise RuntimeError("advance() is for manual mode; this board runs in real time")
        if ms < 0:
            raise ValueError("time does not run backwards")
        with self._lock:
            end = self.clock.manual_ms + int(ms)
            while True:
                if self.cable.plugged:
                    self._run_once()
                    due = self.firmware.next_due()
                else:
                    due = end
                if self.clock.manual_ms >= end:
                    break
                self.clock.manual_ms = min(end, max(self.clock.manual_ms + 1, due))

    def skip(self, ms: int) -> bool:
        """Manual mode: move the clock `ms` ahead without running the firmware in between,
        when nothing could happen meanwhile (no flicker, the chain reads, nothing being
        debounced or waiting to be sent): every scan would read the same, and the
        firmware does not catch up on missed scans (it scans once and sends its heartbeat
        at the next `advance`). False, and nothing done, when the board is not quiet."""
        with self._lock:
            fw = self.firmware
            quiet = (not self.field.flickers and self.chain.fail is None and not fw.pending
                     and fw.debouncer.idle())
            if self.clock.realtime or not quiet:
                return False
            self.clock.manual_ms += int(ms)
            return True

    def start(self) -> None:
        """Real-time mode: tick the firmware from a background thread until stop()."""
        with self._lock:
            if self._thread is not None:
                return
            self.clock.go_realtime()
            self._stop.clear()
            self._thread = threading.Thread(target=self._loop, name="VirtualBoard", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        thread = self._thread
        if thread is None:
            return
        self._stop.set()
        thread.join(timeout=2)
        with self._lock:
            self.clock.go_manual()
            self._thread = None

    def _loop(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                if self.cable.plugged:
                    self._run_once()
            self._stop.wait(self._tick_s)

    @property
    def is_running(self) -> bool:
        return self._thread is not None

    # -- checkers -----------------------------------------------------------------------
    def set_cell(self, cell: str | int, white: int, black: int) -> None:
        with self._lock:
            self.field.set_cell(cell, white, black)

    def place(self, cell: str | int, colour: str = "white") -> None:
        with self._lock:
            self.field.place(cell, colour)

    def lift(self, cell: str | int, colour: str | None = None) -> str:
        with self._lock:
            return self.field.lift(cell, colour)

    def counts(self, cell: str | int) -> tuple[int, int]:
        with self._lock:
            return self.field.counts(cell)

    def clear(self) -> None:
        with self._lock:
            self.field.clear()

    def sensors(self) -> list[int]:
        """What every sensor sees now (faults included), row-major."""
        with self._lock:
            return self.field.values(self.now_ms)

    # -- faults -------------------------------------------------------------------------
    def noise(self, n_bytes: int) -> None:
        """Put `n_bytes` random bytes on the line now."""
        with self._lock:
            self.cable.noise(n_bytes)

    def drop_bytes(self, p: float) -> None:
        """From now on drop each byte to the host with probability p (0 stops it)."""
        self.cable.drop_bytes(p)

    def flip_bytes(self, p: float) -> None:
        """From now on corrupt each byte to the host with probability p (0 stops it)."""
        self.cable.flip_bytes(p)

    def unplug(self) -> None:
        """Pull the cable: the pty and its path vanish; the board loses power."""
        with self._lock:
            self.cable.unplug()

    def plug(self) -> None:
        """Plug back in: a working port at the same path; the firmware boots afresh."""
        with self._lock:
            if self.cable.plugged:
                return
            self.cable.plug()
            self.firmware = self._boot()

    @property
    def is_plugged(self) -> bool:
        return self.cable.plugged

    @property
    def port(self) -> str:
        return self.cable.path

    # -- life cycle ---------------------------------------------------------------------
    def close(self) -> None:
        self.stop()
        with self._lock:
            self.cable.close()

    def __enter__(self) -> VirtualBoard:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def lay_out(vb: VirtualBoard, position: Position, mover: Colour) -> None:
    """Every cell of `vb` set to `position`'s checkers, seen with `mover` on turn, as a
    person setting the board up would (the page's fresh table, a script's `reset` and
    `setup`)."""
    for cell, (w, b) in cell_counts(position, mover).items():
        vb.set_cell(cell, w, b)


# -- command line ---------------------------------------------------------------------------

HELP_TEXT = """commands:
  place CELL [white|black]     put a checker on a cell (1..24, bar, off-white, off-black)
  lift CELL [white|black]      take the top checker (of that colour) off a cell
  set CELL WHITE BLACK         set a cell's counts
  clear                        empty the board
  noise N                      N random bytes on the line
  drop P | flip P              drop / corrupt each byte with probability P
  flicker SENSOR [PERIOD_MS]   a flickering sensor (period 0 stops it)
  stick SENSOR VALUE|off       hold a sensor at 0..3
  fail [TEXT|off]              the chain's pins fail to drive
  push CELL DX DY              slide the cell's top checker DX, DY mm off its slot
  drift SENS BR [VQ_MV]        since calibration: sensitivity and remanence factors, quiescent shift
  supply VOLTS                 the sensors' 5 V (0: its plug pulled)
  module M|off                 pull module M's ribbon (0-based, chain order); off: all plugged
  mux M CHANNEL|off            hold module M's multiplexer on one channel
  unplug | plug                pull the cable / plug it back
  flash ROWS COLS              firmware for another matrix size (restarts the board)
  reboot [watchdog]            restart the board (after a watchdog reset: ERROR 3)
  show                         the counts of the non-empty cells
  help | quit"""


def _ok(action: Callable[[VirtualBoard, list[str]], object], reply: str = "ok"
        ) -> Callable[[VirtualBoard, list[str]], str]:
    """A command whose reply is fixed (`reply` may name the first two arguments)."""
    def run(vb: VirtualBoard, args: list[str]) -> str:
        action(vb, args)
        return reply.format(*args, "", "", port=vb.port)
    return run


def _place(vb: VirtualBoard, args: list[str]) -> str:
    vb.place(args[0], args[1] if len(args) > 1 else "white")
    return f"ok {args[0]} {vb.counts(args[0])}"


def _show(vb: VirtualBoard, args: list[str]) -> str:
    from controller.engine.board_view import CELLS
    parts = [f"{c}:{w}w{b}b" for c in CELLS for w, b in [vb.counts(c)] if w or b]
    return " ".join(parts) or "(empty)"


#: command -> (arguments needed, usage, what it does and replies)
_COMMANDS: dict[str, tuple[int, str, Callable[[VirtualBoard, list[str]], str]]] = {
    "place": (1, "place CELL [white|black]", _place),
    "lift": (1, "lift CELL [white|black]", lambda vb, a:
             f"ok lifted {vb.lift(a[0], a[1] if len(a) > 1 else None)} from {a[0]}"),
    "set": (3, "set CELL WHITE BLACK", _ok(lambda vb, a: vb.set_cell(a[0], int(a[1]), int(a[2])))),
    "clear": (0, "clear", _ok(lambda vb, a: vb.clear())),
    "noise": (1, "noise N", _ok(lambda vb, a: vb.noise(int(a[0])))),
    "drop": (1, "drop P", _ok(lambda vb, a: vb.drop_bytes(float(a[0])))),
    "flip": (1, "flip P", _ok(lambda vb, a: vb.flip_bytes(float(a[0])))),
    "flicker": (1, "flicker SENSOR [PERIOD_MS]", _ok(lambda vb, a: vb.flicker(
        int(a[0]), int(a[1]) if len(a) > 1 else 10))),
    "stick": (2, "stick SENSOR VALUE|off", _ok(lambda vb, a: vb.stick(
        int(a[0]), None if a[1] == "off" else int(a[1])))),
    "fail": (0, "fail [TEXT|off]", _ok(lambda vb, a: vb.fail_chain(
        None if a and a[0] == "off" else (" ".join(a) or "chain broken")))),
    "push": (3, "push CELL DX DY", _ok(lambda vb, a: vb.push(a[0], float(a[1]), float(a[2])))),
    "drift": (2, "drift SENS BR [VQ_MV]", _ok(lambda vb, a: vb.drift(
        float(a[0]), float(a[1]), float(a[2]) if len(a) > 2 else 0.0))),
    "supply": (1, "supply VOLTS", _ok(lambda vb, a: vb.sensor_supply(float(a[0])))),
    "module": (1, "module M|off", _ok(lambda vb, a: vb.unplug_module(None if a[0] == "off" else int(a[0])))),
    "mux": (2, "mux M CHANNEL|off", _ok(lambda vb, a: vb.stick_mux(
        int(a[0]), None if a[1] == "off" else int(a[1])))),
    "unplug": (0, "unplug", _ok(lambda vb, a: vb.unplug(), "ok unplugged")),
    "plug": (0, "plug", _ok(lambda vb, a: vb.plug(), "ok plugged {port}")),
    "flash": (2, "flash ROWS COLS", _ok(lambda vb, a: vb.flash(int(a[0]), int(a[1])),
                                        "ok flashed for {0}x{1}")),
    "reboot": (0, "reboot [watchdog]", _ok(lambda vb, a: vb.reboot(
        watchdog=bool(a) and a[0] == "watchdog"), "ok rebooted")),
    "show": (0, "show", _show),
    "help": (0, "help", lambda vb, a: HELP_TEXT),
}


def execute(vb: VirtualBoard, line: str) -> str:
    """Run one command line on `vb`; returns the reply (ValueError for a bad command)."""
    words = line.split()
    if not words:
        return ""
    cmd, args = words[0].lower(), words[1:]
    if cmd not in _COMMANDS:
        raise ValueError(f"unknown command {cmd!r}; try help")
    needed, usage, run = _COMMANDS[cmd]
    if len(args) < needed:
        raise ValueError(f"usage: {usage}")
    return run(vb, args)


def _size(text: str) -> tuple[int, int]:
    rows, sep, cols = text.lower().partition("x")
    if not sep or not rows.isdigit() or not cols.isdigit() or not (
            1 <= int(rows) <= 64 and 1 <= int(cols) <= 64):
        raise argparse.ArgumentTypeError(f"{text!r}: ROWSxCOLS, each 1..64 (e.g. 12x12)")
    return int(rows), int(cols)


def _link_dir(text: str) -> str:
    """An existing directory for the port's link (a missing one was a traceback: issue 35.20)."""
    if not Path(text).expanduser().is_dir():
        raise argparse.ArgumentTypeError(f"{text!r}: no such directory")
    return str(Path(text).expanduser())


def main(argv: list[str] | None = None) -> int:
    from controller.errors import OneLineParser

    parser = OneLineParser(
        prog="python -m sim.virtual_board",
        description="a virtual sensor board on a pseudo-terminal: prints the port's path, then "
                    "reads commands on stdin (watch it with: bgboard monitor --port PATH)",
        epilog=HELP_TEXT, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--profile", help="hardware profile (TOML)")
    parser.add_argument("--link-dir", type=_link_dir, help="directory for the port symlink (default: a temp dir)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the noise and flips")
    parser.add_argument("--size", metavar="ROWSxCOLS", type=_size,
                        help="firmware built for another matrix than the profile's (e.g. 12x12)")
    args = parser.parse_args(argv)
    from controller.errors import ProfileError
    try:
        profile = load_profile(args.profile) if args.profile else None
    except ProfileError as exc:
        sys.stderr.write(f"{exc}\n")
        return 1
    try:
        board = VirtualBoard(profile, seed=args.seed, link_dir=args.link_dir, size=args.size)
    except OSError as exc:  # the link cannot be made there (a read-only directory, no pty left)
        sys.stderr.write(f"{parser.prog}: error: cannot open the port: {exc.strerror or exc}\n")
        return 1
    with board as vb:
        vb.start()
        print(vb.port, flush=True)
        for line in sys.stdin:
            line = line.split("#", 1)[0].strip()
            if line in ("quit", "exit"):
                break
            try:
                reply = execute(vb, line)
            except (ValueError, KeyError) as exc:
                reply = f"error: {exc}"
            if reply:
                print(reply, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
