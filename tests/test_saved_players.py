"""Who plays which colour survives a restart, also from a save written before the match
carried it (RULES.md: the computer plays Black; a rematch swaps the colours)."""
from __future__ import annotations

import json
from pathlib import Path

from controller.board.profile import load_profile
from controller.engine.match import Match
from controller.engine.match_settings import MatchSettings
from controller.records import saved
from controller.table import BackendChoice, open_table


def _open(state_dir: Path, new_match: MatchSettings):  # type: ignore[no-untyped-def]
    clock = iter(x / 10 for x in range(100, 1000))
    return open_table(load_profile(), BackendChoice(port="/dev/null", pins="none", state_dir=state_dir),
                      clock=lambda: next(clock), new_match=lambda: Match.new(new_match), bots=None)


def _write_old_save(state_dir: Path, match: Match) -> None:
    """A save as the first version wrote it: the settings without the players."""
    saved.save_match(state_dir, match)
    path = saved.MatchStore(state_dir).path
    doc = json.loads(path.read_text())
    del doc["match"]["settings"]["white_player"], doc["match"]["settings"]["black_player"]
    doc["sha256"] = saved._digest(doc["match"])
    path.write_text(json.dumps(doc))


def test_a_save_from_before_the_players_were_saved_keeps_the_computer_on_black(tmp_path: Path) -> None:
    played = Match.new(MatchSettings(length=5, white="Ann", black="gnubg"))
    _write_old_save(tmp_path, played)
    with _open(tmp_path, MatchSettings(length=7, black_player="simple")) as table:
        m = table.controller.status().match
        assert "resumed the saved match" in table.log_lines
        assert (m.settings.length, m.settings.white) == (5, "Ann")  # the saved match, not a new one
        assert m.settings.players == ("human", "simple")


def test_a_saved_rematch_keeps_its_swapped_players(tmp_path: Path) -> None:
    swapped = MatchSettings(length=3, white_player="simple", black_player="human")
    saved.save_match(tmp_path, Match.new(swapped))
    with _open(tmp_path, MatchSettings(length=7, black_player="simple")) as table:
        assert table.controller.status().match.settings.players == ("simple", "human")
