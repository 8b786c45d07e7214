"""GNU Backgammon's own program, run as the reference the analysis is compared with (tests)
and timed against (`bgboard bench`): this machine's (Debian bookworm's gnubg 1.07 here and
in CI), or the one inside a Debian root run through chroot (trixie's gnubg 1.08, the
reference for 1.08's weights: `.ci/gnubg-1.08-root` makes it, cached in
/var/cache/bgboard).

Besides its commands (`run`: `import mat`, `analyse match`, `show statistics match`,
read by `gnubg_statistics`; `export match text`, read by `gnubg_export`) the program runs
Python with its own `gnubg` module (`run_python`): `gnubg.evaluate` gives its 0-ply
evaluation of a board at full precision, where its `eval` command prints three decimals,
and `gnubg.match` its analysis of each move at full precision (`move_losses`), where its
export prints three decimals.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from controller.analysis.match import MARKS
from controller.evaluation.program import find_gnubg_program
from controller.errors import BackendUnavailableError
from controller.evaluation.net import Arithmetic

TIMEOUT = 1800
PROGRAM = "/usr/games/gnubg"
TRIXIE_ROOT = Path("/var/cache/bgboard/gnubg-trixie-amd64")
"""Debian trixie's root with its gnubg (1.08.003), made by `.ci/gnubg-1.08-root`."""
WEIGHTS = ("usr/lib/gnubg/gnubg.wd", "usr/share/gnubg/gnubg.wd")


@dataclass(frozen=True)
class GnubgProgram:
    """A gnubg program this machine can run: `path` on this machine, or inside the Debian
    `root` through chroot (the program then sees only the root's files)."""

    path: str
    root: Path | None = None

    def command(self) -> list[str]:
        return ["chroot", str(self.root), self.path] if self.root else [self.path]

    @cached_property
    def release(self) -> str:
        """Its release as "1.07" or "1.08" (from `--version`: "GNU Backgammon 1.08.003 ...")."""
        done = subprocess.run(self.command() + ["--version"], capture_output=True, text=True, timeout=60,
                              check=False)
        words = (done.stdout.splitlines() or [""])[0].split()
        if len(words) < 3 or words[:2] != ["GNU", "Backgammon"]:
            raise BackendUnavailableError(f"{' '.join(self.command())} --version says {done.stdout[:60]!r}")
        return ".".join(words[2].split(".")[:2])

    @cached_property
    def arithmetic(self) -> Arithmetic:
        """How its networks compute (`evaluation.net`), by the machine its ELF header names:
        Debian's x86-64 build is an SSE build, its arm64 one plain C (measured under qemu:
        bookworm's arm64 program within 1e-6 of plain C on 1,151 boards of every class)."""
        with open((self.root or Path("/")) / self.path.lstrip("/"), "rb") as program:
            header = program.read(20)
        return "sse" if header[:4] == b"\x7fELF" and int.from_bytes(header[18:20], "little") == 0x3E else "scalar"

    @property
    def weights(self) -> Path:
        """Its weight file, as this machine sees it."""
        base = self.root or Path("/")
        return next((base / w for w in WEIGHTS if (base / w).is_file()), base / WEIGHTS[0])

    @contextmanager
    def scratch(self) -> Iterator[tuple[Path, str]]:
        """A directory both see: (its path here, its path for the program), removed after."""
        parent = (self.root / "tmp") if self.root else None
        here = Path(tempfile.mkdtemp(prefix="bgboard-gnubg-", dir=parent))
        try:
            yield here, ("/" + str(here.relative_to(self.root)) if self.root else str(here))
        finally:
            shutil.rmtree(here, ignore_errors=True)

    def run(self, commands: str) -> str:
        """What the program prints for `commands` (one a line), run without its window."""
        done = subprocess.run(self.command() + ["-t", "-q"], input=commands, capture_output=True,
                              text=True, timeout=TIMEOUT, check=False)
        return done.stdout

    def run_python(self, script: str) -> str:
        """What `script` prints when the program runs it with its `gnubg` module."""
        with self.scratch() as (here, there):
            (here / "script.py").write_text(script)
            done = subprocess.run(self.command() + ["-t", "-q", "-p", f"{there}/script.py"], capture_output=True,
                                  text=True, timeout=TIMEOUT, check=False)
        if done.returncode != 0 or "Traceback" in done.stderr:
            raise RuntimeError(f"gnubg's Python failed: {done.stderr.strip().splitlines()[-1:]}")
        return done.stdout

    def chances(self, boards: Sequence[Sequence[Sequence[int]]], plies: int = 0) -> list[tuple[float, ...]]:
        """The program's cubeless chances of the side on roll (`board[1]`) of each board
        (side not on roll first, 25 counts each, bar last), looking `plies` ahead."""
        data = json.dumps([[list(b[0]), list(b[1])] for b in boards])
        script = (f"import gnubg, json\nci = gnubg.cubeinfo(1, -1, 1, 0, (0, 0), 0, 0)\n"
                  f"ec = gnubg.evalcontext(0, {plies}, 1, 1, 0.0)\n"
                  f"for b in json.loads({data!r}):\n"
                  f"    print('OUT', json.dumps(gnubg.evaluate((tuple(b[0]), tuple(b[1])), ci, ec)[:5]))\n")
        out = [json.loads(line[4:]) for line in self.run_python(script).splitlines() if line.startswith("OUT ")]
        if len(out) != len(boards):
            raise RuntimeError(f"gnubg evaluated {len(out)} of {len(boards)} boards")
        return [tuple(p) for p in out]


