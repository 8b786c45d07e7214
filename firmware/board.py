# bgboard firmware: the main loop's logic, as a plain class.
#
# Board takes everything from outside: the sensor chain (chain.Chain over the Pico's
# primitives, or fakes), a byte writer, the time functions (time.ticks_ms /
# time.ticks_diff on the Pico, a fake clock in tests and the simulator), a watchdog
# feeder and the calibration store (calstore.Store on the flash). main.py wires the
# real ones; sim/virtual_board.py runs this very class with simulated sensors.
#
# A scan: the chain's levels (mV) -> levels.Levels (average, classify from the
# calibration) -> the debouncer, given only the sensors whose class changed -> SCAN
# on change or heartbeat. The chain's own checks and the supply become ERROR 7 and 8.
#
# Same Python subset as wire.py: it runs on MicroPython and CPython.
#
# Imports: on the Pico the firmware files are flat (`import wire`); in CPython they
# are the package `firmware` (`from firmware import wire`). Each file tries the
# package first and falls back to the flat name.

try:
    from firmware import calstore, chain, wire
    from firmware.debounce import Debouncer
    from firmware.levels import Levels, check_table
except ImportError:
    import calstore  # type: ignore[import-not-found,no-redef,unused-ignore]
    import chain  # type: ignore[import-not-found,no-redef,unused-ignore]
    import wire  # type: ignore[import-not-found,no-redef,unused-ignore]
    from debounce import Debouncer  # type: ignore[import-not-found,no-redef,unused-ignore]
    from levels import Levels, check_table  # type: ignore[import-not-found,no-redef,unused-ignore]

MYPY = False
if MYPY:  # type checkers only: MicroPython has no typing module
    from collections.abc import Callable

    from firmware.calstore import Store
    from firmware.chain import Chain

FIRMWARE_VERSION = "bgboard-fw 2.0"
MIN_CHANGE_MS = 20        # a SCAN on change at most this often
ERROR_GAP_MS = 100        # repeated ERROR frames of one code at most this often
CONDITION_REPEAT_MS = 5000  # a lasting chain or supply problem is told again this often

LIMITS_PERIOD = (1, 1000)
LIMITS_DEBOUNCE = (1, 50)
LIMITS_HEARTBEAT = (20, 60000)


