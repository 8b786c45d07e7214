"""Fit the `simple` level's weights to GNU Backgammon's 0-ply judgement (offline tool).

Why: hand-set weights are guesses; least squares against a strong evaluator on many
positions gives each feature its due. Positions come from games gnubg plays against
itself with some random moves mixed in (for variety); at each turn every candidate
move's result (a sample when there are many) is labelled with gnubg's chances.
Needs the gnubg-nn wheel; writes `controller/bot/simple_weights.py`.

    .venv/bin/python -m controller.bot.train_simple --games 600
"""
from __future__ import annotations

import argparse
import multiprocessing
import random
from pathlib import Path

from controller.bot.evaluation import (
    CONTACT_FEATURES,
    PHASES,
    RACE_FEATURES,
    RAW_FEATURES,
    features,
    phase_features,
    phase_of,
    raw_features,
)
from controller.engine import Position, legal_moves

OUT = Path(__file__).with_name("simple_weights.py")


def _label(after: Position) -> tuple[float, float, float]:
    """The mover's (win, gammon, lose gammon) after their move, by gnubg 0-ply."""
    import gnubg_nn

    if sum(after.mine) == 0:
        return 1.0, 1.0 if sum(after.theirs) == 15 else 0.0, 0.0
    win, wg, _wbg, lg, _lbg = gnubg_nn.probabilities([list(after.mine), list(after.theirs)], 0)
    return 1.0 - win, lg, wg


def _centred(group: list[tuple[list[float], tuple[float, float, float]]], centre: bool
             ) -> list[tuple[list[float], tuple[float, float, float]]]:
    """Subtract the turn's mean from features and labels: the fit then learns what makes
    one candidate move better than another from the same roll, which is all the move choice
    asks; the absolute level of a position is the cube's business, not this evaluation's."""
    if not centre or len(group) < 2:
        return group if not centre else []
    n = len(group)
    mf = [sum(f[i] for f, _ in group) / n for i in range(len(group[0][0]))]
    ml = tuple(sum(lab[k] for _, lab in group) / n for k in range(3))
    return [([x - m for x, m in zip(f, mf)], (lab[0] - ml[0], lab[1] - ml[1], lab[2] - ml[2]))
            for f, lab in group]


def _games_packed(args: tuple[int, int, int, bool]) -> dict[str, tuple[object, object]]:
    """`_games` as numpy arrays per phase (features, labels): a fraction of the memory."""
    import numpy as np

    rows = _games(args)
    out: dict[str, tuple[object, object]] = {}
    for phase in PHASES:
        part = [(f, lab) for c, f, lab in rows if c == phase]
        width = len(phase_features(phase)) + len(RAW_FEATURES)
        out[phase] = (np.asarray([f for f, _ in part], dtype=np.float32).reshape(-1, width),
                        np.asarray([lab for _, lab in part], dtype=np.float32).reshape(-1, 3))
    return out


def _games(args: tuple[int, int, int, bool]) -> list[tuple[str, list[float], tuple[float, float, float]]]:
    import gnubg_nn

    seed, count, per_turn, centre = args
    rng = random.Random(seed)
    rows: list[tuple[str, list[float], tuple[float, float, float]]] = []
    for _ in range(count):
        pos = Position.initial()
        for _ply in range(400):
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            moves = legal_moves(pos, dice)
            if moves:
                sample = moves if len(moves) <= per_turn else rng.sample(moves, per_turn)
                groups: dict[str, list[tuple[list[float], tuple[float, float, float]]]] = {p: [] for p in PHASES}
                for m in sample:
                    if sum(m.result.mine) == 0:
                        continue
                    phase = phase_of(m.result)
                    feats = features(phase, m.result) + raw_features(m.result)
                    groups[phase].append((feats, _label(m.result)))
                for phase, group in groups.items():
                    rows.extend((phase, f, lab) for f, lab in _centred(group, centre))
                if rng.random() < 0.1:
                    chosen = rng.choice(moves)
                else:
                    best = gnubg_nn.best_move([list(pos.theirs), list(pos.mine)], *dice, list=1)
                    key = best[1][0][0]
                    chosen = next((m for m in moves if gnubg_nn.key_of_board(
                        [list(m.result.mine), list(m.result.theirs)]) == key), moves[0])
                pos = chosen.result
                if sum(pos.mine) == 0:
                    break
            pos = pos.swap()
    return rows


def _solve(rows: object, ys: object, ridge: float) -> tuple[float, ...]:
    """Ridge least squares (numpy, a tool-only dependency: play needs none)."""
    import numpy as np

    x = np.asarray(rows, dtype=float)
    y = np.asarray(ys, dtype=float)
    a = x.T @ x + ridge * np.eye(x.shape[1])
    return tuple(round(float(v), 6) for v in np.linalg.solve(a, x.T @ y))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--per-turn", type=int, default=12)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--ridge", type=float, default=1.0)
    parser.add_argument("--absolute", action="store_true", help="fit levels, not differences")
    args = parser.parse_args()
    workers = max(1, multiprocessing.cpu_count())
    chunk = max(1, args.games // (workers * 4))
    jobs = [(args.seed * 1000 + i, chunk, args.per_turn, not args.absolute) for i in range(args.games // chunk)]
    import numpy as np

    with multiprocessing.Pool(workers) as pool:
        parts = pool.map(_games_packed, jobs)
    heads: dict[str, list[tuple[float, ...]]] = {}
    total = 0
    for phase in PHASES:
        feats = np.concatenate([p[phase][0] for p in parts])
        labels = np.concatenate([p[phase][1] for p in parts])
        heads[phase] = [_solve(feats, labels[:, k], args.ridge) for k in range(3)]
        print(f"{phase}: {len(feats)} positions")
        total += len(feats)
    lines = [
        '"""Weights of the `simple` evaluation, fitted by `controller.bot.train_simple`',
        (f"({args.games} gnubg self-play games, seed {args.seed}, ridge {args.ridge}, "
         f"{'absolute' if args.absolute else 'centred per roll'}; {total} labelled positions)."),
        "",
        "Generated: edit the features or the trainer, then re-run it, rather than this file.",
        '"""',
        "from controller.bot.evaluation import Weights",
        "",
        f"# contact features: {', '.join(CONTACT_FEATURES)}",
        f"# race features: {', '.join(RACE_FEATURES)}",
        "# then, for every phase, the point-by-point raw features",
        "# heads per phase: win, gammon, lose_gammon",
        "WEIGHTS = Weights(heads={",
    ]
    for phase, three in heads.items():
        lines.append(f"    {phase!r}: (")
        for w in three:
            lines.append(f"        ({', '.join(repr(x) for x in w)},),")
        lines.append("    ),")
    lines.append("})")
    OUT.write_text("\n".join(lines) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
