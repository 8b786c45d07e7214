"""The match as `.mat` text, for the page's "Download .mat" link (and the scenario runner's
`--record`).

The records package owns both halves: `controller.records.from_match.record_from_match`
turns the match's history into a `MatchRecord` (White the left column), and
`controller.records.mat_writer.write_mat` lays it out as GNU Backgammon exports it. Here
the record gets its players' real names (a computer level by its own name, `gnubg` or
`simple`, rather than "Black"), the date and time it was written, and a file name that
says both (`White-vs-gnubg-2026-12-01-1005.mat`).
"""
from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime

from controller.dice import DiceState
from controller.play.status import DiceView
from controller.engine.match import Match
from controller.table import Table
from controller.table.seating import Seating
from controller.records.from_match import record_from_match
from controller.records.mat_writer import write_mat

TAGS = (("Event", "bgboard simulator"),)
FALLBACK_NAME = "bgboard-match.mat"
_TAG = re.compile(r'^; \[(Player 1|Player 2|EventDate|EventTime) "(.*)"\]$', re.MULTILINE)
_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")


def player_names(match: Match) -> tuple[str, str]:
    """Who played each colour (`MatchSettings.player_name`): a computer level by its name,
    a person by the match's name for that colour."""
    return (match.settings.player_name("white"), match.settings.player_name("black"))


def dice_record(match: Match, dice: DiceState | DiceView, when: datetime | None = None) -> str:
    """`match` as `.mat` text with the tags of the dice it is rolled with and its players'
    names: the page's download and the spectators' (dated `when`), the runner's `--record`."""
    return mat_text(match, dice.record_tags(), players=player_names(match), when=when)


def table_record(table: Table, aside: Seating | None = None) -> str:
    """The table's match so far as `.mat` text, dated now (the page's Download .mat); with
    `aside`, the match set aside (a practice's or a watched match's table keeps it there)
    with its own dice."""
    if aside is not None:
        return dice_record(aside.match, aside.dice, datetime.now())
    status = table.controller.status()
    return dice_record(status.match, status.dice, datetime.now())


def mat_text(match: Match, dice_tags: tuple[tuple[str, str], ...] = (),
             players: tuple[str, str] | None = None, when: datetime | None = None) -> str:
    """The match so far as `.mat` text (an unfinished game is written as far as played),
    with the table's `; [Dice ...]` tags (`controller.dice.DiceState.record_tags`), the
    players' names (default: the match's) and, given `when`, Studio's `EventDate` and
    `EventTime` tags."""
    dated = () if when is None else (("EventDate", when.strftime("%Y.%m.%d")), ("EventTime", when.strftime("%H.%M")))
    record = record_from_match(match, tags=TAGS + dated + dice_tags)
    if players is not None:
        record = replace(record, players=players)
    return write_mat(record)


def record_filename(text: str) -> str:
    """The download's file name, from the record's own tags: who played and when."""
    tags = dict(_TAG.findall(text))
    names = [_UNSAFE.sub("_", tags.get(k, "")).strip("_.") for k in ("Player 1", "Player 2")]
    if not all(names):
        return FALLBACK_NAME
    when = [t.replace(".", "-") if k == "EventDate" else t.replace(".", "")
            for k, t in (("EventDate", tags.get("EventDate", "")), ("EventTime", tags.get("EventTime", ""))) if t]
    return "-".join([names[0], "vs", names[1], *when]) + ".mat"