class Board:
    def __init__(self, sensors: "Chain", write: "Callable[[bytes], object]",
                 ticks_ms: "Callable[[], int]", ticks_diff: "Callable[[int, int], int]",
                 rows: int, cols: int, firmware: str = FIRMWARE_VERSION,
                 feed: "Callable[[], object] | None" = None, scan_period: int = 10,
                 debounce: int = 3, heartbeat: int = 500, watchdog_reset: bool = False,
                 store: "Store | None" = None) -> None:
        self.chain = sensors
        self.write = write
        self.ticks_ms = ticks_ms
        self.ticks_diff = ticks_diff
        self.rows = rows
        self.cols = cols
        self.n = rows * cols
        self.firmware = firmware
        self.feed = feed
        self.scan_period = scan_period
        self.heartbeat = heartbeat
        self.debouncer = Debouncer(self.n, debounce)
        self.levels = Levels(self.n)
        self.reader = wire.FrameReader()
        self.watchdog_reset = watchdog_reset
        self.store = store
        self.cal_crc = 0                 # CRC-32 of the table in use (0: typical levels)
        self.cal_damaged = False         # a file was there but could not be used
        self.staged = None  # type: list[int] | None  # CALIBRATE rows waiting for CAL_SAVE
        self.staged_got = None  # type: list[int] | None  # which sensors are staged
        self.seq = 0
        self.pending = False
        self.frames_sent = 0
        self.scans = 0
        self.configs = 0          # CONFIG frames applied
        self.scan_ok = True       # the last scan read the chain; no SCAN goes out while False
        self.full_look = True     # the debouncer looks at every sensor at the next scan
        now = ticks_ms()
        self.next_scan = now
        self.last_sent = now
        self.last_error = {}  # type: dict[int, int]
        self.conditions = {}  # type: dict[int, tuple[str, int]]
        self.load_calibration()

    # -- calibration ------------------------------------------------------------------
    def load_calibration(self) -> None:
        table = self.store.load(self.n) if self.store is not None else None
        if table is not None:
            self.levels.use(table)
            self.cal_crc = calstore.table_crc(table)
        else:
            self.cal_damaged = self.store is not None and self.store.present()

    # -- output ---------------------------------------------------------------------------
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

    def tell_condition(self, code: int, text: "str | None", now: int) -> None:
        """A lasting problem (ERROR 7, 8): told when it starts or changes, then every
        CONDITION_REPEAT_MS while it lasts; forgotten when it ends."""
        if text is None:
            self.conditions.pop(code, None)
            return
        told = self.conditions.get(code)
        if told is None or told[0] != text or self.ticks_diff(now, told[1]) >= CONDITION_REPEAT_MS:
            self.conditions[code] = (text, now)
            self.send(wire.ERROR, wire.error_payload(code, text))

    def send_cal_status(self, status: int) -> None:
        count = self.n if self.levels.calibrated else 0
        self.send(wire.CAL_STATUS, wire.cal_status_payload(status, self.cal_crc, count))

    # -- life cycle -------------------------------------------------------------------------
    def boot(self) -> None:
        """At power-up: the chain flushed, HELLO, and an ERROR when the watchdog restarted
        the board or no calibration is stored."""
        try:
            self.chain.flush()
        except Exception as exc:  # noqa: BLE001  reported by the first scan as well
            self.send_error(wire.ERR_SCAN, "chain flush failed: " + str(exc))
        self.send_hello()
        if self.watchdog_reset:
            self.send_error(wire.ERR_WATCHDOG, "restarted by the watchdog")
        if not self.levels.calibrated:
            why = "calibration on flash damaged" if self.cal_damaged else "no calibration stored"
            self.send_error(wire.ERR_NO_CALIBRATION, why + ": typical levels; run bgboard calibrate")

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
        elif ftype == wire.LEVELS_REQ:
            for part in wire.levels_payloads(self.levels.averages(), self.n):
                self.send(wire.LEVELS, part)
        elif ftype == wire.CALIBRATE:
            self.stage(payload)
        elif ftype == wire.CAL_SAVE:
            self.save_calibration(payload)
        elif ftype == wire.CAL_STATUS_REQ:
            self.send_cal_status(wire.CAL_IN_USE if self.levels.calibrated else wire.CAL_NONE)
        # unknown types are ignored

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

    def stage(self, payload: bytes) -> None:
        """A CALIBRATE frame: rows staged, not used until CAL_SAVE."""
        parsed = wire.parse_calibrate(payload)
        if parsed is None or parsed[0] + len(parsed[1]) // 3 > self.n:
            self.send_error(wire.ERR_BAD_CONFIG, "CALIBRATE needs 1 + 6k bytes within the matrix")
            return
        first, values = parsed
        if self.staged is None or self.staged_got is None:
            self.staged = [0] * (3 * self.n)
            self.staged_got = [0] * self.n
        for k in range(len(values)):
            self.staged[3 * first + k] = values[k]
        for i in range(first, first + len(values) // 3):
            self.staged_got[i] = 1

    def save_calibration(self, payload: bytes) -> None:
        """CAL_SAVE: the staged table checked, stored and used; CAL_STATUS says how it went.
        Whatever fails, the table in use stays (and so does the one on the flash)."""
        table = self.staged
        complete = self.staged_got is not None and 0 not in self.staged_got
        self.staged = None
        self.staged_got = None
        if table is None or not complete:
            status = wire.CAL_INCOMPLETE
        elif len(payload) != 4 or int.from_bytes(payload, "little") != calstore.table_crc(table):
            status = wire.CAL_BAD_CRC
        elif check_table(table, self.n) >= 0:
            status = wire.CAL_REFUSED
        elif self.store is None or not self.store.save(table):
            status = wire.CAL_FLASH_FAILED
        else:
            status = wire.CAL_IN_USE
            self.levels.use(table)
            self.cal_crc = calstore.table_crc(table)
            self.full_look = True
        self.send_cal_status(status)

    # -- the loop ----------------------------------------------------------------------------
    def scan(self, now: int) -> None:
        """One scan: levels read, classified, debounced; the chain's checks told."""
        try:
            levels = self.chain.read()
        except Exception as exc:  # noqa: BLE001  any chain failure: report, keep running
            self.send_error(wire.ERR_SCAN, "scan failed: " + str(exc))
            self.scan_ok = False
            return
        self.scan_ok = True
        self.scans += 1
        changed = self.levels.update(levels)
        if self.full_look or changed is None:
            self.full_look = False
            if self.debouncer.update(self.levels.classes):  # type: ignore[arg-type]
                self.pending = True
        elif changed or not self.debouncer.idle():
            # only the sensors whose class changed, and those mid-debounce, are looked at
            if self.debouncer.update(self.levels.classes, changed):  # type: ignore[arg-type]
                self.pending = True
        self.tell_condition(wire.ERR_CHAIN, self.chain.problem, now)
        supply = self.chain.supply_mv
        self.tell_condition(wire.ERR_SUPPLY, None if supply >= chain.SUPPLY_LOW_MV else
                            "sensor supply %d mV, under %d" % (supply, chain.SUPPLY_LOW_MV), now)

    def step(self) -> None:
        """Run whatever is due now: a scan every period, SCAN on change or heartbeat."""
        if self.feed is not None:
            self.feed()
        now = self.ticks_ms()
        diff = self.ticks_diff
        if diff(now, self.next_scan) >= 0:
            self.scan(now)
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
