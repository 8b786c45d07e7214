"""The remote opponent between the server's events and a real controller (no network).

Server states are written as the server sends them to us (bgammon's sendBoard: we are
player 1, our checkers positive); the table's hands are readings of the board the person
has set, as the sensor board would report them. Covers the remote player's move shown and
counted when carried out, an illegal move from the server refused, our turn sent as steps
and `ok` (after a `reset`), the cube both ways, resignations, chat, and a refusal while the
opponent is away sent again when they are back.
"""
from __future__ import annotations

from dataclasses import replace

from controller.board.reconcile import BoardState
from controller.controller import Controller
from controller.dice import DiceState
from controller.engine.match_settings import MatchSettings
from controller.engine.position import Position
from controller.events import ActionRequested, AdoptMatch, ReadingReceived, Tick
from controller.online.events import (Board, Failed, GameState, Joined, PlayerInfo, Rolled, Say,
                                      Win)
from controller.online.perspective import board_of_position
from controller.online.remote import LOCAL, REMOTE, RemoteOpponent, match_from_state
from controller.play.showing import phase_prompt

ME, YOU = "Guest_me", "Guest_you"
START = board_of_position(Position.initial(), "local")


def state(board: tuple[int, ...] = START, *, turn: int = 0, roll: tuple[int, int] = (0, 0),
          points: int = 3, dv: int = 1, dp: int = 0, offered: bool = False, winner: int = 0,
          score: tuple[int, int] = (0, 0), moves: tuple[tuple[int, int], ...] = ()) -> GameState:
    return GameState(PlayerInfo(1, ME, score[0]), PlayerInfo(2, YOU, score[1]), 0, board, turn,
                     roll[0], roll[1], moves, winner, points, 0, dv, dp, offered, 1, (), False)


class Table:
    """A controller, the remote opponent and a person's hands (readings of the board)."""

    def __init__(self, first: GameState) -> None:
        self.dice = DiceState(mode="server")
        match = match_from_state(first, MatchSettings(black_player="remote"))
        self.c = Controller(match, dice=self.dice, now=0.0)
        self.remote = RemoteOpponent(ME, first)
        self.t = 0.0
        self.sent: list[str] = []
        self.notes: list[str] = []
        self.hands(match.partial, match.turn or LOCAL)

    def hands(self, position: Position, mover: str) -> None:
        """The person sets the board to `position` (seen by `mover`); it settles."""
        self.t += 1
        self.dispatch(ReadingReceived(BoardState.of_position(position, mover), self.t))  # type: ignore[arg-type]
        self.t += 1
        self.dispatch(Tick(self.t))

    def dispatch(self, event: object) -> None:
        self.c.handle(event)  # type: ignore[arg-type]
        self.pump()

    def pump(self) -> None:
        for _ in range(10):
            out = self.remote.pump(self.c.status())
            self.sent += out.commands
            self.notes += out.notes
            if out.adopt is not None:
                self.c.handle(AdoptMatch(out.adopt, self.t))
            for event in out.events:
                self.c.handle(event)  # type: ignore[arg-type]
            if not (out.events or out.commands or out.adopt):
                return

    def server(self, event: object) -> None:
        out = self.remote.on_server(event)  # type: ignore[arg-type]
        self.sent += out.commands
        self.notes += out.notes
        self.pump()


def opened(first_roll: tuple[int, int] = (3, 1), starter: int = 1) -> Table:
    """A table after the opening roll (we start with 3-1 unless `starter` is 2)."""
    table = Table(state())
    table.server(Board(state(turn=starter, roll=first_roll)))
    return table


def test_the_opening_roll_comes_from_the_server() -> None:
    table = opened((3, 1))
    m = table.c.status().match
    assert m.phase == "move" and m.turn == LOCAL and m.dice == (3, 1)


def test_our_move_is_sent_as_steps_then_ok_after_a_reset() -> None:
    table = opened((3, 1))
    m = table.c.status().match
    move = next(x for x in m.legal_moves() if x.notation == "8/5 6/5")
    table.hands(move.result, LOCAL)
    assert table.c.status().match.turn == REMOTE
    assert table.sent[-4:] == ["reset", "move 8/5", "move 6/5", "ok"]


def _remote_turn(table: Table, dice: tuple[int, int], notation: str) -> GameState:
    """The remote player rolls and plays `notation`; returns the server's board after it."""
    m = table.c.status().match
    assert m.turn == REMOTE
    table.server(Rolled(YOU, *dice))  # after our `ok` the server rolls for them...
    table.server(Board(state(board_of_position(m.position, "remote"), turn=2, roll=dice)))  # ...and shows it
    m = table.c.status().match
    assert m.phase == "move" and m.dice == dice
    move = next(x for x in m.legal_moves() if x.notation == notation)
    board = board_of_position(move.result, "remote")
    table.server(Board(state(board, turn=2, roll=dice)))
    table.server(Board(state(board, turn=1)))  # their `ok`: our turn (we may double)
    return state(board, turn=1)


