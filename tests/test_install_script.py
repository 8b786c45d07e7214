"""hardware/pi/install.sh, checked without a Raspberry Pi.

The script runs in --dry-run mode with --dest: it prints every command and writes the
unit, udev rule and settings into tmp_path. The printed commands, the generated files
(systemd-analyze verify, a parse of the udev rule, the settings loader) and the script
itself (shellcheck) are checked. The boot settings for the LEDs on SPI (cmdline.txt and
config.txt) are also edited for real: the test sources the script and calls its functions
on copies of Raspberry Pi OS's files in tmp_path, then checks that --uninstall's half
gives the original bytes back.
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

#: Raspberry Pi OS Bookworm's boot files, shortened (one line; the [cm5] filter and a
#: final [all] as the image ships them).
CMDLINE = ("console=serial0,115200 console=tty1 root=PARTUUID=4e639091-02 rootfstype=ext4 "
           "fsck.repair=yes rootwait quiet splash plymouth.ignore-serial-consoles "
           "cfg80211.ieee80211_regdom=GB\n")
CONFIG = ("# For more options and information see\n"
          "# http://rptl.io/configtxt\n"
          "dtparam=audio=on\n"
          "camera_auto_detect=1\n"
          "dtoverlay=vc4-kms-v3d\n"
          "arm_64bit=1\n"
          "\n"
          "[cm5]\n"
          "dtoverlay=dwc2,dr_mode=host\n"
          "\n"
          "[all]\n")
BUFSIZ = "spidev.bufsiz=32768"
BLOCK_BEGIN = "# >>> bgboard: "
BLOCK_END = "# <<< bgboard"


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


def _pip_installs(commands: list[list[str]]) -> list[list[str]]:
    """The `python -m pip install` commands, a leading `env VAR=VALUE...` left out."""
    found = []
    for command in commands:
        if command[:1] == ["env"]:
            command = [w for w in command[1:] if "=" not in w or w.startswith("-")]
        if command[1:4] == ["-m", "pip", "install"]:
            found.append(command)
    return found


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
    # Pi 4: the LEDs on SPI need a bigger spidev buffer and a fixed core clock; the
    # analogue audio stays as it is (no PWM involved any more)
    assert ["sed", "-i", f"1 s/$/ {BUFSIZ}/", "/boot/firmware/cmdline.txt"] in commands
    assert _appended(commands, "/boot/firmware/config.txt") == [
        "core_freq=500", "core_freq_min=500"]
    assert not any("audio" in word for command in commands for word in command)
    if not _user_exists("bgboard"):
        useradd = _find(commands, "useradd")
        assert "--system" in useradd and useradd[-1] == "bgboard"
        groups = useradd[useradd.index("--groups") + 1].split(",")
        assert sorted(groups) == ["dialout", "gpio", "i2c", "spi"]
        assert useradd[useradd.index("--shell") + 1] == "/usr/sbin/nologin"
    rsync = _find(commands, "rsync", "-a", "--delete")
    assert rsync[-2:] == [f"{REPO}/", "/opt/bgboard/src/"]
    assert "--exclude" in rsync and ".git" in rsync
    pip = _pip_installs(commands)
    assert pip[-1][0] == "/opt/bgboard/venv/bin/python"
    assert pip[-1][-2:] == ["--editable", "/opt/bgboard/src[pi]"]
    assert _index(commands, "rsync") < _index(commands, "env", "PYPI=1", *pip[-1][:4])
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


def _appended(commands: list[list[str]], target: str) -> list[str] | None:
    """The settings lines of the bgboard block the script appends to `target` (markers,
    the [all] filter and comments left out), or None when it appends nothing there."""
    for command in commands:
        if command[:2] == ["printf", "%s\\n"] and command[-2:] == [">>", target]:
            lines = command[2:-2]
            assert lines[0] == "" or lines[0].startswith(BLOCK_BEGIN)
            assert lines[-1] == BLOCK_END
            assert "[all]" in lines, "the block must not inherit a filter such as [cm5]"
            assert all(len(line) <= 80 for line in lines)   # config.txt's limit is 98
            return [line for line in lines if line and not line.startswith(("#", "["))]
    return None


@pytest.mark.parametrize(
    "model, extra, clock",
    [
        ("Raspberry Pi 5 Model B Rev 1.0", "pi5", None),
        ("Raspberry Pi Compute Module 5 Rev 1.0", "pi5", None),
        ("Raspberry Pi 500 Rev 1.0", "pi5", None),
        ("Raspberry Pi 3 Model B Plus Rev 1.3", "pi", ["core_freq=250"]),
        ("Raspberry Pi 3 Model B Rev 1.2", "pi", ["core_freq=250"]),
        ("Raspberry Pi Zero 2 W Rev 1.0", "pi", ["core_freq=250"]),
        ("Raspberry Pi 4 Model B Rev 1.5", "pi", ["core_freq=500", "core_freq_min=500"]),
        ("Raspberry Pi 400 Rev 1.0", "pi", ["core_freq=500", "core_freq_min=500"]),
        ("Raspberry Pi Compute Module 4 Rev 1.1", "pi",
         ["core_freq=500", "core_freq_min=500"]),
        ("Some Other Board", "pi", []),       # bufsiz only, and a warning to fix the clock
    ],
)
def test_the_extra_and_the_boot_settings_follow_the_board_model(
        tmp_path: Path, model: str, extra: str, clock: list[str] | None) -> None:
    commands, out = _dry_run(tmp_path, "--boot-dir", str(tmp_path / "boot"), model=model)
    pip = _pip_installs(commands)
    assert pip[-1][-1] == f"/opt/bgboard/src[{extra}]"
    assert f"board: {model};" in out
    assert _appended(commands, str(tmp_path / "boot" / "config.txt")) == clock
    edits_cmdline = any(c[:2] == ["sed", "-i"] and c[-1].endswith("cmdline.txt")
                        for c in commands)
    assert edits_cmdline == (extra == "pi")          # a Pi 5 drives the LEDs by PIO
    assert ("no known core clock" in out) == (clock == [])


def _source(boot: Path, *calls: str, dry_run: bool = False) -> str:
    """Source install.sh (which then does not run main) and call its functions on the
    boot files in `boot`, for real unless dry_run; return what they print."""
    script = "\n".join([
        f"source {shlex.quote(str(SCRIPT))}",
        f"DRY_RUN={int(dry_run)}",
        f"BOOT_CONFIG={shlex.quote(str(boot / 'config.txt'))}",
        f"BOOT_CMDLINE={shlex.quote(str(boot / 'cmdline.txt'))}",
        *calls,
    ])
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _boot(tmp_path: Path, cmdline: str = CMDLINE, config: str = CONFIG) -> Path:
    boot = tmp_path / "boot"
    boot.mkdir()
    (boot / "cmdline.txt").write_text(cmdline)
    (boot / "config.txt").write_text(config)
    return boot


def test_boot_settings_are_added_once_and_uninstall_restores_the_files(tmp_path: Path) -> None:
    boot = _boot(tmp_path)
    out = _source(boot, 'configure_led_spi pi "Raspberry Pi 4 Model B Rev 1.4"')
    assert "+ sed -i" in out and "+ printf" in out            # each change is printed
    cmdline = (boot / "cmdline.txt").read_text()
    assert cmdline == CMDLINE.rstrip("\n") + f" {BUFSIZ}\n"   # still one line
    config = (boot / "config.txt").read_text()
    assert config.startswith(CONFIG)                          # nothing of the user's moved
    added = config[len(CONFIG):].splitlines()
    assert added[0].startswith(BLOCK_BEGIN) and added[-1] == BLOCK_END
    assert added[1] == "[all]"
    assert "core_freq=500" in added and "core_freq_min=500" in added
    assert any(BUFSIZ in line and line.startswith("#") for line in added)   # the record
    # a second run changes nothing and says so
    again = _source(boot, 'configure_led_spi pi "Raspberry Pi 4 Model B Rev 1.4"')
    assert "+ " not in again and "already" in again
    assert (boot / "cmdline.txt").read_text() == cmdline
    assert (boot / "config.txt").read_text() == config
    # --uninstall's half gives back the very bytes of before
    _source(boot, "unconfigure_led_spi")
    assert (boot / "cmdline.txt").read_text() == CMDLINE
    assert (boot / "config.txt").read_text() == CONFIG
    # and once they are gone there is nothing left to remove
    assert "no bgboard lines" in _source(boot, "unconfigure_led_spi")
    assert (boot / "config.txt").read_text() == CONFIG


def test_a_buffer_size_the_user_set_is_kept_and_not_removed(tmp_path: Path) -> None:
    own = CMDLINE.replace("rootwait", "rootwait spidev.bufsiz=65536")
    boot = _boot(tmp_path, cmdline=own)
    _source(boot, 'configure_led_spi pi "Raspberry Pi Zero 2 W Rev 1.0"')
    assert (boot / "cmdline.txt").read_text() == own
    config = (boot / "config.txt").read_text()
    assert "core_freq=250" in config and BUFSIZ not in config   # no record: not ours
    out = _source(boot, "unconfigure_led_spi")
    assert "cmdline.txt" not in out                            # left alone
    assert (boot / "cmdline.txt").read_text() == own
    assert (boot / "config.txt").read_text() == CONFIG


def test_a_card_moved_to_another_board_gets_that_boards_clock(tmp_path: Path) -> None:
    boot = _boot(tmp_path)
    _source(boot, 'configure_led_spi pi "Raspberry Pi 3 Model B Plus Rev 1.3"')
    _source(boot, 'configure_led_spi pi "Raspberry Pi 4 Model B Rev 1.4"')
    config = (boot / "config.txt").read_text()
    assert config.count(BLOCK_BEGIN) == 1 and config.count(BLOCK_END) == 1
    assert "core_freq=250" not in config and "core_freq_min=500" in config
    assert BUFSIZ in config                  # the record of the cmdline.txt change survives
    assert (boot / "cmdline.txt").read_text().count(BUFSIZ) == 1
    _source(boot, "unconfigure_led_spi")
    assert (boot / "cmdline.txt").read_text() == CMDLINE
    assert (boot / "config.txt").read_text() == CONFIG


def test_a_config_without_a_final_newline_keeps_its_last_line(tmp_path: Path) -> None:
    boot = _boot(tmp_path, config=CONFIG + "dtoverlay=disable-bt")
    _source(boot, 'configure_led_spi pi "Raspberry Pi 4 Model B Rev 1.4"')
    lines = (boot / "config.txt").read_text().splitlines()
    assert "dtoverlay=disable-bt" in lines and "core_freq_min=500" in lines


def test_a_pi_5_keeps_its_boot_files(tmp_path: Path) -> None:
    boot = _boot(tmp_path)
    out = _source(boot, 'configure_led_spi pi5 "Raspberry Pi 5 Model B Rev 1.0"')
    assert "PIO" in out and "+ " not in out
    assert (boot / "cmdline.txt").read_text() == CMDLINE
    assert (boot / "config.txt").read_text() == CONFIG


def test_dry_runs_read_the_boot_files_but_do_not_change_them(tmp_path: Path) -> None:
    boot = _boot(tmp_path)
    pi4 = 'configure_led_spi pi "Raspberry Pi 4 Model B Rev 1.4"'
    out = _source(boot, pi4, dry_run=True)
    assert f"+ sed -i '1 s/$/ {BUFSIZ}/' {boot}/cmdline.txt" in out
    assert (boot / "cmdline.txt").read_text() == CMDLINE
    assert (boot / "config.txt").read_text() == CONFIG
    _source(boot, pi4)
    commands, out = _dry_run(tmp_path, "--boot-dir", str(boot),
                             model="Raspberry Pi 4 Model B Rev 1.4")
    assert _appended(commands, str(boot / "config.txt")) is None and "already" in out
    commands, _ = _dry_run(tmp_path, "--uninstall", "--boot-dir", str(boot))
    assert ["sed", "-i", "/^# >>> bgboard: /,/^# <<< bgboard$/d", str(boot / "config.txt")
            ] in commands
    assert any(c[:2] == ["sed", "-i"] and c[-1] == str(boot / "cmdline.txt") for c in commands)
    assert BLOCK_BEGIN in (boot / "config.txt").read_text()     # still there: a dry run


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
    # no boot files on this machine: the dry run shows the removal of bgboard's block
    assert ["sed", "-i", "/^# >>> bgboard: /,/^# <<< bgboard$/d", "/boot/firmware/config.txt"
            ] in commands
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
    assert any(c[0] == str(python) and c[-1] == f"{prefix}/src[pi]" for c in _pip_installs(second))


@pytest.mark.parametrize(
    "args, words",
    [
        (["--dest", "/tmp/x"], "--dest only goes with --dry-run"),
        (["--dry-run", "--purge"], "--purge only goes with --uninstall"),
        (["--dry-run", "--prefix", "relative"], "absolute path"),
        (["--dry-run", "--prefix", "/opt/a b"], "only letters"),
        (["--bogus"], "unknown option '--bogus'"),
        (["--dry-run", "--boot-dir"], "--boot-dir needs a directory"),
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


def test_a_fresh_system_gets_the_prefix_before_the_copy_and_every_package(tmp_path: Path) -> None:
    # rsync creates src but not its parent: on a fresh system /opt/bgboard must exist first
    prefix = tmp_path / "fresh" / "opt"
    commands, out = _dry_run(tmp_path, "--prefix", str(prefix))
    assert _index(commands, "mkdir", "-p", str(prefix)) < _index(commands, "rsync")
    apt = _find(commands, "env", "DEBIAN_FRONTEND=noninteractive", "apt-get")
    # the judgement (gnubg), and what the drivers' builds need (lgpio on Python 3.13)
    assert {"gnubg", "swig", "python3-dev", "build-essential", "liblgpio-dev"} <= set(apt)
    pip = _pip_installs(commands)[-1]
    constraints = pip[pip.index("--constraint") + 1]
    assert constraints == f"{prefix}/src/hardware/pi/constraints.txt"
    assert "PYPI=1" in _find(commands, "env", "PYPI=1")
    assert "cannot check the wiring" in out


def _requirements(extra: str) -> dict[str, str]:
    """pyproject.toml's extra as {normalised name: specifier and marker}."""
    import tomllib

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    found = {}
    for line in project["optional-dependencies"][extra]:
        req = Requirement(line)
        found[canonicalize_name(req.name)] = f"{req.specifier}"
    return found


