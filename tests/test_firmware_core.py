# Firmware tests that run twice: here under CPython (pytest collects them) and under real
# MicroPython 1.27 (tests/test_firmware_micropython.py copies this file, the firmware and
# the vectors flat into the interpreter's /input and calls every test_* function).
# So: the MicroPython subset only (no pytest, no dataclasses/typing, plain asserts),
# plain fakes for pins, SPI and the clock.
import json
from binascii import unhexlify

try:
    from firmware import board as fwboard
    from firmware import calstore, chain, debounce, levels, link, wire
except ImportError:  # MicroPython: the files are flat
    import board as fwboard
    import calstore
    import chain
    import debounce
    import levels
    import link
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


TYPICAL = levels.TYPICAL_LEVELS_MV


class FakeFront:
    """The chain's primitives over modules of `sizes` sensors: a flip-flop a module, the
    token holder's addressed channel on the bus, RET from the last flip-flop. `values`
    (0..3 a sensor) become the typical part's levels (fault: 0 V) unless `mv` names a
    sensor's level; `dark` modules never drive the bus (unplugged), `fail` raises."""

    def __init__(self, sizes):
        self.sizes = sizes
        self.n = sum(sizes)
        self.values = [0] * self.n
        self.mv = {}
        self.flops = [0] * len(sizes)
        self.channel = 0
        self.dark = []
        self.shunt = len(sizes) - 1   # the module whose J2 carries the RET shunt (None: none)
        self.supply_mv = 5000
        self.fail = False
        self.pulses = []
        self.scans = 0

    def sensor_mv(self, i):
        if i in self.mv:
            return self.mv[i]
        v = self.values[i]
        return 0 if v == 3 else TYPICAL[v]

    def address(self, channel):
        self.channel = channel

    def clock(self, token):
        if self.fail:
            raise OSError("chain broken")
        self.pulses.append(token)
        if token:
            self.scans += 1
        self.flops = [token] + self.flops[:-1]
        return 0 if self.shunt is None else self.flops[self.shunt]

    def level(self):
        at = 0
        for m in range(len(self.sizes)):
            if self.flops[m] and m not in self.dark:
                return self.sensor_mv(at + self.channel) if self.channel < self.sizes[m] else 0
            at += self.sizes[m]
        return 0

    def supply(self):
        return self.supply_mv

    def read_module(self, count, out, at):
        chain.read_module(self, count, out, at)


class FakeFlash:
    """A flash of named files; `cut` bytes may still be written before power fails."""

    def __init__(self):
        self.files = {}
        self.cut = -1

    def open(self, name, mode):
        if "w" in mode:
            return FakeFile(self, name)
        if name not in self.files:
            raise OSError(2)
        return FakeFile(self, name, self.files[name])

    def rename(self, old, new):
        if old not in self.files or self.cut == 0:
            raise OSError(2)
        self.files[new] = self.files.pop(old)

    def remove(self, name):
        if name not in self.files:
            raise OSError(2)
        del self.files[name]

    def store(self):
        return calstore.Store(self.open, self.rename, self.remove)


class FakeFile:
    def __init__(self, flash, name, data=None):
        self.flash = flash
        self.name = name
        self.data = data
        if data is None:
            flash.files[name] = b""

    def read(self):
        return self.data

    def write(self, data):
        room = len(data) if self.flash.cut < 0 else min(len(data), self.flash.cut)
        if self.flash.cut >= 0:
            self.flash.cut -= room
        self.flash.files[self.name] = self.flash.files[self.name] + bytes(data[:room])
        if room < len(data):
            raise OSError(5)
        return room

    def close(self):
        pass


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


def make_board(rows=2, cols=3, calibrated=True, flash=None, **kw):
    """A board with the typical part's levels stored as its calibration (or none)."""
    clock = FakeClock()
    front = FakeFront(chain.module_sizes(rows * cols))
    sink = Sink()
    fed = [0]
    if flash is None:
        flash = FakeFlash()
        if calibrated:
            flash.store().save(list(TYPICAL) * (rows * cols))

    def feed():
        fed[0] += 1

    b = fwboard.Board(chain.Chain(front, front.sizes), sink.write, clock.ticks_ms,
                      clock.ticks_diff, rows, cols, feed=feed, store=flash.store(), **kw)
    return b, clock, front, sink, fed


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