def test_the_remote_move_is_shown_then_counts_when_carried_out() -> None:
    table = opened((3, 1))
    move = next(x for x in table.c.status().match.legal_moves() if x.notation == "8/5 6/5")
    table.hands(move.result, LOCAL)
    _remote_turn(table, (6, 4), "24/14")
    c = table.c
    assert c.status().carried_out is not None and c.status().carried_out.move.notation == "24/14"
    assert phase_prompt(c.state) is not None and phase_prompt(c.state).key == "remote_move"  # type: ignore[union-attr]
    assert c.status().match.turn == REMOTE  # not counted before the hands carried it out
    table.hands(c.status().carried_out.move.result, REMOTE)
    assert c.status().match.turn == LOCAL and c.status().match.phase == "roll"
    assert table.remote.compared == 1  # our turn's position was compared with the server's


def test_an_illegal_move_from_the_server_is_refused_and_the_server_state_adopted() -> None:
    table = opened((3, 1))
    move = next(x for x in table.c.status().match.legal_moves() if x.notation == "8/5 6/5")
    table.hands(move.result, LOCAL)
    before = board_of_position(table.c.status().match.position, "remote")
    table.server(Rolled(YOU, 6, 4))
    table.server(Board(state(before, turn=2, roll=(6, 4))))
    # the server claims the remote player moved 24/13: eleven pips with a 6-4
    bogus = list(before)
    bogus[1] += 1   # their 24 is our space 1 (their checkers are negative)
    bogus[12] -= 1  # their 13 is our space 12
    table.server(Board(state(tuple(bogus), turn=2, roll=(6, 4))))
    table.server(Board(state(tuple(bogus), turn=1)))
    assert table.remote.refused == 1
    assert table.remote.stopped is not None and "no legal 6-4 move" in table.remote.stopped
    assert table.c.status().carried_out is None  # nothing to carry out
    assert table.sent[-1] == "board"  # asked for the truth
    table.server(Board(state(tuple(bogus), turn=1)))
    c = table.c
    assert c.status().setting_up and c.status().match.phase == "roll" and c.status().match.turn == LOCAL
    assert board_of_position(c.status().match.position, "local") == tuple(bogus)
    assert table.remote.stopped is None  # play goes on from the server's position


def test_our_double_their_take_and_drop() -> None:
    table = opened((3, 1))
    move = next(x for x in table.c.status().match.legal_moves() if x.notation == "8/5 6/5")
    table.hands(move.result, LOCAL)
    board = _remote_turn(table, (6, 4), "24/14").board
    table.hands(table.c.status().carried_out.move.result, REMOTE)  # type: ignore[union-attr]
    table.dispatch(ActionRequested(LOCAL, "double", table.t))
    assert table.sent[-1] == "double" and table.c.status().match.phase == "doubled"
    table.server(Board(state(board, turn=1, offered=True)))
    table.server(Board(state(board, turn=1, dv=2, dp=2)))  # they took
    m = table.c.status().match
    assert m.phase == "roll" and m.cube == 2 and m.cube_owner == REMOTE
    # our roll: the server's dice
    table.dispatch(ActionRequested(LOCAL, "roll", table.t))
    assert table.sent[-1] == "roll"
    table.server(Rolled(ME, 2, 1))
    assert table.c.status().match.phase == "move" and table.c.status().match.dice == (2, 1)


def test_their_double_our_drop_ends_the_game() -> None:
    table = opened((3, 1))
    move = next(x for x in table.c.status().match.legal_moves() if x.notation == "8/5 6/5")
    table.hands(move.result, LOCAL)
    board = board_of_position(table.c.status().match.position, "remote")
    table.server(Board(state(board, turn=2, offered=True)))
    assert table.c.status().match.phase == "doubled"
    table.dispatch(ActionRequested(LOCAL, "drop", table.t))
    assert table.sent[-1] == "resign"
    assert table.c.status().match.score == (0, 1)
    table.server(Win(YOU, 1, ME))
    table.server(Board(state(turn=0, score=(0, 1))))
    assert table.remote.stopped is None


def test_their_resignation_and_ours() -> None:
    table = opened((3, 1))
    move = next(x for x in table.c.status().match.legal_moves() if x.notation == "8/5 6/5")
    table.hands(move.result, LOCAL)
    table.server(Win(ME, 2, YOU))  # they resigned before rolling: a gammon, cube 1
    table.server(Board(state(turn=0, score=(2, 0))))
    m = table.c.status().match
    assert m.score == (2, 0) and m.phase == "opening"
    assert table.remote.stopped is None


