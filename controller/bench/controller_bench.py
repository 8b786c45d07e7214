"""`bgboard bench` section `controller`: the table's speed, idle load and memory.

- latency: from the moment the virtual board writes a SCAN frame to the moment the LED
  strip gets the frame for it, through the real pty, the link's reader thread, the event
  loop, the reconciler, the match (steps played and taken back, each saved atomically)
  and the scene. The settling time is left aside (set to 0 here): it is a deliberate
  wait, not work.
- idle CPU and resident memory of `bgboard run` against a virtual board in another
  process, measured on the child with `getrusage` (the board only sends heartbeats).
"""
from __future__ import annotations

import asyncio
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

NAME = "controller"


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, int(round(q * (len(ordered) - 1)))))
    return ordered[k]


async def _latency(samples: int) -> list[float]:
    from controller.app import MatchStore, Table, reading_to_state
    from controller.board.profile import load_profile
    from controller.board.reading import Reading
    from controller.controller import Controller, ControllerConfig
    from controller.dice import TableDice
    from controller.engine.match import Match
    from controller.engine.match_settings import MatchSettings
    from controller.events import ActionRequested, ReadingReceived, Tick
    from controller.link.codec import Scan
    from controller.link.serial_link import BoardLink, LinkState
    from controller.show.leds import SimulatedStrip
    from sim.virtual_board import VirtualBoard

    profile = load_profile()
    loop = asyncio.get_running_loop()
    frame_seen: asyncio.Future[float] | None = None
    write_times: list[float] = []

    def on_frame_led(_: Any) -> None:
        if frame_seen is not None and not frame_seen.done():
            frame_seen.set_result(time.perf_counter())

    strip = SimulatedStrip(profile.leds, when_frame=on_frame_led)
    dice = TableDice(random.Random(0))
    dice.push((3, 1))
    controller = Controller(Match.new(MatchSettings(length=5)), dice=dice,
                            config=ControllerConfig(settle_s=0.0))
    import tempfile

    state = tempfile.TemporaryDirectory(prefix="bgboard-bench-")
    table = Table(controller, strip=strip, store=MatchStore(Path(state.name)))

    with VirtualBoard(profile) as vb:
        for cell, (w, b) in _start_counts().items():
            vb.set_cell(cell, w, b)
        original_write = vb.cable.write

        def timed_write(data: bytes) -> Any:
            write_times.append(time.perf_counter())
            return original_write(data)

        vb.cable.write = timed_write  # type: ignore[method-assign]
        vb.firmware = vb._boot()  # the firmware writes through the timed cable from now on

        def on_frame(message: Any) -> None:
            if isinstance(message, Scan):
                reading = Reading.from_sensors(message.sensors(profile.sensors.count), profile)
                table.dispatch(ReadingReceived(reading_to_state(reading), loop.time()))

        link = BoardLink(vb.port, on_frame=on_frame)
        await link.start()
        try:
            deadline = loop.time() + 3
            while link.status is not LinkState.ONLINE and loop.time() < deadline:
                vb.advance(10)
                await asyncio.sleep(0.005)
            for _ in range(60):
                vb.advance(10)
                await asyncio.sleep(0.002)
            table.dispatch(Tick(loop.time()))
            table.dispatch(ActionRequested("white", "roll", loop.time()))
            results: list[float] = []
            # lift 8, put it on 5 (the step 8/5, saved), lift it, put it back (an undo)
            actions = [("lift", "8"), ("place", "5"), ("lift", "5"), ("place", "8")]
            for i in range(samples):
                verb, cell = actions[i % len(actions)]
                if verb == "lift":
                    vb.lift(cell, "white")
                else:
                    vb.place(cell, "white")
                frame_seen = loop.create_future()
                start_index = len(write_times)
                for _ in range(20):  # debounce: the SCAN leaves within a few scans
                    vb.advance(10)
                    if len(write_times) > start_index:
                        break
                if len(write_times) == start_index:
                    continue
                sent = write_times[start_index]
                try:
                    shown = await asyncio.wait_for(frame_seen, 2.0)
                except asyncio.TimeoutError:
                    continue
                results.append((shown - sent) * 1000.0)
                vb.advance(30)
                await asyncio.sleep(0.001)
            if table.store.saves == 0:
                raise RuntimeError("the bench played no step: the latency would flatter")
            return results
        finally:
            link.close()
            state.cleanup()


def _start_counts() -> dict[str, tuple[int, int]]:
    from controller.engine import Position
    from controller.engine.board_view import cell_counts

    return cell_counts(Position.initial(), "white")


_IDLE_CHILD = """
import asyncio, json, resource, sys, time
from pathlib import Path
from controller.app import run_table
from controller.board.profile import load_profile

port, seconds, state = sys.argv[1], float(sys.argv[2]), sys.argv[3]
marks = []

def mark():
    u = resource.getrusage(resource.RUSAGE_SELF)
    marks.append((time.monotonic(), u.ru_utime + u.ru_stime))

async def main():
    asyncio.get_running_loop().call_later(1.5, mark)  # after start-up: imports, first frame
    await run_table(port, profile=load_profile(), state_dir=Path(state), strip_name="sim",
                    display_driver="dummy", pin_factory=None, seconds=seconds)
    mark()

asyncio.run(main())
(t0, c0), (t1, c1) = marks
# VmHWM, not ru_maxrss: ru_maxrss survives fork+exec, so a child of a large parent (a
# test run) would report the parent's size; the peak of this process's own memory map
# starts afresh at exec.
peak_kb = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM:"))
print(json.dumps({"cpu": (c1 - c0) / (t1 - t0), "rss_kb": peak_kb}))
"""


def _idle(seconds: float) -> dict[str, float]:
    """CPU share and peak RSS of the `bgboard run` loop (`run_table`: link, ticks, LEDs,
    display) against a virtual board in another process; CPU counted after start-up."""
    import tempfile

    repo = Path(__file__).resolve().parents[2]
    board = subprocess.Popen([sys.executable, "-m", "sim.virtual_board"], cwd=repo,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert board.stdout is not None
        port = board.stdout.readline().strip()
        with tempfile.TemporaryDirectory() as state:
            child = subprocess.run([sys.executable, "-c", _IDLE_CHILD, port, str(seconds), state],
                                   cwd=repo, capture_output=True, text=True, timeout=120 + seconds)
        if child.returncode != 0:
            raise RuntimeError(f"the idle run failed: {child.stderr.strip()[-300:]}")
        figures = json.loads(child.stdout.strip().splitlines()[-1])
        return {"idle_cpu_percent": round(100.0 * figures["cpu"], 2),
                "rss_mb": round(figures["rss_kb"] / 1024.0, 1)}
    finally:
        if board.stdin is not None:
            board.stdin.close()
        board.terminate()
        board.wait(timeout=5)


def run(quick: bool = False) -> dict[str, object]:
    """The section's figures (see the module docstring)."""
    samples = 40 if quick else 400
    latencies = asyncio.run(_latency(samples))
    figures: dict[str, object] = {
        "frame_to_led_samples": len(latencies),
        "frame_to_led_median_ms": round(statistics.median(latencies), 2) if latencies else None,
        "frame_to_led_p99_ms": round(_percentile(latencies, 0.99), 2) if latencies else None,
    }
    figures.update(_idle(4.0 if quick else 12.0))
    return figures


if __name__ == "__main__":  # pragma: no cover
    print(json.dumps(run(quick="--quick" in sys.argv)))
