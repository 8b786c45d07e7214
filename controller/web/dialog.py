"""The New match dialog's choices: their defaults, their checks, the match they start,
and where they are kept between sessions (the user's config directory, under what
config.toml sets itself).

They were module functions and methods of `LiveSim`; the dialog's rules are the page's
own but need no running table, so they are read and tested here on their own.
"""
from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable
from pathlib import Path

from controller.analysis.tutor import TUTOR_MARKS
from controller.bot.base import OFFERED_LEVELS, check_level, level_missing
from controller.controller import ControllerConfig
from controller.dice import DICE_MODES
from controller.engine.clock import CLOCK_MODES
from controller.engine.match import Match
from controller.engine.match_settings import CONFIRM_MODES, MatchSettings
from controller.errors import BgboardError
from controller.files import read_bounded, write_atomically
from controller.json_value import JsonObject
from controller.settings import OPPONENTS, Settings
from controller.show.texts import LANGUAGES
from controller.table import Table

log = logging.getLogger("bgboard.sim")

#: the dialog's choices before the player or config.toml makes any
DEFAULT_DIALOG = {"length": 5, "cube": "on", "crawford": "on", "clock": "off", "confirm": "auto",
                  "opponent": "human", "language": "en", "score": "0-0", "crawford_played": "auto",
                  "dice": "board", "tutor": "off"}
#: the dialog's fields config.toml also sets (controller.settings): its own values win
CONFIG_DIALOG = ("language", "confirm", "clock", "dice", "opponent", "tutor")
#: the dialog's fields that belong to one match only (not kept for the next dialog)
ONE_MATCH = ("score", "crawford_played")
DIALOG_CHOICES = {"cube": ("on", "off"), "crawford": ("on", "off"),
                  "clock": CLOCK_MODES, "confirm": CONFIRM_MODES,
                  "opponent": OPPONENTS, "language": LANGUAGES, "dice": DICE_MODES, "tutor": TUTOR_MARKS}


def offered_levels() -> list[dict[str, str | None]]:
    """Every level a player may choose, with what a missing one lacks (the dialog shows it,
    disabled, and says why)."""
    return [{"name": level, "missing": level_missing(level)} for level in OFFERED_LEVELS]


def table_dialog(settings: MatchSettings, config: ControllerConfig) -> JsonObject:
    """The dialog's choices as a table plays now (the board's page: its match's settings,
    its language and tutor), the next match starting at 0-0; what the dialog cannot offer
    (online play's remote player and server dice) is its default."""
    opponent = next((p for p in settings.players if p != "human"), "human")
    chosen = {"length": settings.length, "cube": "on" if settings.cube else "off",
              "crawford": "on" if settings.crawford else "off", "clock": settings.clock,
              "confirm": settings.confirm, "opponent": opponent, "language": config.language,
              "dice": settings.dice, "tutor": config.tutor}
    return {**DEFAULT_DIALOG, **{k: v for k, v in chosen.items()
                                 if k not in DIALOG_CHOICES or v in DIALOG_CHOICES[k]}}


def dialog_path() -> Path:
    """Where the new-match dialog's choices persist (the user's config directory)."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "bgboard" / "simulator.json"


def check_dialog(data: object) -> JsonObject:
    """The dialog's settings checked and completed; ValueError names the bad field."""
    if not isinstance(data, dict):
        raise ValueError(f"the settings are {type(data).__name__}, not an object")
    out = dict(DEFAULT_DIALOG)
    for key, value in data.items():
        if key == "length":
            try:
                if isinstance(value, bool | list | dict):
                    raise TypeError
                length = int(value)
            except (TypeError, ValueError, OverflowError):
                raise ValueError(f"match length {str(value)[:20]!r} is not a number") from None
            if not 1 <= length <= 99:
                raise ValueError(f"match length {length} is out of range (1-99)")
            out["length"] = length
        elif key in ONE_MATCH:
            out[key] = str(value).strip() or DEFAULT_DIALOG[key]
        elif key in DIALOG_CHOICES:
            if value not in DIALOG_CHOICES[key]:
                raise ValueError(f"{key} {value!r}: choose {', '.join(DIALOG_CHOICES[key])}")
            out[key] = value
        else:
            raise ValueError(f"unknown setting {key!r}")
    dialog_match(out)  # the score, the Crawford game and the length together
    return out


