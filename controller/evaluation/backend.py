"""The primitives of GNU Backgammon's network the analysis and the levels use
(`analysis.network.load_network` gives them: `numpy_network.NumpyNetwork`), named as
gnubg-nn names them, and batch helpers over them."""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Protocol, cast

from controller.evaluation.generation import Generation

INSTALL_HINT = "sudo apt install gnubg"
BINARY_WEIGHTS = (Path("/usr/lib/gnubg/gnubg.wd"), Path("/usr/share/gnubg/gnubg.wd"))
"""Where Debian's gnubg installs its weights (`weights.read_binary` reads them)."""
BoardLike = Sequence[Sequence[int]]
#: a board as the network takes it: (side not on roll, side on roll), 25 counts each, bar last
Board = tuple[tuple[int, ...], tuple[int, ...]]
#: one move as gnubg-nn's `best_move(..., list=1)[1]` lists it: the key of the board it
#: leaves, its steps (the numpy network keeps none), the opponent's chances after it (five
#: probabilities), the mover's equity
ListedMove = tuple[str, Sequence[object], "Chances", float]
#: a side's cubeless chances as gnubg's `arOutput`: win, win a gammon, win a backgammon,
#: lose a gammon, lose a backgammon
Chances = tuple[float, float, float, float, float]


class NetworkBackend(Protocol):
    """What `gnubg_nn` offers and `NumpyNetwork` reimplements (boards `[side not on roll,
    side on roll]`, 25 counts each, bar last), and the gnubg release the weights are of."""

    p_prune: int
    generation: Generation

    def probabilities(self, board: BoardLike, plies: int) -> tuple[float, ...]: ...

    def best_move(self, board: BoardLike, d1: int, d2: int, n: int = 0,
                  list: int = 0) -> tuple[object, Sequence[ListedMove]]: ...  # noqa: A002

    def moves(self, board: BoardLike, d1: int, d2: int) -> Sequence[str]: ...

    def classify(self, board: BoardLike) -> int: ...

    def key_of_board(self, board: BoardLike) -> str: ...

    def board_from_position_key(self, key: str) -> tuple[tuple[int, ...], tuple[int, ...]]: ...


def chances_of(network: NetworkBackend, boards: Sequence[BoardLike], plies: int) -> list[tuple[float, ...]]:
    """`probabilities(board, plies)` of many boards: one batch where the network takes
    batches (the numpy network runs each class's network once for all of them), else one
    call each (the wheel, in C, is quick either way)."""
    many = getattr(network, "evaluate_many", None)
    if many is not None and plies in (0, network.p_prune):
        return list(many(boards, prune=plies == network.p_prune))
    return [network.probabilities(b, plies) for b in boards]


def utilities_of(network: NetworkBackend, boards: Sequence[BoardLike], plies: int,
                 prices: tuple[float, float, float, float]) -> Sequence[float]:
    """gnubg's cubeless `Utility` of each board's chances for the side on roll at its gammon
    prices (win gammon, lose gammon, win backgammon, lose backgammon), on all rows at once
    (an array): the look-ahead's pruning scores every move of every roll."""
    import numpy as np  # the analysis's network has loaded it already

    many = getattr(network, "evaluate_array", None)
    if many is not None and plies in (0, network.p_prune):
        r = many(boards, prune=plies == network.p_prune)
    else:
        r = np.array(chances_of(network, boards, plies), dtype=np.float64).reshape(-1, 5)
    g0, g1, b0, b1 = prices
    return cast(Sequence[float], r[:, 0] * 2.0 - 1.0 + r[:, 1] * g0 - r[:, 3] * g1 + r[:, 2] * b0 - r[:, 4] * b1)


def lowest(values: Sequence[float], rows: range, count: int) -> list[int]:
    """The `count` rows of `rows` whose `values` (indexed from `rows.start`) are lowest,
    ties to the earlier row, in their own order."""
    import numpy as np

    at = rows.start
    best = np.argsort(np.asarray(values[at:at + len(rows)]), kind="stable")[:count]
    return sorted(at + int(i) for i in best)


def afters_of(network: NetworkBackend, board: BoardLike, rolls: Sequence[tuple[int, int]]) -> list[list[BoardLike]]:
    """Each roll's legal moves as the boards they leave, `[mover, opponent]` (the opponent
    on roll), in the network's move generator's order: the numpy network's boards as the
    engine makes them, else decoded from the keys of gnubg-nn's `moves`."""
    many = getattr(network, "after_boards", None)
    if many is not None:
        return list(many(board, rolls))
    lists = [list(board[0]), list(board[1])]
    return [[[list(a[1]), list(a[0])] for a in map(network.board_from_position_key, network.moves(lists, d1, d2))]
            for d1, d2 in rolls]


def classes_of(network: NetworkBackend, boards: Sequence[BoardLike]) -> list[int]:
    """`classify` of many boards: at once where the network classifies a batch."""
    many = getattr(network, "classify_many", None)
    return list(many(boards)) if many is not None else [network.classify(b) for b in boards]


def keys_of(network: NetworkBackend, boards: Sequence[BoardLike]) -> list[str]:
    """`key_of_board` of many boards: at once where the network packs a batch."""
    many = getattr(network, "keys_of_boards", None)
    return list(many(boards)) if many is not None else [network.key_of_board(b) for b in boards]


def stacked(network: NetworkBackend, boards: Sequence[BoardLike]) -> Sequence[BoardLike]:
    """`boards` as one n x 2 x 25 array where the network takes batches, else as they are:
    the batch helpers above each turn a list of boards into an array, so a caller that
    hands several of them rows of the same boards (`rows_of`) converts them once."""
    if getattr(network, "evaluate_many", None) is None or not boards:
        return boards
    import numpy as np  # here: a level without a network never loads numpy (tests/test_analysis_memory.py)

    # an n x 2 x 25 array indexes as a sequence of boards, which is all its users ask of it
    return cast(Sequence[BoardLike], np.asarray(boards, dtype=np.int64).reshape(-1, 2, 25))


def rows_of(boards: Sequence[BoardLike], picked: Sequence[int]) -> Sequence[BoardLike]:
    """The boards at the indices `picked`, in that order (of `stacked`'s array or list)."""
    if isinstance(boards, list):
        return [boards[i] for i in picked]
    import numpy as np  # `stacked` made the array, so numpy is loaded already

    return cast(Sequence[BoardLike], cast(np.ndarray, boards)[list(picked)])
