"""`bgboard bench` section `soak`: the whole stack played for a while, with faults.

`bgboard sim --no-browser` runs as a process of its own: the virtual board (the real
firmware code) on a pseudo-terminal, the link reading it with pyserial, the controller,
the saved match and the web server. This section drives it over its WebSocket as a page
would, computer against computer at level `simple`: Black is the simulator's computer
opponent (its moves carried out with the page's helper), White's moves are chosen here
by the same level and carried out as the sensor changes a hand makes (White rolls at
once, never doubles, and takes or drops as the level decides; the cube is on and
Crawford off, so a side waits for an automatic roll only when it may not double). On a schedule it
puts noise on the line, pulls the cable and plugs it back, makes a sensor flicker, and
once kills the process (SIGKILL) and starts it again on the same state directory.

Figures (`--seconds S`, default 60; `--quick` 20):
- `games`, `actions` (messages that act: rolls, steps, helpers, new matches);
- `faults` injected, `resumes` (restarts after the kill) and `resumes_exact` (the
  resumed match is the one saved before the kill, move for move);
- `errors`: tracebacks or ERROR lines from the process, a process that died unasked,
  a board that made no progress for 30 s;
- `rss_start_mb` (the process after warm-up, following the restart) and `rss_end_mb`;
- `rss_at_game_end_mb`: the simulator's process as each game ended after the restart
  (each the previous game's review included: the table reviews every finished game), and
  `review_process_peak_mb`, the most any of its review processes took (sampled every
  step: controller.analysis.review_process judges each review in a child that exits).
  The simulator's process holds the table as `bgboard run` does and the simulator's own
  parts besides (the virtual board running the firmware code, the page's server).
- `rss_after_game_2_mb`: the last of those less the second (issue 35's "flat after the
  first game": a few tenths of a MB), and `rss_slope_last_half_mb_per_game`, the least-squares
  slope of the later half of them: a cache filling early shows in the first and not the
  second, a leak in both (0.0 for either until there are three games, resp. two in the half).
"""
from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from controller.bot.base import BotCubeOwner, MatchContext, make_bot
from controller.json_value import JsonObject

if TYPE_CHECKING:  # aiohttp is the sim extra's, imported when the soak runs
    from aiohttp import ClientWebSocketResponse

NAME = "soak"
DEFAULT_SECONDS = 60.0
QUICK_SECONDS = 20.0
STALL_S = 30.0
SETTINGS = {"length": 3, "cube": "on", "crawford": "off", "clock": "off", "confirm": "auto",
            "opponent": "simple", "language": "en"}
#: the fault schedule: (fraction of the run, fault); the kill comes early, so memory is
#: measured on the process that runs to the end
SCHEDULE = ((0.10, "noise"), (0.15, "flicker"), (0.20, "kill"), (0.35, "unplug"), (0.55, "noise"),
            (0.65, "flicker"), (0.75, "unplug"), (0.85, "noise"))


@dataclass
class Figures:
    games: int = 0
    actions: int = 0
    faults: int = 0
    resumes: int = 0
    resumes_exact: int = 0
    errors: int = 0
    rss_start_mb: float = 0.0
    rss_end_mb: float = 0.0
    rss_at_game_end_mb: list[float] = field(default_factory=list)
    review_process_peak_mb: float = 0.0
    notes: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, object]:
        after_game_2, slope = memory_trend(self.rss_at_game_end_mb)
        return {"seconds": 0.0, "games": self.games, "actions": self.actions, "faults": self.faults,
                "resumes": self.resumes, "resumes_exact": self.resumes_exact, "errors": self.errors,
                "rss_start_mb": self.rss_start_mb, "rss_end_mb": self.rss_end_mb,
                "rss_at_game_end_mb": self.rss_at_game_end_mb, "rss_after_game_2_mb": after_game_2,
                "rss_slope_last_half_mb_per_game": slope, "review_process_peak_mb": self.review_process_peak_mb}


