"""The one perspective module, both ways, on every position of whole games.

The oracle is the protocol double's raw board (tests/online_double.py, written from
bgammon's game.go: player 1 positive moving 24 -> 1, off 0, bar 26; player 2 negative,
off 25, bar 27; sendBoard turns it around for player 2). Whole games are played by the
engine with seeded dice and seeded choices among the legal moves; after every single step
the engine's position, converted, must be the board the server would send each player,
and the server's board, converted back, must be the engine's position.
"""
from __future__ import annotations

import random

import pytest

from controller.engine.moves import Step, legal_moves
from controller.engine.position import Position
from controller.online.events import ProtocolError
from controller.online.perspective import (board_of_position, point_of_space, position_of_board,
                                           spaces_of_step, step_of_spaces, swap_seats, swap_spaces)
from tests.online_double import Game, flip_space

SEEDS = (1, 2, 3, 4, 5)


def _raw_view(game: Game, number: int) -> list[int]:
    from tests.online_double import BgammonDouble, Client

    double = BgammonDouble(0)
    client = Client(writer=None, number=number)  # type: ignore[arg-type]
    return double.view(game, client)["Board"]


def _same(a: Step, b: Step) -> bool:
    """Same checker, same places, same hit (a pair of spaces cannot say which die bore a
    checker off from below the die: the engine picks it)."""
    return (a.frm, a.to, a.hit) == (b.frm, b.to, b.hit)


def _play_game(seed: int, counter: list[int]) -> None:
    """One whole game; checks every position and every step of it."""
    rng = random.Random(seed)
    game = Game(1, 1)
    game.clients = {1: None, 2: None}
    position = Position.initial()  # seen by the player on turn
    turn = 1 if seed % 2 else 2
    from tests.online_double import BgammonDouble

    server = BgammonDouble(0)
    while True:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        moves = legal_moves(position, dice)
        steps = rng.choice(moves).steps if moves else ()
        game.turn = turn
        for step in (None, *steps):
            if step is not None:
                # the server's side: the step as the mover's client sends it, applied raw
                frm, to = spaces_of_step(step, "local")
                assert _same(step_of_spaces((frm, to), "local", position), step)
                server._apply(game, step.frm, step.to)
                # the other player receives the same step turned around
                raw = game.moves[-1]
                seen_by_other = (flip_space(raw[0], 3 - turn), flip_space(raw[1], 3 - turn))
                assert seen_by_other == swap_spaces((frm, to))
                assert spaces_of_step(step, "remote") == seen_by_other
                assert _same(step_of_spaces(seen_by_other, "remote", position), step)
                position = position.after(step)
            mover_view = _raw_view(game, turn)
            other_view = _raw_view(game, 3 - turn)
            # engine -> server, both seats
            assert list(board_of_position(position, "local")) == mover_view
            assert list(board_of_position(position, "remote")) == other_view
            # server -> engine, both seats
            assert position_of_board(mover_view, "local") == position
            assert position_of_board(other_view, "remote") == position
            assert position_of_board(other_view, "local") == position.swap()
            assert list(swap_seats(mover_view)) == other_view
            counter[0] += 1
        if sum(position.mine) == 0:
            return
        position = position.swap()
        turn = 3 - turn


def test_every_position_of_whole_games_both_ways() -> None:
    counter = [0]
    for seed in SEEDS:
        _play_game(seed, counter)
    # five whole games, every position after every step (a game is a few hundred)
    assert counter[0] > 5 * 150, counter[0]
    print(f"positions checked: {counter[0]}")


def test_spaces_name_each_players_bar_and_tray() -> None:
    assert point_of_space(26, "local") == 25 and point_of_space(27, "remote") == 25
    assert point_of_space(0, "local") == 0 and point_of_space(25, "remote") == 0
    assert point_of_space(24, "local") == 24 and point_of_space(24, "remote") == 1
    with pytest.raises(ProtocolError):
        point_of_space(27, "local")  # the opponent's bar is never the local player's


def test_a_board_that_is_not_one_is_refused() -> None:
    board = list(board_of_position(Position.initial(), "local"))
    board[13] += 1  # a 16th checker
    with pytest.raises(ProtocolError, match="15 local checkers"):
        position_of_board(board, "local")
    with pytest.raises(ProtocolError, match="28 spaces"):
        position_of_board(board[:27], "local")


def test_a_backward_step_from_the_server_is_refused() -> None:
    with pytest.raises(ProtocolError, match="not a forward step"):
        step_of_spaces((6, 8), "local", Position.initial())
