"""The real firmware image on an emulated RP2040, behind ptys like a real /dev/ttyACM0
and the Pi's /dev/serial0.

firmware/emulator/pico.mjs (Node, rp2040js) runs bgboard-pico.uf2 with the sensing front end
(multiplexers, token chain, ADC), BOOTSEL, the watchdog, the flash and the UART line
modelled; this side gives its USB CDC bytes one pseudo-terminal (`port`) and its UART0 on
GP0/GP1 another (`uart_port`), each a sim/vboard_pty.PtyCable, the virtual board's own
cable, so the project's serial link and board session open them with pyserial; it turns
the harness's control channel into calls: `set_volts`, `set_supply`, `set_noise`,
`break_chain`, `bootsel`, `stall_adc`, `stats`, and the `events` it reported (boot, usb,
reboot). `RawRepl` is mpremote's way into maintenance mode's REPL. Emulated time runs as
fast as the machine allows, not in step with the host's.

Where the pieces come from (none of them is in the repository; firmware/image/frozen.py
defines the places, the user's own cache by default, and firmware/README.md the commands):
- the image: BGBOARD_PICO_IMAGE, default <cache>/bgboard-pico.uf2 (firmware/image/build-uf2.sh
  makes it and records beside it which firmware it froze: a stale image is not run);
- the RP2040 B1 bootrom: BGBOARD_PICO_BOOTROM, default <cache>/rp2040-bootrom-b1.ts
  (rp2040js's demo/bootrom.ts, or a 16 KiB .bin);
- rp2040js: `npm ci` in firmware/emulator (package-lock.json pins it).
"""
from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import serial

from firmware.image import frozen
from sim.vboard_pty import PtyCable

REPO = Path(__file__).resolve().parents[1]
HARNESS = REPO / "firmware" / "emulator"
IMAGE = frozen.image_path()
BOOTROM = frozen.bootrom_path()


def why_not() -> str | None:
    """One line saying why the emulated Pico cannot run here, or None when it can."""
    if shutil.which("node") is None:
        return "no node on PATH"
    if not (HARNESS / "node_modules" / "rp2040js").is_dir():
        return f"rp2040js not installed (npm ci in {HARNESS.relative_to(REPO)})"
    stale = frozen.why_stale(IMAGE)
    if stale:
        return stale
    if not BOOTROM.is_file():
        return f"no RP2040 bootrom at {BOOTROM} (rp2040js's demo/bootrom.ts; or set BGBOARD_PICO_BOOTROM)"
    return None