@dataclass(frozen=True, slots=True)
class ProgramMove:
    """One move of the program's analysis: its game (1-based), the dice, the EMG it lost
    against the program's best move (its `rScore`s, unrounded) and the mark the program
    gave it ("doubtful", "bad", "very bad", or "" for none)."""

    game: int
    dice: tuple[int, int]
    loss: float
    mark: str


def move_losses(path: str | Path, plies: int = 0, program: GnubgProgram | None = None) -> list[ProgramMove]:
    """Every analysed move of the record at `path` as the program (this machine's unless
    given) judges it `plies` deep, in order; a roll without a legal move has none."""
    found = _program(program)
    with found.scratch() as (here, there):
        shutil.copyfile(path, here / "match.mat")
        commands = _analysis(f"{there}/match.mat", plies)
        out = found.run_python(
            f"import gnubg, json\nfor c in {commands!r}:\n    gnubg.command(c)\n"
            "for number, game in enumerate(gnubg.match(analysis=1, boards=0)['games'], start=1):\n"
            "    for a in game['game']:\n"
            "        an = a.get('analysis') or {}\n"
            "        if a.get('action') == 'move' and an.get('moves') and an['imove'] < len(an['moves']):\n"
            "            scores = [m['score'] for m in an['moves']]\n"
            "            print('OUT', json.dumps([number, a['dice'], scores[0] - scores[an['imove']],"
            " an.get('skill') or '']))\n")
    rows = [json.loads(line[4:]) for line in out.splitlines() if line.startswith("OUT ")]
    return [ProgramMove(game, (dice[0], dice[1]), loss, mark) for game, dice, loss, mark in rows]


def installed_program() -> GnubgProgram | None:
    """This machine's gnubg program, or None."""
    found = find_gnubg_program()
    return GnubgProgram(found) if found else None


def trixie_program() -> tuple[GnubgProgram | None, str]:
    """trixie's gnubg 1.08 in its cached root, or None and why not (one line)."""
    if not (TRIXIE_ROOT / PROGRAM.lstrip("/")).is_file():
        return None, f"no gnubg 1.08 root at {TRIXIE_ROOT} (make it with .ci/gnubg-1.08-root)"
    if os.geteuid() != 0:
        return None, f"gnubg 1.08 in {TRIXIE_ROOT} runs through chroot, which needs root"
    return GnubgProgram(PROGRAM, TRIXIE_ROOT), ""


def _analysis(path: str, plies: int) -> list[str]:
    """The gnubg commands that import the record at `path` (as the program sees it) and
    analyse it `plies` deep with bgboard's marks."""
    thresholds = {name: value for value, name in MARKS}
    return [
        "set confirm default no",
        f"set analysis chequerplay evaluation plies {plies}",
        f"set analysis cubedecision evaluation plies {plies}",
        f"set analysis threshold doubtful {thresholds['doubtful']}",
        f"set analysis threshold bad {thresholds['bad']}",
        f"set analysis threshold verybad {thresholds['very bad']}",
        f"import mat {path}",
        "analyse match",
    ]


def script(path: str, plies: int, export: str | None = None) -> str:
    """The gnubg commands that analyse `path` (as the program sees it) and print its
    statistics (and, with `export`, write its per-decision analysis there: `gnubg_export`)."""
    return "\n".join([
        *_analysis(path, plies),
        *([f"export match text {export}"] if export is not None else []),
        "show statistics match",
        "",
    ])


def _program(program: GnubgProgram | None) -> GnubgProgram:
    found = program or installed_program()
    if found is None:
        raise BackendUnavailableError("the gnubg program is not installed (apt install gnubg)")
    return found


def run_gnubg(commands: str, program: GnubgProgram | None = None) -> str:
    """What the gnubg program (this machine's unless given) prints for `commands`."""
    return _program(program).run(commands)


def run_gnubg_analysis(path: str | Path, plies: int = 0, export: Path | None = None,
                       program: GnubgProgram | None = None) -> str:
    """gnubg's statistics text for the record at `path` (with `export`, its per-decision
    analysis written there and beside it, as `export match text` names the games)."""
    found = _program(program)
    with found.scratch() as (here, there):
        shutil.copyfile(path, here / "match.mat")
        text = found.run(script(f"{there}/match.mat", plies, f"{there}/export.txt" if export else None))
        if export is not None:
            for made in sorted(here.glob("export*.txt")):
                shutil.copyfile(made, export.with_name(export.stem + made.stem[len("export"):] + export.suffix))
    return text
