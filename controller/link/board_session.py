"""The board session: the protocol's promises kept in front of the link.

`BoardLink` (board_link.py) is the transport: the wire protocol over an interface (pyserial
on a port, or an in-memory cable to the virtual board). The session sits in front of it,
for every front end alike (the Pi, the headless runner, the browser simulator), and does
what protocol version 2 promises:

1. on every HELLO (at boot, when asked, after a reconnect) it checks the protocol version
   and the matrix size (rows x cols) against the profile (`check_hello`: one line naming
   both versions and what to do);
2. a board that matches gets CONFIG from the profile's [timing] (scan period, debounce,
   heartbeat: what `bgboard calibrate` writes) and a PING behind it; the PONG proves the
   board read the CONFIG (no ERROR 2 before it), and the session is ONLINE;
3. ONLINE, it PINGs every `ping_interval_s` as liveness (two PONGs missed: OFFLINE;
   None turns liveness off) and turns each SCAN into a `BoardReading` (SCAN -> Reading ->
   BoardState, once, here);
4. a board of another size or protocol is MISMATCH: its SCANs are dropped, one line
   naming both sizes is logged (`board mismatch: profile 14x13, board 12x12; ...`) and
   the session waits for a new HELLO (a board replaced, reflashed, replugged);
5. ERROR frames become `BoardErrorReport` events (logged with code and text, each code at
   most once every few seconds: controller/link/error_log.py); ERROR 4
   (the sensor chain failed) makes the board SCAN_FAILING, not playing, until a SCAN
   arrives again (the firmware sends no SCAN while its chain fails);
6. faulty sensors (value 3) travel in the reading's `BoardState.faults`; a change of the
   faulty cells is logged once ("sensor fault at 13").

The session does no waiting of its own: frames drive it, and time passes for it through
`tick(now)` on its owner's clock (the table's tick, the loop's time on the Pi, the
simulated time of the headless runner and the tests: controller/link/liveness.py keeps
its timers), so it runs as well on an injected clock as on the loop's.
Request/response is matched by futures (the zigpy-znp shape), for callers on a loop:
`await session.requests.request(HelloRequest(), Hello)` resolves with the next HELLO,
`await session.ping()` with the PONG that echoes its payload;
`session.requests.expect(Pong, match)` gives the future alone, for a caller that keeps
working while it waits.

    session = BoardSession(port, profile, on_event=handle)   # handle(BoardEvent)
    await session.start()        # LinkError (one line, device and hint) if the port won't open
    session.open()               # the same without a loop (an interface without a thread)
    session.tick(now)            # time passed (a table ticks its session)
    session.status               # the last BoardStatus (state, detail, sizes)
    session.is_playing           # state is ONLINE
    session.hello, session.config_sent, session.stats, session.link
    await session.ping()         # round trip in seconds; TimeoutError when no PONG
    await session.close()        # also `async with BoardSession(...)`, which ticks itself

Events (controller.link.board_events): `BoardReading(reading, board, at)`,
`BoardStatus(state, at, detail, hello, profile_size, board_size, board_version)` on every
change of state, `BoardErrorReport(code, text, at)`. Callbacks run on the event loop (or,
without a threaded interface, on the caller's thread).
"""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from controller.board.profile import Profile
from controller.link.board_events import (
    BoardErrorReport,
    BoardEvent,
    BoardStatus,
    SessionState,
    Size,
    fault_line,
    read_scan,
)
from controller.link.codec import (
    PROTOCOL_VERSION,
    BoardError,
    CalState,
    CalStatus,
    CalStatusRequest,
    Config,
    ErrorCode,
    FrameError,
    Hello,
    HelloRequest,
    LinkStats,
    Message,
    Ping,
    Pong,
    Scan,
)
from controller.link.board_link import BoardLink
from controller.link.serial_link import DEFAULT_BACKOFF
from controller.link.error_log import BoardErrorLog
from controller.link.interface import LinkInterface
from controller.link.liveness import Liveness, Purpose
from controller.link.host_protocol import LinkState, LinkStatus
from controller.link.replies import Requests
from controller.outside_text import printable

log = logging.getLogger("bgboard.board")

#: how often a session without a table ticks itself (`async with BoardSession(...)`)
TICK_S = 0.01