def test_chat_is_kept_for_the_page() -> None:
    table = opened()
    table.server(Say(YOU, "good luck"))
    assert table.remote.chat == [f"{YOU}: good luck"]


def test_a_refusal_while_the_opponent_is_away_is_sent_again_when_they_are_back() -> None:
    table = opened((3, 1))
    move = next(x for x in table.c.status().match.legal_moves() if x.notation == "8/5 6/5")
    table.hands(move.result, LOCAL)
    batch = table.sent[-4:]
    table.server(Failed("move", "You may not move until your opponent rejoins the match."))
    assert table.remote.stopped is None
    table.server(Joined(YOU, 1, 2))
    assert table.sent[-4:] == batch


def test_a_server_score_that_differs_stops_and_adopts() -> None:
    table = opened((3, 1))
    move = next(x for x in table.c.status().match.legal_moves() if x.notation == "8/5 6/5")
    table.hands(move.result, LOCAL)
    table.server(Win(ME, 1, YOU))
    table.server(Board(state(turn=0, score=(2, 0))))  # the server scored 2, we scored 1
    assert table.remote.stopped is not None and "score" in table.remote.stopped
    table.server(Board(state(turn=0, score=(2, 0))))
    assert table.c.status().match.score == (2, 0) and table.c.status().setting_up


def test_match_from_state_reads_the_cube_crawford_and_turn() -> None:
    s = replace(state(turn=2, roll=(0, 0), dv=4, dp=1, score=(2, 1), points=5), crawford=1)
    m = match_from_state(s, MatchSettings())
    assert (m.phase, m.turn, m.cube, m.cube_owner, m.score, m.crawford, m.length) == \
        ("roll", REMOTE, 4, LOCAL, (2, 1), True, 5)


def test_their_double_and_our_take() -> None:
    table = opened((3, 1))
    move = next(x for x in table.c.status().match.legal_moves() if x.notation == "8/5 6/5")
    table.hands(move.result, LOCAL)
    board = board_of_position(table.c.status().match.position, "remote")
    table.server(Board(state(board, turn=2, offered=True)))
    table.dispatch(ActionRequested(LOCAL, "take", table.t))
    assert table.sent[-1] == "ok"
    m = table.c.status().match
    assert m.phase == "roll" and m.turn == REMOTE and m.cube == 2 and m.cube_owner == LOCAL
    table.server(Board(state(board, turn=2, dv=2, dp=1)))
    table.server(Rolled(YOU, 4, 2))
    assert table.c.status().match.phase == "move" and table.c.status().match.dice == (4, 2)


def _match_lost_by_resigning() -> Table:
    """They start 3-1; at the start of our turn we resign a backgammon: 0-3, match over."""
    table = Table(state())
    table.server(Board(state(turn=2, roll=(3, 1))))
    m = table.c.status().match
    move = next(x for x in m.legal_moves() if x.notation == "8/5 6/5")
    board = board_of_position(move.result, "remote")
    table.server(Board(state(board, turn=2, roll=(3, 1))))
    table.server(Board(state(board, turn=1)))
    table.hands(table.c.status().carried_out.move.result, REMOTE)  # type: ignore[union-attr]
    table.dispatch(ActionRequested(LOCAL, "resign", table.t, "backgammon"))
    assert table.sent[-1] == "resign"
    table.server(Win(YOU, 3, ME))
    table.server(Board(state(board, turn=1, winner=2, score=(0, 3))))
    assert table.c.status().match.is_over and table.c.status().match.winner == REMOTE
    assert table.remote.stopped is None
    return table


def test_a_rematch_they_offer_and_we_accept() -> None:
    from controller.online.events import Notice
    from controller.online.remote import REMATCH_NOTICE

    table = _match_lost_by_resigning()
    table.server(Notice(REMATCH_NOTICE))
    assert table.c.status().match.rematch_offer == REMOTE
    table.dispatch(ActionRequested(LOCAL, "accept", table.t))
    assert table.sent[-1] == "rematch"
    assert table.c.status().match.phase == "opening" and table.c.status().match.score == (0, 0)


def test_a_rematch_we_offer_and_they_accept() -> None:
    table = _match_lost_by_resigning()
    table.dispatch(ActionRequested(LOCAL, "rematch", table.t))
    assert table.sent[-1] == "rematch"
    assert table.c.status().match.rematch_offer == LOCAL
    table.server(Board(state()))  # they accepted: the server starts the new match
    assert table.c.status().match.phase == "opening" and not table.c.status().match.is_over
    assert table.sent.count("rematch") == 1