class EmulatedPico:
    """The harness running; `port` (USB) and `uart_port` (UART0) are the pty paths to open.
    Use as a context manager."""

    def __init__(self) -> None:
        self.cable = PtyCable()                # USB CDC: node's stdin and stdout
        self.port = self.cable.path
        self.uart = PtyCable()                 # UART0 on GP0/GP1: two pipes of their own
        self.uart_port = self.uart.path
        to_node_r, self._to_node = os.pipe()
        self._from_node, from_node_w = os.pipe()
        uart_in_r, uart_in_w = os.pipe()
        uart_out_r, uart_out_w = os.pipe()
        child_ends = (to_node_r, from_node_w, uart_in_r, uart_out_w)

        self._proc = subprocess.Popen(
            ["node", str(HARNESS / "pico.mjs"), "--bootrom", str(BOOTROM), "--image", str(IMAGE),
             "--control-in", str(to_node_r), "--control-out", str(from_node_w),
             "--uart-in", str(uart_in_r), "--uart-out", str(uart_out_w)],
            cwd=HARNESS, stdin=subprocess.PIPE, stdout=subprocess.PIPE, pass_fds=child_ends)
        for fd in child_ends:
            os.close(fd)
        assert self._proc.stdin is not None and self._proc.stdout is not None
        self._inputs = [self._proc.stdin.fileno(), uart_in_w]
        self._uart_out = uart_out_r
        self.events: list[dict[str, Any]] = []
        self._changed = threading.Condition()
        self._stopping = False
        self._threads = [
            threading.Thread(target=self._board_to_host, args=(self._proc.stdout.fileno(), self.cable),
                             daemon=True),
            threading.Thread(target=self._board_to_host, args=(uart_out_r, self.uart), daemon=True),
            threading.Thread(target=self._host_to_board, args=(self.cable, self._inputs[0]), daemon=True),
            threading.Thread(target=self._host_to_board, args=(self.uart, self._inputs[1]), daemon=True),
            threading.Thread(target=self._read_events, daemon=True)]
        for t in self._threads:
            t.start()

    # -- the cables -------------------------------------------------------------------------
    @staticmethod
    def _board_to_host(fd: int, cable: PtyCable) -> None:
        while True:
            data = os.read(fd, 4096)
            if not data:
                return
            cable.write(data)

    def _host_to_board(self, cable: PtyCable, fd: int) -> None:
        while not self._stopping:
            data = cable.read()
            if data:
                try:
                    os.write(fd, data)
                except OSError:
                    return
            else:
                time.sleep(0.005)

    # -- the control channel ----------------------------------------------------------------
    def _read_events(self) -> None:
        with os.fdopen(self._from_node, "r") as fh:
            for line in fh:
                with self._changed:
                    self.events.append(json.loads(line))
                    self._changed.notify_all()

    def _send(self, command: dict[str, Any]) -> None:
        os.write(self._to_node, (json.dumps(command) + "\n").encode())

    def wait_event(self, match: dict[str, Any], after: int = 0, timeout: float = 120.0) -> dict[str, Any]:
        """The first event from index `after` on whose items include `match`."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                for event in self.events[after:]:
                    if all(event.get(k) == v for k, v in match.items()):
                        return event
                left = deadline - time.monotonic()
                if left <= 0 or self._proc.poll() is not None:
                    raise AssertionError(f"no event {match} within {timeout} s; got {self.events[after:]}")
                self._changed.wait(min(left, 0.5))

    def set_volts(self, volts: Mapping[int, float], expect: tuple[int, int] | None = None) -> None:
        """Sensor outputs in volts (sensor index: V); `expect` (sensor, class) times the
        first SCAN that shows that class for that sensor (stats()["scan_seen"])."""
        command: dict[str, Any] = {"volts": [[i, v] for i, v in volts.items()]}
        if expect is not None:
            command["expect"] = list(expect)
        self._send(command)

    def set_supply(self, volts: float) -> None:
        """The sensors' 5 V as the carrier's divider gives it to ADC1."""
        self._send({"supply": volts})

    def set_noise(self, mv_rms: float) -> None:
        """Gaussian noise on every conversion of a sensor's level (seeded: the same run twice)."""
        self._send({"noise_mv": mv_rms})

    def break_chain(self, module: int | None) -> None:
        """The token chain cut before `module` (0-based): the token and RET stop there."""
        self._send({"break_chain": module})

    def bootsel(self, pressed: bool) -> None:
        self._send({"bootsel": pressed})

    def stall_adc(self, stalled: bool) -> None:
        """A conversion that never ends: the firmware hangs waiting for the ADC until its
        watchdog restarts the board (a reset frees it)."""
        self._send({"stall_adc": stalled})

    def now_ns(self) -> int:
        """The emulated clock (it runs as fast as this machine lets it)."""
        n = len(self.events)
        self._send({"time": True})
        return int(self.wait_event({"event": "time"}, after=n, timeout=30)["ns"])

    async def pass_time(self, seconds: float) -> None:
        """Let `seconds` of the board's time pass (a bring-up Rig's pass_time)."""
        end = await asyncio.to_thread(self.now_ns) + seconds * 1e9
        while await asyncio.to_thread(self.now_ns) < end:
            await asyncio.sleep(0.02)

    def stats(self) -> dict[str, Any]:
        n = len(self.events)
        self._send({"stats": True})
        return self.wait_event({"event": "stats"}, after=n, timeout=30)

    def close(self) -> None:
        self._stopping = True
        for fd in self._inputs[1:]:
            os.close(fd)
        if self._proc.stdin is not None:
            self._proc.stdin.close()           # node exits when its stdin ends
        try:
            self._proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        os.close(self._to_node)
        for t in self._threads[:2]:
            t.join(timeout=5)                  # the board's last bytes, then EOF
        os.close(self._uart_out)
        self.cable.close()
        self.uart.close()

    def __enter__(self) -> EmulatedPico:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class RawRepl:
    """mpremote's way into a MicroPython board, by hand (MicroPython's tools/pyboard.py):
    Ctrl-C, Ctrl-A into the raw REPL, the code, Ctrl-D to run it; the board answers OK,
    the output, 0x04, the error, 0x04. Only in maintenance mode: while the firmware runs,
    Ctrl-C is off and the port carries frames. `banner` is what the board printed before
    its first prompt."""

    def __init__(self, port: str, timeout: float = 300.0) -> None:
        self.timeout = timeout
        self.serial = serial.Serial(port, 115200, timeout=0.2)
        self.banner = self._read_until(b">>> ", nudge=b"\r\n").decode("latin-1")
        self.serial.write(b"\r\x03\r\x01")
        self._read_until(b"raw REPL; CTRL-B to exit\r\n>")

    def _read_until(self, end: bytes, nudge: bytes = b"") -> bytes:
        seen = b""
        deadline = time.monotonic() + self.timeout
        if nudge:
            self.serial.write(nudge)
        while not seen.endswith(end):
            if time.monotonic() > deadline:
                raise AssertionError(f"the REPL did not print {end!r} within {self.timeout} s; got {seen[-200:]!r}")
            got = self.serial.read(1)
            if not got and nudge and not seen:
                self.serial.write(nudge)
            seen += got
        return seen

    def exec(self, code: str) -> str:
        """Run `code` on the board; its output, or AssertionError with the board's traceback."""
        self.serial.write(code.encode() + b"\x04")
        self._read_until(b"OK")
        out = self._read_until(b"\x04")[:-1]
        err = self._read_until(b"\x04")[:-1]
        self._read_until(b">")
        if err:
            raise AssertionError(f"the board refused {code!r}: {err.decode('latin-1')}")
        return out.decode("latin-1")

    def reset(self) -> None:
        """`mpremote reset`: machine.reset(), whose answer never comes (the board restarts)."""
        self.serial.write(b"import machine; machine.reset()\x04")
        self._read_until(b"OK")

    def close(self) -> None:
        self.serial.close()

    def __enter__(self) -> RawRepl:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
