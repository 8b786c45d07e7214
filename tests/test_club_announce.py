"""The board's mDNS/DNS-SD announcement for a club hub (controller/web/club_announce.py;
../notes/club-contract.md "Discovery"): a zeroconf browser on loopback finds the service
with the contract's type, name, port and TXT. Real
multicast on the loopback interface, no mock."""
from __future__ import annotations

import asyncio

from zeroconf import ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from controller.settings import Settings
from controller.web.club_announce import SERVICE_TYPE, ZeroconfAnnouncer, board_service


def test_the_announcement_is_off_by_default() -> None:
    assert Settings().club_announce is False


def test_a_browser_on_the_network_finds_the_board() -> None:
    async def main() -> None:
        board = ZeroconfAnnouncer(interfaces=["127.0.0.1"])
        await board.start(board_service("table 3", "127.0.0.1", 8123))
        hub = AsyncZeroconf(interfaces=["127.0.0.1"])
        seen: asyncio.Queue[tuple[str, ServiceStateChange]] = asyncio.Queue()

        def on_change(zeroconf: Zeroconf, service_type: str, name: str, state_change: ServiceStateChange) -> None:
            seen.put_nowait((name, state_change))

        browser = AsyncServiceBrowser(hub.zeroconf, SERVICE_TYPE, handlers=[on_change])
        try:
            name, change = await asyncio.wait_for(seen.get(), 10)
            assert (name, change) == ("table 3._bgboard._tcp.local.", ServiceStateChange.Added)
            info = AsyncServiceInfo(SERVICE_TYPE, name)
            assert await info.async_request(hub.zeroconf, 3000)
            assert info.port == 8123 and info.parsed_addresses() == ["127.0.0.1"]
            assert info.properties == {b"v": b"1", b"board": b"table 3", b"path": b"/club/v1/"}
        finally:
            await board.close()
            await browser.async_cancel()
            await hub.async_close()
    asyncio.run(main())
