"""`bgboard bench` section `pi`: CPU time of the hot paths, and what it means on a Pi.

Emulated times are not speed (qemu-user runs arm64 code several times slower than a Pi,
and unevenly), so the Pi's figures are estimates: the CPU seconds each operation takes on
this machine (this process and the processes it started, e.g. the gnubg program; not
wall time, so a loaded machine skews them less), times a factor for the board.

The factor (`pi4_factor`) is measured in the same run: the n-body benchmark of the
Computer Language Benchmarks Game, pure single-core Python, is timed here and compared
with its published time on a Raspberry Pi 4 Model B at 1.5 GHz, performance governor:
158.3 s for 5,000,000 steps (C. Mehta, "Performance Analysis of Languages on Raspberry
Pi", chaitanyamehta.github.io, 2020; Python 3 of Raspberry Pi OS then, 3.7, slower than
3.11 at this loop, so the estimate errs on the slow side). A Zero 2 W (Cortex-A53 at
1.0 GHz) is `ZERO2W_PER_PI4` times slower than a Pi 4 core: sysbench's single-core
figures (leoncode.co.uk, "Raspberry Pi CPU Benchmarks": Pi 4 1477.83, Pi 3B+ 687.45
events/s) scaled from the Pi 3B+'s 1.4 GHz to the Zero 2 W's 1.0 GHz (the same core).

Operations (CPU milliseconds each, median): a checker lifted to its targets in the scene,
a checker placed to its step counted (the controller's work; the sensor's settling time
is a wait, not work), a hint, a computer move at each level, the review after one game of
a 7-point match, `bgboard analyze` of that match at each ply (2-ply left out with
--quick), the RSS of `bgboard run` on the virtual board at steady state
(controller_bench's idle run), and the judgement's memory (`memory_figures`: `analyze` of
a 25-point record of 25 games, the review after each game, the memos' limits). `goal_*`
are the issues' bounds on the Pi 4 estimate and on that memory.
The judgement's figures come once per implementation of gnubg's network at hand, named
by it (`pi4_hint_numpy_ms`, `pi4_review_after_a_game_wheel_ms`): a Pi has no gnubg-nn
wheel, so its figures are the `_numpy` ones.
"""
from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path

from bgboard.bench import memory_figures

NAME = "pi"
#: the published n-body run on a Pi 4 (see the module docstring)
PI4_NBODY_S = 158.3
PI4_NBODY_STEPS = 5_000_000
#: Pi 4 single core / Zero 2 W single core: sysbench 1477.83 / 687.45 (Pi 3B+) x 1.4 / 1.0 GHz
ZERO2W_PER_PI4 = round(1477.83 / 687.45 * 1.4 / 1.0, 2)
#: the issue's goals on the Pi 4 estimate, milliseconds (RSS in MB)
GOALS_MS = {"lift_to_targets": 100.0, "hint": 1000.0, "move_worldclass": 3000.0,
            "review_after_a_game": 10000.0}
GOAL_RSS_MB = 100.0
#: issue 34's bounds on the judgement's memory (MB): any record `analyze` accepts, and
#: what the review after a game adds to `bgboard run`
GOALS_MB = {"analyze_long_0ply_peak_process_mb": 150.0, "review_adds_mb": 30.0}


def _tree_cpu_s() -> float:
    """CPU seconds of this process and every process below it still running (the gnubg
    program a level keeps open), read from /proc; this process alone elsewhere."""
    total = time.process_time()
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    todo = [os.getpid()]
    seen: set[int] = set()
    while todo:
        pid = todo.pop()
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                children = Path(f"/proc/{pid}/task/{task}/children").read_text().split()
            except OSError:
                continue
            for child in map(int, children):
                if child in seen:
                    continue
                seen.add(child)
                todo.append(child)
                try:
                    fields = Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[1].split()
                    total += (int(fields[11]) + int(fields[12])) / tick   # utime, stime
                except (OSError, IndexError, ValueError):
                    pass
    return total


def cpu_ms(action: Callable[[], object], times: int = 1) -> list[float]:
    """CPU milliseconds of each of `times` runs of `action`."""
    out = []
    for _ in range(times):
        c0 = _tree_cpu_s()
        action()
        out.append((_tree_cpu_s() - c0) * 1000.0)
    return out


# -- the factor ---------------------------------------------------------------------------

