# Firmware tests that run twice: here under CPython (pytest collects them) and under real
# MicroPython 1.27 (tests/test_firmware_micropython.py copies this file, the firmware and
# the vectors flat into the interpreter's /input and calls every test_* function).
# So: the MicroPython subset only (no pytest, no dataclasses/typing, plain asserts),
# plain fakes for pins, SPI and the clock.
import json
from binascii import unhexlify

try:
    from firmware import board as fwboard
    from firmware import debounce, link, scan, wire
except ImportError:  # MicroPython: the files are flat
    import board as fwboard
    import debounce
    import link
    import scan
    import wire


def _vectors_path():
    here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
    return here + "/vectors/frames.json"


def _vectors():
    with open(_vectors_path()) as fh:
        return json.load(fh)


# -- fakes -------------------------------------------------------------------------------

class FakeClock:
    def __init__(self):
        self.now = 1000

    def ticks_ms(self):
        return self.now

    def ticks_diff(self, a, b):
        return a - b


class FakeChain:
    """SH/LD pin and SPI of a 74HC165 chain holding `values` (2 bits a sensor)."""

    def __init__(self, n):
        self.values = [0] * n
        self.latched = bytearray(scan.chain_bytes(n))
        self.level = 1
        self.loads = 0
        self.fail = False

    def value(self, v=None):
        if v is None:
            return self.level
        if self.level and not v:
            self.latched = scan.encode_chain(self.values)
            self.loads += 1
        self.level = v

    def readinto(self, buf):
        if self.fail:
            raise OSError("chain broken")
        for i in range(len(buf)):
            buf[i] = self.latched[i]


class Sink:
    def __init__(self):
        self.data = bytearray()
        self.reader = wire.FrameReader()

    def write(self, b):
        self.data.extend(b)

    def frames(self):
        got = self.reader.feed(bytes(self.data))
        self.data = bytearray()
        return got


def make_board(rows=2, cols=3, **kw):
    clock = FakeClock()
    chain = FakeChain(rows * cols)
    sink = Sink()
    fed = [0]

    def feed():
        fed[0] += 1

    b = fwboard.Board(scan.Scanner(chain, chain, rows * cols), sink.write, clock.ticks_ms,
                      clock.ticks_diff, rows, cols, feed=feed, **kw)
    return b, clock, chain, sink, fed


def run_for(b, clock, ms):
    for _ in range(ms):
        clock.now += 1
        b.step()


# -- wire ----------------------------------------------------------------------------------

def test_crc32_known_value_and_pure_code_agree():
    assert wire.crc32(b"123456789") == 0xCBF43926
    assert wire.crc32_pure(b"123456789") == 0xCBF43926
    assert wire.crc32_pure(b"") == 0
    data = bytes(range(256))
    assert wire.crc32_pure(data) == wire.crc32(data)


def test_cobs_round_trip_and_no_zeros():
    samples = [b"", b"\x00", b"\x00\x00", b"\x11\x22\x00\x33", bytes(range(1, 255)),
               bytes(range(1, 255)) + b"\x00", bytes(range(256)) * 2, b"\x01" * 600]
    for s in samples:
        enc = wire.cobs_encode(s)
        assert 0 not in enc
        assert wire.cobs_decode(enc) == s


def test_cobs_decode_rejects_malformed():
    assert wire.cobs_decode(b"") is None
    assert wire.cobs_decode(b"\x05\x01") is None     # block runs past the end
    assert wire.cobs_decode(b"\x03\x00\x01") is None  # zero inside a block


def test_golden_vectors_encode_byte_exact():
    for v in _vectors():
        payload = unhexlify(v["payload"])
        assert wire.pack_frame(v["type"], v["seq"], payload) == unhexlify(v["decoded"]), v["name"]
        assert wire.build_frame(v["type"], v["seq"], payload) == unhexlify(v["wire"]), v["name"]


def test_golden_vectors_decode():
    reader = wire.FrameReader()
    stream = bytearray()
    for v in _vectors():
        stream.extend(unhexlify(v["wire"]))
    got = reader.feed(bytes(stream))
    want = [(v["type"], v["seq"], unhexlify(v["payload"])) for v in _vectors()]
    assert got == want
    assert reader.bad == 0


def test_reader_resynchronises_after_garbage_and_counts_bad_frames():
    good = wire.build_frame(wire.PING, 7, b"ab")
    damaged = bytearray(good)
    damaged[3] ^= 0x40
    reader = wire.FrameReader()
    got = reader.feed(b"\x13\x37garbage\x00" + bytes(damaged) + good + b"\xff" * 400 + b"\x00" + good)
    assert got == [(wire.PING, 7, b"ab"), (wire.PING, 7, b"ab")]
    assert reader.bad == 3  # garbage, the damaged frame, the overlong run


