"""Issue 35.1 and 35.4: games that end on the server as a real bgammon server ends them.

The lines here are the protocol double's own (tests/online_double.py), written by its game
logic to a seated client's wire, decoded as the client decodes them and given to a table
with the remote opponent (tests/test_online_remote.py's `Table`):

- a dropped double that ends the match: bgammon's `resign` sets the winner and leaves
  `DoubleOffered` on the last board, which the client refused as "DoubleOffered is not
  false outside a turn" (the match was then lost: 0-0, the state file left behind);
- a resignation in a 1-point match: the `win` event carries no points there, and the
  server scores the board (`winPoints`: a backgammon with the loser's checkers in the
  winner's home), where the table recorded a single game;
- our own resignation, which the server scores by the board whatever level was offered.
"""
from __future__ import annotations

from controller.online.events import Board, Rolled, decode_event
from controller.online.perspective import board_of_position
from controller.online.scoring import server_win_level
from controller.engine.position import Position
from controller.events import ActionRequested
from tests.online_double import BgammonDouble, Game, Wire
from tests.test_online_remote import LOCAL, ME, REMOTE, YOU, Table, _remote_turn, opened, state


def _hear(table: Table, wire: Wire) -> None:
    """Every line the double wrote to our wire, decoded and given to the table."""
    for line in wire.take():
        event = decode_event(line)
        if event is not None:
            table.server(event)


def _server_game(table: Table, points: int, turn: int) -> tuple[BgammonDouble, Game, object, object, Wire]:
    """The double's game at the table's position (we are its player 1, Guest_me)."""
    double = BgammonDouble(0)
    game = Game(1, points, board=list(board_of_position(table.c.status().match.position, "remote")))
    game.turn = turn
    ours, wire = double.seat_offline(game, ME, 1)
    theirs, _ = double.seat_offline(game, YOU, 2)
    game.allowed = {1: ME, 2: YOU}
    wire.take()
    return double, game, ours, theirs, wire


def test_a_dropped_double_that_ends_the_match_ends_it_at_the_table() -> None:
    table = opened((3, 1))
    move = next(x for x in table.c.status().match.legal_moves() if x.notation == "8/5 6/5")
    table.hands(move.result, LOCAL)
    double, game, ours, theirs, wire = _server_game(table, 3, 2)
    double._do_double(theirs, game, [])  # type: ignore[arg-type]
    _hear(table, wire)
    assert table.c.status().match.phase == "doubled"
    table.dispatch(ActionRequested(LOCAL, "drop", table.t))
    assert table.sent[-1] == "resign"
    double._do_resign(ours, game, [])  # type: ignore[arg-type]
    said = list(wire.lines)
    assert any('"DoubleOffered": true' in line and '"Winner": 2' in line for line in said), said
    _hear(table, wire)  # once refused: "DoubleOffered is not false outside a turn"
    m = table.c.status().match
    assert table.remote.stopped is None, table.notes[-3:]
    assert m.is_over and m.winner == REMOTE and m.score == (0, 3)
    end = m.history[0].end
    assert end is not None and end.how == "drop" and end.result == "backgammon"


def test_their_resignation_in_a_one_point_match_is_scored_as_the_server_scores_it() -> None:
    table = Table(state(points=1))
    table.server(Board(state(turn=1, roll=(3, 1), points=1)))
    move = next(x for x in table.c.status().match.legal_moves() if x.notation == "8/5 6/5")
    table.hands(move.result, LOCAL)
    double, game, ours, theirs, wire = _server_game(table, 1, 2)
    game.roll1, game.roll2 = 5, 2  # they rolled, then resign
    table.server(Rolled(YOU, 5, 2))
    double._do_resign(theirs, game, [])  # type: ignore[arg-type]
    _hear(table, wire)
    m = table.c.status().match
    # their two back checkers stand in our home board: bgammon's winPoints gives 3
    assert game.score[1] == 3
    assert m.is_over and m.winner == LOCAL and m.score == (3, 0), table.notes[-3:]
    assert table.remote.stopped is None


def test_our_resignation_is_scored_as_the_server_scores_it_and_the_record_kept() -> None:
    table = opened((3, 1))
    move = next(x for x in table.c.status().match.legal_moves() if x.notation == "8/5 6/5")
    table.hands(move.result, LOCAL)
    _remote_turn(table, (6, 4), "24/14")
    table.hands(table.c.status().carried_out.move.result, REMOTE)  # type: ignore[union-attr]
    turns = table.c.status().match.history[0].actions
    assert table.c.status().match.turn == LOCAL and table.c.status().match.phase == "roll"
    double, game, ours, theirs, wire = _server_game(table, 3, 1)
    table.dispatch(ActionRequested(LOCAL, "resign", table.t, "single"))
    assert table.sent[-1] == "resign"
    double._do_resign(ours, game, [])  # type: ignore[arg-type]
    _hear(table, wire)
    m = table.c.status().match
    assert table.remote.stopped is None, table.notes[-3:]
    assert m.is_over and m.score == (0, 3)  # our back checkers in their home: a backgammon
    first = m.history[0]
    assert first.actions[:len(turns)] == turns  # nothing of the game forgotten
    assert first.end is not None and first.end.result == "backgammon" and "resignation" in first.end.note


def test_the_win_level_is_read_from_the_board_as_bgammon_reads_it() -> None:
    start = board_of_position(Position.initial(), "local")
    assert server_win_level(start, 1) == "backgammon"  # their back checkers in our home
    assert server_win_level(start, 2) == "backgammon"  # and ours in theirs
    race = [0] * 28
    race[3], race[10], race[25] = 15, -14, -1  # they bore one off; none in our home
    assert server_win_level(tuple(race), 1) == "single"
    race[10], race[25] = -15, 0
    assert server_win_level(tuple(race), 1) == "gammon"
    assert server_win_level(tuple(race), 2) == "gammon"  # we bore none off, none in their home
    race[26], race[3] = 1, 14
    assert server_win_level(tuple(race), 2) == "backgammon"  # one of ours on the bar