# -- the chain -------------------------------------------------------------------------------

def test_a_scan_walks_the_token_through_every_module_and_reads_each_channel():
    front = FakeFront(chain.MODULE_SIZES)
    front.values[100] = 2
    front.values[181] = 1
    front.mv[7] = 1234
    c = chain.Chain(front, chain.MODULE_SIZES)
    got = c.read()
    assert front.pulses == [1] + [0] * 16       # the token in, on through 16 modules, out
    assert got[100] == TYPICAL[2] and got[181] == TYPICAL[1] and got[7] == 1234
    assert got[0] == TYPICAL[0] and len(got) == 182
    assert c.problem is None and c.supply_mv == 5000


def test_boot_flushes_the_chain_with_zeros():
    front = FakeFront((4, 4))
    front.flops = [1, 1]                         # power-up: any flip-flop may hold a 1
    c = chain.Chain(front, (4, 4))
    c.flush()
    assert front.pulses == [0] * chain.FLUSH_PULSES and front.flops == [0, 0]


def test_a_broken_chain_names_the_first_module_that_did_not_answer():
    front = FakeFront(chain.MODULE_SIZES)
    front.dark = list(range(4, 16))              # P9-10 unplugged: it and all after it dark
    front.shunt = None                             # RET never comes back
    c = chain.Chain(front, chain.MODULE_SIZES)
    c.read()
    assert c.problem == "chain broken at module 5 (P9-10): RET did not follow the token"
    front.dark = []
    c.read()
    assert c.problem.startswith("RET did not come back from module 16 (TRAY-B)")


def test_ret_early_and_a_module_that_keeps_the_bus_are_problems():
    front = FakeFront((4, 4, 4))
    front.shunt = 1                              # the shunt on the middle module
    c = chain.Chain(front, (4, 4, 4))
    c.read()
    assert c.problem is not None and "RET came back at module 2" in c.problem
    front.shunt = 2
    c.read()
    assert c.problem is None
    bus = front.level

    def shorted_enable():
        # a module's /E shorted to ground: it drives the bus whoever holds the token
        return bus() or 900
    front.level = shorted_enable
    c.read()
    assert c.problem is not None and "900 mV or more with no module enabled" in c.problem


def test_module_sizes_of_other_matrices():
    assert chain.module_sizes(182) == chain.MODULE_SIZES and sum(chain.MODULE_SIZES) == 182
    assert chain.module_sizes(6) == (6,)
    assert chain.module_sizes(40) == (16, 16, 8)
    assert chain.module_name(4, chain.MODULE_SIZES) == "5 (P9-10)"
    assert chain.module_name(2, (16, 16, 8)) == "3"


# -- levels ------------------------------------------------------------------------------------

def _levels_with(e, w, b, n=1):
    lv = levels.Levels(n)
    lv.use([e, w, b] * n)
    return lv


def _settle(lv, mv, scans=20):
    for _ in range(scans):
        lv.update([mv] * lv.n)
    return lv.classes[0]


def test_white_above_empty_plus_f_of_the_span_black_below_with_hysteresis():
    e, w, b = 1000, 1600, 500
    f = levels.CLASSIFY_PERMILLE
    h = levels.HYSTERESIS_PERMILLE // 2
    lv = _levels_with(e, w, b)
    w_on = e + (w - e) * (f + h) // 1000
    w_off = e + (w - e) * (f - h) // 1000
    b_on = e - (e - b) * (f + h) // 1000
    b_off = e - (e - b) * (f - h) // 1000
    assert _settle(lv, e) == levels.EMPTY
    assert _settle(lv, w_on) == levels.EMPTY          # at the threshold: not yet
    assert _settle(lv, w_on + 2) == levels.WHITE
    assert _settle(lv, w_off + 2) == levels.WHITE     # inside the hysteresis: stays
    assert _settle(lv, w_off - 2) == levels.EMPTY
    assert _settle(lv, b_on - 2) == levels.BLACK
    assert _settle(lv, b_off - 2) == levels.BLACK
    assert _settle(lv, b_off + 2) == levels.EMPTY
    assert _settle(lv, 79) == levels.FAULT            # under 80 mV: no sensor, no supply
    assert _settle(lv, 3001) == levels.FAULT          # over 3.0 V: a short to the supply
    assert _settle(lv, e) == levels.EMPTY


