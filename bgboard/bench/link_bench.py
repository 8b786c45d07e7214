"""`bgboard bench` section `link`: the codec's speed and the sensor-to-reading latency.

Figures:
- `decode_frames_per_s`: SCAN frames (182 sensors) through `StreamDecoder`, pure CPU.
- `salvage_kb_per_s`: the decoder's worst garbage, blocks of 255 bytes of 0x01 each glued
  to a SCAN (every tail of every block is a COBS chain to recover a frame from), pure CPU.
- `pty_frames_per_s`: the virtual board's firmware code sending SCANs as fast as the
  pseudo-terminal takes them, decoded by `BoardLink` (what the whole chain sustains).
- `change_to_reading_median_ms` / `_p99_ms`: a checker placed on the virtual board (real
  time, default timing: 10 ms scans, 3-scan debounce) until the controller's `Reading`
  shows it, through the pty and pyserial.
- `session_handshake_median_ms`: a board session opened on the virtual board until it
  plays (port open, HELLO? -> HELLO checked, CONFIG, PING -> PONG).
- `ping_rtt_median_ms`: the session's liveness PING to its PONG, through the pty.
- `virtual_scan_cpu_ms`: CPU time of one scan of the virtual board in manual time (its
  analogue path: 182 sensors through the chain, the bus and the ADC, with noise; and the
  firmware's scan, levels and debouncer), the opening position on a board of random parts:
  what every test and `bgboard sim` pays a scan period (100 scans a second of board time).
"""
from __future__ import annotations

import asyncio
import statistics
import threading
import time
from dataclasses import replace

from controller.board.profile import load_profile
from controller.board.reading import Reading
from controller.link.codec import (
    Frame,
    Message,
    MsgType,
    Scan,
    StreamDecoder,
    pack_sensors,
)
from controller.link.board_link import BoardLink

NAME = "link"
#: How long a measurement waits for the board before the bench gives up on it: a loaded
#: machine answers late, and a late answer is a slow figure to report, not a failure
#: (the link's own reply timeout, 0.5 s, is for play, where a lost reply is retried).
GIVE_UP_S = 10.0


#: the line is done when no frame came for this long after the pump stopped
QUIET_S = 0.3
#: the longest the pty's rate is waited for (the full bench's 5,000 frames take seconds)
PTY_GIVE_UP_S = 120.0


def _decode_rate(n: int) -> float:
    frames = [Frame(MsgType.SCAN, i & 0xFF, pack_sensors([(i + k) % 3 for k in range(182)])).encode()
              for i in range(256)]
    stream = b"".join(frames[i % 256] for i in range(n))
    return n / _feed(stream, n, "decoded")


def _salvage_rate(blocks: int) -> float:
    scan = Frame(MsgType.SCAN, 1, pack_sensors([k % 3 for k in range(182)])).encode()
    stream = (b"\x01" * 255 + scan) * blocks
    return len(stream) / 1024 / _feed(stream, blocks, "salvaged")


def _feed(stream: bytes, frames: int, what: str) -> float:
    """Seconds the decoder takes over `stream` in 4 KiB reads, which must give `frames`."""
    dec = StreamDecoder()
    t0 = time.perf_counter()
    for i in range(0, len(stream), 4096):
        dec.feed(stream[i:i + 4096])
    elapsed = time.perf_counter() - t0
    if dec.frames != frames:
        raise RuntimeError(f"{what} {dec.frames} of {frames} frames")
    return elapsed


async def _pty_rate(n: int) -> float:
    from sim.virtual_board import VirtualBoard

    profile = load_profile()
    fast = replace(profile, timing=replace(profile.timing, debounce_scans=1))
    got = 0

    def on_frame(m: Message) -> None:
        nonlocal got
        got += 1

    with VirtualBoard(fast, boot_timing=fast.timing) as vb:
        link = BoardLink(vb.port, on_frame=on_frame)
        await link.start()
        try:
            vb.advance(5)
            vb.flicker(5, period_ms=20)
            start = link.stats.frames
            t0 = time.perf_counter()
            pump = threading.Thread(target=vb.advance, args=(20 * n,))
            pump.start()
            # `n` flicker periods give about `n` frames (the first edge may fall before the
            # count starts): wait for the pump, then until the line has been quiet a while,
            # and time the frames up to the last one that came
            last_count, last_at = start, t0
            while pump.is_alive() or time.perf_counter() - last_at < QUIET_S:
                await asyncio.sleep(0.005)
                if link.stats.frames != last_count:
                    last_count, last_at = link.stats.frames, time.perf_counter()
                if time.perf_counter() - t0 > PTY_GIVE_UP_S:
                    break
            frames = last_count - start
            if frames < n * 0.9:
                raise RuntimeError(f"the pty carried {frames} of about {n} frames")
            elapsed = last_at - t0
        finally:
            link.close()
    return frames / elapsed