def dialog_match(d: JsonObject) -> Match:
    """The match the dialog's settings start (``Match.from_score``); ValueError naming the
    problem (an engine error) when the score or the Crawford answer cannot be."""
    from controller.engine.match_start import parse_crawford_played, parse_score

    length = d["length"]
    if isinstance(length, bool) or not isinstance(length, int | str):
        raise ValueError(f"match length {str(length)[:20]!r} is not a number")
    settings = MatchSettings(length=int(length), cube=d["cube"] == "on", crawford=d["crawford"] == "on",
                             confirm=str(d["confirm"]), clock=str(d["clock"]), dice=str(d.get("dice", "board")),
                             black_player=str(d["opponent"]))  # the computer plays Black (RULES.md); a rematch swaps
    return Match.from_score(settings, parse_score(str(d["score"])), parse_crawford_played(str(d["crawford_played"])))


def dialog_config(d: JsonObject, settle_s: float) -> ControllerConfig:
    """The controller's settings the dialog chose (its language and tutor)."""
    return ControllerConfig(language=str(d["language"]), settle_s=settle_s, tutor=str(d["tutor"]))


def remember(path: Path, dialog: JsonObject) -> OSError | None:
    """`save_dialog`, or why it could not (a read-only settings folder: the choice still
    counts, it is only not remembered)."""
    try:
        save_dialog(path, dialog)
    except OSError as exc:
        return exc
    return None


def new_match_choice(data: JsonObject) -> tuple[JsonObject, Match]:
    """The dialog's New match form checked (a level that is not installed is one line, as
    the bad field's ValueError is) and the match it starts; the settings returned are the
    next dialog's, which starts again at 0-0."""
    settings = check_dialog(data)
    if settings["opponent"] != "human":
        check_level(str(settings["opponent"]))  # not installed: one line, nothing changes
    match = dialog_match(settings)
    return {**settings, **{k: DEFAULT_DIALOG[k] for k in ONE_MATCH}}, match


def load_dialog(path: Path, settings: Callable[[], Settings]) -> JsonObject:
    """The dialog's choices: the page's last ones (saved), under what config.toml sets
    itself (a value other than the built-in default: `opponent = "expert"` is meant)."""
    try:
        saved = check_dialog(json.loads(read_bounded(path)))
    except FileNotFoundError:
        saved = dict(DEFAULT_DIALOG)
    except (OSError, ValueError, RecursionError) as exc:
        print(f"bgboard sim: ignoring {path}: {str(exc)[:120]}")
        saved = dict(DEFAULT_DIALOG)
    try:
        config = settings()
    except BgboardError as exc:
        print(f"bgboard sim: ignoring the settings: {str(exc)[:120]}")
        return saved
    built_in = Settings()
    chosen = {k: getattr(config, k) for k in CONFIG_DIALOG if getattr(config, k) != getattr(built_in, k)}
    try:
        return check_dialog({**saved, **chosen})
    except ValueError as exc:
        print(f"bgboard sim: ignoring the settings: {str(exc)[:120]}")
        return saved


def save_dialog(path: Path, dialog: JsonObject) -> None:
    """Keep the dialog's choices for the next session (not those of one match only),
    written whole or not at all."""
    write_atomically(path, json.dumps({k: v for k, v in dialog.items() if k not in ONE_MATCH}))


class SavedDialog:
    """The dialog's choices kept in a file between sessions (the simulator's page): loaded
    under config.toml's own values (`load_dialog`), and every choice made on the page, a new
    match's or a language or tutor in the middle of one, kept again; a settings folder that
    cannot be written is one log line (the choice counts, it is only not remembered)."""

    def __init__(self, path: Path, settings: Callable[[], Settings]) -> None:
        self.path = path
        self.choices: JsonObject = load_dialog(path, settings)

    def settings(self) -> JsonObject:
        return dict(self.choices)

    def remember(self, chosen: JsonObject) -> None:
        self.choices = {**self.choices, **chosen}
        problem = remember(self.path, self.choices)
        if problem is not None:
            log.warning("the match's settings are not remembered: %s", problem.strerror or problem)


class TableDialog:
    """The dialog's choices as `table` plays now (the board's page, `table_dialog`): the
    table's match and its kept choices are the next dialog's, so nothing else is kept."""

    def __init__(self, table: Table) -> None:
        self._table = table

    def settings(self) -> JsonObject:
        status = self._table.controller.status()
        return table_dialog(status.match.settings, status.config)

    def remember(self, chosen: JsonObject) -> None:
        pass  # the table keeps its language and tutor itself (controller/table/choices.py)