def test_the_pi_extras_name_what_installs_on_a_pi_today() -> None:
    from packaging.requirements import Requirement
    from packaging.specifiers import SpecifierSet
    from packaging.utils import canonicalize_name
    from packaging.version import Version

    pi, pi5 = _requirements("pi"), _requirements("pi5")
    for extra in (pi, pi5):
        # RPi.GPIO 0.7.1 fails add_event_detect on kernels >= 6.6; rpi-lgpio serves its module
        assert "rpi-gpio" not in extra and "rpi-lgpio" in extra
        # Blinka 10 no longer brings gpiod, which `import board` needs on a Pi
        assert "gpiod" in extra and "adafruit-blinka" in extra
    assert "rpi-ws281x" in pi                                  # NeoPixels on a Pi 3/4/Zero 2 W
    pio = pi5["adafruit-blinka-raspberry-pi5-neopixel"]
    assert Version("1.0.0rc2") in Requirement(f"x{pio}").specifier   # only pre-releases exist
    pins = {}
    for line in (REPO / "hardware" / "pi" / "constraints.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            req = Requirement(line)
            pins[canonicalize_name(req.name)] = req.specifier
    assert "rpi-gpio" not in pins
    for name, spec in {**pi, **pi5}.items():
        assert name in pins, f"{name} is not in constraints.txt"
        version = next(iter(pins[name])).version
        assert SpecifierSet(spec, prereleases=True).contains(version), (
            f"{name}: constraints.txt's {version} is outside {spec}")


def test_no_start_installs_the_files_and_calls_neither_udev_nor_systemd(tmp_path: Path) -> None:
    dest = tmp_path / "etc"
    commands, out = _dry_run(tmp_path, "--no-start", "--dest", str(dest))
    assert not any(c[0] in ("udevadm", "systemctl") for c in commands)
    assert (dest / "systemd" / "system" / "bgboard.service").exists()
    assert "not started" in out
    assert _pip_installs(commands)                      # the code is installed all the same


@pytest.mark.parametrize(
    "model, lines, port",
    [
        ("Raspberry Pi 4 Model B Rev 1.5", ["enable_uart=1", "dtoverlay=disable-bt"], "/dev/serial0"),
        ("Raspberry Pi 3 Model B Rev 1.2", ["enable_uart=1", "dtoverlay=disable-bt"], "/dev/serial0"),
        ("Raspberry Pi Zero 2 W Rev 1.0", ["enable_uart=1", "dtoverlay=disable-bt"], "/dev/serial0"),
        ("Raspberry Pi 5 Model B Rev 1.0", ["dtparam=uart0=on"], "/dev/ttyAMA0"),
    ],
)
def test_uart_turns_the_console_off_and_the_right_uart_on_and_uninstall_undoes_it(
        tmp_path: Path, model: str, lines: list[str], port: str) -> None:
    boot = _boot(tmp_path)
    out = _source(boot, f'configure_uart "{model}"')
    assert f'port = "{port}"' in out
    cmdline = (boot / "cmdline.txt").read_text()
    assert "console=serial0" not in cmdline and "console=tty1" in cmdline
    assert cmdline.count("\n") == 1
    config = (boot / "config.txt").read_text()
    assert config.startswith(CONFIG)
    added = config[len(CONFIG):].splitlines()
    assert added[0].startswith("# >>> bgboard-uart: ") and added[1] == "[all]"
    assert [line for line in added if not line.startswith(("#", "["))] == lines
    again = _source(boot, f'configure_uart "{model}"')             # a second run: no change
    assert "+ " not in again and (boot / "config.txt").read_text() == config
    # with the LEDs' block beside it, each uninstall half removes only its own
    _source(boot, f'configure_led_spi pi "{model}"')
    _source(boot, "unconfigure_uart", "unconfigure_led_spi")
    assert (boot / "cmdline.txt").read_text() == CMDLINE
    assert (boot / "config.txt").read_text() == CONFIG


def test_uart_is_an_option_and_the_dry_run_shows_it(tmp_path: Path) -> None:
    boot = tmp_path / "boot"
    plain, _ = _dry_run(tmp_path, "--boot-dir", str(boot), model="Raspberry Pi 4 Model B Rev 1.5")
    assert not any("enable_uart=1" in c for c in plain)
    uart, _ = _dry_run(tmp_path, "--uart", "--boot-dir", str(boot),
                       model="Raspberry Pi 4 Model B Rev 1.5")
    assert any("enable_uart=1" in c and "dtoverlay=disable-bt" in c for c in uart)


def test_the_two_sided_bearoff_database_is_made_once_or_named_as_not_done(tmp_path: Path) -> None:
    """gnubg's gnubg_ts0.bd (issue 21): made with makebearoff where it is missing, kept where
    it is there, and where makebearoff is missing the closing line says so."""
    db, tool = tmp_path / "gnubg" / "gnubg_ts0.bd", tmp_path / "makebearoff"
    tool.write_text('#!/bin/sh\n[ "$1 $2 $3" = "-t 6x6 -f" ] && printf gnubg-TS-06-06 > "$4"\n')
    tool.chmod(0o755)
    setup = [f"BEAROFF_DB={shlex.quote(str(db))}", f"MAKEBEAROFF={shlex.quote(str(tool))}"]
    out = _source(tmp_path, *setup, "install_bearoff_db")
    assert f"+ {tool} -t 6x6 -f {db}.part" in out and db.read_text() == "gnubg-TS-06-06"
    assert _source(tmp_path, *setup, "install_bearoff_db").strip() == f"# {db} exists; kept as it is"
    db.unlink()
    missing = [f"BEAROFF_DB={shlex.quote(str(db))}", f"MAKEBEAROFF={shlex.quote(str(tmp_path / 'none'))}"]
    out = _source(tmp_path, *missing, "install_bearoff_db", 'printf "%s\\n" "${CANNOT[@]}"')
    assert out.strip() == f"make {db}: {tmp_path / 'none'} is missing (sudo apt install gnubg)"
    assert not db.exists()
