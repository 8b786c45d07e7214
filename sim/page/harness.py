"""The browser simulator on a background thread, for tests and tools that drive the page.

`ServerThread` runs a `LiveSim` and its `SimServer` on their own asyncio loop in a daemon
thread, on a free loopback port, so a test can drive the page with Playwright's sync API
in the main thread and still look at the controller itself (`call`, `inspect`) without
racing the loop: every look runs on the loop's thread.
"""
from __future__ import annotations

import asyncio
import re
import threading
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, Self, TypeVar

from controller.board.profile import Profile, default_profile_path, load_profile
from controller.bot.base import Bot
from controller.settings import Settings
from controller.table import make_bot
from sim.page.live import LiveSim
from controller.web.server import SimServer

T = TypeVar("T")


def fast_profile(directory: Path, settle_ms: int = 120) -> Profile:
    """A copy of the default profile with a shorter settling time (tests run faster; the
    structure is untouched)."""
    text = default_profile_path().read_text()
    text, count = re.subn(r"(?m)^settle_ms\s*=\s*\d+", f"settle_ms = {settle_ms}", text)
    if count != 1:
        raise ValueError("the default profile has no settle_ms line to shorten")
    path = directory / "fast.toml"
    path.write_text(text)
    return load_profile(path)


class ServerThread:
    """The simulator and its web server on a thread of their own (see the module doc)."""

    def __init__(self, *, state_dir: Path, settings_file: Path, profile: Profile | None = None,
                 seed: int | None = 1, host: str = "127.0.0.1", handover_s: float = 30.0,
                 online_settings: Callable[[], Settings] | None = None,
                 bots: Callable[[str], Bot] = make_bot) -> None:
        self._args: dict[str, Any] = {"state_dir": state_dir, "settings_file": settings_file,
                                      "profile": profile, "seed": seed, "online_settings": online_settings,
                                      "bots": bots}
        self.host = host
        self.handover_s = handover_s
        self.loop = asyncio.new_event_loop()
        self.live: LiveSim | None = None
        self.server: SimServer | None = None
        self.url = ""
        self._ready = threading.Event()
        self._stop: asyncio.Event | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="bgboard-sim", daemon=True)

    def start(self, timeout: float = 20.0) -> Self:
        self._thread.start()
        if not self._ready.wait(timeout):
            raise TimeoutError("the simulator did not start")
        if self._error is not None:
            raise self._error
        return self

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_until_complete(self._main())
        except BaseException as exc:  # noqa: BLE001 - handed to start(), which raises it
            self._error = exc
            self._ready.set()
        finally:
            self.loop.close()

    async def _main(self) -> None:
        self._stop = asyncio.Event()
        self.live = LiveSim(**self._args)
        await self.live.start()
        self.server = SimServer(self.live, handover_s=self.handover_s)
        runner = await self.server.start(self.host, 0)
        port = runner.addresses[0][1]
        self.url = f"http://{self.host}:{port}/"
        self._ready.set()
        try:
            await self._stop.wait()
        finally:
            await runner.cleanup()
            await self.live.close()

    def call(self, fn: Callable[[], T], timeout: float = 10.0) -> T:
        """Run `fn()` on the simulator's loop thread and return its result."""
        async def wrapper() -> T:
            return fn()
        return self.run(wrapper(), timeout)

    def run(self, coro: Coroutine[object, object, T], timeout: float = 10.0) -> T:
        """Run a coroutine on the simulator's loop and wait for its result."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def inspect(self, fn: Callable[[LiveSim], T]) -> T:
        """`fn(live)` on the loop thread (the controller is only touched there)."""
        live = self.live
        assert live is not None
        return self.call(lambda: fn(live))

    def stop(self) -> None:
        if self._stop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(15)

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
