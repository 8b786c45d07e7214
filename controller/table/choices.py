"""The language and the tutor chosen at the table, kept across a restart.

A player who picks the language or the tutor on the board's page (its own choices, or its
New match dialog) expects the choice to hold after the Pi restarts, as the match does
("nothing that was confirmed is ever lost"). They are kept beside the saved match, in the
state directory (`choices.json`): the table writes there already and owns it, whereas
config.toml is the owner's hand-written file (/etc/bgboard on a Pi, not the service's to
rewrite, and its comments would not survive a rewrite).

Which wins at start-up: the table's choice, over the value config.toml (or the front end)
gives, as long as that value is still the one the choice was made over (the file records
it); a setting edited in config.toml since is the newer decision and wins (and the file
is brought to it). Compared by value, not by file times: a Pi has no real-time clock, and
its clock jumps when the network sets it.

A file that cannot be read or makes no sense is one warning line, and the table plays
with config.toml's values (the file is left as it is until the next choice replaces it);
one that cannot be written is one warning line (the choice holds until the restart, it is
only not kept). Neither stops the table.
"""
from __future__ import annotations

import json
import logging
from dataclasses import replace
from pathlib import Path

from controller.analysis.tutor import TUTOR_MARKS
from controller.files import read_bounded, write_atomically
from controller.play.table_state import ControllerConfig
from controller.show.texts import LANGUAGES

log = logging.getLogger("bgboard")

CHOICES_FILE = "choices.json"
#: what is kept, and the values each may take
KEPT: dict[str, tuple[str, ...]] = {"language": LANGUAGES, "tutor": TUTOR_MARKS}

Chosen = dict[str, str]


def _fields(config: ControllerConfig) -> Chosen:
    return {"language": config.language, "tutor": config.tutor}


def _parse(raw: bytes) -> tuple[Chosen, Chosen]:
    """The choices and the values they were made over; ValueError saying what is wrong."""
    doc = json.loads(raw)
    over = doc.get("config") if isinstance(doc, dict) else None
    if not isinstance(doc, dict) or not isinstance(over, dict):
        raise ValueError("not an object with the choices and the settings they were made over")
    for key, allowed in KEPT.items():
        if doc.get(key) not in allowed:
            raise ValueError(f"{key} {str(doc.get(key))[:20]!r} is not one of {', '.join(allowed)}")
        if not isinstance(over.get(key), str):
            raise ValueError(f"the {key} it was chosen over is missing")
    return {k: doc[k] for k in KEPT}, {k: over[k] for k in KEPT}


class TableChoices:
    """One table's kept choices in `state_dir` (see the module docstring); `config` is
    what config.toml (or the front end) gives, the lower priority."""

    def __init__(self, state_dir: Path, config: ControllerConfig) -> None:
        self.path = state_dir / CHOICES_FILE
        self.given = _fields(config)
        self._in_effect = dict(self.given)
        #: the one line said when the file could not be used (None: it could, or none yet)
        self.problem: str | None = None

    def resolve(self, config: ControllerConfig) -> ControllerConfig:
        """`config` with the kept choices that still apply (see the module docstring)."""
        try:
            chosen, over = _parse(read_bounded(self.path))
        except FileNotFoundError:
            return config
        except (OSError, ValueError, RecursionError) as exc:  # JSONDecodeError is a ValueError
            self.problem = f"ignoring the table's kept choices {self.path}: {str(exc)[:120]}; using the settings'"
            log.warning("%s", self.problem)
            return config
        kept = {k: chosen[k] if over[k] == self.given[k] else self.given[k] for k in KEPT}
        self._in_effect = kept
        if kept != chosen:  # config.toml changed since: the file follows it
            self._write(kept)
        return replace(config, language=kept["language"], tutor=kept["tutor"])

    def keep(self, config: ControllerConfig) -> None:
        """Keep the table's language and tutor if a choice changed them (after each event:
        comparing two strings is all it costs when nothing changed)."""
        now = _fields(config)
        if now != self._in_effect:
            self._in_effect = now
            self._write(now)

    def _write(self, chosen: Chosen) -> None:
        """Written whole or not at all (a power cut leaves the old file or the new one)."""
        try:
            write_atomically(self.path, json.dumps({**chosen, "config": self.given}))
        except OSError as exc:
            log.warning("cannot keep the table's choices in %s: %s; they hold until the restart",
                        self.path, exc.strerror or exc)
