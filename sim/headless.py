"""`bgboard sim --headless --script FILE`: a scenario script against the full stack.

The virtual board runs the firmware code in manual time and writes real frames to a
pseudo-terminal; `BoardLink` reads them with pyserial like a real port; the `Table`
(controller, simulated LED strip, dummy display, saving) reacts. Time is simulated: the
controller's clock is the virtual board's clock. After each script line the runner lets
the settling time pass and prints one JSON object (DESIGN.md "Scenario scripts").

Frames cross a real pty and a reader thread, so the runner synchronises with a PING
barrier: it sends PING with a fresh token, lets the board answer, and waits for the PONG
on the event loop; every SCAN the board wrote before it has then reached the controller.
"""
from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO

from controller.board.profile import Profile, load_profile
from controller.controller import Controller, ControllerConfig
from controller.dice import DiceError, TableDice
from controller.engine.board_view import cell_counts, cube_owner, other
from controller.engine.match import Match
from controller.engine.match_settings import MatchSettings
from controller.engine.position import Position
from controller.errors import BgboardError
from controller.events import ActionRequested, DiceEntered, DicePhraseGiven, Event, Refused, Tick
from controller.link.serial_link import LinkState
from controller.link.session import BoardSession
from controller.show.display import text_lines
from controller.table import BackendChoice, Table, make_bot, open_table
from sim import script as sc
from sim.finger import LONG_PRESS_S, TAP_S, Finger, button_key
from sim.web.record import dice_record
from sim.state_dir import StateDir
from sim.virtual_board import VirtualBoard