def config_of(profile: Profile) -> Config:
    """The CONFIG frame of a profile's [timing] section."""
    t = profile.timing
    return Config(scan_period_ms=t.scan_period_ms, debounce_scans=t.debounce_scans,
                  heartbeat_ms=t.heartbeat_ms)


def check_hello(hello: Hello, profile: Profile) -> str | None:
    """None when the board fits the profile, else the one line saying how it does not.

    Of two protocol versions the newer side says what to do: a board older than this
    program is to be flashed with this program's firmware; a board newer than it needs
    this program updated. (bgboard with protocol 1 met by a version-2 board says "board
    speaks protocol 2, this program 1; flash the firmware of this release": there the
    program is the one to update, as hardware/protocol.md says.)"""
    if hello.version < PROTOCOL_VERSION:
        return (f"board firmware speaks protocol {hello.version}, this bgboard {PROTOCOL_VERSION}: "
                "flash the board with this bgboard's firmware (firmware/README.md)")
    if hello.version > PROTOCOL_VERSION:
        return (f"board speaks protocol {hello.version}, this bgboard only {PROTOCOL_VERSION}: "
                "update bgboard on this computer to the board's release")
    want = Size(profile.sensors.rows, profile.sensors.cols)
    have = Size(hello.rows, hello.cols)
    if want != have:
        return (f"profile {want}, board {have}; flash the firmware for this profile "
                f"or pass --profile for this board")
    return None


