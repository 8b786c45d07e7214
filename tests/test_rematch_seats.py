"""Who plays which colour is a fact of the match (RULES.md "Match": "After a match either
player may offer a rematch; it starts when the other accepts, and the colours swap").

Against the computer a rematch once kept the computer on Black, because who plays each
colour came from the table's settings; now the match carries it, so the computer's seat,
the names, the records, the page and a resumed save all follow the swap. A rematch is a
new match: the score is 0-0 and the opening roll decides who starts ("Who starts").
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from controller.board.reconcile import BoardState
from controller.controller import Controller
from controller.dice import DiceState
from controller.engine.board_view import cell_counts
from controller.engine.match import Match
from controller.engine.match_json import match_from_dict, match_to_dict
from controller.engine.match_settings import MatchSettings
from controller.engine.position import Position
from controller.events import ActionRequested, AskBot, ReadingReceived, RollQueued, Tick
from controller.records.store import TableStore
from controller.table import Table, make_bot
from controller.table.computer import ComputerSeat
from controller.web.page_facts import page_facts
from controller.web.record import mat_text, player_names

REPO = Path(__file__).resolve().parents[1]
START = BoardState.of(cell_counts(Position.initial(), "white"))


def _table(match: Match, dice: DiceState) -> Table:
    table = Table(Controller(match, dice=dice), computers=ComputerSeat(make_bot), clock=lambda: 0.0)
    _board_stands(table, 0.0)
    return table


def _board_stands(table: Table, at: float) -> None:
    """The board read as it stands (the starting position), then settled."""
    table.dispatch(ReadingReceived(START, at))
    table.dispatch(Tick(at + 0.5))


def _rematch_after_the_person_forfeits(dice: DiceState) -> Table:
    """The person (White) against the computer (Black) gives up a 1-point match and offers
    a rematch; the computer accepts (its default)."""
    table = _table(Match.new(MatchSettings(length=1, black_player="simple")), dice)
    table.dispatch(ActionRequested("white", "forfeit", 1.0))
    assert table.controller.status().match.winner == "black"
    table.dispatch(ActionRequested("white", "rematch", 2.0))
    _board_stands(table, 3.0)
    return table


def test_the_settings_of_a_rematch_swap_who_plays_each_colour() -> None:
    s = MatchSettings(black_player="gnubg", white="Ann", black="Bo").swapped()
    assert (s.white_player, s.black_player) == ("gnubg", "human")
    assert (s.white, s.black) == ("Bo", "Ann")
    assert s.is_computer("white") and not s.is_computer("black")
    assert (s.player_name("white"), s.player_name("black")) == ("gnubg", "Ann")
    plain = MatchSettings(black="Bo").swapped()  # a name nobody gave stays with its colour
    assert (plain.white, plain.black) == ("Bo", "Black")
    assert MatchSettings().swapped().swapped() == MatchSettings()


def test_after_a_rematch_the_computer_plays_white_from_a_fresh_match() -> None:
    dice = DiceState()
    table = _rematch_after_the_person_forfeits(dice)
    status = table.controller.status()
    m = status.match
    assert m.settings.players == ("simple", "human")
    assert m.phase == "opening" and m.score == (0, 0) and m.game == 1  # a new match: 0-0, opening roll
    assert any(line.startswith("rematch: simple now plays white") for line in table.log_lines)
    # the person, now Black, rolls the opening roll for both; White's 6 beats Black's 1
    table.dispatch(RollQueued((6, 1), 4.0))
    effects = table.dispatch(ActionRequested("black", "roll", 4.0))
    assert any(isinstance(e, AskBot) and e.side == "white" and e.kind == "move" for e in effects)
    status = table.controller.status()
    assert status.carried_out is not None and status.carried_out.side == "white"  # the computer's move, shown
    assert not [a for a in status.actions if a.side == "white"]  # none of the computer's actions offered
    table.dispatch(ActionRequested("white", "double", 5.0))
    assert "rejected: white is played by the computer" in table.log_lines


def test_the_page_and_the_record_name_the_players_after_the_swap() -> None:
    table = _rematch_after_the_person_forfeits(DiceState())
    status = table.controller.status()
    assert page_facts(status, "en")["players"] == {"white": "simple", "black": "human"}
    # the person, whom nobody named, now plays Black and is called so (issue 35.14: the
    # record named the Black player "White": `simple-vs-White-...mat`, [Player 2 "White"])
    assert player_names(status.match) == ("simple", "Black")
    text = mat_text(status.match, players=player_names(status.match))
    assert '; [Player 1 "simple"]' in text and '; [Player 2 "Black"]' in text


def test_a_saved_rematch_resumes_with_the_computer_still_on_white(tmp_path: Path) -> None:
    table = _rematch_after_the_person_forfeits(DiceState())
    m = table.controller.status().match
    assert match_from_dict(json.loads(json.dumps(match_to_dict(m)))).settings.players == ("simple", "human")
    store = TableStore(tmp_path)
    assert store.save(m, now=5.0)
    found = TableStore(tmp_path).resume(6.0)
    assert found is not None
    resumed, resumed_dice = found
    resumed_dice = resumed_dice.push((6, 1))
    again = _table(resumed, resumed_dice)
    effects = again.dispatch(ActionRequested("black", "roll", 7.0))
    assert any(isinstance(e, AskBot) and e.side == "white" for e in effects)


def test_a_save_from_before_players_were_kept_resumes_as_two_people() -> None:
    data = match_to_dict(Match.new(MatchSettings(length=3)))
    for key in ("white_player", "black_player"):
        del data["settings"][key]
    assert match_from_dict(data).settings.players == ("human", "human")


def test_a_script_rematch_against_the_computer_gives_it_white(tmp_path: Path) -> None:
    """The whole stack (virtual board, pty, table): after the rematch the computer, now
    White, wins the opening roll and the display asks the person to carry out its move."""
    script = tmp_path / "rematch.txt"
    script.write_text("match length=1 opponent=simple\nwhite forfeit\nwhite rematch\nsetup\n"
                      "dice 6 1\nblack roll\n")
    proc = subprocess.run([sys.executable, "-m", "bgboard.cli", "sim", "--headless", "--script", str(script)],
                          capture_output=True, text=True, timeout=120, cwd=REPO)
    assert proc.returncode == 0, proc.stderr
    last = json.loads(proc.stdout.splitlines()[-1])
    assert last["match"]["turn"] == "white" and last["match"]["score"] == {"white": 0, "black": 0}
    assert "The computer starts with 6-1: play 13/7 8/7" in last["display"]["lines"], last["display"]
    assert "bot-from" in last["leds"].values()
