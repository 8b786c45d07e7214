"""`bgboard bench` section `controller`: the table's speed, idle load and memory.

- a hand on the board, with the profile's settling time, in real time: a checker lifted
  to its targets lit (`lift_to_targets_median_ms`, goal <= 100), a checker placed to its
  step counted (`place_to_accepted_median_ms`, goal <= 400).
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


def _bench_table(vb: Any, state_dir: Path, settle_ms: int, loop: asyncio.AbstractEventLoop,
                 when_frame: Any = None, ping_interval_s: float | None = 1.0) -> Any:
    """The table every front end opens (`open_table`), on the virtual board's pty, with
    the profile's settling time replaced by `settle_ms` (liveness PINGs off for a board
    on manual time, which answers only while the bench lets its time pass)."""
    from controller.board.profile import load_profile
    from controller.controller import ControllerConfig
    from controller.dice import DiceState
    from controller.engine.match import Match
    from controller.engine.match_settings import MatchSettings
    from controller.show.leds import SimulatedStrip
    from controller.table import BackendChoice, open_table

    dice = DiceState.seeded(random.Random(0)).push((3, 1))
    profile = load_profile()
    backends = BackendChoice(port=vb.port, pins="none", state_dir=state_dir,
                             leds=SimulatedStrip(profile.leds, when_frame=when_frame),
                             ping_interval_s=ping_interval_s)
    return open_table(profile, backends,
                      clock=loop.time, config=ControllerConfig(settle_s=settle_ms / 1000),
                      match=Match.new(MatchSettings(length=5)), dice=dice, bots=None, loop=loop)


async def _latency(samples: int) -> list[float]:
    """SCAN written -> LED frame, settling time 0 (see the module docstring)."""
    import tempfile

    from controller.board.profile import load_profile
    from controller.events import ActionRequested, Tick
    from sim.virtual_board import VirtualBoard

    profile = load_profile()
    loop = asyncio.get_running_loop()
    frame_seen: asyncio.Future[float] | None = None
    write_times: list[float] = []

    def on_frame_led(_: Any) -> None:
        if frame_seen is not None and not frame_seen.done():
            frame_seen.set_result(time.perf_counter())

    state = tempfile.TemporaryDirectory(prefix="bgboard-bench-")
    with VirtualBoard(profile) as vb:
        for cell, (w, b) in _start_counts().items():
            vb.set_cell(cell, w, b)
        original_write = vb.cable.write

        def timed_write(data: bytes) -> Any:
            write_times.append(time.perf_counter())
            return original_write(data)

        vb.cable.write = timed_write  # type: ignore[method-assign]
        vb.firmware = vb._boot()  # the firmware writes through the timed cable from now on
        table = _bench_table(vb, Path(state.name), 0, loop, when_frame=on_frame_led,
                             ping_interval_s=None)
        link = table.link
        await link.start()
        try:
            deadline = loop.time() + 3
            while not link.is_playing and loop.time() < deadline:
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
            await table.aclose()
            state.cleanup()


async def _hand(samples: int) -> tuple[list[float], list[float]]:
    """What a player feels, with the profile's own settling time, in real time: from the
    moment a checker leaves its sensor to the moment its targets light (`lift`), and from
    the moment it lands to the moment the step counts in the match (`place`). Everything
    runs: the firmware's scan and debounce in the virtual board's real-time thread, the
    pty, the link's reader thread, the loop, the controller and the LED strip."""
    import tempfile

    from controller.board.profile import load_profile
    from controller.events import ActionRequested, Tick
    from controller.show.content import Scene
    from sim.virtual_board import VirtualBoard

    profile = load_profile()
    loop = asyncio.get_running_loop()
    lifts: list[float] = []
    places: list[float] = []
    state = tempfile.TemporaryDirectory(prefix="bgboard-bench-")
    with VirtualBoard(profile) as vb:
        for cell, (w, b) in _start_counts().items():
            vb.set_cell(cell, w, b)
        vb.start()
        table = _bench_table(vb, Path(state.name), profile.timing.settle_ms, loop)
        changed = asyncio.Event()
        table.on_scene(lambda scene: changed.set())
        link = table.link
        await link.start()

        async def until(test: Any, limit: float = 2.0) -> float | None:
            end = time.perf_counter() + limit
            while time.perf_counter() < end:
                if test():
                    return time.perf_counter()
                changed.clear()
                try:
                    await asyncio.wait_for(changed.wait(), 0.01)
                except asyncio.TimeoutError:
                    table.dispatch(Tick(loop.time()))
            return None

        try:
            await until(lambda: link.is_playing, 3.0)
            await until(lambda: table.controller.status().board_ready, 3.0)
            table.dispatch(ActionRequested("white", "roll", loop.time()))
            c = table.controller
            for i in range(samples):
                frm, to = ("8", "5") if i % 2 == 0 else ("5", "8")  # 8/5, then its undo
                steps = len(c.state.match.steps)
                t0 = time.perf_counter()
                vb.lift(frm, "white")
                shown = await until(lambda: "target" in (c.state.scene_sent or Scene()).leds.values())
                if shown is not None:
                    lifts.append((shown - t0) * 1000.0)
                await asyncio.sleep(0.05)
                t0 = time.perf_counter()
                vb.place(to, "white")
                accepted = await until(lambda: len(c.state.match.steps) != steps)
                if accepted is not None:
                    places.append((accepted - t0) * 1000.0)
                await until(lambda: not c.status().settling, 1.0)
            return lifts, places
        finally:
            await table.aclose()
            vb.stop()
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
                    display_driver="dummy", pin_factory="none", seconds=seconds)
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
    lifts, places = asyncio.run(_hand(6 if quick else 30))
    figures: dict[str, object] = {
        "lift_to_targets_median_ms": round(statistics.median(lifts), 1) if lifts else None,
        "place_to_accepted_median_ms": round(statistics.median(places), 1) if places else None,
        "hand_samples": min(len(lifts), len(places)),
        "frame_to_led_samples": len(latencies),
        "frame_to_led_median_ms": round(statistics.median(latencies), 2) if latencies else None,
        "frame_to_led_p99_ms": round(_percentile(latencies, 0.99), 2) if latencies else None,
    }
    figures.update(_idle(4.0 if quick else 12.0))
    return figures


if __name__ == "__main__":  # pragma: no cover
    print(json.dumps(run(quick="--quick" in sys.argv)))
