"""The virtual board: checkers, simulated sensors and chain, fault injection, the pty, the CLI."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import serial

from controller.board.profile import load_profile
from controller.board.reading import Reading
from controller.link.codec import BoardError, Frame, Hello, Scan, StreamDecoder, parse
from sim.virtual_board import VirtualBoard, execute

ROOT = Path(__file__).resolve().parents[1]
PROFILE = load_profile()


class Host:
    """The other end of the cable, read with pyserial like the controller does."""

    def __init__(self, vb: VirtualBoard) -> None:
        self.vb = vb
        self.ser = serial.Serial(vb.port, 115200, timeout=0)
        self.decoder = StreamDecoder()

    def frames(self) -> list[Frame]:
        data = b""
        while True:
            chunk = self.ser.read(65536)
            if not chunk:
                break
            data += chunk
        return self.decoder.feed(data)

    def messages(self) -> list:
        return [parse(f) for f in self.frames()]

    def last_reading(self) -> Reading:
        scans = [m for m in self.messages() if isinstance(m, Scan)]
        assert scans, "no SCAN arrived"
        return Reading.from_sensors(scans[-1].sensors(PROFILE.sensors.count), PROFILE)

    def close(self) -> None:
        self.ser.close()


@pytest.fixture
def vb():
    with VirtualBoard(PROFILE) as board:
        yield board


@pytest.fixture
def host(vb: VirtualBoard):
    h = Host(vb)
    yield h
    h.close()


def test_checkers_per_cell(vb: VirtualBoard) -> None:
    vb.set_cell(13, 0, 5)
    vb.place("13", "black")
    vb.place("bar", "white")
    vb.place("bar", "black")
    assert vb.counts("13") == (0, 6) and vb.counts("bar") == (1, 1)
    assert vb.lift("bar", "white") == "white" and vb.counts("bar") == (0, 1)
    assert vb.lift("bar") == "black"
    with pytest.raises(ValueError, match="no checker on cell bar"):
        vb.lift("bar")
    with pytest.raises(ValueError, match="no white checker"):
        vb.lift("13", "white")
    with pytest.raises(ValueError, match="unknown cell"):
        vb.place("25", "white")
    with pytest.raises(ValueError, match="unknown colour"):
        vb.place("1", "red")


def test_sensors_show_stacks_up_to_the_slots(vb: VirtualBoard) -> None:
    vb.set_cell("6", 8, 0)  # more checkers than the 6 slots: all slots white
    values = vb.sensors()
    assert [values[s] for s in PROFILE.cell_sensors("6")] == [1] * 6
    assert sum(1 for v in values if v) == 6


def test_the_firmware_reads_the_field_through_the_simulated_chain(vb: VirtualBoard, host: Host) -> None:
    vb.set_cell("19", 0, 3)
    vb.set_cell("24", 2, 0)
    vb.advance(100)
    assert vb.firmware.values() == vb.sensors()
    assert vb.chain.reads >= 9  # one SPI read a scan period
    r = host.last_reading()
    assert r["19"].black == 3 and r["24"].white == 2


def test_manual_time_is_deterministic() -> None:
    def record() -> list[bytes]:
        out: list[bytes] = []
        with VirtualBoard(PROFILE, seed=3) as board:
            board.firmware.write = out.append  # type: ignore[method-assign]
            board.set_cell("1", 2, 0)
            board.advance(250)
            board.flicker(40, 50)
            board.advance(1000)
            board.place("2", "black")
            board.advance(777)
        return out
    a, b = record(), record()
    assert a == b and len(a) > 5


def test_advance_is_refused_in_real_time(vb: VirtualBoard) -> None:
    vb.start()
    with pytest.raises(RuntimeError):
        vb.advance(10)
    vb.stop()
    vb.advance(10)  # manual again, continuing from the real clock
    with pytest.raises(ValueError):
        vb.advance(-1)


def test_stuck_sensor_reads_fault(vb: VirtualBoard, host: Host) -> None:
    vb.stick(150, 3)
    vb.advance(100)
    r = host.last_reading()
    assert r.faults == (150,) and r["bar"].faults == 1
    vb.stick(150, None)
    vb.advance(100)
    assert host.last_reading().faults == ()


def test_flicker_faster_than_debounce_is_filtered_slower_is_seen(vb: VirtualBoard) -> None:
    sensor = PROFILE.cell_sensors("7")[0]
    vb.advance(50)
    sent = vb.firmware.frames_sent
    vb.flicker(sensor, period_ms=10, value=1)  # flips every scan: never 3 equal scans
    vb.advance(400)
    assert vb.firmware.values()[sensor] == 0
    assert vb.firmware.frames_sent == sent  # no SCAN on change (no heartbeat due yet either)
    vb.flicker(sensor, period_ms=100, value=1)
    seen = set()
    for _ in range(40):
        vb.advance(10)
        seen.add(vb.firmware.values()[sensor])
    assert seen == {0, 1}
    vb.flicker(sensor, 0)
    assert vb.field.flickers == {}


def test_noise_and_flips_are_counted_and_frames_after_them_decode(vb: VirtualBoard, host: Host) -> None:
    vb.advance(10)
    host.frames()
    vb.noise(300)
    vb.flip_bytes(0.5)
    vb.advance(2000)
    vb.flip_bytes(0.0)
    host.frames()
    assert host.decoder.crc_errors + host.decoder.framing_errors > 0
    vb.place("5", "white")
    vb.advance(60)
    assert host.last_reading()["5"].white == 1


def test_dropped_bytes(vb: VirtualBoard, host: Host) -> None:
    vb.drop_bytes(1.0)
    vb.advance(1100)
    assert host.frames() == [] and vb.cable.bytes_dropped > 0
    vb.drop_bytes(0)
    vb.advance(500)
    assert host.frames()
    with pytest.raises(ValueError):
        vb.drop_bytes(1.5)


def test_unplug_removes_the_port_and_plug_reboots_the_board(vb: VirtualBoard) -> None:
    host = Host(vb)
    vb.place("3", "black")
    vb.advance(50)
    vb.unplug()
    assert not vb.is_plugged and not os.path.exists(vb.port)
    with pytest.raises(serial.SerialException):
        host.ser.read(1)
    host.ser.close()
    with pytest.raises(serial.SerialException):
        serial.Serial(vb.port)
    vb.advance(1000)  # no power: nothing runs
    vb.plug()
    assert vb.is_plugged and os.path.exists(vb.port) and vb.boots == 2
    host2 = Host(vb)
    try:
        host2.ser.write(Frame(0x81, 0).encode())  # the boot HELLO went out before we opened
        vb.advance(100)
        msgs = host2.messages()
        assert any(isinstance(m, Hello) for m in msgs)
        scans = [m for m in msgs if isinstance(m, Scan)]
        assert Reading.from_sensors(scans[-1].sensors(182), PROFILE)["3"].black == 1
    finally:
        host2.close()


def test_chain_failure_is_reported_as_error(vb: VirtualBoard, host: Host) -> None:
    vb.fail_chain("SPI timeout")
    vb.advance(30)
    errors = [m for m in host.messages() if isinstance(m, BoardError)]
    assert errors and errors[0].code == 4 and "SPI timeout" in errors[0].text
    vb.fail_chain(None)


def test_command_lines(vb: VirtualBoard) -> None:
    assert execute(vb, "place 13 black").startswith("ok 13")
    assert execute(vb, "set 6 5 0") == "ok"
    assert execute(vb, "show") == "6:5w0b 13:0w1b"
    assert execute(vb, "lift 13") == "ok lifted black from 13"
    assert execute(vb, "stick 4 3") == "ok" and vb.field.stuck == {4: 3}
    assert execute(vb, "stick 4 off") == "ok" and vb.field.stuck == {}
    assert execute(vb, "flicker 9 20") == "ok" and 9 in vb.field.flickers
    assert execute(vb, "") == ""
    assert execute(vb, "module 3") == "ok" and vb.chain.present == 3
    assert execute(vb, "module off") == "ok" and vb.chain.present == 16
    assert execute(vb, "mux 2 5") == "ok" and vb.chain.stuck_mux == {2: 5}
    assert execute(vb, "supply 0") == "ok" and vb.hardware.sensors.supply_v == 0.0
    assert execute(vb, "drift 1.1 0.98") == "ok" and vb.hardware.sensors.drift.sensitivity == 1.1
    assert execute(vb, "push 6 3.5 -2") == "ok"
    for bad in ("bogus", "place", "place 99 white", "noise x", "stick 999 1", "module 16", "mux 0 16",
                "push 7 1 1", "push 6 30 0", "drift x 1", "drift 0 1", "supply -1"):
        with pytest.raises(ValueError):
            execute(vb, bad)
    assert execute(vb, "unplug") == "ok unplugged" and execute(vb, "plug").startswith("ok plugged")


def test_python_m_sim_virtual_board(tmp_path: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "sim.virtual_board", "--link-dir", str(tmp_path)],
                            cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        port = proc.stdout.readline().strip()  # type: ignore[union-attr]
        assert port == str(tmp_path / "ttyBGBOARD") and os.path.exists(port)
        out, _ = proc.communicate("place 13 white\nlift 13\nwhatever\nnoise 5\nunplug\nplug\nquit\n",
                                  timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
    lines = out.splitlines()
    assert lines[0].startswith("ok 13") and lines[1] == "ok lifted white from 13"
    assert lines[2].startswith("error: unknown command")
    assert lines[-1] == f"ok plugged {port}"
    assert proc.returncode == 0


def test_a_missing_link_directory_is_one_line(tmp_path: Path) -> None:
    """Issue 35.20: `python -m sim.virtual_board --link-dir D` with D missing was a traceback."""
    proc = subprocess.run([sys.executable, "-m", "sim.virtual_board", "--link-dir", str(tmp_path / "missing")],
                          capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL,
                          cwd=Path(__file__).resolve().parent.parent)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.splitlines() == [
        f"python -m sim.virtual_board: error: argument --link-dir: '{tmp_path / 'missing'}': no such directory"]
    assert not (tmp_path / "missing").exists()


# -- the analogue path's faults, as the firmware finds them ------------------------------------
def errors(host: Host) -> list[BoardError]:
    return [m for m in host.messages() if isinstance(m, BoardError)]


def test_an_unplugged_module_breaks_the_chain_there(vb: VirtualBoard, host: Host) -> None:
    """Module 4 (P7-8, the fourth in the chain) pulled: RET never comes back, it and every
    later module read the pull-down's 0 V; the firmware names the module (ERROR 7)."""
    vb.unplug_module(3)
    vb.advance(30)
    chain = [e for e in errors(host) if e.code == 7]
    assert chain and "module 4 (P7-8)" in chain[0].text
    vb.unplug_module(None)
    vb.place("1", "white")
    vb.advance(100)
    reading = host.last_reading()
    assert reading["1"].white == 1 and reading.faults == ()


