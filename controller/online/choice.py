"""What online match to play, and as whom: from the settings (the board's menu) or from the
page's New match dialog, checked the same way.

The account's password is only ever read from a file (the settings' `online_password_file`,
or `bgboard online --password-file`): it is never typed into the page, put in a URL, shown,
logged or kept in the choice's repr. A bad choice is one line (UsageError) and nothing starts.
"""
from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from controller.errors import UsageError
from controller.bgammon.address import DEFAULT_SERVER, ServerAddress
from controller.bgammon import commands
from controller.bgammon.commands import MAX_POINTS, check_name
from controller.online.session import MatchRequest
from controller.settings import ONLINE_MATCHES, Settings


#: the online dialog's fields (the page sends no other)
FORM_FIELDS = ("server", "login", "match", "points", "join", "match_password")


@dataclass(frozen=True)
class OnlineChoice:
    """A server, who logs in (`user` None: a guest), and the match to create or join
    (`request` None: rejoin the match a restart interrupted, saved in online.json)."""

    server: ServerAddress
    request: MatchRequest | None = field(repr=False)
    user: str | None = None
    password: str | None = field(default=None, repr=False)

    @property
    def what(self) -> str:
        """The match in a few words, for the display and the page ("create private 3")."""
        r = self.request
        if r is None:
            return "resume"
        if r.create is not None:
            return f"create {r.create} {r.points}"
        return f"join {r.join}" if r.join is not None else "resume"


def read_secret(path: str | Path, what: str) -> str:
    """The first line of a secret file; UsageError naming the file (never its content)."""
    try:
        text = Path(path).expanduser().read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"{what} {path}: {exc.strerror or exc}") from None
    lines = text.splitlines()
    if not lines or not lines[0].strip():
        raise UsageError(f"{what} {path} is empty")
    return lines[0].strip()


def account(settings: Settings, user: str | None, password_file: str | Path | None = None) -> tuple[str, str] | None:
    """(user, password) of the account to log in with, or None for a guest. The password
    comes from `password_file` or the settings' `online_password_file`, nowhere else."""
    if not user:
        return None
    check_name(user)
    source = password_file or settings.online_password_file
    if source is None:
        raise UsageError(f"online user {user} needs its password in a file: the settings' "
                         "online_password_file (or bgboard online --password-file)")
    return user, read_secret(source, "password file")


def match_request(kind: str, *, points: int = 1, join: str | None = None,
                  match_password: str | None = None) -> MatchRequest:
    """Create (`public`, `private`) or `join`; a private match without a password gets a new one."""
    if kind not in ONLINE_MATCHES:
        raise UsageError(f"online match {kind!r}: choose {', '.join(ONLINE_MATCHES)}")
    if kind == "join":
        if not join:
            raise UsageError("joining a match needs a match number or a player's name")
        commands.join(join, match_password)  # the line the server will get: checked now, in one line
        return MatchRequest(join=join, password=match_password)
    if not 1 <= points <= MAX_POINTS:
        raise UsageError(f"match length {points}: 1..{MAX_POINTS} points")
    if kind == "private" and not match_password:
        match_password = secrets.token_hex(4)
    return MatchRequest(create=kind, points=points, password=match_password if kind == "private" else None)


def from_settings(settings: Settings) -> OnlineChoice:
    """The board menu's "Play online": everything from the settings."""
    secret = None
    if settings.online_match_password_file is not None:
        secret = read_secret(settings.online_match_password_file, "match password file")
    request = match_request(settings.online_match, points=settings.online_points,
                            join=settings.online_join, match_password=secret)
    return _choice(settings.online_server, settings, settings.online_user, request)


def from_form(form: Mapping[str, object], settings: Settings) -> OnlineChoice:
    """The page's dialog: `server`, `login` (guest, or the settings' user), `match` (public,
    private, join, or resume the saved match), `points`, `join`, `match_password` (a private
    match's, not the account's)."""
    known = set(FORM_FIELDS)
    unknown = sorted(set(form) - known)
    if unknown:
        raise UsageError(f"unknown online setting {unknown[0][:30]!r}")
    text = {k: _field(form, k) for k in known - {"points"}}
    login = text["login"] or "guest"
    if login not in ("guest", "user"):
        raise UsageError(f"log in as {login[:20]!r}: guest or user")
    if login == "user" and not settings.online_user:
        raise UsageError("no online user in the settings (online_user): play as a guest")
    points_value = form.get("points", 1)
    try:
        if isinstance(points_value, bool) or not isinstance(points_value, int | str):
            raise ValueError
        points = int(points_value)
    except ValueError:
        raise UsageError(f"match length {str(points_value)[:20]!r} is not a number") from None
    kind = text["match"] or "public"
    request = None if kind == "resume" else match_request(kind, points=points, join=text["join"] or None,
                                                          match_password=text["match_password"] or None)
    return _choice(text["server"] or settings.online_server, settings,
                   settings.online_user if login == "user" else None, request)


def watch_from_form(form: Mapping[str, object], settings: Settings) -> tuple[ServerAddress, str, str | None]:
    """The dialog's "watch a match": the server, the match (its number or a player's name)
    and a private match's password; a spectator logs in as a guest."""
    unknown = sorted(set(form) - set(FORM_FIELDS))
    if unknown:
        raise UsageError(f"unknown online setting {unknown[0][:30]!r}")
    target, password = _field(form, "join"), _field(form, "match_password") or None
    if not target:
        raise UsageError("watching a match needs a match number or a player's name")
    commands.join(target, password)  # the line the server will get: checked now, in one line
    return ServerAddress.parse(_field(form, "server") or settings.online_server or DEFAULT_SERVER), target, password


def watch_from_settings(settings: Settings) -> tuple[ServerAddress, str, str | None]:
    """The board menu's "Watch online": the settings' server and `online_watch` (a match
    number or a player's name), a private match's password from `online_match_password_file`."""
    if settings.online_watch is None:
        raise UsageError("no match to watch in the settings (online_watch)")
    secret = None
    if settings.online_match_password_file is not None:
        secret = read_secret(settings.online_match_password_file, "match password file")
    return ServerAddress.parse(settings.online_server or DEFAULT_SERVER), settings.online_watch, secret


def _field(form: Mapping[str, object], key: str) -> str:
    value = form.get(key, "")
    if not isinstance(value, str):
        raise UsageError(f"online setting {key} is not text")
    if len(value) > 100 or any(c in value for c in "\r\n\0"):
        raise UsageError(f"online setting {key}: one short line")
    return value.strip()


def _choice(server: str, settings: Settings, user: str | None, request: MatchRequest | None) -> OnlineChoice:
    address = ServerAddress.parse(server or DEFAULT_SERVER)
    login = account(settings, user)
    if login is None:
        return OnlineChoice(address, request)
    return OnlineChoice(address, request, user=login[0], password=login[1])
