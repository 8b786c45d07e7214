"""The command line's loose ends (issue 22, item 10): `bgboard --version`; one exit code
for a file that is not a record (DESIGN.md "Command line": usage errors exit 2, as
`replay` and `analyze` do); XGIDs read and printed beside gnubg's IDs
(controller.engine.xgid, the format in its docstring)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from bgboard.cli import main
from controller.engine import Position, legal_moves, parse_dice
from controller.engine.errors import InvalidPositionError
from controller.engine.xgid import Xgid, match_xgid
from controller.engine.match import Match
from controller.engine.match_settings import MatchSettings

#: the starting position as XG writes it (money play, nobody has rolled)
START = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"
#: nackgammon's start (RULES of the variant: 2 on the 24-, 2 on the 23-, 4 on the 13-,
#: 3 on the 8- and 4 on the 6-point a side)
NACK = "XGID=-bb---D-C---dD---c-d---BB-:0:0:1:00:0:0:0:0:10"


def test_version_prints_the_package_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == "bgboard 0.1.0"


@pytest.mark.parametrize("command", ["verify-dice", "replay", "analyze"])
def test_a_file_that_is_not_a_record_is_bad_input_for_every_command(
        command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    junk = tmp_path / "notes.mat"
    junk.write_text("shopping list\n")
    assert main([command, str(junk)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a .mat match record" in err


def test_the_starting_xgid_is_the_starting_position_both_ways() -> None:
    x = Xgid.parse(START)
    assert x.position == Position.initial() and x.turn == "white"
    assert (x.cube, x.cube_owner, x.dice, x.length, x.score) == (1, "center", None, 0, (0, 0))
    assert str(x) == START
    black = Xgid.parse(START.replace(":1:00:", ":-1:00:"))
    assert black.turn == "black" and black.position == Position.initial()


def test_nackgammons_start_reads_as_its_set_up() -> None:
    x = Xgid.parse(NACK)
    want = Position.from_points({24: 2, 23: 2, 13: 4, 8: 3, 6: 4}, {24: 2, 23: 2, 13: 4, 8: 3, 6: 4})
    assert x.position == want and str(x) == NACK


def test_the_cube_score_and_dice_fields() -> None:
    x = Xgid.parse("-b----E-C---eE---c-e----B-:2:-1:1:D:3:1:1:7:10")
    assert (x.cube, x.cube_owner, x.doubled, x.score, x.crawford, x.length) == (4, "black", True, (3, 1), True, 7)
    rolled = Xgid.parse("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:5")  # no max-cube field
    assert rolled.dice == (5, 2) and rolled.max_cube == 1024


def test_a_position_with_checkers_on_the_bar_seen_by_either_side() -> None:
    # White: 1 on the bar, 6 on 24, 8 on 13; Black: 3 on its 6, 2 on its 7 and 18, 8 on its 24
    white_on_roll = Position.from_id("4AbAwD8A8A+AXw")
    x = Xgid(white_on_roll, "white")
    assert str(x).startswith("XGID=-h-----b-----H----bc----FA:")  # black bar, points 1..24, white bar
    assert Xgid.parse(str(x)).position == white_on_roll
    y = Xgid(white_on_roll.swap(), "black")
    assert str(y) == str(x).replace(":1:00:", ":-1:00:")


@pytest.mark.parametrize("text", ["XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0",   # a field short
                                  "XGID=-b----E-C---eE---c-e----B:0:0:1:00:0:0:0:0:10",  # 25 characters
                                  "XGID=-b----E-C---eE---c-e----Z-:0:0:1:00:0:0:0:0:10",  # no count
                                  "XGID=-b----E-C---eE---c-e----B-:0:0:1:77:0:0:0:0:10",  # no dice
                                  "XGID=-b----E-C---eE---c-e---BB-:0:0:1:00:0:0:0:0:10"])  # 16 white
def test_a_bad_xgid_names_what_is_wrong(text: str) -> None:
    with pytest.raises(InvalidPositionError):
        Xgid.parse(text)


def test_moves_reads_an_xgid_and_prints_one_beside_each_position_id(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", START.replace(":00:", ":31:"), "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)["moves"]
    expected = legal_moves(Position.initial(), parse_dice("31"))
    assert [m["position_id"] for m in listed] == [m.result.id for m in expected]
    eight_five = next(m for m in listed if m["notation"] == "8/5 6/5")
    # after 8/5 6/5 Black is on turn, not rolled: White 2 on 5, 4 on 6, 2 on 8
    assert eight_five["xgid"] == "XGID=-b---BD-B---eE---c-e----B-:0:0:-1:00:0:0:0:0:10"
    assert main(["moves", "4HPwATDgc/ABMA", "31", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["moves"] == listed


def test_moves_refuses_a_bad_xgid_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", "XGID=-b----E-C---eE---c-e----B-:0:0:3:00:0:0:0:0:10", "31"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert main(["moves", START]) == 2  # no dice given and none in the XGID
    assert "no DICE" in capsys.readouterr().err


def test_the_match_shows_its_xgid() -> None:
    m = Match.new(MatchSettings(length=5))
    assert match_xgid(m) == "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:5:10"
