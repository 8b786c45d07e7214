"""`bgboard sim --headless --script FILE`: a scenario script against the full stack.

The virtual board runs the firmware code in manual time and writes real frames to an
in-memory cable (sim/memory_cable.py); the board session reads them as it reads a serial
port; the `Table` (controller, simulated LED strip, dummy display, saving) reacts. Time is
simulated, and only simulated: the controller's clock is the virtual board's clock
(sim/script_time.py), and nothing waits for real time. After each script line the runner
lets the settling time pass and prints one JSON object (DESIGN.md "Scenario scripts";
controller/web/table_json.py).

The runner is the scripts' front end: it opens the table as every front end does
(`open_table`), and owns what changes the run itself (a new match, the cable, a power
cut). What each line does is sim/script_steps.py; the physical lines are
gestures of the simulator's one hand on the board (sim/script_lines.py, sim/hands.py), the
page's too.
"""
from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TextIO

from controller.board.profile import Profile, load_profile
from controller.bot.base import check_level
from controller.controller import ControllerConfig
from controller.dice import DiceState
from controller.engine.match import Match
from controller.engine.match_settings import MatchSettings
from controller.files import write_atomically
from controller.errors import BgboardError
from controller.events import DiceSeeded, Event, LanguageChosen, MatchChosen, Refused, TutorChosen
from controller.json_value import JsonObject
from controller.link.board_session import BoardSession
from controller.table import BackendChoice, Table, open_table
from controller.table.table import busy
from sim import script as sc
from sim.hands import Hands
from sim.script_lines import ScriptLines
from controller.web.table_json import snapshot
from sim.script_steps import carry_out
from sim.memory_cable import MemoryCable
from sim.script_time import FRAME_MS, ScriptTime
from sim.state_dir import StateDir
from sim.virtual_board import VirtualBoard
from controller.web.record import dice_record