def nbody(steps: int) -> float:
    """The Benchmarks Game's n-body (five bodies, dt 0.01), as its Python programs compute
    it: the system's energy after `steps` steps (-0.169087605 for 1,000: the Game's own output)."""
    pi = 3.14159265358979323
    solar = 4 * pi * pi
    year = 365.24
    bodies: list[tuple[list[float], list[float], float]] = [
        ([0.0, 0.0, 0.0], [0.0, 0.0, 0.0], solar),
        ([4.84143144246472090e+00, -1.16032004402742839e+00, -1.03622044471123109e-01],
         [1.66007664274403694e-03 * year, 7.69901118419740425e-03 * year,
          -6.90460016972063023e-05 * year], 9.54791938424326609e-04 * solar),
        ([8.34336671824457987e+00, 4.12479856412430479e+00, -4.03523417114321381e-01],
         [-2.76742510726862411e-03 * year, 4.99852801234917238e-03 * year,
          2.30417297573763929e-05 * year], 2.85885980666130812e-04 * solar),
        ([1.28943695621391310e+01, -1.51111514016986312e+01, -2.23307578892655734e-01],
         [2.96460137564761618e-03 * year, 2.37847173959480950e-03 * year,
          -2.96589568540237556e-05 * year], 4.36624404335156298e-05 * solar),
        ([1.53796971148509165e+01, -2.59193146099879641e+01, 1.79258772950371181e-01],
         [2.68067772490389322e-03 * year, 1.62824170038242295e-03 * year,
          -9.51592254519715870e-05 * year], 5.15138902046611451e-05 * solar),
    ]
    px = py = pz = 0.0
    for _, v, m in bodies:
        px -= v[0] * m
        py -= v[1] * m
        pz -= v[2] * m
    v0 = bodies[0][1]
    v0[0], v0[1], v0[2] = px / solar, py / solar, pz / solar
    pairs = [(bodies[i], bodies[j]) for i in range(5) for j in range(i + 1, 5)]
    dt = 0.01
    for _ in range(steps):
        for (r1, v1, m1), (r2, v2, m2) in pairs:
            dx, dy, dz = r1[0] - r2[0], r1[1] - r2[1], r1[2] - r2[2]
            mag = dt * ((dx * dx + dy * dy + dz * dz) ** -1.5)
            b1, b2 = m1 * mag, m2 * mag
            v1[0] -= dx * b2
            v1[1] -= dy * b2
            v1[2] -= dz * b2
            v2[0] += dx * b1
            v2[1] += dy * b1
            v2[2] += dz * b1
        for r, v, _m in bodies:
            r[0] += dt * v[0]
            r[1] += dt * v[1]
            r[2] += dt * v[2]
    energy = 0.0
    for i, (r1, v1, m1) in enumerate(bodies):
        energy += m1 * (v1[0] ** 2 + v1[1] ** 2 + v1[2] ** 2) / 2.0
        for r2, _v2, m2 in bodies[i + 1:]:
            d = ((r1[0] - r2[0]) ** 2 + (r1[1] - r2[1]) ** 2 + (r1[2] - r2[2]) ** 2) ** 0.5
            energy -= m1 * m2 / d
    return energy


def pi4_factor(steps: int) -> tuple[float, float]:
    """(Pi 4 CPU time / this machine's) for n-body, and this machine's seconds for the
    published 5,000,000 steps (the best of three runs of `steps`, scaled)."""
    best = min(cpu_ms(lambda: nbody(steps), 3)) / 1000.0
    here = best * PI4_NBODY_STEPS / steps
    return PI4_NBODY_S / here, here


# -- the operations ----------------------------------------------------------------------

def _table() -> object:
    from controller.board.reconcile import BoardState
    from controller.controller import Controller
    from controller.dice import DiceState
    from controller.engine import Position
    from controller.engine.board_view import cell_counts
    from controller.engine.match import Match
    from controller.engine.match_settings import MatchSettings
    from controller.events import ActionRequested, ReadingReceived, Tick

    dice = DiceState.seeded(random.Random(1)).push((3, 1))
    c = Controller(Match.new(MatchSettings(length=5)), dice=dice)
    c.handle(ReadingReceived(BoardState.of(cell_counts(Position.initial(), "white")), 0.0))
    c.handle(Tick(0.3))
    c.handle(ActionRequested("white", "roll", 0.4))   # the opening: White plays 3-1
    return c