def test_our_double_waits_until_the_server_has_passed_their_dance() -> None:
    # they have a checker on the bar against our closed board: any roll dances; the engine
    # passes at once, the server waits for their `ok`; our double must wait for it too
    closed = Position.from_points({1: 3, 2: 3, 3: 3, 4: 3, 5: 2, 25: 1},
                                  {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 8: 3})
    board = board_of_position(closed, "remote")
    table = Table(state(board, turn=2))
    table.server(Rolled(YOU, 6, 5))
    m = table.c.status().match
    assert m.phase == "roll" and m.turn == LOCAL  # the engine passed their dance already
    table.dispatch(ActionRequested(LOCAL, "double", table.t))
    assert table.c.status().match.phase == "doubled"
    assert "double" not in table.sent  # the server still waits for their `ok`
    table.server(Board(state(board, turn=2, roll=(6, 5))))
    assert "double" not in table.sent
    table.server(Board(state(board, turn=1)))  # their `ok`: our turn, not rolled
    assert table.sent[-1] == "double"


def test_our_opening_die_is_rolled_once() -> None:
    table = Table(state())
    table.dispatch(ActionRequested(LOCAL, "roll", table.t))
    assert table.sent == ["roll"]
    table.server(Rolled(ME, 4, 0))  # our die; no board until theirs is rolled too
    table.dispatch(ActionRequested(LOCAL, "roll", table.t))  # pressed again meanwhile
    assert table.sent == ["roll"]
    table.server(Board(state(turn=1, roll=(4, 2))))
    assert table.c.status().match.phase == "move" and table.c.status().match.dice == (4, 2)


def test_an_adopted_position_the_board_already_shows_is_set_up_at_once() -> None:
    table = opened((3, 1))
    c = table.c
    assert not c.status().setting_up
    same = match_from_state(state(turn=1, roll=(3, 1)), MatchSettings())
    c.handle(AdoptMatch(same, table.t))
    assert not c.status().setting_up  # nothing to set up: the checkers stand where the server has them


def _their_turn_rolled(table: Table, dice: tuple[int, int]) -> tuple[int, ...]:
    """After our opening 8/5 6/5 the server rolls `dice` for them; the board it shows."""
    move = next(x for x in table.c.status().match.legal_moves() if x.notation == "8/5 6/5")
    table.hands(move.result, LOCAL)
    board = board_of_position(table.c.status().match.position, "remote")
    table.server(Rolled(YOU, *dice))
    table.server(Board(state(board, turn=2, roll=dice)))
    assert table.c.status().match.phase == "move" and table.c.status().match.turn == REMOTE
    return board


def test_their_resignation_after_rolling_ends_the_game_as_the_server_scores_it() -> None:
    # our rule book lets a player resign only before rolling; the server lets them resign
    # at any time in their turn, and online the server is the truth
    table = opened((3, 1))
    _their_turn_rolled(table, (6, 4))
    table.server(Win(ME, 2, YOU))  # a gammon, cube 1, as the server counted it
    table.server(Board(state(turn=0, score=(2, 0))))
    m = table.c.status().match
    assert (m.score, m.phase) == ((2, 0), "opening")
    end = m.history[0].end
    assert end is not None and (end.how, end.result, end.points) == ("resign", "gammon", 2)
    assert table.remote.stopped is None
    assert "board" not in table.sent  # no mismatch: nothing asked again
    assert table.c.status().match.position == Position.initial()  # the next game is what is set up


def test_their_resignation_halfway_through_their_move() -> None:
    table = opened((3, 1))
    board = _their_turn_rolled(table, (6, 4))
    m = table.c.status().match
    half = next(x for x in m.legal_moves() if x.notation == "24/14").steps[0]
    table.server(Board(state(board_of_position(m.position.after(half), "remote"), turn=2, roll=(6, 4),
                             moves=((1, 7),))))
    table.server(Win(ME, 1, YOU))
    table.server(Board(state(turn=0, score=(1, 0))))
    m = table.c.status().match
    assert (m.score, m.phase) == ((1, 0), "opening") and table.remote.stopped is None
    assert table.c.status().carried_out is None  # their half move is not shown to carry out


def test_their_resignation_after_rolling_ends_the_match() -> None:
    table = Table(state(points=1))
    table.server(Board(state(turn=1, roll=(3, 1), points=1)))
    _their_turn_rolled(table, (5, 2))
    table.server(Win(ME, 0, YOU))  # a 1-point match: the server sends no points...
    # ...and scores the board: their back checkers in our home, a backgammon (issue 35.4)
    table.server(Board(state(turn=2, roll=(5, 2), points=1, winner=1, score=(3, 0))))
    m = table.c.status().match
    assert m.is_over and m.winner == LOCAL and m.score == (3, 0)
    assert table.remote.stopped is None
