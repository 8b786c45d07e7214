"""The board announces itself on the local network for a club hub (issue 36): mDNS/DNS-SD,
service type `_bgboard._tcp.local.`, instance name the board's name, port the board's
page port, TXT `v=1`, `board=<name>`, `path=/club/v1/` (../notes/club-contract.md).

Off by default (`club_announce = true` in config.toml turns it on). python-zeroconf does
the work behind a small interface (`Announcer`), imported only when the announcement is
on: pure Python where no wheel fits (aarch64 Raspberry Pi OS; Debian has python3-zeroconf).
It answers beside Avahi on a Pi, as python-zeroconf does wherever both run. Discovery only
finds a board; pairing (the display's code) is what lets a hub give it orders.
"""
from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Protocol

from controller.web.club_state import CLUB_PATH

log = logging.getLogger("bgboard")

SERVICE_TYPE = "_bgboard._tcp.local."
WILDCARDS = ("0.0.0.0", "::", "")


@dataclass(frozen=True)
class BoardService:
    """What is announced: the board's name, the address and port of its page, its TXT."""

    name: str
    address: str
    port: int
    properties: dict[str, str] = field(default_factory=dict)

    @property
    def instance(self) -> str:
        """The DNS-SD instance name (a label of at most 63 bytes)."""
        label = self.name.replace(".", "-").encode("utf-8")[:63].decode("utf-8", "ignore")
        return f"{label}.{SERVICE_TYPE}"


def board_service(name: str, host: str, port: int) -> BoardService:
    """The service of a board called `name` whose page listens on `host:port` (a page on
    every interface by this machine's address on the local network)."""
    from controller.web.page_links import lan_address

    address = lan_address() if host in WILDCARDS else host
    return BoardService(name, address, port, {"v": "1", "board": name, "path": CLUB_PATH})


class Announcer(Protocol):
    """Something that announces a service until closed."""

    async def start(self, service: BoardService) -> None: ...

    async def close(self) -> None: ...


class ZeroconfAnnouncer:
    """python-zeroconf's announcement (imported here, when the announcement is on);
    `interfaces` as zeroconf takes them (default: every interface)."""

    def __init__(self, interfaces: list[str] | None = None) -> None:
        from zeroconf import InterfaceChoice
        from zeroconf.asyncio import AsyncZeroconf

        self._zeroconf = AsyncZeroconf(interfaces=interfaces if interfaces is not None else InterfaceChoice.All)
        self._info: object | None = None

    async def start(self, service: BoardService) -> None:
        import socket

        from zeroconf.asyncio import AsyncServiceInfo

        info = AsyncServiceInfo(SERVICE_TYPE, service.instance, port=service.port,
                                properties=dict(service.properties),
                                addresses=[socket.inet_aton(service.address)])
        await self._zeroconf.async_register_service(info)
        self._info = info

    async def close(self) -> None:
        from zeroconf.asyncio import AsyncServiceInfo

        if isinstance(self._info, AsyncServiceInfo):
            await self._zeroconf.async_unregister_service(self._info)
        await self._zeroconf.async_close()


def announce_beside(name: str, host: str, port: int) -> asyncio.Task[None]:
    """Announce the board `name` (page on `host:port`) for as long as the loop runs; a
    missing library or a network that refuses it is one warning, and the board plays on."""
    async def announce() -> None:
        service = board_service(name, host, port)
        try:
            announcer: Announcer = ZeroconfAnnouncer()
            await announcer.start(service)
        except ImportError:
            log.warning("club_announce: python-zeroconf is not installed (pip install zeroconf, "
                        "or apt install python3-zeroconf): the board is not announced")
            return
        except (OSError, ValueError) as exc:
            log.warning("club_announce: the board is not announced: %s", str(exc)[:120])
            return
        log.info("club: announced as %r on %s:%d", service.instance, service.address, port)
        try:
            await asyncio.Event().wait()
        finally:
            await announcer.close()

    task = asyncio.ensure_future(announce())
    _ANNOUNCING.add(task)  # the loop keeps only a weak reference to a task
    task.add_done_callback(_ANNOUNCING.discard)
    return task


_ANNOUNCING: set[asyncio.Task[None]] = set()
