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
import tempfile
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO

from controller.app import MatchStore, Table, make_bot, reading_to_state
from controller.board.profile import Profile, load_profile
from controller.board.reading import Reading
from controller.controller import Controller, ControllerConfig
from controller.dice import DiceError, TableDice
from controller.engine.board_view import cell_counts, cube_owner, other
from controller.engine.match import Match
from controller.engine.match_settings import MatchSettings
from controller.engine.position import Position
from controller.errors import BgboardError
from controller.events import (ActionRequested, DiceEntered, DicePhraseGiven, LinkChanged,
                               ReadingReceived, Tick)
from controller.link.codec import Pong, Scan
from controller.link.serial_link import BoardLink, LinkState, LinkStatus
from controller.show.display import text_lines
from controller.show.display_backends import Display
from controller.show.leds import SimulatedStrip
from sim import script as sc
from sim.web.record import mat_text, player_names
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
        self._tmp: tempfile.TemporaryDirectory[str] | None = None
        if state_dir is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="bgboard-headless-")
            state_dir = Path(self._tmp.name)
        self.state_dir = state_dir
        self.seed = seed
        self.settle_ms = self.profile.timing.settle_ms
        self.vb: VirtualBoard | None = None
        self.link: BoardLink | None = None
        self.table: Table | None = None
        self.dice = TableDice(random.Random(seed), **({"entropy": entropy} if entropy else {}))
        self.record = record
        self.hand: list[str] = []
        self._pongs: dict[bytes, asyncio.Future[None]] = {}
        self._token = 0
        self.results: list[dict[str, Any]] = []
        self.link_state = LinkState.CLOSED
        self.last_state: Any = None
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
        """Wait until every frame the board has written so far reached the controller."""
        assert self.vb is not None and self.link is not None
        if not self.vb.is_plugged or self.link.status not in (LinkState.ONLINE, LinkState.CONNECTING,
                                                                  LinkState.OFFLINE):
            await asyncio.sleep(0.005)
            return
        self._token += 1
        token = self._token.to_bytes(4, "little")
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pongs[token] = future
        if not self.link.send_ping(token):
            self._pongs.pop(token, None)
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + BARRIER_TIMEOUT_S
        while not future.done() and loop.time() < deadline:
            self.vb.advance(0)
            try:
                await asyncio.wait_for(asyncio.shield(future), 0.01)
            except asyncio.TimeoutError:
                continue
        self._pongs.pop(token, None)

    # -- wiring -------------------------------------------------------------------------
    def dispatch(self, event: Any) -> None:
        if self.table is not None:
            self.table.dispatch(event)

    def _on_frame(self, message: Any) -> None:
        if isinstance(message, Pong):
            future = self._pongs.get(bytes(message.payload))
            if future is not None and not future.done():
                future.set_result(None)
            return
        if isinstance(message, Scan):
            reading = Reading.from_sensors(message.sensors(self.profile.sensors.count), self.profile)
            self.last_state = reading_to_state(reading)
            self.scans += 1
            self.dispatch(ReadingReceived(self.last_state, self.now))

    def _on_status(self, status: LinkStatus) -> None:
        self.link_state = status.state
        if status.state is LinkState.ONLINE:
            self.dispatch(LinkChanged(True, self.now, status.detail))
        elif status.state in (LinkState.DISCONNECTED, LinkState.OFFLINE):
            self.dispatch(LinkChanged(False, self.now, status.detail))

    async def _open_link(self) -> None:
        assert self.vb is not None
        self.link = BoardLink(self.vb.port, on_frame=self._on_frame, on_status=self._on_status,
                              baudrate=self.profile.link.baudrate, offline_after=3600.0,
                              backoff=(0.02, 0.1))
        await self.link.start()
        await self._wait_online()

    async def _wait_online(self) -> None:
        assert self.vb is not None and self.link is not None
        loop = asyncio.get_running_loop()
        deadline = loop.time() + BARRIER_TIMEOUT_S
        scans = self.scans
        while self.link.status is not LinkState.ONLINE and loop.time() < deadline:
            self.vb.advance(STEP_MS)
            await asyncio.sleep(0.01)
        await self.barrier()
        waited = 0
        while self.scans == scans and waited < 2 * self.profile.timing.heartbeat_ms:
            await self.advance(STEP_MS)  # the first SCAN after a (re)connection
            waited += STEP_MS

    def _make_table(self, match: Match, *, resumed: bool = False) -> None:
        store = MatchStore(self.state_dir)
        controller = Controller(match, config=self.config, dice=self.dice, now=self.now)
        strip = SimulatedStrip(self.profile.leds)
        display = Display.open(self.profile.display, "dummy")
        self.table = Table(controller, strip=strip, display=display, store=store,
                           bot_factory=make_bot)
        self.table.log_lines.append("resumed the saved match" if resumed else "new match")
        if self.last_state is not None:
            self.table.dispatch(ReadingReceived(self.last_state, self.now))

    # -- the script ---------------------------------------------------------------------
    async def run(self) -> list[dict[str, Any]]:
        self.vb = VirtualBoard(self.profile, seed=self.seed)
        try:
            self._set_start()
            await self._open_link()
            self._make_table(Match.new(self.settings))
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
            if self.link is not None:
                self.link.close()
            self.vb.close()
            if self._tmp is not None:
                self._tmp.cleanup()
        return self.results

    def write_record(self, path: Path) -> None:
        """The match as played so far (finished or not) as a `.mat` record at `path`."""
        assert self.table is not None
        c = self.table.controller
        text = mat_text(c.match, self.dice.record_tags(),
                        players=player_names(c.match, c.config.white_player, c.config.black_player))
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
        view = self.table.controller.view()
        return view.mover or "white"

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
            self.dispatch(ActionRequested(self.table.controller.match.turn or "white", "reveal", self.now))
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
            position, mover = self.table.controller.match.board()
            self._set_start(position, mover)
        elif isinstance(command, sc.CableCmd):
            await self._cable(command.plugged)
        elif isinstance(command, sc.RestartCmd):
            await self._restart()

    def _dice(self, dice: tuple[int, int]) -> None:
        """A `dice` line: the next roll queued; with entered dice the controller waiting
        for them gets them as keyed in; with verifiable dice refused."""
        assert self.table is not None
        controller = self.table.controller
        if controller.dice.mode == "entered" and controller.menu.mode == "dice":
            side = controller.match.turn or "white"
            self.dispatch(DiceEntered(side, dice, self.now))
            return
        try:
            self.dice.push(dice)
        except DiceError as exc:
            self.table.log_lines.append(f"rejected: {exc}")

    def _physical(self, action: Callable[[], Any]) -> None:
        try:
            action()
        except (ValueError, KeyError, IndexError) as exc:
            assert self.table is not None
            self.table.log_lines.append(f"rejected: {exc}")

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
        assert self.vb is not None and self.link is not None
        loop = asyncio.get_running_loop()
        if not plugged:
            self.vb.unplug()
            deadline = loop.time() + BARRIER_TIMEOUT_S
            while self.link.status is LinkState.ONLINE and loop.time() < deadline:
                await asyncio.sleep(0.01)
        else:
            self.vb.plug()
            await self._wait_online()

    async def _restart(self) -> None:
        """A power cut: the application dies and starts again from its saved match."""
        assert self.link is not None
        self.link.close()
        self.table = None
        resumed = MatchStore(self.state_dir).resume(self.now)
        self.dice.secret = None  # what was in memory is lost; the save has the secret
        if resumed is None:
            match = Match.new(self.settings)
        else:
            match = resumed[0]
            self.dice.adopt(match, resumed[1].secret)
        await self._open_link()
        self._make_table(match, resumed=True)

    async def _new_match(self, command: sc.MatchCmd) -> None:
        match = command.start()  # checked when the script was read
        self.settings = match.settings
        opponent = command.get("opponent", "human")
        self.config = replace(self.config, language=command.get("language", "en"),
                              black_player=opponent)
        if "seed" in dict(command.options):
            self.dice.rng.seed(int(command.get("seed", "0")))
        self.dice.begin(match)
        self._make_table(match)
        if opponent != "human":
            try:
                make_bot(opponent)
            except BgboardError as exc:
                assert self.table is not None
                self.table.log_lines.append(f"rejected: {exc}")


def snapshot(controller: Controller, number: int, action: str, events: list[str]) -> dict[str, Any]:
    """The JSON object of one script line (DESIGN.md "Scenario scripts")."""
    scene = controller.last_scene
    m = controller.match
    pips = m.pips()
    return {
        "line": number,
        "action": action,
        "leds": dict(sorted(scene.leds.items(), key=lambda kv: _cell_order(kv[0]))),
        "display": {"lines": text_lines(scene.display)},
        "match": {
            "turn": m.turn,
            "dice": list(m.dice) if m.dice else [],
            "cube": m.cube,
            "cube_owner": cube_owner(m.cube_owner),
            "score": {"white": m.score[0], "black": m.score[1]},
            "length": m.length,
            "position_id": m.partial.id,
            "match_id": m.match_id,
            "pips": {"white": pips["white"], "black": pips["black"]},
            "state": "setup" if controller.setting_up and m.phase in ("opening", "roll") else m.phase,
        },
        "events": events,
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