STEP_MS = 20          # the runner's time step while letting time pass
FRAME_MS = 60         # enough for the firmware's debounce (3 scans) and its 20 ms rate limit
LONG_WAIT_MS = 10_000  # a wait longer than this skips the board's quiet time (see advance)
SKIP_AFTER_MS = 2_000  # stepped normally first: settling, debounce, a pending roll
SKIP_MS = 1_000       # the clock's jump, one tick each, while the board is quiet
SLIDE_REST_MS = 100   # a slid checker rests this long on each point it crosses
BARRIER_TIMEOUT_S = 3.0


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
        self.table: Table | None = None
        self.dice = TableDice(random.Random(seed), **({"entropy": entropy} if entropy else {}))
        self.record = record
        self.hand: list[str] = []
        self.results: list[dict[str, Any]] = []
        self.scans = 0
        self.settings = MatchSettings()
        self.config = ControllerConfig(settle_s=self.settle_ms / 1000)

    # -- time ---------------------------------------------------------------------------
    @property
    def now(self) -> float:
        assert self.vb is not None
        return self.vb.now_ms / 1000.0

    async def advance(self, ms: int, *, ticks: bool = True) -> None:
        """Let `ms` of simulated time pass: the board runs, frames reach the controller,
        the controller gets its ticks.

        A long wait (`wait 86400`) is not stepped through 20 ms at a time (a day took 14
        minutes of pings): after the first seconds, while the board is quiet, its clock
        jumps a second at a time (`VirtualBoard.skip`) with one tick each, and the last
        second runs normally again so the board's heartbeat reaches the controller."""
        assert self.vb is not None
        if ms > LONG_WAIT_MS and ticks:
            await self._advance(SKIP_AFTER_MS)
            left = ms - SKIP_AFTER_MS
            while left > SKIP_MS:
                if self.vb.skip(SKIP_MS):
                    self.dispatch(Tick(self.now))
                else:
                    await self._advance(SKIP_MS)
                left -= SKIP_MS
            await self._advance(left)
            return
        await self._advance(ms, ticks=ticks)

    async def _advance(self, ms: int, *, ticks: bool = True) -> None:
        assert self.vb is not None
        left = ms
        since_barrier = 0
        while left > 0:
            chunk = min(STEP_MS, left)
            self.vb.advance(chunk)
            left -= chunk
            since_barrier += chunk
            if since_barrier >= FRAME_MS or left == 0:
                await self.barrier()
                since_barrier = 0
            if ticks:
                self.dispatch(Tick(self.now))

    async def barrier(self) -> None:
        """Wait until every frame the board has written so far reached the controller: a
        PING through the board session, whose PONG comes after every SCAN sent before it."""
        assert self.vb is not None
        session = self.table.link if self.table is not None else None
        if session is None or not self.vb.is_plugged or session.link.status not in (
                LinkState.ONLINE, LinkState.CONNECTING, LinkState.OFFLINE):
            await asyncio.sleep(0.005)
            return
        pong = asyncio.ensure_future(session.ping(timeout=BARRIER_TIMEOUT_S))
        while not pong.done():
            self.vb.advance(0)
            await asyncio.wait({pong}, timeout=0.01)
        if not pong.cancelled():
            pong.exception()  # a lost PONG (the line was cut): nothing more to wait for

    # -- wiring -------------------------------------------------------------------------
    def dispatch(self, event: Event) -> None:
        if self.table is not None:
            self.table.dispatch(event)

    def _session(self) -> BoardSession:
        assert self.table is not None and self.table.link is not None
        return self.table.link

    async def _open_table(self, match: Match | None) -> None:
        """Open the table on the virtual board (every front end's `open_table`), start its
        board session and wait for the first SCAN. `match` None: the saved match (a
        restart), else the one given."""
        assert self.vb is not None
        if self.table is not None:
            await self.table.aclose()
        backends = BackendChoice(port=self.vb.port, leds="sim", display="dummy", pins="mock",
                                 state_dir=self.state_dir, ping_interval_s=None,
                                 read_timeout_s=0.02, offline_after_s=3600.0,
                                 link_backoff_s=(0.02, 0.1), buzzer_sound=False)
        settings = self.settings
        self.table = open_table(self.profile, backends, clock=lambda: self.now, config=self.config,
                                match=match, new_match=lambda: Match.new(settings), dice=self.dice)
        await self._session().start()
        await self._wait_online()

    async def _wait_online(self) -> None:
        assert self.vb is not None and self.table is not None
        loop = asyncio.get_running_loop()
        deadline = loop.time() + BARRIER_TIMEOUT_S
        session = self._session()
        while not session.is_playing and loop.time() < deadline:
            self.vb.advance(STEP_MS)
            await asyncio.sleep(0.01)
        readings = self.table.readings
        await self.barrier()
        waited = 0
        while self.table.readings == readings and waited < 2 * self.profile.timing.heartbeat_ms:
            await self.advance(STEP_MS)  # the first SCAN after a (re)connection
            waited += STEP_MS

    # -- the script ---------------------------------------------------------------------
    async def run(self) -> list[dict[str, Any]]:
        self.vb = VirtualBoard(self.profile, seed=self.seed)
        try:
            self._set_start()
            await self._open_table(Match.new(self.settings))
            await self.advance(self.settle_ms + FRAME_MS)
            for line in self.script.lines:
                assert self.table is not None
                self.table.log_lines.clear()
                await self.execute(line.command)
                await self.advance(self.settle_ms + FRAME_MS)
                self.emit(line)
            if self.record is not None:
                self.write_record(self.record)
        finally:
            if self.table is not None:
                await self.table.aclose()
            self.vb.close()
            self._state.cleanup()
        return self.results

    def write_record(self, path: Path) -> None:
        """The match as played so far (finished or not) as a `.mat` record at `path`."""
        assert self.table is not None
        text = dice_record(self.table.controller.status().match, self.dice)
        try:
            path.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise BgboardError(f"cannot write the record {path}: {exc.strerror or exc}") from None

    def emit(self, line: sc.ScriptLine) -> None:
        assert self.table is not None
        record = snapshot(self.table.controller, line.number, line.text, list(self.table.log_lines))
        self.results.append(record)
        if self.out is not None:
            self.out.write(json.dumps(record, ensure_ascii=False) + "\n")
            self.out.flush()

    def _set_start(self, position: Position | None = None, mover: str = "white") -> None:
        assert self.vb is not None
        counts = cell_counts(position or Position.initial(), mover)  # type: ignore[arg-type]
        for cell, (w, b) in counts.items():
            self.vb.set_cell(cell, w, b)

    def _mover(self) -> str:
        assert self.table is not None
        return self.table.controller.status().mover or "white"

    def _cell(self, cell: str, colour: str) -> str:
        return f"off-{colour}" if cell == "off" else cell

    async def execute(self, command: sc.Command) -> None:
        assert self.vb is not None and self.table is not None
        vb = self.vb
        if isinstance(command, sc.MatchCmd):
            await self._new_match(command)
        elif isinstance(command, sc.DiceCmd):
            self._dice(command.dice)
        elif isinstance(command, sc.PhraseCmd):
            self.dispatch(DicePhraseGiven(command.side, command.phrase, self.now))
        elif isinstance(command, sc.RevealCmd):
            self.dispatch(ActionRequested(self.table.controller.status().match.turn or "white", "reveal", self.now))
        elif isinstance(command, sc.ActionCmd):
            self.dispatch(ActionRequested(command.side, command.action, self.now, command.level))  # type: ignore[arg-type]
        elif isinstance(command, sc.LiftCmd):
            colour = command.colour or self._mover()
            self._physical(lambda: self.hand.append(vb.lift(self._cell(command.cell, colour), colour)))
        elif isinstance(command, sc.PlaceCmd):
            colour = command.colour or (self.hand[-1] if self.hand else self._mover())
            if command.colour is None and self.hand:
                self.hand.pop()
            elif colour in self.hand:
                self.hand.remove(colour)
            self._physical(lambda: vb.place(self._cell(command.cell, colour), colour))
        elif isinstance(command, sc.MoveCmd):
            colour = command.colour or self._mover()
            self._physical(lambda: vb.lift(self._cell(command.frm, colour), colour))
            await self.advance(FRAME_MS)
            self._physical(lambda: vb.place(self._cell(command.to, colour), colour))
        elif isinstance(command, sc.SlideCmd):
            colour = command.colour or self._mover()
            await self._slide(command, colour)
        elif isinstance(command, sc.HitCmd):
            colour = other(self._mover())  # type: ignore[arg-type]
            self._physical(lambda: vb.lift(command.cell, colour))
            await self.advance(FRAME_MS)
            self._physical(lambda: vb.place("bar", colour))
        elif isinstance(command, sc.WaitCmd):
            await self.advance(int(round(command.seconds * 1000)))
        elif isinstance(command, sc.FlickerCmd):
            sensors = self.profile.cell_sensors(self._cell(command.cell, self._mover()))
            w, b = vb.counts(self._cell(command.cell, self._mover()))
            sensor = sensors[min(w + b, len(sensors) - 1)]
            vb.flicker(sensor, 70, 1)
            await self.advance(command.ms)
            vb.flicker(sensor, 0)
        elif isinstance(command, sc.SetCmd):
            self._physical(lambda: vb.set_cell(command.cell, command.white, command.black))
        elif isinstance(command, sc.ResetCmd):
            self._set_start()
        elif isinstance(command, sc.SetupCmd):
            position, mover = self.table.controller.status().match.board()
            self._set_start(position, mover)
        elif isinstance(command, sc.CableCmd):
            await self._cable(command.plugged)
        elif isinstance(command, sc.RestartCmd):
            await self._restart()
        elif isinstance(command, sc.PressCmd):
            await self._press(command)

    def _dice(self, dice: tuple[int, int]) -> None:
        """A `dice` line: the next roll queued; with entered dice the controller waiting
        for them gets them as keyed in; with verifiable dice refused."""
        assert self.table is not None
        controller = self.table.controller
        status = controller.status()
        if status.entering_dice:
            side = status.match.turn or "white"
            self.dispatch(DiceEntered(side, dice, self.now))
            return
        try:
            self.dice.push(dice)
        except DiceError as exc:
            self.table.refuse(Refused.from_error(exc))

    def _physical(self, action: Callable[[], Any]) -> None:
        try:
            action()
        except (ValueError, KeyError, IndexError) as exc:
            assert self.table is not None
            self.table.refuse(Refused.of(str(exc), "board_cannot", text=str(exc)))

    async def _slide(self, command: sc.SlideCmd, colour: str) -> None:
        assert self.vb is not None
        vb = self.vb
        a, b = command.frm, command.to
        path: list[str] = [b]
        if a.isdigit() and b.isdigit():
            step = 1 if int(b) > int(a) else -1
            path = [str(p) for p in range(int(a) + step, int(b) + step, step)]
        at = a
        for cell in path:
            lift_from, place_on = self._cell(at, colour), self._cell(cell, colour)
            self._physical(lambda: vb.lift(lift_from, colour))
            self._physical(lambda: vb.place(place_on, colour))
            at = cell
            if cell != path[-1]:
                await self.advance(SLIDE_REST_MS)

    async def _cable(self, plugged: bool) -> None:
        assert self.vb is not None
        loop = asyncio.get_running_loop()
        if not plugged:
            self.vb.unplug()
            deadline = loop.time() + BARRIER_TIMEOUT_S
            while self._session().link.status is LinkState.ONLINE and loop.time() < deadline:
                await asyncio.sleep(0.01)
        else:
            self.vb.plug()
            await self._wait_online()

    async def _restart(self) -> None:
        """A power cut: the application dies and starts again from its saved match (what
        was in memory is lost, the dice's secret too: the save has it)."""
        assert self.table is not None
        await self.table.aclose()
        self.table = None
        self.dice.secret = None
        await self._open_table(None)

    async def _press(self, command: sc.PressCmd) -> None:
        """A finger on one of the table's (mock) buttons, held for a tap or a long press."""
        assert self.table is not None
        finger = Finger.on(self.table)
        if finger is None:
            self.table.refuse(Refused.of("this table has no buttons", "no_buttons"))
            return
        key = button_key(command.side, command.button)
        finger.down(key)
        await self.advance(int((LONG_PRESS_S if command.held else TAP_S) * 1000))
        finger.up(key)

    async def _new_match(self, command: sc.MatchCmd) -> None:
        match = command.start()  # checked when the script was read
        self.settings = match.settings
        opponent = command.get("opponent", "human")
        self.config = replace(self.config, language=command.get("language", "en"),
                              tutor=command.get("tutor", "off"))
        if "seed" in dict(command.options):
            self.dice.rng.seed(int(command.get("seed", "0")))
        self.dice.begin(match)
        await self._open_table(match)
        if opponent != "human":
            try:
                make_bot(opponent).close()  # a level that is not installed: one line now
            except BgboardError as exc:
                assert self.table is not None
                self.table.refuse(Refused.of(str(exc), "computer_missing", level=opponent))