async def _latency(samples: int) -> list[float]:
    from sim.virtual_board import VirtualBoard

    profile = load_profile()
    count = profile.sensors.count
    state: dict[str, Reading | None] = {"reading": None}

    def on_frame(m: Message) -> None:
        if isinstance(m, Scan):
            state["reading"] = Reading.from_sensors(m.sensors(count), profile)

    out: list[float] = []
    with VirtualBoard(profile) as vb:
        vb.start()
        link = BoardLink(vb.port, on_frame=on_frame)
        await link.start()
        try:
            while not link.is_online:
                await asyncio.sleep(0.005)
            cells = [str(p) for p in range(1, 25)]
            for i in range(samples):
                cell = cells[i % len(cells)]
                want = 1 - sum(vb.counts(cell))
                t0 = time.perf_counter()
                if want:
                    vb.place(cell, "white")
                else:
                    vb.lift(cell)
                while True:
                    r = state["reading"]
                    if r is not None and r[cell].total == want:
                        break
                    await asyncio.sleep(0.0005)
                    if time.perf_counter() - t0 > GIVE_UP_S:
                        raise RuntimeError(f"no reading of cell {cell} within {GIVE_UP_S:g} s")
                out.append((time.perf_counter() - t0) * 1000)
                await asyncio.sleep(0.013 * (1 + i % 3))  # vary the phase against the scans
        finally:
            link.close()
    return out


async def _session(handshakes: int, pings: int) -> tuple[list[float], list[float]]:
    from controller.link.board_session import BoardSession
    from sim.virtual_board import VirtualBoard

    profile = load_profile()
    opened: list[float] = []
    rtts: list[float] = []
    with VirtualBoard(profile) as vb:
        vb.start()
        for i in range(handshakes):
            session = BoardSession(vb.port, profile, on_event=lambda e: None,
                                   ping_interval_s=None, read_timeout=0.01)
            t0 = time.perf_counter()
            await session.start()
            try:
                while not session.is_playing:
                    await asyncio.sleep(0.0005)
                    if time.perf_counter() - t0 > GIVE_UP_S:
                        raise RuntimeError(f"the board session did not come up within {GIVE_UP_S:g} s")
                opened.append((time.perf_counter() - t0) * 1000)
                if i == 0:
                    for _ in range(pings):
                        rtts.append(await session.ping(timeout=GIVE_UP_S) * 1000)
            finally:
                await session.close()
    return opened, rtts


def _scan_cpu_ms(scans: int) -> float:
    """The best of five runs' CPU time per scan of a quiet virtual board (manual time)."""
    from controller.engine.position import Position
    from sim.virtual_board import VirtualBoard, lay_out

    profile = load_profile()
    period = profile.timing.scan_period_ms
    best = float("inf")
    with VirtualBoard(profile) as vb:
        lay_out(vb, Position.initial(), "white")
        vb.advance(20 * period)
        for _ in range(5):
            t0 = time.process_time()
            vb.advance(scans * period)
            best = min(best, (time.process_time() - t0) / scans * 1000)
    return best


def run(quick: bool) -> dict[str, object]:
    decode = _decode_rate(2_000 if quick else 20_000)
    pty = asyncio.run(_pty_rate(500 if quick else 5_000))
    lat = sorted(asyncio.run(_latency(20 if quick else 100)))
    p99 = lat[min(len(lat) - 1, int(round(0.99 * (len(lat) - 1))))]
    opened, rtts = asyncio.run(_session(3 if quick else 10, 20 if quick else 200))
    return {
        "decode_frames_per_s": round(decode),
        "salvage_kb_per_s": round(_salvage_rate(100 if quick else 1_000)),
        "pty_frames_per_s": round(pty),
        "change_to_reading_median_ms": round(statistics.median(lat), 1),
        "change_to_reading_p99_ms": round(p99, 1),
        "change_to_reading_samples": len(lat),
        "session_handshake_median_ms": round(statistics.median(opened), 1),
        "ping_rtt_median_ms": round(statistics.median(rtts), 2),
        "virtual_scan_cpu_ms": round(_scan_cpu_ms(100 if quick else 1_000), 3),
    }
