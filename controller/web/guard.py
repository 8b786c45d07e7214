"""The simulator's door: which requests the web server answers at all.

Any web page the user visits can make the browser open `ws://127.0.0.1:8080/ws` or fetch
`/match.mat`, and a DNS-rebinding page can even make it send a foreign name as `Host`.
So every request (page, images, the match record, the WebSocket) passes three checks
before it is answered:

- `Host` is one of the names the server listens on, with its port (on loopback:
  `127.0.0.1`, `localhost`, `[::1]`). A bare IP address is also accepted on a server bound
  off loopback: a rebinding attack always needs a domain name of its own.
- `Origin`, when the browser sends one (it always does for a WebSocket and for anything
  but a plain GET), is the page's own origin: `http://` and the same `Host`.
- Off loopback, the secret token the server printed in its address: given once as
  `?token=...`, then kept in a cookie (`SameSite=Lax`, so a link followed from a chat or a
  mail keeps it through the redirect that takes the token out of the address: issue 35.6;
  a cross-site request that changes something is refused by the Origin check anyway),
  which lasts until the link is replaced (`COOKIE_MAX_AGE_S`), so the page's own requests
  carry it.
- A token replaced by "New page links" (`rotated`) is told as such: "this link was
  replaced", so a phone or spectator shut out knows to scan the display again (issue 35.5).

`Guard.check(request)` returns None to let a request in, or the one-line reason it is
refused (answered with 403 by the server).
"""
from __future__ import annotations

import hmac
import ipaddress
import secrets
import socket
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from urllib.parse import urlsplit

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
COOKIE = "bgboard_token"
SAFE_METHODS = frozenset(["GET", "HEAD"])
#: how long a paired phone keeps its cookie: about the longest a browser keeps one (400 days);
#: the pairing ends with "New page links", not with the browser's session
COOKIE_MAX_AGE_S = 400 * 24 * 3600
#: the refusal of a link or cookie "New page links" replaced (the page shows it and stops retrying)
REPLACED = "refused: this link was replaced (New page links): scan the board's display again"
#: how many replaced tokens are remembered (older ones are refused as any wrong token)
REVOKED_KEPT = 16


def is_loopback(host: str) -> bool:
    """Whether listening on `host` reaches this machine only."""
    if host in ("localhost", ""):
        return host == "localhost"
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _is_ip_literal(name: str) -> bool:
    try:
        ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return False
    return True


def _split_host(value: str) -> tuple[str, str]:
    """`name:port` (or `[v6]:port`) into its name and port ('' when there is none)."""
    if value.startswith("["):
        end = value.find("]")
        if end < 0:
            return value, ""
        rest = value[end + 1:]
        return value[: end + 1], rest[1:] if rest.startswith(":") else ""
    name, _, port = value.rpartition(":") if value.count(":") == 1 else (value, "", "")
    return name, port


@dataclass
class Guard:
    """The checks of one listening server (see the module docstring)."""

    host: str
    port: int
    token: str | None = None
    names: frozenset[str] = field(default_factory=frozenset)
    #: the cookie that keeps the token: the spectators' page has its own (controller.web.spectators),
    #: since a browser sends a host's cookies to every port of it
    cookie: str = COOKIE
    #: tokens replaced by "New page links", newest last (`rotated`)
    revoked: tuple[str, ...] = ()
    #: what the refusals call the server: the simulator, or the real board whose pages these
    #: are (`bgboard run --page`: its journal said "the simulator", issue 35.7)
    serves: str = "simulator"

    @classmethod
    def for_server(cls, host: str, port: int) -> "Guard":
        """The guard of a server bound to `host:port`: a token off loopback."""
        names = set(LOOPBACK_NAMES)
        if host not in ("0.0.0.0", "::", ""):  # the name it prints is one it answers (127.0.0.2)
            names.add(f"[{host}]" if ":" in host else host)
        if not is_loopback(host):
            hostname = socket.gethostname()
            names.update({hostname, f"{hostname}.local"})
        token = None if is_loopback(host) else secrets.token_urlsafe(18)
        return cls(host, port, token, frozenset(n.lower() for n in names))

    def rotated(self, token: str) -> "Guard":
        """This guard with `token` in place of its own, which is remembered as replaced."""
        revoked = self.revoked + ((self.token,) if self.token is not None else ())
        return replace(self, token=token, revoked=revoked[-REVOKED_KEPT:])

    @property
    def loopback(self) -> bool:
        return is_loopback(self.host)

    def url(self) -> str:
        """The address to print (and open): with the token when there is one. A server
        on every interface prints its loopback address (other machines use this one's
        own address with the same token)."""
        if self.host in ("0.0.0.0", "::", ""):
            name = "127.0.0.1"
        else:
            name = f"[{self.host}]" if ":" in self.host else self.host
        base = f"http://{name}:{self.port}/"
        return base if self.token is None else f"{base}?token={self.token}"

    def host_allowed(self, value: str) -> bool:
        name, port = _split_host(value.strip().lower())
        if port != str(self.port):
            return False
        if name in self.names:
            return True
        return not self.loopback and _is_ip_literal(name)

    def check_program(self, headers: Mapping[str, str]) -> str | None:
        """None to answer a program's request (a club hub's: controller/web/club_door.py),
        or the one-line reason it is refused. Its `Host` is checked as any request's; it
        carries no `Origin`, since no web page may call it at all (a page's request always
        carries one); its own key, checked by the call, stands for the page's token."""
        host = headers.get("Host", "")
        if not self.host_allowed(host):
            return f"refused: Host {host[:80]!r} is not this {self.serves}"
        if headers.get("Origin") is not None:
            return "refused: the club's calls come from a club hub, not from a web page"
        return None

    def check(self, method: str, headers: Mapping[str, str], query: Mapping[str, str],
              cookies: Mapping[str, str]) -> str | None:
        """None to answer the request, or the one-line reason it is refused."""
        host = headers.get("Host", "")
        if not self.host_allowed(host):
            return f"refused: Host {host[:80]!r} is not this {self.serves}"
        origin = headers.get("Origin")
        if origin is None and method not in SAFE_METHODS:
            return f"refused: a request that changes something must come from the {self.serves}'s page"
        if origin is not None:
            parts = urlsplit(origin[:200])
            if parts.scheme != "http" or parts.netloc.lower() != host.strip().lower():
                return f"refused: a page from {origin[:80]!r} may not drive this {self.serves}"
        if self.token is not None:
            given = query.get("token") or cookies.get(self.cookie) or ""
            if not hmac.compare_digest(given.encode(), self.token.encode()):
                if any(hmac.compare_digest(given.encode(), old.encode()) for old in self.revoked):
                    return REPLACED
                return f"refused: open the address the {self.serves} printed (it carries a token)"
        return None