def snapshot(controller: Controller, number: int, action: str, events: list[str]) -> dict[str, Any]:
    """The JSON object of one script line (DESIGN.md "Scenario scripts")."""
    scene = controller.last_scene
    status = controller.status()
    return {
        "line": number,
        "action": action,
        "leds": dict(sorted(scene.leds.items(), key=lambda kv: _cell_order(kv[0]))),
        "display": {"lines": text_lines(scene.display)},
        "match": match_view(status.match, status.setting_up),
        "events": events,
    }


def match_view(m: Match, setting_up: bool = False) -> dict[str, Any]:
    """A snapshot's `match` object (DESIGN.md "Scenario scripts"; the page draws it too)."""
    pips = m.pips()
    return {
        "turn": m.turn,
        "dice": list(m.dice) if m.dice else [],
        "cube": m.cube,
        "cube_owner": cube_owner(m.cube_owner),
        "score": {"white": m.score[0], "black": m.score[1]},
        "length": m.length,
        "position_id": m.partial.id,
        "match_id": m.match_id,
        "pips": {"white": pips["white"], "black": pips["black"]},
        "state": "setup" if setting_up and m.phase in ("opening", "roll") else m.phase,
    }


def _cell_order(cell: str) -> int:
    return int(cell) if cell.isdigit() else {"bar": 25, "off-white": 26, "off-black": 27}.get(cell, 28)


async def run_script(path: str | Path, *, out: TextIO, profile_path: str | None = None,
                     seed: int = 0, state_dir: Path | None = None,
                     record: Path | None = None) -> list[dict[str, Any]]:
    """Parse and run a script file, writing JSON lines to `out` (and, with `record`, the
    match's `.mat` record when the script ends)."""
    script = sc.load_script(path)
    profile = load_profile(profile_path) if profile_path else None
    runner = HeadlessRunner(script, out=out, profile=profile, seed=seed, state_dir=state_dir,
                            record=record)
    return await runner.run()


def run_script_sync(path: str | Path, *, out: TextIO, profile_path: str | None = None,
                    seed: int = 0, state_dir: Path | None = None,
                    record: Path | None = None) -> list[dict[str, Any]]:
    return asyncio.run(run_script(path, out=out, profile_path=profile_path, seed=seed,
                                  state_dir=state_dir, record=record))