def test_reader_accepts_a_frame_split_byte_by_byte():
    good = wire.build_frame(wire.CONFIG, 9, wire.config_payload(5, 2, 100))
    reader = wire.FrameReader()
    got = []
    for i in range(len(good)):
        got.extend(reader.feed(good[i:i + 1]))
    assert got == [(wire.CONFIG, 9, wire.config_payload(5, 2, 100))]
    assert wire.parse_config(got[0][2]) == (5, 2, 100)


def test_sensor_packing_first_sensor_in_low_bits():
    assert wire.pack_sensors([1, 2, 3, 0, 2]) == bytes((0b00111001, 0b10))
    vals = [i % 4 for i in range(182)]
    assert wire.unpack_sensors(wire.pack_sensors(vals), 182) == vals
    assert len(wire.pack_sensors(vals)) == 46


def test_pack_frame_rejects_overlong_payload():
    try:
        wire.pack_frame(wire.PONG, 0, bytes(248))
    except ValueError:
        return
    raise AssertionError("a 248-byte payload was accepted")


# -- scan ------------------------------------------------------------------------------------

def test_chain_bits_north_south_msb_first():
    # sensor 0 white (north bit = chain bit 0 = MSB of byte 0), sensor 1 black (chain bit 3),
    # sensor 4 fault (chain bits 8 and 9 = top two bits of byte 1)
    buf = scan.encode_chain([1, 2, 0, 0, 3])
    assert bytes(buf) == bytes((0b10010000, 0b11000000))
    assert scan.decode_chain(buf, 5) == [1, 2, 0, 0, 3]


def test_scanner_latches_then_shifts():
    chain = FakeChain(182)
    s = scan.Scanner(chain, chain, 182)
    chain.values[100] = 2
    chain.values[181] = 1
    got = s.scan()
    assert chain.loads == 1 and chain.level == 1
    assert got[100] == 2 and got[181] == 1 and sum(got) == 3
    assert scan.chain_bytes(182) == 46


# -- debounce --------------------------------------------------------------------------------

def test_debounce_needs_n_equal_scans():
    d = debounce.Debouncer(2, 3)
    assert not d.update([1, 0])
    assert not d.update([1, 0])
    assert d.update([1, 0])
    assert d.values() == [1, 0]


def test_debounce_ignores_flicker_and_restarts_on_a_new_value():
    d = debounce.Debouncer(1, 3)
    for raw in ([1], [0], [1], [1], [2], [2]):
        assert not d.update(raw)
    assert d.values() == [0]
    assert d.update([2])
    assert d.values() == [2]


def test_debounce_count_one_is_immediate():
    d = debounce.Debouncer(1, 1)
    assert d.update([3])
    assert d.values() == [3]


# -- board -----------------------------------------------------------------------------------

def test_boot_sends_hello_with_matrix_and_version():
    b, clock, chain, sink, fed = make_board(firmware="fw-x")
    b.boot()
    got = sink.frames()
    assert got == [(wire.HELLO, 0, bytes((1, 2, 3)) + b"fw-x")]


def test_watchdog_reset_reported_at_boot_and_watchdog_fed_every_step():
    b, clock, chain, sink, fed = make_board(watchdog_reset=True)
    b.boot()
    types = [f[0] for f in sink.frames()]
    assert types == [wire.HELLO, wire.ERROR]
    run_for(b, clock, 50)
    assert fed[0] == 50


def test_change_is_sent_after_debounce_within_40ms():
    b, clock, chain, sink, fed = make_board()
    b.boot()
    sink.frames()
    chain.values[4] = 1
    t0 = clock.now
    sent_at = None
    for _ in range(60):
        clock.now += 1
        b.step()
        got = sink.frames()
        if got:
            assert got[0][0] == wire.SCAN
            assert wire.unpack_sensors(got[0][2], 6) == [0, 0, 0, 0, 1, 0]
            sent_at = clock.now
            break
    assert sent_at is not None and 20 <= sent_at - t0 <= 40


