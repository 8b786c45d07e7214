"""How often `bgboard analyze` agrees with the gnubg program's own `analyse match`, per
player of a match: the same marks (doubtful, bad, very bad) and a PR within `PR_WITHIN`
of gnubg's (its overall error rate over two; it prints the rate to 0.1 mEMG). The tests
use it on a few matches (tests/test_analysis_releases.py); run as a script it measures a
seeded sample of the real matches in ../shared/matches:

    python tests/gnubg_agreement.py --plies 0 --matches 50 [--release 1.08] [--seed 1] [--only FILE...]

Each player-match that misses is followed by its moves that the program marks otherwise
(or charges more than 1e-4 apart): game, move, dice, Position ID, the move played and the
best one, bgboard's loss and the program's unrounded (`gnubg_program.move_losses`), each
with its mark, and the nearest threshold.

Each release is judged against its own program: 1.07 against this machine's gnubg with
its weights, 1.08 against trixie's gnubg in its root (`.ci/gnubg-1.08-root`) with the
weights of that root, the same on both sides; `--root DIR` judges against the gnubg of
another Debian root (an arm64 one runs under qemu), computed as that program computes
(`GnubgProgram.arithmetic`). Heavy: run it niced.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller.analysis.evaluator import Evaluator  # noqa: E402
from controller.analysis.network import load_network  # noqa: E402
from controller.analysis.gnubg_program import (PROGRAM, GnubgProgram, installed_program,  # noqa: E402
                                               move_losses, run_gnubg_analysis, trixie_program)
from controller.analysis.gnubg_statistics import GnubgStats, parse_statistics  # noqa: E402
from controller.analysis.match import MARKS, Decision, MatchAnalyser, MatchAnalysis  # noqa: E402
from controller.analysis.stats import PlayerStats, player_stats  # noqa: E402
from controller.evaluation.backend import NetworkBackend  # noqa: E402
from controller.evaluation.numpy_network import NumpyNetwork  # noqa: E402
from controller.evaluation.weights import read_binary, read_text  # noqa: E402
from controller.evaluation.wheel import load_gnubg_nn  # noqa: E402
from controller.evaluation.wheel_net import WheelNet  # noqa: E402
from controller.records.mat_reader import read_mat  # noqa: E402

MATCHES = Path(__file__).resolve().parent.parent / "../shared/matches/bglab"
PR_WITHIN = 0.1


@dataclass(frozen=True)
class PlayerMatch:
    """One player of one match: ours beside gnubg's."""

    file: str
    ours: PlayerStats
    theirs: GnubgStats
    analysis: MatchAnalysis
    player: int

    @property
    def marks_agree(self) -> bool:
        return (self.ours.doubtful, self.ours.bad, self.ours.very_bad) == \
            (self.theirs.doubtful, self.theirs.bad, self.theirs.very_bad)

    @property
    def pr_off(self) -> float:
        return abs(self.ours.pr - self.theirs.overall_rate / 2.0)

    @property
    def agrees(self) -> bool:
        return self.marks_agree and self.pr_off <= PR_WITHIN


def program_for(release: str, root: str | None = None) -> GnubgProgram:
    """The program that judges as `release` (the one in Debian root `root` if given);
    SystemExit (one line) where there is none."""
    if root is not None:
        if not (Path(root) / PROGRAM.lstrip("/")).is_file():
            raise SystemExit(f"no {PROGRAM} in {root}")
        return GnubgProgram(PROGRAM, Path(root))
    if release == "1.08":
        found, why = trixie_program()
        if found is None:
            raise SystemExit(why)
        return found
    found = installed_program()
    if found is None or found.release != release:
        raise SystemExit(f"no gnubg {release} program here")
    return found


def network_for(program: GnubgProgram) -> NetworkBackend:
    """The numpy network on `program`'s own weights, with the wheel where it has the same
    weights (its own are 1.08's; the installed program's are loaded into it by
    `analysis.network`, which serves this machine's program)."""
    if program.root is None:
        return load_network()
    weights = read_binary(program.weights.read_bytes())
    module = load_gnubg_nn()
    wheel = None
    if module is not None:
        own = Path(module.__file__ or "").parent / "data" / "gnubg.weights"
        if own.is_file() and read_text(own.read_text()).nets["contact"].flat().tobytes() == \
                weights.nets["contact"].flat().tobytes():
            wheel = WheelNet.load(module, own)
    return NumpyNetwork(weights, wheel=wheel, arithmetic=program.arithmetic)