def hand_figures(samples: int) -> dict[str, float]:
    """The controller's CPU for a lift (to its targets in the scene) and a place (to its
    step in the match), played 8/5 and taken back, alternately, on readings as the link
    delivers them; the settling time passes as ticks (a wait, not work)."""
    from controller.board.reconcile import BoardState
    from controller.engine import Position
    from controller.engine.board_view import cell_counts
    from controller.events import ReadingReceived, Tick

    c: object = _table()
    start = dict(cell_counts(Position.initial(), "white"))
    lifted = {**start, "8": (start["8"][0] - 1, 0)}
    moved = {**lifted, "5": (start["5"][0] + 1, 0) if "5" in start else (1, 0)}
    handle = getattr(c, "handle")
    status = getattr(c, "status")
    lifts: list[float] = []
    places: list[float] = []
    t = 1.0
    for i in range(samples):
        before, after = (start, moved) if i % 2 == 0 else (moved, start)
        frm = "8" if i % 2 == 0 else "5"
        hand = {**before, frm: (before[frm][0] - 1, 0)}
        c0 = _tree_cpu_s()
        handle(ReadingReceived(BoardState.of(hand), t))
        leds = status().scene.leds
        lifts.append((_tree_cpu_s() - c0) * 1000.0)
        if "target" not in leds.values():
            raise RuntimeError("a lifted checker lit no target")
        t += 0.3
        steps = len(status().match.steps)
        c0 = _tree_cpu_s()
        handle(ReadingReceived(BoardState.of(after), t))
        for k in range(1, 20):
            handle(Tick(t + 0.05 * k))
            if len(status().match.steps) != steps:
                break
        places.append((_tree_cpu_s() - c0) * 1000.0)
        t += 1.5
        handle(Tick(t))
    return {"lift_to_targets": statistics.median(lifts), "place_to_accepted": statistics.median(places)}


def hint_figure(samples: int) -> float:
    from controller.analysis.evaluator import Evaluator
    from controller.analysis.hint import hint
    from bgboard.bench.bot_bench import sample_positions

    evaluator = Evaluator()
    positions = sample_positions(samples, seed=5)
    hint(positions[0][0], positions[0][1], evaluator=evaluator)      # the network loaded
    return statistics.median(
        cpu_ms(partial(hint, p, d, evaluator=evaluator))[0] for p, d in positions)


def level_figures(samples: int) -> dict[str, float]:
    from bgboard.bench.bot_bench import sample_positions
    from controller.bot.base import MONEY, OFFERED_LEVELS, make_bot

    positions = sample_positions(samples, seed=3)
    out = {}
    for level in OFFERED_LEVELS:
        bot = make_bot(level)
        bot.choose_move(positions[0][0], positions[0][1], MONEY)   # started and loaded
        spent = [cpu_ms(partial(bot.choose_move, p, d, MONEY))[0] for p, d in positions]
        out[f"move_{level}"] = statistics.median(spent)
        close = getattr(bot, "close", None)
        if callable(close):
            close()
    return out


def match_figures(path: Path | None, plies: tuple[int, ...]) -> dict[str, object]:
    """The review after each game (median) and `bgboard analyze` at each ply, whole runs
    in a child process (its CPU and its children's, from the child's rusage)."""
    import resource

    if path is None:
        return {"match_7pt": "unavailable (shared/matches not beside the checkout)"}
    from dataclasses import replace

    from controller.records.mat_reader import read_mat
    from controller.table.review import default_cache

    record = read_mat(path.read_text(encoding="utf-8", errors="replace").lstrip("\ufeff"))
    cache = default_cache()
    cache.review(replace(record, games=()))
    per_game = [cpu_ms(partial(cache.review, replace(record, games=record.games[:n])))[0]
                for n in range(1, len(record.games) + 1)]
    out: dict[str, object] = {"review_after_a_game": statistics.median(per_game)}
    for ply in plies:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run([sys.executable, "-m", "bgboard.cli", "analyze", "--ply", str(ply),
                               str(path)], capture_output=True, text=True, check=False)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode != 0 or "PR" not in done.stdout:
            out[f"analyze_7pt_{ply}ply"] = f"failed: {(done.stderr or done.stdout).strip()[-200:]}"
            continue
        out[f"analyze_7pt_{ply}ply"] = 1000.0 * ((after.ru_utime + after.ru_stime)
                                                 - (before.ru_utime + before.ru_stime))
    return out


