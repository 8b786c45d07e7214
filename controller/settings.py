"""The board's settings: what a club organiser changes without editing a hardware profile.

Where they live follows each platform's convention:

- on the Raspberry Pi the service reads ``/etc/bgboard/config.toml`` (written by
  ``hardware/pi/install.sh``, owned by root, readable by the ``bgboard`` user);
- on a laptop the user's ``$XDG_CONFIG_HOME/bgboard/config.toml`` (``~/.config`` when
  unset) is read after the system file, so a person can override a shared default;
- a path given explicitly (``--config FILE``) replaces both.

Every key is validated: an unknown key or a bad value raises
:class:`~controller.errors.ProfileError` with one line naming the file and the key, and
nothing is half-applied. :func:`save_settings` writes atomically (temporary file, fsync,
rename) so a power cut during the simulator's settings dialog never leaves a torn file.

The file is flat TOML, one key a line::

    profile = "default"          # a profile name in hardware/profiles, or a path
    port = "/dev/bgboard"        # the sensor board's serial port (udev rule's name)
    language = "en"              # en, da, sv
    brightness = 0.25            # LED brightness, 0.0 .. 1.0
    confirm = "auto"             # auto: a move counts when the board settles; button
    clock = "off"                # off, timer, tournament
    dice = "board"               # board, entered (real dice keyed in), verifiable (controller/dice)
    opponent = "human"           # who plays Black in a new match: human or a computer level (a rematch swaps)
    tutor = "off"                # off, doubtful, bad, very_bad: warn before such a move or cube action counts
    state_dir = "/var/lib/bgboard"  # saved matches
    online_user = "alice"        # bgboard online: the bgammon.org account (none: a guest)
    online_password_file = "/etc/bgboard/online-password"  # its password, one line
    online_server = "bgammon.org:1337"  # the board menu's "Play online": the server
    online_match = "public"      # public, private (create one), join (online_join's match)
    online_points = 1            # length of a created match, 1 .. 127
    online_join = "alice"        # with online_match = "join": a match number or a player
    online_match_password_file = "/etc/bgboard/match-password"  # a private match's password
    online_watch = "alice"       # the board menu's "Watch online": a match number or a player
    spectator_port = 8081        # bgboard run: a read-only page of the match for spectators (unset: off)
    page_port = 8080             # bgboard run: the board's page for the player's phone (unset: off)
    page_host = "127.0.0.1"      # where the board's pages listen: loopback, or "0.0.0.0" for the LAN
    board_name = "table-3"       # the board's name in a club (default: the machine's hostname)
    club_announce = false        # announce the board's page on the LAN (mDNS/DNS-SD) for a club hub
"""
from __future__ import annotations

import dataclasses
import math
import os
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.analysis.tutor import TUTOR_MARKS
from controller.bot.base import OFFERED_LEVELS
from controller.engine.clock import CLOCK_MODES
from controller.engine.match_settings import CONFIRM_MODES, DICE_MODES
from controller.errors import ProfileError, UsageError
from controller.files import read_bounded, write_atomically
from controller.bgammon.address import DEFAULT_SERVER, ServerAddress
from controller.bgammon.commands import MAX_POINTS
from controller.bgammon.commands import join as join_command
from controller.show.texts import LANGUAGES

OPPONENTS: tuple[str, ...] = ("human", *OFFERED_LEVELS)
#: how the board menu's "Play online" finds its match: create one (public, private) or join one
ONLINE_MATCHES: tuple[str, ...] = ("public", "private", "join")

#: The system-wide file, read first (the Pi's service reads only this one).
SYSTEM_CONFIG = Path("/etc/bgboard/config.toml")
#: The stable name the udev rule gives the sensor board on the Pi.
PI_PORT = "/dev/bgboard"
#: Saved matches on the Pi (systemd's StateDirectory=bgboard).
PI_STATE_DIR = Path("/var/lib/bgboard")
#: Where the Pi's board model is named; its presence tells a Pi from a laptop.
DEVICE_TREE_MODEL = Path("/proc/device-tree/model")


