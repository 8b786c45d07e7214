"""Writing a calibration into a local copy of the hardware profile.

The profile is edited as text, not re-serialised, so its comments and layout survive:
`settle_ms` and `debounce_scans` are replaced in `[timing]`, and a `[calibration]`
section at the end records what was measured and when (the profile loader ignores it).
The result is validated with the profile loader before it replaces the file, and it is
written atomically (temporary file, fsync, rename).
"""
from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path

from controller.board.profile import load_profile
from controller.bringup.calibrate import Calibration
from controller.errors import ProfileError
from controller.settings import SYSTEM_CONFIG, user_config_path

_SECTION = re.compile(r"^\[([^\]]+)\]\s*(#.*)?$", re.MULTILINE)


def local_profile_path(on_pi: bool, env: Mapping[str, str]) -> Path:
    """Where a calibrated copy of the default profile goes: next to the settings."""
    if on_pi:
        return SYSTEM_CONFIG.parent / "profile.toml"
    return user_config_path(env).parent / "profile.toml"


def set_timing(text: str, key: str, value: int) -> str:
    """`text` with `key = value` in its [timing] section (added when missing)."""
    sections = list(_SECTION.finditer(text))
    start = next((m for m in sections if m.group(1).strip() == "timing"), None)
    if start is None:
        return text.rstrip("\n") + f"\n\n[timing]\n{key} = {value}\n"
    following = [m.start() for m in sections if m.start() > start.start()]
    end = following[0] if following else len(text)
    body = text[start.end():end]
    line = re.compile(rf"^({re.escape(key)}\s*=\s*)[^#\n]*?(\s*(#.*)?)$", re.MULTILINE)
    if line.search(body):
        body = line.sub(lambda m: f"{m.group(1)}{value}{m.group(2)}", body, count=1)
    else:
        body = f"\n{key} = {value}" + body
    return text[:start.end()] + body + text[end:]


def set_calibration(text: str, calibration: Calibration, when: datetime) -> str:
    """`text` with its [calibration] section (at the end) replaced by this calibration."""
    sections = list(_SECTION.finditer(text))
    own = next((m for m in sections if m.group(1).strip() == "calibration"), None)
    if own is not None:
        following = [m.start() for m in sections if m.start() > own.start()]
        end = following[0] if following else len(text)
        text = text[:own.start()] + text[end:]
    flicker = ", ".join(f"[{s}, {n}]" for s, n in calibration.flicker)
    bursts = ", ".join(f"{b:.0f}" for b in calibration.bursts_ms)
    block = (
        "[calibration]\n"
        "# Written by `bgboard calibrate`; the timing above was set from these figures.\n"
        f'measured = "{when.isoformat(timespec="seconds")}"\n'
        f"idle_seconds = {calibration.idle_seconds:g}\n"
        f"flicker = [{flicker}]          # [sensor, changes while idle]\n"
        f"bursts_ms = [{bursts}]\n"
    )
    return text.rstrip("\n") + "\n\n" + block


def write_calibrated(source: Path, target: Path, calibration: Calibration,
                     when: datetime) -> Path:
    """Copy `source` to `target` with the calibration applied; validated, atomic."""
    try:
        text = source.read_text(encoding="utf-8")
    except OSError as exc:
        raise ProfileError(f"{source}: cannot read: {exc.strerror or exc}") from None
    text = set_timing(text, "settle_ms", calibration.settle_ms)
    text = set_timing(text, "debounce_scans", calibration.debounce_scans)
    text = set_calibration(text, calibration, when)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:
        raise ProfileError(f"{target}: cannot write: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o644)
        load_profile(tmp)            # never install a profile the controller cannot read
        os.replace(tmp, target)
    except OSError as exc:
        raise ProfileError(f"{target}: cannot write: {exc.strerror or exc}") from None
    finally:
        Path(tmp).unlink(missing_ok=True)
    return target
