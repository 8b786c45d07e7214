"""Boards found on the club's network, not typed: a DNS-SD browse for the service the
boards announce (`_bgboard._tcp.local.`, controller/web/club_announce.py, with python-
zeroconf, imported here only when a director asks). Finding grants nothing: each board
found is still paired with the code its display shows."""
from __future__ import annotations

import asyncio
from dataclasses import dataclass

from controller.web.club_announce import SERVICE_TYPE


@dataclass(frozen=True, slots=True)
class FoundBoard:
    """A board that announced itself: its name and the address to pair it at."""

    name: str
    address: str


async def find_boards(seconds: float, interfaces: list[str] | None = None) -> list[FoundBoard]:
    """Every club board (TXT `v=1`) that answers within `seconds`, by name."""
    from zeroconf import InterfaceChoice, ServiceStateChange, Zeroconf
    from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

    zc = AsyncZeroconf(interfaces=interfaces if interfaces is not None else InterfaceChoice.All)
    names: set[str] = set()

    def seen(zeroconf: Zeroconf, service_type: str, name: str, state_change: ServiceStateChange) -> None:
        if state_change is ServiceStateChange.Added:
            names.add(name)

    browser = AsyncServiceBrowser(zc.zeroconf, SERVICE_TYPE, handlers=[seen])
    found: list[FoundBoard] = []
    try:
        await asyncio.sleep(seconds)
        for name in sorted(names):
            info = AsyncServiceInfo(SERVICE_TYPE, name)
            if not await info.async_request(zc.zeroconf, 2000) or info.properties.get(b"v") != b"1":
                continue
            addresses = info.parsed_addresses()
            board = (info.properties.get(b"board") or name.removesuffix("." + SERVICE_TYPE).encode()).decode(
                "utf-8", "replace")
            if addresses and info.port:
                host = f"[{addresses[0]}]" if ":" in addresses[0] else addresses[0]
                found.append(FoundBoard(board, f"http://{host}:{info.port}"))
    finally:
        await browser.async_cancel()
        await zc.async_close()
    return found
