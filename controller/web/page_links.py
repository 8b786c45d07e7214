"""The board's pages' links: their tokens, the QR codes the display shows, their revocation.

`bgboard run --page` (the player's phone) and `--spectators` each serve a page whose
address carries a token. The owner gets the address three ways: printed (the journal on
the Pi), and on the display from the menu ("phone page", "spectators' page": a QR code and
the address as text, controller/show/pairing.py). "New page links" in the menu gives both
pages new tokens: every cookie given so far is refused at once and every tab open now is
closed, so a phone that was lent out, or a link that went round, opens nothing any more.

A token is 16 characters (96 bits): with the longest IPv4 address and port the link is 51
bytes, which a version 3 QR code holds at error correction L (53), the largest code the
display draws at 2 px a module. A server listening on every interface prints its
loopback address (controller.web.guard); the link shown here carries this machine's address on
the local network instead, the one a phone at the table can reach.
"""
from __future__ import annotations

import asyncio
import logging
import secrets
import socket
from collections.abc import Callable, Iterable
from typing import Protocol
from urllib.parse import parse_qs, urlsplit

from aiohttp import WSCloseCode, web

from controller.events import LinkPublished
from controller.inputs.menu import LinkName
from controller.show.content import PAIRING_MODULES, PairingView
from controller.show.display import wrap
from controller.show.fonts import SMALL
from controller.show.pairing import TEXT_LEFT
from controller.table import Table
from controller.web.guard import Guard, is_loopback

log = logging.getLogger("bgboard")

TOKEN_BYTES = 12
#: the display's title of each link (a message key of controller/show/texts.py)
TITLES: dict[LinkName, str] = {"phone": "pairing.title", "spectators": "pairing.spectators"}
WILDCARDS = ("0.0.0.0", "::", "")
#: the display's title of a link no phone can open (the page listens on loopback only)
LOCAL_ONLY = "pairing.local_only"


def page_token() -> str:
    """A new token of a board's page (see the module docstring for its length)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


class RevocablePage(Protocol):
    guard: Guard | None

    def rotate(self) -> None: ...


def close_tabs(sockets: Iterable[web.WebSocketResponse]) -> None:
    """Close every tab open now: its link was revoked (a tab that tries again is refused)."""
    for ws in list(sockets):
        if not ws.closed:
            asyncio.ensure_future(ws.close(code=WSCloseCode.POLICY_VIOLATION, message=b"the link was revoked"))


def lan_address() -> str:
    """This machine's address on its local network: the one a datagram to the outside
    would leave from (nothing is sent), or 127.0.0.1 without a network."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: routed like the outside world, never answered
            address: str = probe.getsockname()[0]
            return address
        except OSError:
            return "127.0.0.1"


def reachable(url: str, host: str) -> str:
    """`url` as a phone at the table opens it: a server on every interface by this
    machine's address on the local network."""
    if host not in WILDCARDS:
        return url
    parts = urlsplit(url)
    return parts._replace(netloc=f"{lan_address()}:{parts.port}").geturl()


def pairing_view(url: str, name: LinkName, *, local_only: bool = False) -> PairingView:
    """The display's pairing screen of `url`: its QR code (none when it needs a bigger
    code than the display draws) and the address and token as text beside it. A page that
    listens on loopback only (`page_host`'s default) is titled "Pi only": the Pi's own
    browser opens it, no phone can, and the display said nothing of it (issue 35.9)."""
    import segno

    code = segno.make(url, error="l", boost_error=True, micro=False)
    rows = tuple("".join("1" if module else "0" for module in row) for row in code.matrix)
    parts = urlsplit(url)
    token = parse_qs(parts.query).get("token", [""])[0]
    width = 128 - TEXT_LEFT
    lines = wrap(parts.netloc, SMALL, width) + (["?token="] + wrap(token, SMALL, width) if token else [])
    return PairingView(LOCAL_ONLY if local_only else TITLES[name], tuple(lines),
                       rows if len(rows) <= PAIRING_MODULES else ())


def offer_link(table: Table, name: LinkName, server: RevocablePage, host: str,
               on_url: Callable[[str], None]) -> Callable[[str], None]:
    """The `on_url` of page `name` of `table` (`serve_beside`): the link is told to
    `on_url` and offered by the menu; the menu's "new page links" rotates the server's
    token and offers the new link."""
    local_only = is_loopback(host)
    if local_only:
        log.warning("the %s page listens on %s only: no phone can open it; set page_host = \"0.0.0.0\" "
                    "in config.toml to reach it from the local network", name, host)

    def publish(url: str) -> None:
        link = reachable(url, host)
        table.dispatch(LinkPublished(name, pairing_view(link, name, local_only=local_only), table.clock()))
        on_url(link)

    def revoke() -> None:
        server.rotate()
        if server.guard is not None:
            publish(server.guard.url())

    table.on_links_revoked(revoke)
    return publish