def analyse(path: Path, network: NetworkBackend, plies: int) -> MatchAnalysis:
    text = path.read_text(encoding="utf-8", errors="replace").lstrip("\ufeff")
    return MatchAnalyser(Evaluator(network, plies)).analyse(read_mat(text))


def compare(path: Path, program: GnubgProgram, network: NetworkBackend, plies: int) -> list[PlayerMatch]:
    theirs = parse_statistics(run_gnubg_analysis(path, plies, program=program))
    ours = analyse(path, network, plies)
    return [PlayerMatch(path.name, player_stats(ours, p), theirs[p], ours, p) for p in (0, 1)]


def differing(row: PlayerMatch, path: Path, program: GnubgProgram, plies: int) -> list[str]:
    """The moves of `row`'s player that the program marks otherwise or charges more than
    1e-4 apart, one line each (see the module)."""
    mine = [d for d in row.analysis.decisions if d.kind == "move" and d.played != "(no move)"]
    theirs = move_losses(path, plies, program)
    if [(d.game, d.dice) for d in mine] != [(m.game, m.dice) for m in theirs]:
        return ["    (the program's moves do not pair with ours)"]
    out = []
    for d, m in zip(mine, theirs):
        if d.player == row.player and (d.mark != m.mark or abs(d.loss - m.loss) > 1e-4):
            nearest = min((t for t, _name in MARKS), key=lambda t: abs(t - m.loss))
            where = d.position.id if d.position is not None else "?"
            out.append(f"    game {d.game} move {d.move} {d.dice} {where} played {d.played} best {d.best}:"
                       f" loss {d.loss:.6f} ({d.mark or 'none'}), program {m.loss:.6f} ({m.mark or 'none'});"
                       f" threshold {nearest}")
    return out


def sample(count: int, seed: int) -> list[Path]:
    """`count` real matches drawn with `seed` (those gnubg 1.07 imported whole)."""
    rows = (MATCHES / "MANIFEST.tsv").read_text().splitlines()[1:]
    fine = sorted(r.split("\t")[0] for r in rows if "\tOK -> gnubg" in r)
    return [MATCHES / name for name in random.Random(seed).sample(fine, count)]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", default=None, help="only these files of the sample")
    parser.add_argument("--plies", type=int, default=0, choices=(0, 1, 2))
    parser.add_argument("--matches", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--release", default="1.07", choices=("1.07", "1.08"))
    parser.add_argument("--root", default=None, help="judge against the gnubg of this Debian root")
    args = parser.parse_args(argv)
    program = program_for(args.release, args.root)
    network = network_for(program)
    rows: list[PlayerMatch] = []
    started = time.monotonic()
    for path in sample(args.matches, args.seed):
        if args.only is not None and path.name not in args.only:
            continue
        for row in compare(path, program, network, args.plies):
            rows.append(row)
            if not row.agrees:
                print(f"  {row.file} {row.ours.name}: marks {row.ours.doubtful}/{row.ours.bad}/{row.ours.very_bad}"
                      f" gnubg {row.theirs.doubtful}/{row.theirs.bad}/{row.theirs.very_bad},"
                      f" PR {row.ours.pr:.2f} gnubg {row.theirs.overall_rate / 2:.2f}", flush=True)
                print("\n".join(differing(row, path, program, args.plies)), flush=True)
    agree = sum(r.agrees for r in rows)
    print(f"gnubg {program.release}{' in ' + args.root if args.root else ''}, {args.plies} ply: {agree} of {len(rows)} player-matches agree"
          f" (marks {sum(r.marks_agree for r in rows)}, PR within {PR_WITHIN}:"
          f" {sum(r.pr_off <= PR_WITHIN for r in rows)}; worst PR off {max(r.pr_off for r in rows):.3f});"
          f" {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
