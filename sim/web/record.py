"""The match as `.mat` text, for the page's "Download .mat" link.

The records package owns both halves: `controller.records.from_match.record_from_match`
turns the match's history into a `MatchRecord` (White the left column), and
`controller.records.mat_writer.write_mat` lays it out as GNU Backgammon exports it.
"""
from __future__ import annotations

from controller.engine.match import Match
from controller.records.from_match import record_from_match
from controller.records.mat_writer import write_mat

TAGS = (("Event", "bgboard simulator"),)


def mat_text(match: Match, dice_tags: tuple[tuple[str, str], ...] = ()) -> str:
    """The match so far as `.mat` text (an unfinished game is written as far as played),
    with the table's `; [Dice ...]` tags (`controller.dice.TableDice.record_tags`)."""
    return write_mat(record_from_match(match, tags=TAGS + dice_tags))
