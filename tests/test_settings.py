"""Settings: where they are read from, every key validated, atomic saving."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from controller.errors import ProfileError
from controller.settings import (
    CLOCK_MODES,
    CONFIRM_MODES,
    LANGUAGES,
    OPPONENTS,
    Settings,
    is_raspberry_pi,
    load_settings,
    save_settings,
    user_config_path,
)

REPO = Path(__file__).resolve().parents[1]


def _env(tmp_path: Path) -> dict[str, str]:
    return {
        "HOME": str(tmp_path / "home"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
    }


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults_on_a_laptop_follow_xdg(tmp_path: Path) -> None:
    s = load_settings(env=_env(tmp_path), system=tmp_path / "none.toml", on_pi=False)
    assert s.port is None
    assert s.state_dir == tmp_path / "state" / "bgboard"
    assert (s.language, s.confirm, s.clock, s.opponent, s.profile) == (
        "en", "auto", "off", "human", "default")


def test_defaults_without_xdg_variables_use_home(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path / "h"), "XDG_STATE_HOME": "relative/ignored"}
    s = load_settings(env=env, system=tmp_path / "none.toml", on_pi=False)
    assert s.state_dir == tmp_path / "h" / ".local" / "state" / "bgboard"
    assert user_config_path(env) == tmp_path / "h" / ".config" / "bgboard" / "config.toml"


def test_defaults_on_the_pi_use_the_udev_name_and_var_lib(tmp_path: Path) -> None:
    s = load_settings(env=_env(tmp_path), system=tmp_path / "none.toml", on_pi=True)
    assert s.port == "/dev/bgboard"
    assert s.state_dir == Path("/var/lib/bgboard")


def test_pi_detected_from_the_device_tree(tmp_path: Path) -> None:
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\x00")
    assert is_raspberry_pi(model)
    model.write_bytes(b"Some Other Board\x00")
    assert not is_raspberry_pi(model)
    assert not is_raspberry_pi(tmp_path / "missing")


def test_user_file_overrides_system_file_key_by_key(tmp_path: Path) -> None:
    env = _env(tmp_path)
    system = _write(tmp_path / "etc" / "config.toml",
                    'language = "da"\nbrightness = 0.5\nclock = "tournament"\n')
    _write(user_config_path(env), 'language = "sv"\n')
    s = load_settings(env=env, system=system, on_pi=False)
    assert s.language == "sv"          # user wins
    assert s.brightness == 0.5         # system still applies
    assert s.clock == "tournament"


def test_explicit_path_replaces_the_search(tmp_path: Path) -> None:
    env = _env(tmp_path)
    _write(user_config_path(env), 'language = "sv"\n')
    own = _write(tmp_path / "own.toml", 'opponent = "gnubg"\n')
    s = load_settings(own, env=env, system=tmp_path / "none.toml", on_pi=False)
    assert s.opponent == "gnubg"
    assert s.language == "en"


def test_explicit_path_must_exist(tmp_path: Path) -> None:
    missing = tmp_path / "nope.toml"
    with pytest.raises(ProfileError, match="nope.toml: settings file not found"):
        load_settings(missing, env=_env(tmp_path), on_pi=False)


def test_every_key_read_from_a_file(tmp_path: Path) -> None:
    path = _write(tmp_path / "c.toml", """
