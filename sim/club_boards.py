"""A club room of virtual boards for a club hub (issue 36): `python -m sim.club_boards
--count 8 --base-port P --state-dir D`.

Each board is a headless table (the real firmware on the in-memory cable, its own
simulated clock, as `bgboard sim --headless` runs scripts) with both players' hands
played by a computer level (sim/club_hands.py), serving on 127.0.0.1:P+i the read-only
page of its match and the club's door `/club/v1/` (controller/web/club_door.py), paired by
its page's token. A hub pairs each board, assigns matches and collects results exactly as
from real boards; the hands play whatever match is assigned, as fast as the board settles.

Standard output: one JSON line per board once it listens,
`{"board": i, "name": "club-board-i", "address": "127.0.0.1:PORT", "url": "<its page, with
the token>", "club": "http://127.0.0.1:PORT/club/v1/", "code": "<the pairing code>"}`;
it runs until SIGINT/SIGTERM (or `--seconds S`). Each board keeps its saved match and its
club state in `D/board-i`: started again on the same directory (after a kill -9 too), a
board resumes its match, stays paired (its code is new: the key is what counts) and still
holds every result not yet acknowledged.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import random
import signal
import sys
from pathlib import Path

from aiohttp import web

from controller.board.profile import Profile, load_profile
from controller.controller import ControllerConfig
from controller.dice import DiceState
from controller.engine.match import Match
from controller.table import BackendChoice, Table, make_bot, open_table
from controller.table.table import busy
from controller.web.club_door import open_club
from controller.web.club_table import ClubTable
from controller.web.record import table_record
from controller.web.spectators import SpectatorServer, SpectatorView, led_facts, on_table_scene
from sim.club_hands import ClubHands
from sim.hands import Hands
from sim.memory_cable import MemoryCable
from sim.script_time import FRAME_MS, ScriptTime
from sim.virtual_board import VirtualBoard

IDLE_MS = 200  # simulated time that passes per turn of the loop while nobody acts
IDLE_WAIT_S = 0.1  # real time between looks while the board has no club match to play


class ClubBoard:
    """One virtual board of the club room (see the module docstring)."""

    def __init__(self, number: int, state_dir: Path, *, profile: Profile, seed: int, level: str = "simple",
                 pause_s: float = 0.0) -> None:
        self.number, self.state_dir, self.profile, self.pause_s = number, state_dir, profile, pause_s
        self.name = f"club-board-{number}"
        wire = MemoryCable(seed=seed)  # the board's cable, in memory
        self.vb = VirtualBoard(profile, seed=seed, cable=wire)
        self.time = ScriptTime(self.vb, tick=lambda now: self.table.tick(now), busy=lambda now: busy(self.table, now))
        backends = BackendChoice(port=wire.host_end(), leds="sim", display="dummy", pins="mock",
                                 state_dir=state_dir, ping_interval_s=None, offline_after_s=3600.0,
                                 buzzer_sound=False)
        self.table: Table = open_table(profile, backends, clock=lambda: self.time.now,
                                       config=ControllerConfig(settle_s=profile.timing.settle_ms / 1000),
                                       new_match=Match.new, dice=DiceState.seeded(random.Random(seed)))
        self.hands = Hands(self.vb, status=self.table.controller.status)
        self.hands.set_board(self.table.controller.status().match)
        view = SpectatorView(lambda: self.table, lambda: table_record(self.table), on_table_scene(self.table),
                             **led_facts(profile))
        self.server = SpectatorServer(view, serves="board")
        self.club: ClubTable = open_club(self.server, self.table, view, state_dir, board_name=self.name)
        self.players = ClubHands(self.table, self.hands, make_bot(level), playing=self.club.playing)
        self.runner: web.AppRunner | None = None

    async def start(self, port: int) -> dict[str, object]:
        """Connect the board, listen on 127.0.0.1:`port`; the line that says where."""
        session = self.table.link
        assert session is not None
        session.open()
        self.time.wait_online(session, lambda: self.table.readings, self.profile.timing.heartbeat_ms)
        self.runner = await self.server.start("127.0.0.1", port)
        guard = self.server.guard
        assert guard is not None
        address = f"127.0.0.1:{guard.port}"
        return {"board": self.number, "name": self.name, "address": address, "url": guard.url(),
                "club": f"http://{address}/club/v1/", "code": self.club.code()}

    async def play(self) -> None:
        """The hands act, time passes on the board's clock, the loop serves the hub between.

        A board without a club match to play stands still: its clock, the firmware's scans
        with it, waits for the hub's next assignment (nothing at the table is due then), so
        a round's finished boards leave the machine to the boards still playing (they had
        scanned ten times faster than real time, a third of a club night's work)."""
        settle = self.profile.timing.settle_ms + FRAME_MS
        while True:
            acted = self.players.act()
            if acted or self.club.playing():
                self.time.advance(settle if acted else IDLE_MS)
                await asyncio.sleep(self.pause_s if acted else max(self.pause_s, 0.02))
            else:
                await asyncio.sleep(max(self.pause_s, IDLE_WAIT_S))

    async def close(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()
        await self.table.aclose()
        self.players.bot.close()
        self.vb.close()


async def run_room(count: int, base_port: int, state_dir: Path, *, seed: int = 0, level: str = "simple",
                   pause_s: float = 0.0, seconds: float | None = None) -> None:
    profile = load_profile()
    boards = [ClubBoard(i, state_dir / f"board-{i}", profile=profile, seed=seed + i, level=level, pause_s=pause_s)
              for i in range(1, count + 1)]
    tasks: list[asyncio.Task[None]] = []
    try:
        for board in boards:
            line = await board.start(0 if base_port == 0 else base_port + board.number - 1)
            print(json.dumps(line), flush=True)
        tasks = [asyncio.ensure_future(board.play()) for board in boards]
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        try:
            await asyncio.wait_for(stop.wait(), seconds)
        except TimeoutError:
            pass
    finally:
        for task in tasks:
            task.cancel()
        for board in boards:
            await board.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sim.club_boards", description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=8, help="how many boards (default 8)")
    parser.add_argument("--base-port", type=int, default=0,
                        help="board i listens on BASE+i-1 (default 0: any free port each)")
    parser.add_argument("--state-dir", required=True, help="each board keeps its match and club state in DIR/board-i")
    parser.add_argument("--seed", type=int, default=0, help="board i's dice are seeded SEED+i")
    parser.add_argument("--level", default="simple", help="the computer level both players' hands decide with")
    parser.add_argument("--pause", type=float, default=0.0, help="real seconds between two actions of a board")
    parser.add_argument("--seconds", type=float, help="stop after this many seconds")
    args = parser.parse_args(argv)
    if not 1 <= args.count <= 64:
        parser.error("--count must be 1 to 64")
    if not 0 <= args.base_port <= 65535 - args.count:
        parser.error("--base-port must leave room for every board's port")
    try:
        asyncio.run(run_room(args.count, args.base_port, Path(args.state_dir), seed=args.seed, level=args.level,
                             pause_s=args.pause, seconds=args.seconds))
    except OSError as exc:
        print(f"python -m sim.club_boards: {exc.strerror or exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