def test_changes_at_most_every_20ms_and_nothing_lost():
    b, clock, chain, sink, fed = make_board(debounce=1, scan_period=1)
    b.boot()
    sink.frames()
    times = []
    last = None
    for ms in range(200):
        chain.values[0] = (ms // 5) % 2   # changes every 5 ms
        clock.now += 1
        b.step()
        for f in sink.frames():
            times.append(clock.now)
            last = f
    gaps = [times[i + 1] - times[i] for i in range(len(times) - 1)]
    assert len(times) >= 8
    assert min(gaps) >= fwboard.MIN_CHANGE_MS
    assert last[0] == wire.SCAN


def test_heartbeat_every_500ms_without_change():
    b, clock, chain, sink, fed = make_board()
    b.boot()
    sink.frames()
    count = 0
    for _ in range(2000):
        clock.now += 1
        b.step()
        count += len(sink.frames())
    assert count == 4


def test_ping_pong_hello_request_and_seq_counts_up():
    b, clock, chain, sink, fed = make_board()
    b.boot()
    b.receive(wire.build_frame(wire.PING, 0, b"12345678") + wire.build_frame(wire.HELLO_REQ, 1))
    b.receive(wire.build_frame(0x99, 2, b"unknown type: ignored"))
    got = sink.frames()
    assert [(t, s) for t, s, _ in got] == [(wire.HELLO, 0), (wire.PONG, 1), (wire.HELLO, 2)]
    assert got[1][2] == b"12345678"


def test_config_applies_and_bad_config_is_reported():
    b, clock, chain, sink, fed = make_board()
    b.receive(wire.build_frame(wire.CONFIG, 0, wire.config_payload(5, 2, 100)))
    assert (b.scan_period, b.debouncer.count, b.heartbeat) == (5, 2, 100)
    assert sink.frames() == []
    b.receive(wire.build_frame(wire.CONFIG, 1, wire.config_payload(0, 2, 100)))
    got = sink.frames()
    assert got[0][0] == wire.ERROR and got[0][2][0] == wire.ERR_BAD_CONFIG
    assert (b.scan_period, b.debouncer.count, b.heartbeat) == (5, 2, 100)


def test_bad_frame_from_host_is_reported_once_per_gap():
    b, clock, chain, sink, fed = make_board()
    bad = bytearray(wire.build_frame(wire.PING, 0, b"x"))
    bad[2] ^= 1
    b.receive(bytes(bad) + bytes(bad))
    got = sink.frames()
    assert len(got) == 1 and got[0][0] == wire.ERROR and got[0][2][0] == wire.ERR_BAD_FRAME
    clock.now += fwboard.ERROR_GAP_MS
    b.receive(bytes(bad))
    assert len(sink.frames()) == 1


def test_scan_failure_reported_and_loop_keeps_running():
    b, clock, chain, sink, fed = make_board()
    chain.fail = True
    run_for(b, clock, 30)
    got = sink.frames()
    assert got and got[0][0] == wire.ERROR and got[0][2][0] == wire.ERR_SCAN
    chain.fail = False
    chain.values[0] = 2
    run_for(b, clock, 60)
    scans = [f for f in sink.frames() if f[0] == wire.SCAN]
    assert scans and wire.unpack_sensors(scans[-1][2], 6)[0] == 2


def _timed_frames(skip):
    b, clock, chain, sink, fed = make_board()
    b.boot()
    sink.frames()
    out = []
    steps = 0
    while clock.now < 3000:
        if clock.now == 1100:
            chain.values[1] = 2
        if clock.now == 1437:
            chain.values[1] = 0
        due = b.next_due() if skip else clock.now + 1
        step_to = min(max(due, clock.now + 1), 1100 if clock.now < 1100 else
                      (1437 if clock.now < 1437 else 3000))
        clock.now = step_to
        b.step()
        steps += 1
        for f in sink.frames():
            out.append((clock.now, f))
    return out, steps


def test_next_due_skips_idle_time_but_no_work():
    skipped, few = _timed_frames(True)
    every_ms, many = _timed_frames(False)
    assert skipped == every_ms
    assert len(skipped) == 5          # two changes and three heartbeats
    assert few < many // 4


def test_unchanged_chain_is_not_decoded_again():
    b, clock, chain, sink, fed = make_board()
    run_for(b, clock, 1000)
    assert b.scans >= 99 and b.decoded == 1
    chain.values[2] = 1
    run_for(b, clock, 100)
    assert b.decoded == 1 + 3          # the new bytes, then until the debounce settles
    assert b.values()[2] == 1
    chain.values[2] = 0                 # a blip shorter than the debounce
    run_for(b, clock, 10)
    chain.values[2] = 1
    run_for(b, clock, 100)
    assert b.values()[2] == 1 and b.decoded <= 4 + 3


# -- the link to the host ------------------------------------------------------------------

class FakeCdc:
    """MicroPython's USB serial port on the rp2 port, host attached (shared/tinyusb/
    mp_usbd_cdc.c): a 256-byte TX FIFO the host empties when it reads; a write puts in
    what fits and, while the FIFO stays full, waits 500 ms and drops the rest; POLLOUT
    while the FIFO has any room. The wait moves the fake clock."""

    FIFO = 256
    TIMEOUT_MS = 500

    def __init__(self, clock):
        self.clock = clock
        self.fifo = bytearray()
        self.host = Sink()          # what the host has read
        self.rx = bytearray()       # host -> board

    def write(self, data):
        room = self.FIFO - len(self.fifo)
        self.fifo.extend(data[:room])
        if len(data) > room:
            self.clock.now += self.TIMEOUT_MS
        return min(room, len(data))

    def read(self, n):
        got = bytes(self.rx[:n])
        self.rx = self.rx[n:]
        return got

    def host_reads(self):
        self.host.write(self.fifo)
        self.fifo = bytearray()
        return self.host.frames()


class Poll:
    def __init__(self, ready):
        self.ready = ready

    def poll(self, timeout):
        return [1] if self.ready() else []


def _cdc_board():
    clock = FakeClock()
    cdc = FakeCdc(clock)
    port = link.Link(cdc, cdc, Poll(lambda: len(cdc.rx) > 0),
                     Poll(lambda: len(cdc.fifo) < cdc.FIFO))
    chain = FakeChain(6)
    feeds = []
    b = fwboard.Board(scan.Scanner(chain, chain, 6), port.write, clock.ticks_ms,
                      clock.ticks_diff, 2, 3, feed=lambda: feeds.append(clock.now), heartbeat=20)
    return b, clock, cdc, port, chain, feeds


def _loop(b, clock, port, ms):
    """main.run()'s loop: read what the host sent, step, 1 ms sleep."""
    end = clock.now + ms
    while clock.now < end:
        got = port.read()
        if got:
            b.receive(got)
        b.step()
        clock.now += 1


def test_link_reads_what_the_host_sent_in_chunks():
    b, clock, cdc, port, chain, feeds = _cdc_board()
    sent = wire.build_frame(wire.PING, 0, b"ab") * 20
    cdc.rx.extend(sent)
    chunks = []
    got = port.read()
    while got:
        chunks.append(got)
        got = port.read()
    assert len(chunks[0]) == link.READ_CHUNK and len(chunks) > 2
    assert b"".join(chunks) == sent and got == bytearray()


def test_a_host_that_stops_reading_never_starves_the_watchdog():
    b, clock, cdc, port, chain, feeds = _cdc_board()
    b.boot()
    _loop(b, clock, port, 600)            # heartbeats fill the FIFO: the host reads nothing
    assert len(cdc.fifo) > cdc.FIFO - 16
    for i in range(8):                    # a burst of PINGs: 8 PONGs due in one step
        cdc.rx.extend(wire.build_frame(wire.PING, i, str(i).encode()))
    chain.values[2] = scan.BLACK
    _loop(b, clock, port, 1000)
    gap = max([feeds[i + 1] - feeds[i] for i in range(len(feeds) - 1)])
    assert gap < 2000, gap    # pins.WATCHDOG_MS: the board would have reset
    assert port.dropped > 8               # the frames the port could not take, counted
    cdc.host_reads()                      # the host reads again: the board is alive
    cdc.host = Sink()                     # (past the cut-off frame the 500 ms wait left)
    cdc.rx.extend(wire.build_frame(wire.PING, 9, b"back"))
    _loop(b, clock, port, 100)
    got = cdc.host_reads()
    assert (wire.PONG, b"back") in [(t, p) for t, _s, p in got]
    assert port.written + port.dropped == b.frames_sent


def test_debounce_looking_only_at_changed_sensors_matches_looking_at_all():
    # a fixed pseudo-random walk (no random module needed under MicroPython)
    n = 23
    full = debounce.Debouncer(n, 3)
    quick = debounce.Debouncer(n, 3)
    last = None
    seed = 12345
    for step in range(120):
        values = list(full.candidate) if step else [0] * n
        for _ in range(3):
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            values[seed % n] = (seed >> 8) & 3
        raw = scan.encode_chain(values)
        only = None if last is None else scan.changed_sensors(last, raw, n)
        last = raw
        assert scan.decode_chain(raw, n) == values
        assert full.update(values) == quick.update(values, only)
        assert full.stable == quick.stable and full.idle() == quick.idle()
        assert bytes(quick.packed) == wire.pack_sensors(full.stable)