def estimates(cpu: dict[str, object], factor: float) -> dict[str, object]:
    """Each CPU figure (ms) as `cpu_<op>_ms`, and its Pi 4 and Zero 2 W estimates."""
    out: dict[str, object] = {}
    for op, value in cpu.items():
        if not isinstance(value, float):
            out[f"cpu_{op}"] = value
            continue
        unit, scale = ("s", 1000.0) if value >= 10000.0 else ("ms", 1.0)
        out[f"cpu_{op}_{unit}"] = round(value / scale, 2)
        out[f"pi4_{op}_{unit}"] = round(value * factor / scale, 2)
        out[f"zero2w_{op}_{unit}"] = round(value * factor * ZERO2W_PER_PI4 / scale, 2)
    return out


def backends() -> list[str]:
    """The implementations of gnubg's network this machine has (`BGBOARD_NETWORK` values):
    the x86-only wheel where it is installed, the numpy one (what a Pi runs) where the
    gnubg program's weights are."""
    from controller.evaluation.weights import weights_file
    from controller.evaluation.wheel import load_gnubg_nn

    saved = os.environ.pop("BGBOARD_NETWORK", None)
    try:
        wheel = load_gnubg_nn() is not None
    finally:
        if saved is not None:
            os.environ["BGBOARD_NETWORK"] = saved
    return [name for name, present in (("wheel", wheel), ("numpy", weights_file() is not None)) if present]


@contextmanager
def network(backend: str) -> Iterator[None]:
    """The levels, hint, review and analysis (and `bgboard analyze` started from here) on
    `backend` while the block runs."""
    saved = os.environ.get("BGBOARD_NETWORK")
    os.environ["BGBOARD_NETWORK"] = backend
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop("BGBOARD_NETWORK", None)
        else:
            os.environ["BGBOARD_NETWORK"] = saved


def judgement_figures(quick: bool) -> dict[str, object]:
    """The hint, each level's move, the review and `analyze` with each network this
    machine has, each figure named by its backend (`hint_numpy`, `move_expert_wheel`):
    a Pi has the numpy network only, so its figures are the `_numpy` ones."""
    from bgboard.bench.analysis_bench import _match_file
    from controller.errors import BackendUnavailableError

    found = backends()
    if not found:
        return {"judgement": "unavailable: no gnubg network (sudo apt install gnubg)"}
    cpu: dict[str, object] = {}
    for backend in found:
        with network(backend):
            try:
                figures: dict[str, object] = {"hint": hint_figure(5 if quick else 30)}
                figures.update(level_figures(3 if quick else 12))
                figures.update(match_figures(_match_file(), (0, 1) if quick else (0, 1, 2)))
            except BackendUnavailableError as error:
                figures = {"judgement": f"unavailable: {error}"}
        cpu.update((f"{op}_{backend}", value) for op, value in figures.items())
    return cpu


def run(quick: bool) -> dict[str, object]:
    from bgboard.bench.controller_bench import _idle

    factor, nbody_here = pi4_factor(20_000 if quick else 100_000)
    cpu: dict[str, object] = dict(hand_figures(10 if quick else 60))
    cpu.update(judgement_figures(quick))
    figures: dict[str, object] = {
        "nbody_5m_steps_here_s": round(nbody_here, 1),
        "pi4_factor": round(factor, 2),
        "pi4_factor_source": f"n-body, {PI4_NBODY_S} s for 5M steps on a Pi 4 at 1.5 GHz (Mehta 2020)",
        "zero2w_factor": round(factor * ZERO2W_PER_PI4, 2),
        "zero2w_factor_source": f"Pi 4 x {ZERO2W_PER_PI4}: sysbench single core, Pi 3B+ scaled 1.4 to 1.0 GHz",
    }
    figures.update(estimates(cpu, factor))
    rss = _idle(4.0 if quick else 12.0)["rss_mb"]
    figures["run_rss_mb"] = rss
    figures["goal_run_rss_mb"] = GOAL_RSS_MB
    with network("numpy"):
        figures.update(memory_figures.run(quick))
    for name, bound in GOALS_MB.items():
        figures[f"goal_{name}"] = bound
    for op, bound in GOALS_MS.items():
        figures[f"goal_pi4_{op}_ms"] = bound
    return figures
