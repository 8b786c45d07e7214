# bgboard firmware: the main loop's logic, as a plain class.
#
# Board takes everything from outside: a scanner (read() -> raw chain bytes,
# decode(raw) -> sensor values; see scan.Scanner), a byte
# writer, the time functions (time.ticks_ms / time.ticks_diff on the Pico, a fake
# clock in tests and the simulator) and a watchdog feeder. main.py wires the real
# ones; sim/virtual_board.py runs this very class with simulated sensors.
#
# Same Python subset as wire.py: it runs on MicroPython and CPython.
#
# Imports: on the Pico the firmware files are flat (`import wire`); in CPython they
# are the package `firmware` (`from firmware import wire`). Each file tries the
# package first and falls back to the flat name.

try:
    from firmware import scan, wire
    from firmware.debounce import Debouncer
except ImportError:
    import scan  # type: ignore[import-not-found,no-redef,unused-ignore]
    import wire  # type: ignore[import-not-found,no-redef,unused-ignore]
    from debounce import Debouncer  # type: ignore[import-not-found,no-redef,unused-ignore]

MYPY = False
if MYPY:  # type checkers only: MicroPython has no typing module
    from collections.abc import Callable

    from firmware.scan import Scanner

FIRMWARE_VERSION = "bgboard-fw 1.0"
MIN_CHANGE_MS = 20        # a SCAN on change at most this often
ERROR_GAP_MS = 100        # repeated ERROR frames of one code at most this often

LIMITS_PERIOD = (1, 1000)
LIMITS_DEBOUNCE = (1, 50)
LIMITS_HEARTBEAT = (20, 60000)


