"""Issue 22.15: a drop the server scores as a gammon keeps bgboard's record of the match.

bgammon's `resign` (pkg/server/server_command.go) scores `winPoints(winner) x DoubleValue`
for a declined double as for a resignation, so a player who drops while they would lose a
gammon loses a gammon at the cube's value; the rule book (and the engine) gives the cube's
value. The table takes the server's score (the server keeps the match), and now keeps its
own record: the game ends as the server scored it, and the record says so and why.
"""
from __future__ import annotations

from controller.engine.match_json import match_from_dict, match_to_dict
from controller.events import ActionRequested
from controller.online.events import Board, Win
from controller.online.perspective import board_of_position
from controller.records.from_match import record_from_match
from controller.records.mat_writer import write_mat
from tests.test_online_remote import LOCAL, ME, YOU, Table, opened, state


def _we_drop() -> tuple[Table, tuple[int, ...]]:
    """After our 8/5 6/5 the remote player doubles and we drop (the table scores 1)."""
    table = opened((3, 1))
    move = next(x for x in table.c.status().match.legal_moves() if x.notation == "8/5 6/5")
    table.hands(move.result, LOCAL)
    board = board_of_position(table.c.status().match.position, "remote")
    table.server(Board(state(board, turn=2, offered=True)))
    table.dispatch(ActionRequested(LOCAL, "drop", table.t))
    return table, board


def test_a_drop_scored_as_a_gammon_keeps_the_record_and_says_why() -> None:
    table, board = _we_drop()
    assert table.sent[-1] == "resign" and table.c.status().match.score == (0, 1)
    turns = table.c.status().match.history[0].actions
    # the server: a gammon (none of our checkers off) at the cube's value 1
    table.server(Win(YOU, 2, ME))
    table.server(Board(state(turn=0, score=(0, 2))))
    m = table.c.status().match
    assert table.remote.stopped is None, table.notes
    assert m.score == (0, 2) and m.phase == "opening"
    first, second = m.history
    assert first.actions == turns  # nothing of the game forgotten
    assert first.end is not None and first.end.how == "drop" and first.end.points == 2
    assert first.end.result == "gammon" and "the rule book gives 1" in first.end.note
    assert second.score_before == (0, 2) and not second.actions
    assert any("the server's score 0-2: the server scored the drop as a gammon" in n for n in table.notes)
    assert match_from_dict(match_to_dict(m)) == m  # saved with the note
    text = write_mat(record_from_match(m))
    assert '; [Note "Game 1: the server scored the drop as a gammon (2 points' in text
    assert "Wins 2 points" in text


def test_a_drop_the_server_scores_past_the_match_length_ends_the_match() -> None:
    table, board = _we_drop()
    table.server(Win(YOU, 3, ME))  # a backgammon: 3 points end the 3-point match
    table.server(Board(state(board, winner=2, score=(0, 3))))
    m = table.c.status().match
    assert table.remote.stopped is None and m.is_over and m.winner == "black" and m.score == (0, 3)
    assert len(m.history) == 1 and m.history[0].end is not None and m.history[0].end.result == "backgammon"


def test_a_score_no_game_end_explains_still_stops() -> None:
    table, board = _we_drop()
    table.server(Win(YOU, 1, ME))
    table.server(Board(state(turn=0, score=(1, 1))))  # a point for us from nowhere
    assert table.remote.stopped is not None and "differs" in table.remote.stopped