def test_without_the_sensors_supply_the_board_says_so(vb: VirtualBoard, host: Host) -> None:
    vb.sensor_supply(0.0)
    vb.advance(100)
    messages = host.messages()
    assert any(isinstance(m, BoardError) and m.code == 8 for m in messages)
    scans = [m for m in messages if isinstance(m, Scan)]
    reading = Reading.from_sensors(scans[-1].sensors(PROFILE.sensors.count), PROFILE)
    assert reading.faults == tuple(range(PROFILE.sensors.count))   # every output at 0 V
    vb.sensor_supply(5.0)
    vb.advance(100)
    assert host.last_reading().faults == ()


def test_a_stuck_multiplexer_shows_one_sensor_on_every_slot_of_its_module(vb: VirtualBoard) -> None:
    vb.stick_mux(0, 4)                     # P1-2's multiplexer held on channel 4: point 1, slot 4
    vb.set_cell("1", 5, 0)
    vb.advance(100)
    module = PROFILE.cell_sensors("1") + PROFILE.cell_sensors("2")
    assert [vb.firmware.values()[s] for s in module] == [1] * 12
    vb.stick_mux(0, None)
    vb.advance(100)
    assert vb.firmware.values() == vb.sensors()


def test_a_dead_sensor_reads_as_a_fault(vb: VirtualBoard) -> None:
    vb.place("8", "black")
    vb.stick(PROFILE.cell_sensors("8")[0], 3)   # its output gone: the bus's pull-down
    vb.advance(100)
    assert vb.firmware.values()[PROFILE.cell_sensors("8")[0]] == 3


def test_parts_of_each_kind_read_the_opening_position(tmp_path: Path) -> None:
    from controller.engine.position import Position
    from sim.virtual_board import lay_out
    for parts in ("typical", "random", "worst"):
        with VirtualBoard(PROFILE, parts=parts, seed=5, link_dir=tmp_path) as board:  # type: ignore[arg-type]
            lay_out(board, Position.initial(), "white")
            board.advance(150)
            assert board.firmware.values() == board.sensors(), parts