def test_each_sensor_by_its_own_calibration():
    lv = levels.Levels(2)
    # a weak sensor (span 150 mV) and a strong one (span 700 mV), quiescent levels apart
    lv.use([950, 1100, 800, 1130, 1830, 430])
    for _ in range(12):
        lv.update([1100, 1830])
    assert list(lv.classes) == [levels.WHITE, levels.WHITE]
    for _ in range(12):
        lv.update([1100, 1130])               # 1100 mV: white for the first, empty for the second
    assert list(lv.classes) == [levels.WHITE, levels.EMPTY]


def test_typical_levels_until_a_calibration_is_used():
    lv = levels.Levels(3)
    assert not lv.calibrated
    for _ in range(12):
        lv.update([TYPICAL[0], TYPICAL[1], TYPICAL[2]])
    assert list(lv.classes) == [levels.EMPTY, levels.WHITE, levels.BLACK]


def test_noise_is_averaged_over_scans():
    e, w, b = 1000, 1600, 500
    lv = _levels_with(e, w, b)
    _settle(lv, e)
    threshold = e + (w - e) * (levels.CLASSIFY_PERMILLE + levels.HYSTERESIS_PERMILLE // 2) // 1000
    flips = 0
    for k in range(200):       # spikes to just over the threshold every other scan
        lv.update([threshold + 40 if k % 2 else e])
        flips += lv.classes[0] != levels.EMPTY
    assert flips == 0


def test_the_empty_level_follows_a_slow_drift_but_not_a_checker():
    e, w, b = 1000, 1600, 500
    lv = _levels_with(e, w, b)
    _settle(lv, e)
    limit = levels.TRACK_LIMIT_MV
    for step in range(2 * limit):              # the quiescent level creeps up 2x the limit
        for _ in range(4 * levels.TRACK_PER_SCAN):
            lv.update([e + step])
    assert lv.empty[0] == e + limit            # followed, as far as the limit
    assert lv.classes[0] == levels.EMPTY
    _settle(lv, 1600 + limit)      # white still reads white, the thresholds moved along
    assert lv.classes[0] == levels.WHITE
    tracked = lv.empty[0]
    _settle(lv, 1000, 20)
    _settle(lv, 1000 + 60, 400)    # a checker's stray field nearby is not followed past it
    assert lv.empty[0] <= tracked
    _settle(lv, 1650, 400)         # a checker standing there is not tracked
    assert lv.empty[0] <= tracked


def test_the_band_check_finds_every_change_a_full_classification_finds():
    n = 9
    lv = levels.Levels(n)
    table = []
    for i in range(n):
        table += [900 + 20 * i, 1500 + 10 * i, 400 - 10 * i]
    lv.use(table)
    seed = 4321
    mv = [1000] * n
    for _ in range(300):
        for _ in range(2):
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            mv[seed % n] = 50 + (seed >> 8) % 3000
        before = list(lv.classes)
        changed = lv.update(mv)
        want = [levels.classify(lv.doubled[i], before[i], lv.empty[i], lv.span_white[i],
                                lv.span_black[i]) for i in range(n)]
        assert list(lv.classes) == want
        assert sorted(changed) == [i for i in range(n) if want[i] != before[i]]


def test_a_table_is_refused_when_a_level_is_impossible():
    assert levels.check_table([1000, 1600, 500, 1000, 1500, 600], 2) == -1
    assert levels.check_table([1000, 1600, 500, 1000, 1020, 600], 2) == 1   # white not beyond
    assert levels.check_table([1000, 1600, 990, 1000, 1500, 600], 2) == 0   # black not beyond
    assert levels.check_table([60, 1600, 20, 1000, 1500, 600], 2) == 0      # under 80 mV
    assert levels.check_table([1000, 3100, 500, 1000, 1500, 600], 2) == 0   # over 3.0 V


# -- the calibration on flash ------------------------------------------------------------------

def test_the_calibration_survives_a_power_cut_while_writing():
    flash = FakeFlash()
    store = flash.store()
    old = [1000, 1600, 500] * 4
    new = [1010, 1650, 480] * 4
    assert store.save(old) and store.load(4) == old
    for cut in (0, 1, 10, len(calstore.encode(new)) - 1):
        flash.cut = cut                          # the power fails after `cut` bytes
        assert not store.save(new)
        flash.cut = -1
        assert flash.store().load(4) == old, cut  # the next boot reads the old table
    assert store.save(new) and flash.store().load(4) == new


def test_a_damaged_or_foreign_file_is_never_used():
    flash = FakeFlash()
    store = flash.store()
    table = [1000, 1600, 500] * 3
    assert store.save(table)
    data = bytearray(flash.files[calstore.CAL_FILE])
    data[9] ^= 0x10
    flash.files[calstore.CAL_FILE] = bytes(data)
    assert store.load(3) is None and store.present()
    assert store.save(table)
    assert store.load(4) is None                 # a table for another matrix
    flash.files[calstore.TEMP_FILE] = flash.files.pop(calstore.CAL_FILE)
    assert store.load(3) == table                # cut between remove and rename: the new one


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
    b, clock, front, sink, fed = make_board(firmware="fw-x")
    b.boot()
    got = sink.frames()
    assert got == [(wire.HELLO, 0, bytes((wire.VERSION, 2, 3)) + b"fw-x")]
    assert wire.VERSION == 2


def test_watchdog_reset_reported_at_boot_and_watchdog_fed_every_step():
    b, clock, front, sink, fed = make_board(watchdog_reset=True)
    b.boot()
    types = [f[0] for f in sink.frames()]
    assert types == [wire.HELLO, wire.ERROR]
    run_for(b, clock, 50)
    assert fed[0] == 50


def test_change_is_sent_after_debounce_within_40ms():
    b, clock, front, sink, fed = make_board()
    b.boot()
    sink.frames()
    front.values[4] = 1
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
    b, clock, front, sink, fed = make_board(debounce=1, scan_period=1)
    b.boot()
    sink.frames()
    times = []
    last = None
    for ms in range(200):
        front.values[0] = (ms // 5) % 2   # changes every 5 ms
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
    b, clock, front, sink, fed = make_board()
    b.boot()
    sink.frames()
    count = 0
    for _ in range(2000):
        clock.now += 1
        b.step()
        count += len(sink.frames())
    assert count == 4


def test_ping_pong_hello_request_and_seq_counts_up():
    b, clock, front, sink, fed = make_board()
    b.boot()
    b.receive(wire.build_frame(wire.PING, 0, b"12345678") + wire.build_frame(wire.HELLO_REQ, 1))
    b.receive(wire.build_frame(0x99, 2, b"unknown type: ignored"))
    got = sink.frames()
    assert [(t, s) for t, s, _ in got] == [(wire.HELLO, 0), (wire.PONG, 1), (wire.HELLO, 2)]
    assert got[1][2] == b"12345678"


def test_config_applies_and_bad_config_is_reported():
    b, clock, front, sink, fed = make_board()
    b.receive(wire.build_frame(wire.CONFIG, 0, wire.config_payload(5, 2, 100)))
    assert (b.scan_period, b.debouncer.count, b.heartbeat) == (5, 2, 100)
    assert sink.frames() == []
    b.receive(wire.build_frame(wire.CONFIG, 1, wire.config_payload(0, 2, 100)))
    got = sink.frames()
    assert got[0][0] == wire.ERROR and got[0][2][0] == wire.ERR_BAD_CONFIG
    assert (b.scan_period, b.debouncer.count, b.heartbeat) == (5, 2, 100)


def test_bad_frame_from_host_is_reported_once_per_gap():
    b, clock, front, sink, fed = make_board()
    bad = bytearray(wire.build_frame(wire.PING, 0, b"x"))
    bad[2] ^= 1
    b.receive(bytes(bad) + bytes(bad))
    got = sink.frames()
    assert len(got) == 1 and got[0][0] == wire.ERROR and got[0][2][0] == wire.ERR_BAD_FRAME
    clock.now += fwboard.ERROR_GAP_MS
    b.receive(bytes(bad))
    assert len(sink.frames()) == 1


def test_scan_failure_reported_and_loop_keeps_running():
    b, clock, front, sink, fed = make_board()
    front.fail = True
    run_for(b, clock, 30)
    got = sink.frames()
    assert got and got[0][0] == wire.ERROR and got[0][2][0] == wire.ERR_SCAN
    front.fail = False
    front.values[0] = 2
    run_for(b, clock, 60)
    scans = [f for f in sink.frames() if f[0] == wire.SCAN]
    assert scans and wire.unpack_sensors(scans[-1][2], 6)[0] == 2


def _timed_frames(skip):
    b, clock, front, sink, fed = make_board()
    b.boot()
    sink.frames()
    out = []
    steps = 0
    while clock.now < 3000:
        if clock.now == 1100:
            front.values[1] = 2
        if clock.now == 1437:
            front.values[1] = 0
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


def test_only_sensors_whose_class_changed_reach_the_debouncer():
    b, clock, front, sink, fed = make_board(rows=14, cols=13)
    seen = []
    update = b.debouncer.update

    def spy(raw, only=None):
        seen.append(None if only is None else sorted(only))
        return update(raw, only)
    b.debouncer.update = spy
    run_for(b, clock, 1000)
    assert seen == [None]              # the first scan looks at all, then nothing changed
    front.values[2] = 1
    run_for(b, clock, 100)
    assert b.values()[2] == 1 and seen[1] == [2] and all(only in ([2], []) for only in seen[2:])
    assert len(seen) <= 6               # the scans of the debounce, then none


# -- version 2: levels and calibration -----------------------------------------------------------

def _frames_of(sink, ftype):
    return [p for t, _s, p in sink.frames() if t == ftype]


def _u16s(data):
    return [data[k] | (data[k + 1] << 8) for k in range(0, len(data), 2)]


def _send_table(b, table, crc=None):
    n = len(table) // 3
    for first in range(0, n, wire.CAL_ROWS_PER_FRAME):
        rows = table[3 * first:3 * min(n, first + wire.CAL_ROWS_PER_FRAME)]
        b.receive(wire.build_frame(wire.CALIBRATE, 0, wire.calibrate_payload(first, rows)))
    if crc is None:
        crc = calstore.table_crc(table)
    b.receive(wire.build_frame(wire.CAL_SAVE, 0, crc.to_bytes(4, "little")))


def _status(payload):
    return (payload[0], int.from_bytes(payload[1:5], "little"), payload[5] | (payload[6] << 8))


def test_levels_are_sent_in_frames_of_120_sensors():
    b, clock, front, sink, fed = make_board(rows=14, cols=13)
    front.mv[0] = 1500
    front.mv[181] = 700
    run_for(b, clock, 200)
    sink.frames()
    b.receive(wire.build_frame(wire.LEVELS_REQ, 0))
    parts = _frames_of(sink, wire.LEVELS)
    assert [p[0] for p in parts] == [0, 120] and [len(p) for p in parts] == [241, 125]
    got = _u16s(parts[0][1:]) + _u16s(parts[1][1:])
    assert len(got) == 182 and abs(got[0] - 1500) <= 1 and abs(got[181] - 700) <= 1
    assert got[50] == TYPICAL[0]


def test_a_new_calibration_is_stored_used_and_reported():
    flash = FakeFlash()
    b, clock, front, sink, fed = make_board(calibrated=False, flash=flash)
    b.boot()
    assert [p[0] for t, _s, p in sink.frames() if t == wire.ERROR] == [wire.ERR_NO_CALIBRATION]
    b.receive(wire.build_frame(wire.CAL_STATUS_REQ, 0))
    assert _status(_frames_of(sink, wire.CAL_STATUS)[0]) == (wire.CAL_NONE, 0, 0)
    table = [800, 1000, 600] * 6                 # weak sensors: 200 mV spans, low quiescent
    _send_table(b, table)
    crc = calstore.table_crc(table)
    assert _status(_frames_of(sink, wire.CAL_STATUS)[0]) == (wire.CAL_IN_USE, crc, 6)
    assert flash.store().load(6) == table
    front.mv[3] = 1000
    run_for(b, clock, 100)
    assert b.values()[3] == 1                   # white by its own levels, not the typical
    b2, clock2, front2, sink2, fed2 = make_board(flash=flash)   # power off and on
    b2.boot()
    assert not [t for t, _s, _p in sink2.frames() if t == wire.ERROR]
    b2.receive(wire.build_frame(wire.CAL_STATUS_REQ, 0))
    assert _status(_frames_of(sink2, wire.CAL_STATUS)[0]) == (wire.CAL_IN_USE, crc, 6)


def test_a_bad_calibration_changes_nothing():
    flash = FakeFlash()
    good = list(TYPICAL) * 6
    flash.store().save(good)
    b, clock, front, sink, fed = make_board(flash=flash)
    kept = dict(flash.files)
    crc = calstore.table_crc(good)
    cases = (
        ([800, 1000, 600] * 6, 1234, wire.CAL_BAD_CRC),
        ([800, 1000, 600] * 5 + [800, 810, 600], None, wire.CAL_REFUSED),   # white not beyond
        ([800, 1000, 600] * 5 + [60, 1000, 20], None, wire.CAL_REFUSED),    # under 0.08 V
    )
    for table, wrong_crc, status in cases:
        _send_table(b, table, wrong_crc)
        assert _status(_frames_of(sink, wire.CAL_STATUS)[0]) == (status, crc, 6)
        assert flash.files == kept
    rows = [800, 1000, 600] * 3                  # half the sensors staged only
    b.receive(wire.build_frame(wire.CALIBRATE, 0, wire.calibrate_payload(0, rows)))
    b.receive(wire.build_frame(wire.CAL_SAVE, 0, calstore.table_crc(rows).to_bytes(4, "little")))
    assert _status(_frames_of(sink, wire.CAL_STATUS)[0]) == (wire.CAL_INCOMPLETE, crc, 6)
    flash.cut = 5                                # the flash fails while writing
    _send_table(b, [800, 1000, 600] * 6)
    assert _status(_frames_of(sink, wire.CAL_STATUS)[0]) == (wire.CAL_FLASH_FAILED, crc, 6)
    flash.cut = -1
    assert flash.store().load(6) == good and b.cal_crc == crc
    b.receive(wire.build_frame(wire.CALIBRATE, 0, b"\x00\x01\x02"))
    assert [p[0] for p in _frames_of(sink, wire.ERROR)] == [wire.ERR_BAD_CONFIG]


def test_a_broken_chain_and_a_low_supply_are_told_now_and_then():
    b, clock, front, sink, fed = make_board(rows=14, cols=13)
    b.boot()
    sink.frames()
    front.dark = list(range(12, 16))             # the bar and tray modules unplugged
    front.shunt = None
    front.supply_mv = 3100
    run_for(b, clock, 100)
    clock.now += fwboard.CONDITION_REPEAT_MS - 200    # time passes (the board catches up at once)
    run_for(b, clock, 200)
    errors = [(p[0], p[1:].decode()) for p in _frames_of(sink, wire.ERROR)]
    chain_errors = [t for c, t in errors if c == wire.ERR_CHAIN]
    assert chain_errors[0] == "chain broken at module 13 (BAR-W): RET did not follow the token"
    assert len(chain_errors) == 2                # at once and once again 5 s later, not every scan
    assert [t for c, t in errors if c == wire.ERR_SUPPLY][0] == "sensor supply 3100 mV, under 3500"
    assert b.values()[150] == levels.FAULT and b.values()[0] == levels.EMPTY


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
    front = FakeFront((6,))
    feeds = []
    b = fwboard.Board(chain.Chain(front, front.sizes), port.write, clock.ticks_ms,
                      clock.ticks_diff, 2, 3, feed=lambda: feeds.append(clock.now), heartbeat=20)
    return b, clock, cdc, port, front, feeds


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
    b, clock, cdc, port, front, feeds = _cdc_board()
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
    b, clock, cdc, port, front, feeds = _cdc_board()
    b.boot()
    _loop(b, clock, port, 600)            # heartbeats fill the FIFO: the host reads nothing
    assert len(cdc.fifo) > cdc.FIFO - 16
    for i in range(8):                    # a burst of PINGs: 8 PONGs due in one step
        cdc.rx.extend(wire.build_frame(wire.PING, i, str(i).encode()))
    front.values[2] = levels.BLACK
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
    last = [0] * n
    seed = 12345
    for step in range(120):
        values = list(full.candidate) if step else [0] * n
        for _ in range(3):
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            values[seed % n] = (seed >> 8) & 3
        only = [i for i in range(n) if values[i] != last[i]]
        last = values
        assert full.update(values) == quick.update(values, only)
        assert full.stable == quick.stable and full.idle() == quick.idle()
        assert bytes(quick.packed) == wire.pack_sensors(full.stable)
