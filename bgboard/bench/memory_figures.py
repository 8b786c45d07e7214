"""The judgement's memory, for `bgboard bench --only pi`: what a Raspberry Pi must hold.

Measured here, in child processes sampled every 50 ms (/proc: each process's RSS, and the
PSS of the whole tree, which counts the pages the forked workers share with their parent
once): `bgboard analyze` of a legal 25-point record of 25 games of random play (long
games full of contact: `long_record`), and the table's review, a process that reviews a
match's games one by one as `bgboard run` does after each game: each review's games are
judged in a short-lived child (controller.analysis.review_process), so the figures are
the table's process (before, after each review) and, apart, the children's peak. Python and numpy take about the same memory on a Pi's arm64 as here; a Pi
has no gnubg-nn wheel, so its figures are the numpy network's (`_numpy`).

`analyze` forks one process per game, as many at once as the cores and the available
memory allow (`match.workers`, `WORKER_MB` each): a Zero 2 W (512 MB, about 330
available beside `bgboard run`) forks two, a Pi 4 four. The analysis keeps its figures in
memos bounded by entries (`memo`), forgotten between games; their limits are reported.
"""
from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

ZERO2W_AVAILABLE_MB = 330
"""What a Zero 2 W has available beside Raspberry Pi OS Lite and an idle `bgboard run`."""

_REVIEW_CHILD = """
import json, sys
from dataclasses import replace
from controller.records.mat_reader import read_mat
from controller.table.review import default_cache
def rss():
    return int(open('/proc/self/status').read().split('VmRSS:')[1].split()[0]) / 1024
record = read_mat(open(sys.argv[1]).read())
before = rss()
cache = default_cache()
after, children = [], []
for n in range(1, len(record.games) + 1):
    cache.review(replace(record, games=record.games[:n]))
    after.append(rss())
    children.append(cache.last.peak_mb if cache.last else None)
print(json.dumps({"before": before, "after": after, "children": children, "numpy": "numpy" in sys.modules}))
"""


def _tree(pid: int) -> list[int]:
    out = [pid]
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            for child in (task / "children").read_text().split():
                out += _tree(int(child))
    except OSError:
        pass
    return out


def _kb(pid: int, field: str) -> int:
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith(field):
                return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return 0
    return 0


def sampled(command: list[str]) -> tuple[int, float, float, str]:
    """Run `command`; (exit status, peak RSS of any one of its processes, peak PSS of the
    whole tree, both MB, its stdout's last line)."""
    with tempfile.TemporaryFile("w+") as out:
        proc = subprocess.Popen(command, stdout=out, stderr=subprocess.DEVNULL, text=True)
        one = tree = 0
        while proc.poll() is None:
            pids = _tree(proc.pid)
            one = max([one] + [_kb(p, "Rss:") for p in pids])
            tree = max(tree, sum(_kb(p, "Pss:") for p in pids))
            time.sleep(0.05)
        out.seek(0)
        lines = out.read().strip().splitlines()
    return proc.returncode, round(one / 1024, 1), round(tree / 1024, 1), lines[-1] if lines else ""


def analyze_figures(quick: bool) -> dict[str, object]:
    """`bgboard analyze` of the long record at 0 ply (with --quick its first four games;
    without, 2 ply too on its first game), each process's peak and the tree's."""
    from dataclasses import replace

    from bgboard.bench.long_record import long_record
    from controller.records.mat_writer import write_mat

    record = long_record()
    if quick:
        record = replace(record, games=record.games[:4])
    out: dict[str, object] = {"long_record": f"{record.length} points, {len(record.games)} games, "
                                             f"{sum(len(g.actions) for g in record.games)} actions of random play"}
    runs = [("0ply", record, 0)]
    if not quick:
        runs.append(("2ply_one_game", replace(record, games=record.games[:1]), 2))
    with tempfile.TemporaryDirectory() as scratch:
        for name, played, plies in runs:
            path = Path(scratch) / f"{name}.mat"
            path.write_text(write_mat(played))
            code, one, tree, _last = sampled([sys.executable, "-m", "bgboard.cli", "analyze", "--ply", str(plies),
                                              str(path)])
            out[f"analyze_long_{name}_peak_process_mb"] = one if code == 0 else f"failed (exit {code})"
            out[f"analyze_long_{name}_peak_tree_pss_mb"] = tree
    return out


def review_figures(games: int) -> dict[str, object]:
    """The review of the long record's first `games` games as the table makes them: the
    table's RSS before the first review, after it, and the most after any; the most any
    review's own process took (its VmHWM), and whether the table's process loaded numpy."""
    import json

    from dataclasses import replace

    from bgboard.bench.long_record import long_record
    from controller.records.mat_writer import write_mat

    record = long_record()
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "long.mat"
        path.write_text(write_mat(replace(record, games=record.games[:games])))
        done = subprocess.run([sys.executable, "-c", _REVIEW_CHILD, str(path)], capture_output=True, text=True,
                              timeout=3600, check=False)
    if done.returncode != 0:
        return {"review_memory": f"failed: {done.stderr.strip()[-200:]}"}
    found = json.loads(done.stdout.strip().splitlines()[-1])
    after = found["after"]
    peaks = [p for p in found["children"] if p is not None]
    return {"review_rss_before_mb": round(found["before"], 1), "review_rss_after_first_game_mb": round(after[0], 1),
            "review_rss_most_mb": round(max(after), 1),
            "review_adds_mb": round(max(after) - found["before"], 1),
            "review_process_peak_mb": round(max(peaks), 1) if peaks else "not measured (no /proc)",
            "review_numpy_in_table": found["numpy"]}


def limits() -> dict[str, object]:
    """The memos' limits (entries), and the games `analyze` forks at once on a Zero 2 W."""
    from controller.analysis import evaluator, lookahead, match

    return {"memo_limits": {"chances": evaluator.CHANCES_KEPT, "rolls": evaluator.ROLLS_KEPT,
                            "boards": evaluator.BOARDS_KEPT, "kinds": evaluator.KINDS_KEPT,
                            "cubeful": evaluator.CUBEFUL_KEPT, "lookahead": lookahead.NODES_KEPT},
            "analyze_worker_mb": match.WORKER_MB,
            "zero2w_analyze_workers": match.workers(25, ZERO2W_AVAILABLE_MB, cores=4)}


def run(quick: bool) -> dict[str, object]:
    """The section's memory figures (the numpy network: a Pi's)."""
    figures = dict(limits())
    figures.update(analyze_figures(quick))
    figures.update(review_figures(3 if quick else 8))
    return figures
