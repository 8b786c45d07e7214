"""The real firmware image on an emulated RP2040, behind a pty like a real /dev/ttyACM0.

firmware/emulator/pico.mjs (Node, rp2040js) runs bgboard-pico.uf2 with the sensor chain,
BOOTSEL and the watchdog modelled; this side gives its USB CDC bytes a pseudo-terminal
(sim/vboard_pty.PtyCable, the virtual board's own cable) so the project's serial link and
board session open it with pyserial, and turns the harness's control channel into calls:
`set_sensor`, `bootsel`, `stall_spi`, `stats`, and the `events` it reported (boot, usb,
reboot). Emulated time runs as fast as the machine allows, not in step with the host's.

Where the pieces come from (none of them is in the repository; firmware/image/frozen.py
defines the places, the user's own cache by default, and firmware/README.md the commands):
- the image: BGBOARD_PICO_IMAGE, default <cache>/bgboard-pico.uf2 (firmware/image/build-uf2.sh
  makes it and records beside it which firmware it froze: a stale image is not run);
- the RP2040 B1 bootrom: BGBOARD_PICO_BOOTROM, default <cache>/rp2040-bootrom-b1.ts
  (rp2040js's demo/bootrom.ts, or a 16 KiB .bin);
- rp2040js: `npm ci` in firmware/emulator (package-lock.json pins it).
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

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
    """The harness running; `port` is the pty path to open. Use as a context manager."""

    def __init__(self) -> None:
        self.cable = PtyCable()
        self.port = self.cable.path
        to_node_r, self._to_node = os.pipe()
        self._from_node, from_node_w = os.pipe()

        self._proc = subprocess.Popen(
            ["node", str(HARNESS / "pico.mjs"), "--bootrom", str(BOOTROM), "--image", str(IMAGE),
             "--control-in", str(to_node_r), "--control-out", str(from_node_w)],
            cwd=HARNESS, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            pass_fds=(to_node_r, from_node_w))
        os.close(to_node_r)
        os.close(from_node_w)
        self.events: list[dict[str, Any]] = []
        self._changed = threading.Condition()
        self._stopping = False
        self._threads = [threading.Thread(target=f, daemon=True)
                         for f in (self._board_to_host, self._host_to_board, self._read_events)]
        for t in self._threads:
            t.start()

    # -- the USB cable ----------------------------------------------------------------------
    def _board_to_host(self) -> None:
        assert self._proc.stdout is not None
        while True:
            data = os.read(self._proc.stdout.fileno(), 4096)
            if not data:
                return
            self.cable.write(data)

    def _host_to_board(self) -> None:
        assert self._proc.stdin is not None
        while not self._stopping:
            data = self.cable.read()
            if data:
                try:
                    self._proc.stdin.write(data)
                    self._proc.stdin.flush()
                except (BrokenPipeError, ValueError):
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

    def set_sensor(self, index: int, value: int) -> None:
        self._send({"sensor": index, "value": value})

    def bootsel(self, pressed: bool) -> None:
        self._send({"bootsel": pressed})

    def stall_spi(self, stalled: bool) -> None:
        """A stuck chain: each SPI byte takes 3 s, so the firmware hangs in the chain read
        until its watchdog restarts the board."""
        self._send({"stall_spi": stalled})

    def stats(self) -> dict[str, Any]:
        n = len(self.events)
        self._send({"stats": True})
        return self.wait_event({"event": "stats"}, after=n, timeout=30)

    def close(self) -> None:
        self._stopping = True
        if self._proc.stdin is not None:
            self._proc.stdin.close()
        try:
            self._proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        os.close(self._to_node)
        self.cable.close()

    def __enter__(self) -> EmulatedPico:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