class BoardSession:
    """The protocol's promises on one link (see the module docstring). `link` is a
    `LinkInterface` or a serial port's path."""

    def __init__(self, link: LinkInterface | str, profile: Profile, *,
                 on_event: Callable[[BoardEvent], None],
                 clock: Callable[[], float] | None = None, ping_interval_s: float | None = 1.0,
                 reply_timeout_s: float = 0.5, hello_retry_s: float = 1.0,
                 read_timeout: float = 0.1, offline_after_s: float | None = None,
                 backoff: tuple[float, float] | None = None) -> None:
        self.profile = profile
        self._on_event = on_event
        self._clock = clock
        #: its timers: liveness PINGs, HELLO? asked again, the PONG awaited
        self.liveness = Liveness(ping_interval_s=ping_interval_s, hello_retry_s=hello_retry_s,
                                 reply_timeout_s=reply_timeout_s)
        # the link's silence limit and reconnect backoff: the profile's [link] and the
        # link's own defaults, unless a front end on simulated time names its own
        self.link = BoardLink(link, on_frame=self._on_frame, on_status=self._on_link_status,
                              baudrate=profile.link.baudrate, clock=self.now,
                              offline_after=(offline_after_s if offline_after_s is not None
                                             else profile.link.offline_after_ms / 1000),
                              read_timeout=read_timeout, latest_scan_only=True,
                              backoff=backoff or DEFAULT_BACKOFF)
        self.status = BoardStatus(SessionState.CLOSED, 0.0, "not started")
        self.hello: Hello | None = None
        self.config_sent: Config | None = None
        #: the board's last CAL_STATUS (asked once it plays): its calibration in use
        self.calibration: CalStatus | None = None
        self.bad_scans = 0
        self.errors: list[BoardErrorReport] = []
        self._error_log = BoardErrorLog(log)
        self._faults: frozenset[str] = frozenset()
        self._mismatch_told: tuple[int, int, int, str] | None = None
        #: requests that wait for their replies, for callers on a loop (`ping` is one)
        self.requests = Requests(self.send, timeout_s=reply_timeout_s, port=self.link.port)
        self._config_rejected = False
        self._ticking: asyncio.Task[None] | None = None

    # -- life cycle ----------------------------------------------------------------------
    def open(self, loop: asyncio.AbstractEventLoop | None = None) -> None:
        """Open the link (LinkError if that fails) and start the handshake: the board is
        asked HELLO?. Time passes for the session through `tick` (its owner's clock)."""
        self._set(SessionState.CONNECTING, "port opening")
        self.liveness.started(self.now())
        self.link.open(loop)

    async def start(self, tick_s: float | None = None) -> None:
        """`open` on the running loop; with `tick_s` the session ticks itself that often on
        its own clock (a session without a table to tick it: `async with`)."""
        if self._ticking is not None or self.link.status is not LinkState.CLOSED:
            return
        self.open(asyncio.get_running_loop())
        if tick_s is not None:
            self._ticking = asyncio.get_running_loop().create_task(self._tick_every(tick_s),
                                                                   name="BoardSession ticks")

    async def _tick_every(self, tick_s: float) -> None:
        while True:
            await asyncio.sleep(tick_s)
            self.tick(self.now())

    async def close(self) -> None:
        self.stop()

    def stop(self) -> None:
        """Close the link and stop every wait."""
        ticking, self._ticking = self._ticking, None
        if ticking is not None:
            ticking.cancel()
        self.link.close()
        self.requests.cancel_all()
        if self.status.state is not SessionState.CLOSED:
            self._set(SessionState.CLOSED, "closed")

    async def __aenter__(self) -> BoardSession:
        await self.start(tick_s=TICK_S)
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def is_playing(self) -> bool:
        return self.status.is_playing

    @property
    def stats(self) -> LinkStats:
        return self.link.stats

    def now(self) -> float:
        """The session's clock: the injected one, else the running loop's."""
        if self._clock is not None:
            return self._clock()
        try:
            return asyncio.get_running_loop().time()
        except RuntimeError:
            return 0.0

    # -- requests ------------------------------------------------------------------------
    def send(self, message: Message) -> bool:
        """Send a host message; False when the port is down."""
        return self.link.send(message)

    async def ping(self, timeout: float | None = None) -> float:
        """PING and wait for its PONG; the round trip in seconds (TimeoutError if none)."""
        payload = self.liveness.next_payload()
        sent = self.now()
        await self.requests.request(Ping(payload=payload), Pong, timeout=timeout,
                                    match=lambda p: p.payload == payload)
        return self.now() - sent

    # -- time ------------------------------------------------------------------------------------
    def tick(self, now: float) -> None:
        """Time passed: the link looks for a silent board; a PING whose PONG is overdue
        counts as missed; when nothing else is due a playing board is PINGed and any
        other asked HELLO? again."""
        self.link.tick(now)
        live = self.liveness
        if live.overdue(now):
            self._pong_missed(live.give_up(), now)
        elif live.due(now):
            self._idle(now)

    def _idle(self, now: float) -> None:
        """Nothing arrived for a while: PING a playing board, ask any other HELLO?."""
        if self.status.state not in (SessionState.ONLINE, SessionState.SCAN_FAILING):
            self.link.send(HelloRequest())
            self.liveness.wait(now, self.status.state)
            return
        self.link.send(Ping(payload=self.liveness.ping(Purpose.LIVENESS, now)))

    def _pong_missed(self, purpose: Purpose, now: float) -> None:
        if purpose is Purpose.HANDSHAKE:
            self._set(SessionState.CONNECTING, "no PONG after CONFIG; asking HELLO? again")
        elif self.liveness.missed_one() >= 2:
            self._set(SessionState.OFFLINE,
                      f"no PONG for {self.liveness.missed} pings; asking HELLO?")
            self.link.send(HelloRequest())
        self.liveness.wait(now, self.status.state)

    # -- frames from the link (on the loop) ---------------------------------------------------
    def _on_frame(self, message: Message) -> None:
        self.requests.resolve(message)
        if isinstance(message, Scan):
            self._on_scan(message)
        elif isinstance(message, Hello):
            self._handshake(message)
        elif isinstance(message, Pong):
            self._on_pong(message)
        elif isinstance(message, BoardError):
            self._on_error(message)
        elif isinstance(message, CalStatus):
            self.calibration = _calibration_told(self.calibration, message)

    def _on_pong(self, pong: Pong) -> None:
        now = self.now()
        purpose = self.liveness.answered(pong.payload)
        if purpose is None:
            return
        if purpose is Purpose.HANDSHAKE:
            self._handshake_done()
        self.liveness.wait(now, self.status.state)

    def _on_scan(self, scan: Scan) -> None:
        state = self.status.state
        if state is SessionState.SCAN_FAILING:
            self._set(SessionState.ONLINE, "sensor scans good again")
        elif state is not SessionState.ONLINE:
            return  # no matching HELLO yet (or a board of another size): not ours to read
        try:
            event = read_scan(scan, self.profile, self.now())
        except FrameError as exc:
            self.bad_scans += 1
            if self.bad_scans == 1:  # the board's fault, told once; counted in the stats
                log.warning("board sent a SCAN the profile cannot read: %s", exc)
            return
        self._faults = _tell_faults(self._faults, event.faults)
        self._on_event(event)

    def _on_error(self, error: BoardError) -> None:
        report = BoardErrorReport(error.code, printable(error.text), self.now())  # the board's text: one line
        self.errors.append(report)
        del self.errors[:-32]
        told = self._error_log.tell(report)  # a board sending ERRORs without pause: a line every few s
        if error.code == ErrorCode.BAD_CONFIG:
            self._config_rejected = True
        if told:  # the same code again within seconds: counted, not shown again (it still is)
            self._on_event(report)
        if error.code == ErrorCode.SCAN and self.status.state is SessionState.ONLINE:
            self._set(SessionState.SCAN_FAILING, f"sensors cannot be read: {printable(error.text)}")

    def _on_link_status(self, status: LinkStatus) -> None:
        if status.state in (LinkState.DISCONNECTED, LinkState.OFFLINE):
            self._mismatch_told = None  # a board plugged back in is told about afresh
            self._set(SessionState.OFFLINE, status.detail or status.state.value)
        elif status.state is LinkState.CONNECTING and self.status.state is SessionState.OFFLINE:
            self._set(SessionState.CONNECTING, status.detail)

    # -- the handshake ------------------------------------------------------------------------
    def _handshake(self, hello: Hello) -> None:
        """A HELLO: a board that fits gets CONFIG and a PING behind it (its PONG proves the
        CONFIG was read: `_handshake_done`); one that does not is MISMATCH."""
        now = self.now()
        self.hello = hello
        problem = check_hello(hello, self.profile)
        if problem is not None:
            self.liveness.forget()
            self._mismatch(hello, problem)
            self.liveness.wait(now, self.status.state)
            return
        self._mismatch_told = None
        self._config_rejected = False
        self.link.send(config_of(self.profile))
        self.link.send(Ping(payload=self.liveness.ping(Purpose.HANDSHAKE, now)))  # answered in order

    def _handshake_done(self) -> None:
        config = config_of(self.profile)
        if self._config_rejected:
            log.warning("the board refused CONFIG %s; it runs on its own timing", _timing(config))
        else:
            self.config_sent = config
        self.liveness.missed = 0
        self.link.send(CalStatusRequest())
        hello = self.hello
        assert hello is not None
        self._set(SessionState.ONLINE, f"{printable(hello.firmware)}, {hello.rows}x{hello.cols}, "
                                       f"CONFIG {_timing(config)}")

    def _mismatch(self, hello: Hello, problem: str) -> None:
        key = (hello.version, hello.rows, hello.cols, hello.firmware)
        if self._mismatch_told != key:
            self._mismatch_told = key
            log.error("board mismatch: %s", problem)
        self._set(SessionState.MISMATCH, problem,
                  profile_size=Size(self.profile.sensors.rows, self.profile.sensors.cols),
                  board_size=Size(hello.rows, hello.cols), board_version=hello.version)

    def _set(self, state: SessionState, detail: str, **sizes: object) -> None:
        old = self.status
        if old.state is state and (state is not SessionState.MISMATCH or old.detail == detail):
            return
        self.status = BoardStatus(state, self.now(), detail, self.hello, **sizes)  # type: ignore[arg-type]
        if state is not SessionState.MISMATCH:
            log.info("board %s: %s", state.value, detail)
        self._on_event(self.status)


def _calibration_told(told: CalStatus | None, status: CalStatus) -> CalStatus:
    """A board's CAL_STATUS: that it has no calibration is logged once (until it has one)."""
    if status.state is CalState.NONE and (told is None or told.state is not CalState.NONE):
        log.warning("the board has no calibration and reads with the typical part's "
                    "levels: run bgboard calibrate")
    return status


def _tell_faults(told: frozenset[str], faults: frozenset[str]) -> frozenset[str]:
    """Log a change of the faulty cells once ("sensor fault at 13"); the cells now told."""
    if faults != told:
        if faults:
            log.warning("%s", fault_line(faults))
        else:
            log.info("sensor faults cleared")
    return faults


def _timing(config: Config) -> str:
    return f"{config.scan_period_ms} ms / {config.debounce_scans} scans / {config.heartbeat_ms} ms"



