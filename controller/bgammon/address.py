"""A bgammon server's address, as config.toml, the command line and the page give it."""
from __future__ import annotations

from dataclasses import dataclass

from controller.errors import UsageError

DEFAULT_SERVER = "bgammon.org:1337"


@dataclass(frozen=True)
class ServerAddress:
    host: str
    port: int

    @classmethod
    def parse(cls, text: str) -> ServerAddress:
        """`HOST:PORT` (or a bare host: port 1337). UsageError for anything else."""
        host, sep, port = text.rpartition(":")
        if not sep:
            host, port = text, "1337"
        if not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise UsageError(f"server {text!r}: give HOST:PORT, e.g. {DEFAULT_SERVER}")
        return cls(host, int(port))

    def __str__(self) -> str:
        return f"{self.host}:{self.port}"