def memory_trend(at_game_end: list[float]) -> tuple[float, float]:
    """From the RSS at each game's end: the growth from the second game's end to the
    last, and the least-squares slope (MB a game) over the later half (see the module
    docstring); each 0.0 while there are too few games to say."""
    after_game_2 = round(at_game_end[-1] - at_game_end[1], 2) if len(at_game_end) >= 3 else 0.0
    half = at_game_end[len(at_game_end) // 2:]
    if len(half) < 2:
        return after_game_2, 0.0
    mean_x, mean_y = (len(half) - 1) / 2, sum(half) / len(half)
    covariance = sum((x - mean_x) * (y - mean_y) for x, y in enumerate(half))
    variance = sum((x - mean_x) ** 2 for x in range(len(half)))
    return after_game_2, round(covariance / variance, 3)


def rss_mb(pid: int) -> float:
    """A process's resident memory now (VmRSS), MB; 0.0 once it has gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    except (OSError, ValueError, IndexError):
        pass
    return 0.0


def children(pid: int) -> list[int]:
    """The processes `pid` started that still run."""
    out: list[int] = []
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            out += [int(child) for child in (task / "children").read_text().split()]
    except (OSError, ValueError):
        pass
    return out


class SimProcess:
    """`bgboard sim --no-browser` on a free port; its stderr watched for errors."""

    def __init__(self, state_dir: Path, config_dir: Path, figures: Figures) -> None:
        env = dict(os.environ, XDG_CONFIG_HOME=str(config_dir), XDG_STATE_HOME=str(config_dir))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "bgboard.cli", "sim", "--no-browser", "--port", "0",
             "--state-dir", str(state_dir)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        assert self.proc.stdout is not None
        self.url = self.proc.stdout.readline().strip()
        if not self.url.startswith("http://"):
            raise RuntimeError(f"the simulator did not start: {self.url!r}")
        self._watch = threading.Thread(target=self._errors, args=(figures,), daemon=True)
        self._watch.start()

    def _errors(self, figures: Figures) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            if "Traceback" in line or "ERROR" in line:
                figures.errors += 1
                figures.notes.append(line.strip()[:200])

    def rss_mb(self) -> float:
        return rss_mb(self.proc.pid)

    def children_rss_mb(self) -> float:
        """The most any of its child processes (the review's) holds now, MB."""
        return max([0.0] + [rss_mb(child) for child in children(self.proc.pid)])

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


class Driver:
    """One page on the simulator: the latest state, and the actions of both players."""

    def __init__(self, ws: ClientWebSocketResponse, figures: Figures, rng: random.Random) -> None:
        self.ws = ws
        self.figures = figures
        self.state: dict[str, Any] = {}
        self.changed = asyncio.Event()
        self._reader = asyncio.create_task(self._read())
        self.bot = make_bot("simple", rng=rng)

    async def _read(self) -> None:
        async for msg in self.ws:
            data = json.loads(msg.data)
            if data.get("type") == "state":
                self.state = data
                self.changed.set()

    async def send(self, message: JsonObject) -> None:
        self.figures.actions += message.get("type") != "fault"
        await self.ws.send_str(json.dumps(message))

    async def settle(self, timeout: float = 2.0) -> None:
        """Until the match or the helpers on offer change (or `timeout`): the controller
        acts on a board only once it has settled, so acting again sooner is noise."""
        before = self.progress_key()
        end = time.monotonic() + timeout
        while self.progress_key() == before and time.monotonic() < end:
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), max(0.01, end - time.monotonic()))
            except TimeoutError:
                break

    def progress_key(self) -> tuple[object, ...]:
        m = self.state.get("match", {})
        return (m.get("match_id"), m.get("position_id"), m.get("state"), m.get("turn"),
                tuple(self.state.get("helpers", ())))

    async def act(self) -> None:
        """One step of play, whoever is to act."""
        s = self.state
        if not s:
            await self.settle()
            return
        m, helpers = s["match"], s.get("helpers", [])
        if "setup" in helpers:
            await self.send({"type": "setup"})
        elif "bot_move" in helpers:
            await self.send({"type": "bot_move"})
        elif m["state"] == "opening":
            await self.send({"type": "button", "name": "white_main"})
        elif m["state"] == "roll":
            await self.send({"type": "button", "name": f"{m['turn']}_main"})
        elif m["state"] == "move" and m["turn"] == "white" and not s.get("hand") and s.get("awaits_landing"):
            # every checker is down, yet the table may not see one: it stands unseen on a
            # full point (TableStatus.awaits_landing), and the button says so
            await self.send({"type": "button", "name": "white_main"})
        elif m["state"] == "move" and m["turn"] == "white":
            await self._play_white(m)
        elif m["state"] == "over":
            await self.send({"type": "new_match", "settings": SETTINGS})
        elif m["state"] == "doubled" and m["turn"] == "black":
            await self._answer_double(m)
        elif m["state"] == "resigning" and m["turn"] == "black":
            await self.send({"type": "command", "name": "white accept"})
        await self.settle()

    def _context(self, m: dict[str, Any]) -> MatchContext:
        """The match as White (the level played here) sees it."""
        length, score = int(m["length"]), m["score"]
        owners: dict[str, BotCubeOwner] = {"white": "bot", "black": "opponent"}
        return MatchContext(length=length, bot_away=max(1, length - score["white"]),
                            opponent_away=max(1, length - score["black"]), cube=int(m["cube"]),
                            owner=owners.get(m["cube_owner"], "center"))

    async def _answer_double(self, m: dict[str, Any]) -> None:
        from controller.engine.position import Position

        white_view = Position.from_id(m["position_id"]).swap()
        take = self.bot.should_take(white_view, self._context(m))
        await self.send({"type": "command", "name": f"white {'take' if take else 'drop'}"})

    async def _play_white(self, m: dict[str, Any]) -> None:
        from controller.engine.board_view import step_cells
        from controller.engine.position import Position

        position = Position.from_id(m["position_id"])
        dice = (int(m["dice"][0]), int(m["dice"][1]))
        move = self.bot.choose_move(position, dice, self._context(m))
        if move is None:
            return
        for step in move.steps:
            frm, to = step_cells(step, "white")
            if step.hit:
                await self.send({"type": "lift", "cell": to, "colour": "black"})
                await self.send({"type": "place", "cell": "bar", "colour": "black"})
            await self.send({"type": "lift", "cell": frm, "colour": "white"})
            await self.send({"type": "place", "cell": to, "colour": "white"})


