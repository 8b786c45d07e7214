"""hardware/pi/install.sh, checked without a Raspberry Pi.

The script runs in --dry-run mode with --dest: it prints every command and writes the
unit, udev rule and settings into tmp_path. The printed commands, the generated files
(systemd-analyze verify, a parse of the udev rule, the settings loader) and the script
itself (shellcheck) are checked.
"""
from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from controller.settings import load_settings

REPO = Path(__file__).resolve().parents[1]
SCRIPT = REPO / "hardware" / "pi" / "install.sh"


def _dry_run(tmp_path: Path, *extra: str, model: str | None = None) -> tuple[list[list[str]], str]:
    """Run the script in dry-run mode; return the printed commands (split) and all stdout."""
    args = ["bash", str(SCRIPT), "--dry-run", *extra]
    if model is not None:
        model_file = tmp_path / "model"
        model_file.write_bytes(model.encode() + b"\0")   # the device tree ends with NUL
        args += ["--model-file", str(model_file)]
    done = subprocess.run(args, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    commands = [shlex.split(line[2:]) for line in done.stdout.splitlines() if line.startswith("+ ")]
    return commands, done.stdout


def _find(commands: list[list[str]], *prefix: str) -> list[str]:
    for command in commands:
        if command[: len(prefix)] == list(prefix):
            return command
    raise AssertionError(f"no command starting {' '.join(prefix)!r} in {commands}")


def _index(commands: list[list[str]], *prefix: str) -> int:
    return commands.index(_find(commands, *prefix))


def _user_exists(name: str) -> bool:
    return subprocess.run(["id", "-u", name], capture_output=True, check=False).returncode == 0


def test_dry_run_prints_every_step_and_runs_nothing(tmp_path: Path) -> None:
    dest = tmp_path / "etc"
    real_unit = Path("/etc/systemd/system/bgboard.service")
    unit_before = real_unit.exists()
    commands, out = _dry_run(tmp_path, "--dest", str(dest), model="Raspberry Pi 4 Model B Rev 1.4")
    assert "pip extra: pi;" in out
    _find(commands, "apt-get", "update")
    assert "python3-venv" in _find(commands, "env", "DEBIAN_FRONTEND=noninteractive", "apt-get")
    assert ["raspi-config", "nonint", "do_i2c", "0"] in commands
    assert ["raspi-config", "nonint", "do_spi", "0"] in commands
    sed = _find(commands, "sed", "-i")           # Pi 4: analogue audio off for the PWM LEDs
    assert sed[-1] == "/boot/firmware/config.txt" and "audio=off" in sed[2]
    if not _user_exists("bgboard"):
        useradd = _find(commands, "useradd")
        assert "--system" in useradd and useradd[-1] == "bgboard"
        groups = useradd[useradd.index("--groups") + 1].split(",")
        assert sorted(groups) == ["dialout", "gpio", "i2c", "spi"]
        assert useradd[useradd.index("--shell") + 1] == "/usr/sbin/nologin"
    rsync = _find(commands, "rsync", "-a", "--delete")
    assert rsync[-2:] == [f"{REPO}/", "/opt/bgboard/src/"]
    assert "--exclude" in rsync and ".git" in rsync
    pip = [c for c in commands if c[1:4] == ["-m", "pip", "install"]]
    assert pip[-1][0] == "/opt/bgboard/venv/bin/python"
    assert pip[-1][-2:] == ["--editable", "/opt/bgboard/src[pi]"]
    assert _index(commands, "rsync") < commands.index(pip[-1])
    installed = [c[-1] for c in commands if c[:4] == ["install", "-D", "-m", "0644"]]
    assert installed == ["/etc/bgboard/config.toml", "/etc/udev/rules.d/99-bgboard.rules",
                         "/etc/systemd/system/bgboard.service"]
    # the order matters: the unit is installed before systemd reloads and enables it
    assert _index(commands, "udevadm", "control", "--reload-rules") < _index(
        commands, "systemctl", "daemon-reload")
    assert ["systemctl", "enable", "bgboard.service"] in commands
    assert commands[-1] == ["systemctl", "restart", "bgboard.service"]
    # nothing outside --dest was written: the files are there, /etc is untouched
    assert sorted(str(p.relative_to(dest)) for p in dest.rglob("*") if p.is_file()) == [
        "bgboard/config.toml", "systemd/system/bgboard.service", "udev/rules.d/99-bgboard.rules"]
    assert real_unit.exists() == unit_before


@pytest.mark.parametrize(
    "model, extra, audio",
    [
        ("Raspberry Pi 5 Model B Rev 1.0", "pi5", False),
        ("Raspberry Pi Compute Module 5 Rev 1.0", "pi5", False),
        ("Raspberry Pi 500 Rev 1.0", "pi5", False),
        ("Raspberry Pi 3 Model B Plus Rev 1.3", "pi", True),
        ("Raspberry Pi Zero 2 W Rev 1.0", "pi", True),
    ],
)
def test_the_extra_follows_the_board_model(tmp_path: Path, model: str, extra: str,
                                           audio: bool) -> None:
    commands, out = _dry_run(tmp_path, model=model)
    pip = [c for c in commands if c[1:4] == ["-m", "pip", "install"]]
    assert pip[-1][-1] == f"/opt/bgboard/src[{extra}]"
    assert any(c[:2] == ["sed", "-i"] for c in commands) == audio
    assert f"board: {model};" in out


def test_unit_file_is_what_the_issue_asks_and_systemd_accepts_it(tmp_path: Path) -> None:
    dest = tmp_path / "etc"
    _dry_run(tmp_path, "--dest", str(dest))
    unit = (dest / "systemd" / "system" / "bgboard.service").read_text()
    assert "@" not in unit.replace("multi-user", "")      # every template field filled
    keys = dict(
        line.split("=", 1) for line in unit.splitlines() if "=" in line and not line.startswith("#"))
    assert keys["ExecStart"] == "/opt/bgboard/venv/bin/bgboard run"
    assert keys["Restart"] == "on-failure"
    assert keys["User"] == "bgboard"
    assert sorted(keys["SupplementaryGroups"].split()) == ["dialout", "gpio", "i2c", "spi"]
    assert keys["StandardOutput"] == keys["StandardError"] == "journal"
    assert keys["WantedBy"] == "multi-user.target"
    assert keys["StateDirectory"] == "bgboard"

    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed (.ci/run installs it)")
    # verify checks that ExecStart's binary exists and is executable; on this machine
    # /opt/bgboard is not installed, so the verified copy points ExecStart at a stub
    # under tmp_path. Everything else in the unit is verified as generated.
    stub = tmp_path / "bin" / "bgboard"
    stub.parent.mkdir()
    stub.write_text("#!/bin/sh\nexit 0\n")
    stub.chmod(0o755)
    checked = tmp_path / "verify" / "bgboard.service"
    checked.parent.mkdir()
    verified = unit.replace("/opt/bgboard/venv/bin/bgboard", str(stub))
    checked.write_text(verified)
    done = subprocess.run([analyze, "verify", str(checked)], capture_output=True, text=True,
                          timeout=60, env={**os.environ, "SYSTEMD_LOG_LEVEL": "warning"},
                          check=False)
    assert done.returncode == 0, done.stderr
    assert "bgboard.service" not in done.stderr, done.stderr     # no warnings about our unit
    # and the same check does fail on a unit that is broken, so it is really checking
    checked.write_text(verified.replace("Restart=on-failure", "Restart=sometimes"))
    bad = subprocess.run([analyze, "verify", str(checked)], capture_output=True, text=True,
                         timeout=60, check=False)
    assert "sometimes" in bad.stderr and "not executable" not in bad.stderr


_UDEV_PAIR = re.compile(r'\s*([A-Z_]+(?:\{[^}]+\})?)\s*(==|!=|\+=|-=|:=|=)\s*"([^"]*)"\s*(,|$)')
_UDEV_MATCH_KEYS = {"SUBSYSTEM", "SUBSYSTEMS", "KERNEL", "ACTION"}
_UDEV_ASSIGN_KEYS = {"SYMLINK", "GROUP", "MODE", "OWNER", "TAG", "ENV{ID_MM_DEVICE_IGNORE}"}


def _parse_udev(line: str) -> list[tuple[str, str, str]]:
    """A strict parse of one udev rule line: key, operator, value triples, nothing else."""
    pairs, pos = [], 0
    while pos < len(line):
        m = _UDEV_PAIR.match(line, pos)
        assert m, f"cannot parse the udev rule at {line[pos:]!r}"
        pairs.append((m.group(1), m.group(2), m.group(3)))
        pos = m.end()
    return pairs


def test_udev_rule_names_the_pico_bgboard(tmp_path: Path) -> None:
    dest = tmp_path / "etc"
    _dry_run(tmp_path, "--dest", str(dest))
    text = (dest / "udev" / "rules.d" / "99-bgboard.rules").read_text()
    rules = [l for l in text.splitlines() if l.strip() and not l.lstrip().startswith("#")]
    assert len(rules) == 1
    pairs = _parse_udev(rules[0])
    for key, op, _value in pairs:
        if op == "==":
            assert key in _UDEV_MATCH_KEYS or key.startswith("ATTRS{"), key
        else:
            assert key in _UDEV_ASSIGN_KEYS, key
    found = {(k, op): v for k, op, v in pairs}
    assert found[("SUBSYSTEM", "==")] == "tty"
    assert found[("ATTRS{idVendor}", "==")] == "2e8a"      # Raspberry Pi (the Pico)
    assert found[("SYMLINK", "+=")] == "bgboard"          # /dev/bgboard
    assert found[("GROUP", "=")] == "dialout"
    assert found[("MODE", "=")] == "0660"
    assert found[("ENV{ID_MM_DEVICE_IGNORE}", "=")] == "1"     # ModemManager keeps off


def test_installed_settings_load_and_match_the_udev_name(tmp_path: Path) -> None:
    dest = tmp_path / "etc"
    _dry_run(tmp_path, "--dest", str(dest))
    settings = load_settings(dest / "bgboard" / "config.toml", env={"HOME": str(tmp_path)},
                             on_pi=True)
    assert settings.port == "/dev/bgboard"


def test_uninstall_removes_what_install_added(tmp_path: Path) -> None:
    commands, out = _dry_run(tmp_path, "--uninstall")
    assert ["systemctl", "disable", "--now", "bgboard.service"] in commands
    assert ["rm", "-f", "/etc/systemd/system/bgboard.service"] in commands
    assert ["rm", "-f", "/etc/udev/rules.d/99-bgboard.rules"] in commands
    assert ["rm", "-rf", "/opt/bgboard"] in commands
    assert (["userdel", "bgboard"] in commands) == _user_exists("bgboard")
    assert not any("/var/lib/bgboard" in c for c in commands)   # saved matches are kept
    assert "kept /etc/bgboard" in out
    purge, _ = _dry_run(tmp_path, "--uninstall", "--purge")
    assert ["rm", "-rf", "/etc/bgboard", "/var/lib/bgboard"] in purge


def test_rerunning_is_safe_an_existing_venv_is_reused(tmp_path: Path) -> None:
    prefix = tmp_path / "opt"
    python = prefix / "venv" / "bin" / "python"
    first, _ = _dry_run(tmp_path, "--prefix", str(prefix))
    assert ["python3", "-m", "venv", str(prefix / "venv")] in first
    python.parent.mkdir(parents=True)
    python.write_text("#!/bin/sh\n")
    python.chmod(0o755)
    second, _ = _dry_run(tmp_path, "--prefix", str(prefix))
    assert not any(c[:3] == ["python3", "-m", "venv"] for c in second)
    assert any(c[0] == str(python) and c[-1] == f"{prefix}/src[pi]" for c in second)


@pytest.mark.parametrize(
    "args, words",
    [
        (["--dest", "/tmp/x"], "--dest only goes with --dry-run"),
        (["--dry-run", "--purge"], "--purge only goes with --uninstall"),
        (["--dry-run", "--prefix", "relative"], "absolute path"),
        (["--dry-run", "--prefix", "/opt/a b"], "only letters"),
        (["--bogus"], "unknown option '--bogus'"),
    ],
)
def test_bad_options_fail_with_one_line_and_exit_2(args: list[str], words: str) -> None:
    done = subprocess.run(["bash", str(SCRIPT), *args], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2
    assert done.stdout == ""
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("install.sh: error:") and words in last


def test_shellcheck_finds_nothing() -> None:
    shellcheck = shutil.which("shellcheck")
    if shellcheck is None:
        pytest.skip("shellcheck is not installed (.ci/run installs it)")
    done = subprocess.run([shellcheck, "--severity=style", str(SCRIPT)], capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stdout