class HeadlessRunner:
    """Runs one script; `run()` returns the JSON objects it printed."""

    def __init__(self, script: sc.Script, *, out: TextIO | None = None,
                 profile: Profile | None = None, state_dir: Path | None = None,
                 seed: int = 0, record: Path | None = None,
                 entropy: Callable[[int], bytes] | None = None) -> None:
        self.script = script
        self.out = out
        self.profile = profile or load_profile()
        self._state = StateDir(state_dir, "bgboard-headless-")
        self.state_dir = self._state.path
        self.seed = seed
        self.settle_ms = self.profile.timing.settle_ms
        self.vb: VirtualBoard | None = None
        self.wire = MemoryCable(seed=seed)  # the board's cable, in memory
        self.table: Table | None = None
        #: the dice the next table opens with (a table's own dice are its state's: `_dice_now`)
        self.dice = DiceState.seeded(random.Random(seed), **({"entropy": entropy} if entropy else {}))
        self.record = record
        self.results: list[JsonObject] = []
        self.settings = MatchSettings()
        self.config = ControllerConfig(settle_s=self.settle_ms / 1000)
        self._time: ScriptTime | None = None  # the run's clock and hand, made with its board
        self._lines: ScriptLines | None = None

    # -- what the steps work with (sim/script_steps.ScriptRun) ----------------------------
    @property
    def now(self) -> float:
        assert self._time is not None
        return self._time.now

    @property
    def lines(self) -> ScriptLines:
        assert self._lines is not None
        return self._lines

    def ready(self) -> Table:
        assert self.table is not None
        return self.table

    def dispatch(self, event: Event) -> None:
        if self.table is not None:
            self.table.dispatch(event)

    def tick(self, now: float) -> None:
        if self.table is not None:
            self.table.tick(now)

    async def advance(self, ms: int, *, ticks: bool = True) -> None:
        """Let `ms` of simulated time pass (sim/script_time.py)."""
        assert self._time is not None
        self._time.advance(ms, ticks=ticks)

    # -- the run ----------------------------------------------------------------------------
    async def run(self) -> list[JsonObject]:
        self.vb = vb = VirtualBoard(self.profile, seed=self.seed, cable=self.wire)
        self._time = ScriptTime(vb, tick=self.tick, busy=lambda now: busy(self.ready(), now))
        hands = Hands(vb, status=lambda: self.ready().controller.status())
        self._lines = ScriptLines(hands, vb, self.profile, mover=self._mover, refuse=lambda r: self.ready().refuse(r),
                                  advance=self.advance)
        try:
            self._lines.lay_out()
            await self._open_table(Match.new(self.settings))
            await self.advance(self.settle_ms + FRAME_MS)
            for line in self.script.lines:
                self.ready().log_lines.clear()
                await carry_out(self, line.command)
                await self.advance(self.settle_ms + FRAME_MS)
                self.emit(line)
            if self.record is not None:
                self.write_record(self.record)
        finally:
            if self.table is not None:
                await self.table.aclose()
            vb.close()
            self._state.cleanup()
        return self.results

    def write_record(self, path: Path) -> None:
        """The match as played so far (finished or not) as a `.mat` record at `path`."""
        status = self.ready().controller.status()
        text = dice_record(status.match, status.dice)
        try:
            write_atomically(path, text)
        except OSError as exc:
            raise BgboardError(f"cannot write the record {path}: {exc.strerror or exc}") from None

    def emit(self, line: sc.ScriptLine) -> None:
        table = self.ready()
        record = snapshot(table.controller.status(), line.number, line.text, list(table.log_lines))
        self.results.append(record)
        if self.out is not None:
            self.out.write(json.dumps(record, ensure_ascii=False) + "\n")
            self.out.flush()

    def _mover(self) -> str:
        return self.ready().controller.status().mover or "white"

    # -- the table --------------------------------------------------------------------------
    def _session(self) -> BoardSession:
        session = self.ready().link
        assert session is not None
        return session

    async def _open_table(self, match: Match | None) -> None:
        """Open the table on the virtual board (every front end's `open_table`), start its
        board session and wait for the first SCAN. `match` None: the saved match (a
        restart), else the one given."""
        assert self.vb is not None
        if self.table is not None:
            await self.table.aclose()
        # no PINGs and no silence limit: a long wait jumps the board's clock without
        # running its firmware (sim/script_time.py), so no PONG and no heartbeat meanwhile
        backends = BackendChoice(port=self.wire.host_end(), leds="sim", display="dummy",
                                 pins="mock", state_dir=self.state_dir, ping_interval_s=None,
                                 offline_after_s=3600.0, buzzer_sound=False)
        self.table = open_table(self.profile, backends, clock=lambda: self.now, config=self.config,
                                match=match, new_match=lambda: Match.new(self.settings), dice=self.dice)
        self._session().open()
        self._wait_online()

    def _wait_online(self) -> None:
        assert self._time is not None
        table = self.ready()
        self._time.wait_online(self._session(), lambda: table.readings, self.profile.timing.heartbeat_ms)

    async def new_match(self, command: sc.MatchCmd) -> None:
        """A `match` line: the table's MatchChosen, as New match on the page, the phone and
        the board's menu (its language and tutor chosen first, the dice seeded when it says
        `seed`); an opponent level that is not installed is refused in one line now."""
        match = command.start()  # checked when the script was read
        self.settings = match.settings
        opponent = command.get("opponent", "human")
        # a restart opens the table again with these (sim/headless.py `restart`)
        self.config = replace(self.config, language=command.get("language", "en"),
                              tutor=command.get("tutor", "off"))
        table, now = self.ready(), self.now
        table.dispatch(LanguageChosen(self.config.language, now))
        table.dispatch(TutorChosen(self.config.tutor, now))
        if "seed" in dict(command.options):
            table.dispatch(DiceSeeded(int(command.get("seed", "0")), now))
        table.dispatch(MatchChosen(match, now))
        if opponent != "human":
            try:
                check_level(opponent)  # a level that is not installed: one line now
            except BgboardError as exc:
                self.ready().refuse(Refused.of(str(exc), "computer_missing", level=opponent))

    async def cable(self, plugged: bool) -> None:
        """The cable pulled (the table hears it at once) or plugged in (time passes until
        the board plays again)."""
        assert self.vb is not None
        if not plugged:
            self.vb.unplug()
        else:
            self.vb.plug()
            self._wait_online()

    async def restart(self) -> None:
        """A power cut: the application dies and starts again from its saved match (what
        was in memory is lost, the dice's secret too: the save has it)."""
        self.dice = replace(self._dice_now(), secret=None)
        await self.ready().aclose()
        self.table = None
        await self._open_table(None)

    def _dice_now(self) -> DiceState:
        """The dice as the table has rolled them so far (its generator, its queue), for the next table."""
        return self.table.controller.state.dice if self.table is not None else self.dice


async def run_script(path: str | Path, *, out: TextIO, profile_path: str | None = None,
                     seed: int = 0, state_dir: Path | None = None,
                     record: Path | None = None) -> list[JsonObject]:
    """Parse and run a script file, writing JSON lines to `out` (and, with `record`, the
    match's `.mat` record when the script ends)."""
    script = sc.load_script(path)
    profile = load_profile(profile_path) if profile_path else None
    runner = HeadlessRunner(script, out=out, profile=profile, seed=seed, state_dir=state_dir,
                            record=record)
    return await runner.run()


def run_script_sync(path: str | Path, *, out: TextIO, profile_path: str | None = None,
                    seed: int = 0, state_dir: Path | None = None,
                    record: Path | None = None) -> list[JsonObject]:
    return asyncio.run(run_script(path, out=out, profile_path=profile_path, seed=seed,
                                  state_dir=state_dir, record=record))