async def _soak(seconds: float, rng: random.Random) -> Figures:
    import aiohttp

    from controller.records import saved

    figures = Figures()
    with tempfile.TemporaryDirectory(prefix="bgboard-soak-") as tmp:
        state, config = Path(tmp) / "state", Path(tmp) / "config"
        state.mkdir()
        sim = SimProcess(state, config, figures)
        start = time.monotonic()
        schedule = list(SCHEDULE)
        warm_at = start + seconds * 0.30
        last_score = 0
        async with aiohttp.ClientSession() as session:
            ws = await session.ws_connect(sim.url + "ws")
            driver = Driver(ws, figures, rng)
            await driver.settle(5)
            await driver.send({"type": "new_match", "settings": SETTINGS})
            progress, progress_at = driver.progress_key(), time.monotonic()
            # every fault of the schedule is injected, even where a loaded machine's restart
            # after the kill took the rest of the time the run was given
            while time.monotonic() - start < seconds or schedule:
                now = time.monotonic()
                if schedule and now - start >= schedule[0][0] * seconds:
                    fault = schedule.pop(0)[1]
                    figures.faults += 1
                    if fault == "kill":
                        await ws.close()
                        sim.kill()
                        # what the killed process left on disk (read before the kill, a save
                        # landing in between, an automatic roll say, looked like a lost move)
                        expected = saved.load_latest(state)
                        sim = SimProcess(state, config, figures)
                        figures.resumes += 1
                        ws = await session.ws_connect(sim.url + "ws")
                        driver = Driver(ws, figures, rng)
                        await driver.settle(5)
                        got = driver.state.get("match", {})
                        if expected is not None and got.get("match_id") == expected.match_id \
                                and got.get("position_id") == expected.partial.id:
                            figures.resumes_exact += 1
                        elif expected is None:
                            figures.resumes_exact += 1  # nothing saved yet: a fresh match is exact
                        else:
                            figures.notes.append(f"resume: {got.get('match_id')} != {expected.match_id}")
                        progress_at = time.monotonic()
                    elif fault == "unplug":
                        await driver.send({"type": "fault", "name": "unplug"})
                        await asyncio.sleep(1.0)
                        await driver.send({"type": "fault", "name": "plug"})
                    else:
                        await driver.send({"type": "fault", "name": fault})
                if sim.proc.poll() is not None:
                    figures.errors += 1
                    figures.notes.append(f"the simulator exited with {sim.proc.returncode}")
                    break
                if not figures.rss_start_mb and now >= warm_at:
                    figures.rss_start_mb = sim.rss_mb()
                figures.review_process_peak_mb = max(figures.review_process_peak_mb, sim.children_rss_mb())
                await driver.act()
                score = sum(driver.state.get("match", {}).get("score", {}).values())
                if score > last_score:
                    figures.games += 1
                    if figures.resumes:
                        figures.rss_at_game_end_mb.append(sim.rss_mb())
                last_score = score
                key = driver.progress_key()
                if key != progress:
                    progress, progress_at = key, time.monotonic()
                elif time.monotonic() - progress_at > STALL_S:
                    figures.errors += 1
                    figures.notes.append(f"no progress for {STALL_S:.0f} s at {key}")
                    progress_at = time.monotonic()
                    await driver.send({"type": "setup"})
            figures.rss_end_mb = sim.rss_mb()
            await ws.close()
        sim.stop()
    return figures


def run(quick: bool, seconds: float | None = None) -> dict[str, object]:
    """The soak figures (see the module docstring)."""
    length = seconds if seconds is not None else (QUICK_SECONDS if quick else DEFAULT_SECONDS)
    started = time.monotonic()
    figures = asyncio.run(_soak(length, random.Random(17)))
    out = figures.as_dict()
    out["seconds"] = round(time.monotonic() - started, 1)
    for note in figures.notes[:5]:
        print(f"bgboard bench soak: {note}", file=sys.stderr)
    return out
