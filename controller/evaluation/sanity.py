"""gnubg's `SanityCheck` (eval.c, the same in 1.07 and 1.08): what the program makes of a
network's five outputs before anything uses them. Only the networks' classes (race,
crashed, contact) are checked: the bear-off databases are exact (`CLASS_GOOD`).

Without contact, gnubg counts crossovers to settle what is certain: a side's `cross`
weighs each checker by the quarters of the board it still has to cross (home 1, outer
board 2, the other's outer board 3, the other's home board 4, the bar 5), its `gammon
cross` what it needs to bring every checker home (1 + 1, 2, 3, 4 per checker of the
same quarters). The most turns a side can still need is the last roll its bear-off
distribution reaches (`MaxTurns`, from the one-sided database) once all its checkers
are home, else twice its crossovers. Then: a certain win (the side on roll can bear off
before the other has crossed), a certain loss, a gammon that cannot be saved or cannot
happen, and no backgammon once a side has left the other's home board. With contact
only the ordering rules apply, and gammon chances under 1e-4 are taken as none.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from controller.evaluation import bearoff_db
from controller.evaluation.bearoff_index import one_sided_index

WIN, WIN_GAMMON, WIN_BACKGAMMON, LOSE_GAMMON, LOSE_BACKGAMMON = range(5)
NOISE = np.float32(1.0 / 10000.0)


@lru_cache(maxsize=4096)
def _bearoff_turns(home: tuple[int, ...]) -> int:
    """gnubg's `MaxTurns`: the last roll (1..31) the one-sided bear-off distribution of a
    home board reaches; -1 when it reaches none (no database: `_max_turns` counts)."""
    db = bearoff_db.one_sided()
    if db is None:
        return -1
    rolls = db.distributions(one_sided_index(home))[0]
    return max((i for i, p in enumerate(rolls) if p), default=-1)


def _max_turns(sides: np.ndarray, back: np.ndarray, cross: np.ndarray) -> np.ndarray:
    """Per row, the most turns one side can still need (rows of one side: n x 25)."""
    turns = 2 * cross
    home = np.flatnonzero(back < 6)
    if len(home) and bearoff_db.one_sided() is not None:
        turns[home] = [_bearoff_turns(tuple(row)) for row in sides[home, :6].tolist()]
    return turns


def sanity_check(boards: np.ndarray, out: np.ndarray) -> None:
    """gnubg's `SanityCheck` of a batch of network outputs (n x 5, float64; the boards
    n x 2 x 25, `board[1]` on roll), in place."""
    occupied = boards > 0
    back = np.where(occupied.any(axis=2), 24 - np.argmax(occupied[:, :, ::-1], axis=2), 0)  # n x 2
    zones = np.stack([boards[:, :, 6 * k:6 * k + 6].sum(axis=2) for k in range(4)] + [boards[:, :, 24]], axis=2)
    on_board = zones.sum(axis=2)
    cross = (zones * np.arange(1, 6)).sum(axis=2)
    gammon_cross = 1 + (zones * np.arange(0, 5)).sum(axis=2)
    contact = back[:, 0] + back[:, 1] >= 24
    race = ~contact
    turns = np.zeros_like(cross)
    rows = np.flatnonzero(race)
    if len(rows):
        for side in (0, 1):
            turns[rows, side] = _max_turns(boards[rows, side], back[rows, side], cross[rows, side])
        turns[:, 1] = np.where(turns[:, 1] == 0, 1, turns[:, 1])
    out[race & (cross[:, 0] > 4 * (turns[:, 1] - 1)), WIN] = 1.0  # certain win
    gone0 = on_board[:, 0] < 15  # the side not on roll has borne off: no gammon to win
    out[gone0, WIN_GAMMON:WIN_BACKGAMMON + 1] = 0.0
    no_gammon = race & ~gone0 & (cross[:, 1] > 8 * gammon_cross[:, 0])
    out[no_gammon, WIN_GAMMON] = 0.0
    out[race & ~gone0 & ~no_gammon & (gammon_cross[:, 0] > 4 * (turns[:, 1] - 1)), WIN_GAMMON] = 1.0
    out[race & ~gone0 & (back[:, 0] < 18), WIN_BACKGAMMON] = 0.0
    out[race & (cross[:, 1] > 4 * turns[:, 0]), WIN] = 0.0  # certain loss
    gone1 = on_board[:, 1] < 15
    out[gone1, LOSE_GAMMON:LOSE_BACKGAMMON + 1] = 0.0
    no_gammon = race & ~gone1 & (cross[:, 0] > 8 * gammon_cross[:, 1] - 4)
    out[no_gammon, LOSE_GAMMON] = 0.0
    out[race & ~gone1 & ~no_gammon & (gammon_cross[:, 1] > 4 * turns[:, 0]), LOSE_GAMMON] = 1.0
    out[race & ~gone1 & (back[:, 1] < 18), LOSE_BACKGAMMON] = 0.0
    out[:, WIN_GAMMON] = np.minimum(out[:, WIN_GAMMON], out[:, WIN])
    out[:, LOSE_GAMMON] = np.minimum(out[:, LOSE_GAMMON], (np.float32(1.0) - out[:, WIN].astype(np.float32)))
    out[:, WIN_BACKGAMMON] = np.minimum(out[:, WIN_BACKGAMMON], out[:, WIN_GAMMON])
    out[:, LOSE_BACKGAMMON] = np.minimum(out[:, LOSE_BACKGAMMON], out[:, LOSE_GAMMON])
    gammons = out[contact, WIN_GAMMON:]
    gammons[gammons < NOISE] = 0.0
    out[contact, WIN_GAMMON:] = gammons