@dataclass(frozen=True)
class Settings:
    """One validated set of settings; build with :func:`load_settings` or :meth:`replace`.

    ``port`` is ``None`` on a laptop: the command chooses (the simulator's pseudo-terminal,
    or ``--port``). ``profile`` is a name in ``hardware/profiles`` or a path to a profile;
    the profile loader resolves it.
    """

    profile: str = "default"
    port: str | None = None
    language: str = "en"
    brightness: float = 0.25
    confirm: str = "auto"
    clock: str = "off"
    dice: str = "board"
    opponent: str = "human"
    tutor: str = "off"
    state_dir: Path = Path("bgboard")
    online_user: str | None = None
    online_password_file: Path | None = None
    online_server: str = DEFAULT_SERVER
    online_match: str = "public"
    online_points: int = 1
    online_join: str | None = None
    online_match_password_file: Path | None = None
    online_watch: str | None = None
    spectator_port: int | None = None
    page_port: int | None = None
    page_host: str = "127.0.0.1"
    board_name: str | None = None
    club_announce: bool = False

    def replace(self, source: str = "<settings>", **changes: object) -> Settings:
        """A copy with ``changes`` applied, validated exactly as a file's keys are.

        The simulator's settings dialog calls this with what the person chose; a bad
        value raises ProfileError naming ``source`` and the key, and this object is
        unchanged (it is frozen anyway).
        """
        values = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        for key, value in changes.items():
            values[key] = _parse_key(source, key, value)
        return Settings(**values)

    @property
    def club_name(self) -> str:
        """The board's name in a club: `board_name`, else the machine's hostname."""
        import socket

        return self.board_name or socket.gethostname()

    def profile_path(self, profiles_dir: Path) -> Path:
        """The profile file: a bare name is `profiles_dir/NAME.toml`, anything else a path.

        `profiles_dir` is passed in (the repository's `hardware/profiles`, which the
        profile loader knows) so that settings stay free of the board package.
        """
        name = self.profile
        if "/" in name or name.endswith(".toml"):
            return Path(name).expanduser()
        return profiles_dir / f"{name}.toml"

    def to_toml(self) -> str:
        """The settings as the flat TOML file :func:`load_settings` reads back."""
        lines = ["# bgboard settings (controller/settings.py documents every key)"]
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if value is None:
                continue
            lines.append(f"{f.name} = {_toml_value(value)}")
        return "\n".join(lines) + "\n"


def is_raspberry_pi(model_file: Path = DEVICE_TREE_MODEL) -> bool:
    """True on a Raspberry Pi: its device tree names the model ("Raspberry Pi 4 ...")."""
    try:
        return "raspberry pi" in model_file.read_bytes().decode("ascii", "replace").lower()
    except OSError:
        return False


def default_settings(*, on_pi: bool, env: Mapping[str, str]) -> Settings:
    """The defaults before any file: the Pi's fixed paths, or the XDG ones on a laptop."""
    if on_pi:
        return Settings(port=PI_PORT, state_dir=PI_STATE_DIR)
    return Settings(state_dir=_xdg_dir(env, "XDG_STATE_HOME", ".local/state") / "bgboard")


def user_config_path(env: Mapping[str, str]) -> Path:
    """``$XDG_CONFIG_HOME/bgboard/config.toml`` (``~/.config`` when the variable is unset)."""
    return _xdg_dir(env, "XDG_CONFIG_HOME", ".config") / "bgboard" / "config.toml"


def config_paths(*, env: Mapping[str, str], system: Path = SYSTEM_CONFIG) -> tuple[Path, ...]:
    """The files read when no explicit path is given, in order: later ones override."""
    return (system, user_config_path(env))


def load_settings(
    path: Path | str | None = None,
    *,
    env: Mapping[str, str] | None = None,
    system: Path = SYSTEM_CONFIG,
    on_pi: bool | None = None,
) -> Settings:
    """The settings of this machine.

    With ``path``, that file alone (it must exist) over the defaults; without it the
    system file and then the user's file, each optional. ``env`` (default ``os.environ``),
    ``system`` and ``on_pi`` are injectable so that tests touch neither /etc nor $HOME.
    """
    env = os.environ if env is None else env
    on_pi = is_raspberry_pi() if on_pi is None else on_pi
    settings = default_settings(on_pi=on_pi, env=env)
    if path is not None:
        return _apply_file(settings, Path(path), required=True)
    for candidate in config_paths(env=env, system=system):
        settings = _apply_file(settings, candidate, required=False)
    return settings


def save_settings(settings: Settings, path: Path | str) -> Path:
    """Write ``settings`` to ``path`` atomically: temp file in the same directory, fsync, rename.

    A reader sees either the old file or the new one, never half of it. The directory is
    created when missing. Returns the path written.
    """
    target = Path(path)
    text = settings.to_toml()
    try:
        write_atomically(target, text)
    except OSError as exc:
        raise ProfileError(f"{target}: cannot write settings: {exc.strerror or exc}") from exc
    return target


# --- parsing and validation -------------------------------------------------------------


def parse_settings(data: Mapping[str, object], source: str, base: Settings) -> Settings:
    """``base`` with every key of ``data`` validated and applied (all or nothing)."""
    changes = {key: _parse_key(source, key, value) for key, value in data.items()}
    return dataclasses.replace(base, **changes)