class Board:
    def __init__(self, scanner: "Scanner", write: "Callable[[bytes], object]",
                 ticks_ms: "Callable[[], int]", ticks_diff: "Callable[[int, int], int]",
                 rows: int, cols: int, firmware: str = FIRMWARE_VERSION,
                 feed: "Callable[[], object] | None" = None, scan_period: int = 10,
                 debounce: int = 3, heartbeat: int = 500, watchdog_reset: bool = False) -> None:
        self.scanner = scanner
        self.write = write
        self.ticks_ms = ticks_ms
        self.ticks_diff = ticks_diff
        self.rows = rows
        self.cols = cols
        self.firmware = firmware
        self.feed = feed
        self.scan_period = scan_period
        self.heartbeat = heartbeat
        self.debouncer = Debouncer(rows * cols, debounce)
        self.reader = wire.FrameReader()
        self.watchdog_reset = watchdog_reset
        self.seq = 0
        self.pending = False
        self.frames_sent = 0
        self.scans = 0
        self.decoded = 0          # scans whose chain bytes differed, so were decoded
        self.configs = 0          # CONFIG frames applied
        self.scan_ok = True       # the last scan read the chain; no SCAN goes out while False
        self.last_raw = None  # type: bytearray | None
        now = ticks_ms()
        self.next_scan = now
        self.last_sent = now
        self.last_error = {}  # type: dict[int, int]

    # -- output ---------------------------------------------------------------
    def send(self, ftype: int, payload: bytes = b"") -> None:
        frame = wire.build_frame(ftype, self.seq, payload)
        self.seq = (self.seq + 1) & 0xFF
        self.frames_sent += 1
        self.write(frame)

    def send_hello(self) -> None:
        self.send(wire.HELLO, wire.hello_payload(self.rows, self.cols, self.firmware))

    def send_scan(self, now: int) -> None:
        self.send(wire.SCAN, bytes(self.debouncer.packed))
        self.last_sent = now
        self.pending = False

    def send_error(self, code: int, text: str) -> None:
        now = self.ticks_ms()
        last = self.last_error.get(code)
        if last is not None and self.ticks_diff(now, last) < ERROR_GAP_MS:
            return
        self.last_error[code] = now
        self.send(wire.ERROR, wire.error_payload(code, text))

    # -- life cycle -------------------------------------------------------------
    def boot(self) -> None:
        """At power-up: HELLO, and an ERROR when the watchdog restarted the board."""
        self.send_hello()
        if self.watchdog_reset:
            self.send_error(wire.ERR_WATCHDOG, "restarted by the watchdog")

    def receive(self, data: bytes | bytearray) -> None:
        """Bytes from the host: answer every intact frame, report damaged ones."""
        bad = self.reader.bad
        frames = self.reader.feed(data)
        if self.reader.bad != bad:
            self.send_error(wire.ERR_BAD_FRAME, "bad frame from host")
        for ftype, _seq, payload in frames:
            self.handle(ftype, payload)

    def handle(self, ftype: int, payload: bytes) -> None:
        if ftype == wire.HELLO_REQ:
            self.send_hello()
        elif ftype == wire.PING:
            self.send(wire.PONG, payload[:8])
        elif ftype == wire.CONFIG:
            self.configure(payload)
        # unknown types are ignored (protocol version 1)

    def configure(self, payload: bytes) -> None:
        cfg = wire.parse_config(payload)
        if cfg is None:
            self.send_error(wire.ERR_BAD_CONFIG, "CONFIG needs 5 bytes")
            return
        period, count, heartbeat = cfg
        if not (LIMITS_PERIOD[0] <= period <= LIMITS_PERIOD[1]
                and LIMITS_DEBOUNCE[0] <= count <= LIMITS_DEBOUNCE[1]
                and LIMITS_HEARTBEAT[0] <= heartbeat <= LIMITS_HEARTBEAT[1]):
            self.send_error(wire.ERR_BAD_CONFIG, "CONFIG out of range")
            return
        self.scan_period = period
        self.debouncer.set_count(count)
        self.heartbeat = heartbeat
        self.configs += 1

    def step(self) -> None:
        """Run whatever is due now: a scan every period, SCAN on change or heartbeat."""
        if self.feed is not None:
            self.feed()
        now = self.ticks_ms()
        diff = self.ticks_diff
        if diff(now, self.next_scan) >= 0:
            try:
                raw = self.scanner.read()
            except Exception as exc:  # noqa: BLE001  any chain failure: report, keep running
                self.send_error(wire.ERR_SCAN, "scan failed: " + str(exc))
                raw = None
            self.scan_ok = raw is not None
            if raw is not None:
                self.scans += 1
                # The same chain bytes as last time with nothing mid-debounce cannot
                # change anything: skip decoding (most scans on the Pico).
                last = self.last_raw
                if raw != last or not self.debouncer.idle():
                    # only the sensors whose bits changed, and those mid-debounce, are
                    # looked at: a change costs well under a scan period on the Pico
                    only = None if last is None else scan.changed_sensors(last, raw, self.rows * self.cols)
                    self.last_raw = bytearray(raw)
                    self.decoded += 1
                    if self.debouncer.update(self.scanner.decode(raw), only):
                        self.pending = True
            self.next_scan = self.next_scan + self.scan_period
            if diff(now, self.next_scan) >= 0:  # fell behind: do not try to catch up
                self.next_scan = now + self.scan_period
        since = diff(now, self.last_sent)
        # while the chain fails, a SCAN would repeat stale values as if read: the host
        # hears ERROR 4 instead, and the next SCAN means the sensors are read again
        if self.scan_ok and ((self.pending and since >= MIN_CHANGE_MS) or since >= self.heartbeat):
            self.send_scan(now)

    def next_due(self) -> int:
        """The tick at which step() next has work (the simulator skips idle time)."""
        wait = MIN_CHANGE_MS if self.pending else self.heartbeat
        send_at = self.last_sent + wait
        if self.ticks_diff(send_at, self.next_scan) < 0:
            return send_at
        return self.next_scan

    def values(self) -> list[int]:
        return self.debouncer.values()
