"""Reading gnubg's `export match text` (`controller.analysis.gnubg_export`): a move gnubg
ranks below the moves it kept is still the move played. The block is gnubg 1.07's own
export of lasse__match5462768.txt, game 3, move 58."""
from __future__ import annotations

from controller.analysis.gnubg_export import parse_game

UNRANKED = """Move number 58:  lasse to play 52

* lasse moves 5/off 2/off

Rolled 52 (+0.000):
     1. Cubeful 0-ply    5/3 5/off                    Eq.: -1.000
       0.000 0.000 0.000 - 1.000 0.000 0.000
     2. Cubeful 0-ply    6/4 6/1                      Eq.: -1.000 (-0.000)
       0.000 0.000 0.000 - 1.000 0.000 0.000
*   ??  Cubeful 0-ply    5/off 2/off                  Eq.: -1.000 (-0.000)
       -0.000 0.000 0.000 - 1.000 0.000 0.000

"""


def test_a_move_played_outside_gnubgs_list_is_read() -> None:
    [move] = parse_game(UNRANKED, 3)
    assert (move.game, move.player, move.kind, move.dice) == (3, "lasse", "move", (5, 2))
    assert (move.played, move.loss, move.best) == ("5/off 2/off", 0.0, "5/3 5/off")