def _apply_file(settings: Settings, path: Path, *, required: bool) -> Settings:
    try:
        raw = read_bounded(path)
    except FileNotFoundError:
        if required:
            raise ProfileError(f"{path}: settings file not found") from None
        return settings
    except OSError as exc:
        raise ProfileError(f"{path}: cannot read settings: {exc.strerror or exc}") from exc
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ProfileError(f"{path}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(f"{path}: not valid TOML: {exc}") from None
    return parse_settings(data, str(path), settings)


def _parse_key(source: str, key: str, value: Any) -> Any:
    parser = _PARSERS.get(key)
    if parser is None:
        known = ", ".join(_PARSERS)
        raise ProfileError(f"{source}: unknown key '{key}' (known: {known})")
    try:
        return parser(value)
    except (TypeError, ValueError) as exc:
        raise ProfileError(f"{source}: key '{key}': {exc}") from None


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected a string, got {_shown(value)}")
    if not value.strip():
        raise ValueError("must not be empty")
    if any(ch in value for ch in "\n\r\0"):
        raise ValueError("must be one line")
    return value


def _optional_text(value: Any) -> str | None:
    return None if value is None else _text(value)


def _choice(options: tuple[str, ...]) -> Callable[[Any], str]:
    def parse(value: Any) -> str:
        if not isinstance(value, str) or value not in options:
            raise ValueError(f"expected one of {', '.join(options)}, got {_shown(value)}")
        return value

    return parse


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"expected true or false, got {_shown(value)}")
    return value


def _brightness(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"expected a number from 0 to 1, got {_shown(value)}")
    number = float(value)
    if not (math.isfinite(number) and 0.0 <= number <= 1.0):
        raise ValueError(f"expected a number from 0 to 1, got {_shown(value)}")
    return number


def _server(value: Any) -> str:
    try:
        return str(ServerAddress.parse(_text(value)))
    except UsageError as exc:
        raise ValueError(str(exc)) from None


def _points(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_POINTS:
        raise ValueError(f"expected a whole number from 1 to {MAX_POINTS}, got {_shown(value)}")
    return value


def _match_target(value: Any) -> str:
    """A match to join or watch as the server's `join` takes it: its number or a player's name."""
    target = _text(value)
    try:
        join_command(target)
    except UsageError:
        raise ValueError(f"expected a match number or a player's name, got {_shown(value)}") from None
    return target


def _directory(value: Any) -> Path:
    if isinstance(value, Path):
        value = str(value)
    return Path(_text(value)).expanduser()


def _port(value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 65535:
        raise ValueError(f"expected a TCP port from 0 to 65535, got {_shown(value)}")
    return value


def _host(value: Any) -> str:
    import ipaddress

    text = _text(value)
    try:
        ipaddress.ip_address(text)
    except ValueError:
        if text != "localhost":
            raise ValueError(f"expected an IP address to listen on (127.0.0.1, 0.0.0.0, ...), got {_shown(value)}") from None
    return text


_PARSERS: dict[str, Callable[[Any], Any]] = {
    "profile": _text,
    "port": _optional_text,
    "language": _choice(LANGUAGES),
    "brightness": _brightness,
    "confirm": _choice(CONFIRM_MODES),
    "clock": _choice(CLOCK_MODES),
    "dice": _choice(DICE_MODES),
    "opponent": _choice(OPPONENTS),
    "tutor": _choice(TUTOR_MARKS),
    "state_dir": _directory,
    "online_user": _optional_text,
    "online_password_file": lambda value: None if value is None else _directory(value),
    "online_server": _server,
    "online_match": _choice(ONLINE_MATCHES),
    "online_points": _points,
    "online_join": _optional_text,
    "online_match_password_file": lambda value: None if value is None else _directory(value),
    "online_watch": lambda value: None if value is None else _match_target(value),
    "spectator_port": _port,
    "page_port": _port,
    "page_host": _host,
    "board_name": _optional_text,
    "club_announce": _flag,
}


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


# --- helpers ------------------------------------------------------------------------------


def _xdg_dir(env: Mapping[str, str], variable: str, fallback: str) -> Path:
    """An XDG base directory: the variable when it is an absolute path, else ~/fallback."""
    value = env.get(variable, "")
    if value and os.path.isabs(value):
        return Path(value)
    home = env.get("HOME") or str(Path.home())
    return Path(home) / fallback


#: What a TOML basic string must escape: quote, backslash and control characters.
_TOML_ESCAPES: dict[str, str] = {
    **{chr(c): f"\\u{c:04x}" for c in [*range(0x20), 0x7F] if chr(c) != "\t"},
    '"': '\\"',
    "\\": "\\\\",
}


def _toml_value(value: Any) -> str:
    if isinstance(value, Path):
        value = str(value)
    if isinstance(value, str):
        escaped = "".join(_TOML_ESCAPES.get(ch, ch) for ch in value)
        return f'"{escaped}"'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) or isinstance(value, int):
        return repr(value)
    raise TypeError(f"cannot write {value!r} as a setting")