profile = "hardware/profiles/mine.toml"
port = "/dev/ttyACM1"
language = "da"
brightness = 1
confirm = "button"
clock = "timer"
opponent = "simple"
state_dir = "/srv/matches"
""")
    s = load_settings(path, env=_env(tmp_path), on_pi=False)
    assert s == Settings(profile="hardware/profiles/mine.toml", port="/dev/ttyACM1",
                         language="da", brightness=1.0, confirm="button", clock="timer",
                         opponent="simple", state_dir=Path("/srv/matches"))
    assert isinstance(s.brightness, float)


def test_the_installed_example_config_is_valid(tmp_path: Path) -> None:
    """The file install.sh copies to /etc/bgboard must load as it is."""
    s = load_settings(REPO / "hardware" / "pi" / "config.toml", env=_env(tmp_path), on_pi=True)
    assert s.port == "/dev/bgboard"
    assert s.state_dir == Path("/var/lib/bgboard")


@pytest.mark.parametrize(
    "line, key, words",
    [
        ('colour = "red"', "colour", "unknown key"),
        ('language = "de"', "language", "expected one of en, da, sv"),
        ("language = 1", "language", "got 1"),
        ("brightness = 1.5", "brightness", "from 0 to 1"),
        ("brightness = -0.1", "brightness", "from 0 to 1"),
        ("brightness = true", "brightness", "got True"),
        ('brightness = "high"', "brightness", "from 0 to 1"),
        ("brightness = nan", "brightness", "from 0 to 1"),
        ('confirm = "maybe"', "confirm", "auto, button"),
        ('clock = "fischer"', "clock", "off, timer, tournament"),
        ('opponent = "grandmaster"', "opponent", "human, simple, gnubg, beginner"),
        ('port = ""', "port", "must not be empty"),
        ("port = 3", "port", "expected a string"),
        ('profile = "  "', "profile", "must not be empty"),
        ("state_dir = []", "state_dir", "expected a string"),
        ("[leds]\nbrightness = 0.5", "leds", "unknown key"),
        ('online_server = "bgammon.org:http"', "online_server", "give HOST:PORT"),
        ('online_match = "spectate"', "online_match", "public, private, join"),
        ("online_points = 0", "online_points", "from 1 to 127"),
        ("online_points = 2.5", "online_points", "from 1 to 127"),
        ('online_join = ""', "online_join", "must not be empty"),
    ],
)
def test_bad_key_or_value_names_file_and_key_in_one_line(
    tmp_path: Path, line: str, key: str, words: str
) -> None:
    path = _write(tmp_path / "bad.toml", f"# a club's settings\n{line}\n")
    with pytest.raises(ProfileError) as caught:
        load_settings(path, env=_env(tmp_path), on_pi=False)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(str(path) + ":")
    assert f"'{key}'" in message
    assert words in message


def test_broken_toml_is_one_line_with_the_file(tmp_path: Path) -> None:
    path = _write(tmp_path / "broken.toml", 'language = "en\n')
    with pytest.raises(ProfileError, match=r"broken.toml: not valid TOML"):
        load_settings(path, env=_env(tmp_path), on_pi=False)


def test_bad_system_file_is_reported_even_without_a_path(tmp_path: Path) -> None:
    system = _write(tmp_path / "etc.toml", 'clock = "sometimes"\n')
    with pytest.raises(ProfileError, match=r"etc.toml: key 'clock'"):
        load_settings(env=_env(tmp_path), system=system, on_pi=True)


def test_replace_validates_like_a_file() -> None:
    base = Settings()
    changed = base.replace(language="da", brightness=0.1)
    assert (changed.language, changed.brightness) == ("da", 0.1)
    assert base.language == "en"       # frozen: the original is untouched
    with pytest.raises(ProfileError, match=r"^dialog: key 'clock'"):
        base.replace("dialog", clock="always")
    with pytest.raises(ProfileError, match="unknown key 'volume'"):
        base.replace(volume=3)


def test_save_then_load_round_trips(tmp_path: Path) -> None:
    s = Settings(profile='odd "name" \\ here', port="/dev/ttyACM0", language="sv",
                 brightness=0.8, confirm="button", clock="tournament", opponent="gnubg",
                 state_dir=tmp_path / "matches")
    path = save_settings(s, tmp_path / "deep" / "config.toml")
    assert load_settings(path, env=_env(tmp_path), on_pi=False) == s
    assert oct(path.stat().st_mode & 0o777) == oct(0o644)


def test_save_without_port_leaves_the_key_out(tmp_path: Path) -> None:
    path = save_settings(Settings(state_dir=tmp_path), tmp_path / "c.toml")
    assert not any(line.startswith("port") for line in path.read_text().splitlines())
    assert load_settings(path, env=_env(tmp_path), on_pi=False).port is None


def test_save_is_atomic_and_leaves_no_temp_file(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "config.toml"
    save_settings(Settings(language="da", state_dir=tmp_path), target)
    before = target.read_text()

    def refuse(*_args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(ProfileError, match=r"config.toml: cannot write settings: No space left"):
        save_settings(Settings(language="sv", state_dir=tmp_path), target)
    assert target.read_text() == before           # the old file is intact
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config.toml"]


_one_line = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\r\0"),
    min_size=1, max_size=30,
).filter(lambda t: t.strip() != "")


@hsettings(max_examples=60, deadline=None)
@given(
    profile=_one_line,
    port=st.one_of(st.none(), _one_line),
    language=st.sampled_from(LANGUAGES),
    brightness=st.floats(min_value=0, max_value=1),
    confirm=st.sampled_from(CONFIRM_MODES),
    clock=st.sampled_from(CLOCK_MODES),
    opponent=st.sampled_from(OPPONENTS),
)
def test_any_valid_settings_survive_save_and_load(
    tmp_path_factory: pytest.TempPathFactory, profile: str, port: str | None, language: str,
    brightness: float, confirm: str, clock: str, opponent: str,
) -> None:
    folder = tmp_path_factory.mktemp("rt")
    s = Settings(profile=profile, port=port, language=language, brightness=brightness,
                 confirm=confirm, clock=clock, opponent=opponent, state_dir=folder / "state")
    path = save_settings(s, folder / "config.toml")
    assert load_settings(path, env=_env(folder), on_pi=False) == s


def test_profile_by_name_or_path(tmp_path: Path) -> None:
    profiles = tmp_path / "profiles"
    assert Settings().profile_path(profiles) == profiles / "default.toml"
    assert Settings(profile="club").profile_path(profiles) == profiles / "club.toml"
    assert Settings(profile="/etc/bgboard/profile.toml").profile_path(profiles) == Path(
        "/etc/bgboard/profile.toml")
    assert Settings(profile="mine.toml").profile_path(profiles) == Path("mine.toml")


def test_the_online_keys_read_from_a_file_and_survive_a_save(tmp_path: Path) -> None:
    """What the board menu's "Play online" reads (README "Playing online")."""
    path = _write(tmp_path / "c.toml", """
online_server = "127.0.0.1:1337"
online_match = "join"
online_points = 5
online_join = "Guest_anna"
online_match_password_file = "/etc/bgboard/match-password"
""")
    s = load_settings(path, env=_env(tmp_path), on_pi=False)
    assert (s.online_server, s.online_match, s.online_points, s.online_join, s.online_match_password_file) == \
        ("127.0.0.1:1337", "join", 5, "Guest_anna", Path("/etc/bgboard/match-password"))
    again = save_settings(s, tmp_path / "saved.toml")
    assert load_settings(again, env=_env(tmp_path), on_pi=False) == s
