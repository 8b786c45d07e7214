"""The `gnubg` level through Debian's `gnubg` program in text mode (for the Pi, where the
gnubg-nn wheel does not exist).

One long-lived `gnubg -t -q` process per bot, fed commands on stdin: for each question
the match state is set from scratch (`new match`/`new session`, score, Crawford, cube,
turn, board, dice) and `hint` or `eval` is asked; the answer is read up to a marker, an
unknown command whose error line is unmistakable. Checker play is the first move of
`hint`, parsed with the engine's notation parser; cube actions are gnubg's "Proper cube
action"; resignations are weighed with gnubg's probabilities and its own match equity
table (`show matchequitytable`), as the wheel backend does.
gnubg's player 1 ("root") is always the side on roll; player 0 the other side.
"""
from __future__ import annotations

import re
import subprocess
import threading

from controller.analysis.match_context import MatchContext
from controller.engine import Move, Position, legal_moves
from controller.engine.notation import parse_move
from controller.errors import BackendUnavailableError

MARKER = "bgboard-end-of-answer"
_MOVE_LINE = re.compile(r"^\s*1\.\s+\S.*?(?:ply|Rollout|rollout)\s+(?P<move>.+?)\s+Eq\.:")
_PROBS = re.compile(r"^\s*(?:static|\d+ ply):\s+([0-9.]+)\s+([0-9.]+)\s+([0-9.]+)\s+([0-9.]+)\s+([0-9.]+)")
_CUBE = re.compile(r"Proper cube action:\s*(?P<action>[^(\n]+)")
_MET_ROW = re.compile(r"^\s*(\d+)-away((?:\s+[0-9.]+)+)\s*$")


class GnubgProcess:
    """A running `gnubg -t -q` that answers command batches."""

    def __init__(self, program: str, plies: int = 0) -> None:
        try:
            self._proc = subprocess.Popen([program, "-t", "-q"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          stderr=subprocess.STDOUT, text=True, bufsize=1)
        except OSError as exc:
            raise BackendUnavailableError(f"cannot start {program}: {exc.strerror}; choose simple") from exc
        self._lock = threading.Lock()
        self.ask(["set confirm new off", "set player 0 human", "set player 1 human", "set display off",
                  f"set evaluation chequerplay evaluation plies {plies}",
                  f"set evaluation cubedecision evaluation plies {plies}"])

    def ask(self, commands: list[str]) -> str:
        """Send commands, return everything gnubg printed in answer."""
        with self._lock:
            assert self._proc.stdin is not None and self._proc.stdout is not None
            self._proc.stdin.write("\n".join(commands + [MARKER]) + "\n")
            self._proc.stdin.flush()
            lines: list[str] = []
            while True:
                line = self._proc.stdout.readline()
                if not line:
                    raise BackendUnavailableError("the gnubg program stopped unexpectedly; choose simple")
                if MARKER in line:
                    return "".join(lines)
                lines.append(line)

    def close(self) -> None:
        if self._proc.poll() is None:
            try:
                assert self._proc.stdin is not None
                self._proc.stdin.write("quit\ny\n")
                self._proc.stdin.flush()
                self._proc.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                self._proc.kill()
                self._proc.wait()


def setup_commands(position: Position, on_roll_away: int, other_away: int, context: MatchContext,
                   on_roll_owns: bool | None) -> list[str]:
    """Commands that make gnubg's state this position, with the side on roll as player 1."""
    if context.is_money:
        cmds = ["new session"]
    else:
        n = context.length
        cmds = [f"new match {n}", f"set score {n - other_away} {n - on_roll_away}",
                f"set crawford {'on' if context.crawford and 1 in (on_roll_away, other_away) else 'off'}"]
    if context.cube == 1 or on_roll_owns is None:
        cmds.append("set cube center")
    else:
        cmds += [f"set cube value {context.cube}", f"set cube owner {1 if on_roll_owns else 0}"]
    cmds += ["set turn 1", f"set board {position.id}"]
    return cmds


def parse_best_move(text: str) -> str:
    """The notation of the first move in `hint`'s list."""
    for line in text.splitlines():
        m = _MOVE_LINE.match(line)
        if m:
            return m.group("move").strip()
    raise ValueError(f"no move in gnubg's hint: {text[-300:]!r}")


def parse_cube_action(text: str) -> str:
    """gnubg's "Proper cube action", e.g. "No double, take"."""
    m = _CUBE.search(text)
    if not m:
        raise ValueError(f"no cube action in gnubg's answer: {text[-300:]!r}")
    return m.group("action").strip()


def parse_probabilities(text: str) -> tuple[float, float, float, float, float]:
    """The last evaluation line of `eval`: win, win gammon, win bg, lose gammon, lose bg."""
    found = None
    for line in text.splitlines():
        m = _PROBS.match(line)
        if m:
            found = tuple(float(x) for x in m.groups())
    if found is None:
        raise ValueError(f"no probabilities in gnubg's eval: {text[-300:]!r}")
    return found  # type: ignore[return-value]


def parse_met(text: str) -> tuple[dict[tuple[int, int], float], dict[int, float]]:
    """Pre-Crawford MWC[(row away, column away)] of the row player, and post-Crawford
    MWC of the trailer at n-away against a 1-away leader (percent / 100)."""
    pre: dict[tuple[int, int], float] = {}
    post: dict[int, float] = {}
    section = ""
    for line in text.splitlines():
        if line.startswith("Pre-Crawford"):
            section = "pre"
        elif line.startswith("Post-Crawford"):
            section = "post" if not post else "done"
        m = _MET_ROW.match(line)
        if m and section in ("pre", "post"):
            row = int(m.group(1))
            values = [float(v) / 100.0 for v in m.group(2).split()]
            for col, v in enumerate(values, start=1):
                if section == "pre":
                    pre[(row, col)] = v
                else:
                    post[col] = 1.0 - v if col == 1 else v
    return pre, post


def cube_says_double(action: str) -> bool:
    a = action.lower()
    return a.startswith(("double", "redouble"))


def cube_says_take(action: str) -> bool:
    a = action.lower()
    return a.endswith(("take", "beaver"))


class GnubgProcessBot:
    """The gnubg level played by the gnubg program."""

    def __init__(self, program: str, plies: int = 0) -> None:
        self.plies = plies
        self.name = f"gnubg-{plies}ply"
        self._gnubg = GnubgProcess(program, plies)
        self._met: tuple[dict[tuple[int, int], float], dict[int, float]] | None = None

    def close(self) -> None:
        self._gnubg.close()

    def _setup(self, position: Position, context: MatchContext, bot_on_roll: bool) -> list[str]:
        if bot_on_roll:
            owns = None if context.owner == "center" else context.owner == "bot"
            return setup_commands(position, context.bot_away, context.opponent_away, context, owns)
        owns = None if context.owner == "center" else context.owner == "opponent"
        return setup_commands(position, context.opponent_away, context.bot_away, context, owns)

    def choose_move(self, position: Position, dice: tuple[int, int], context: MatchContext) -> Move | None:
        moves = legal_moves(position, dice)
        if len(moves) <= 1:
            return moves[0] if moves else None
        text = self._gnubg.ask(self._setup(position, context, True) + [f"set dice {dice[0]}{dice[1]}", "hint 1"])
        return parse_move(position, dice, parse_best_move(text))

    def should_double(self, position: Position, context: MatchContext) -> bool:
        if not context.bot_may_double():
            return False
        text = self._gnubg.ask(self._setup(position, context, True) + ["hint"])
        return cube_says_double(parse_cube_action(text))

    def should_take(self, position: Position, context: MatchContext) -> bool:
        text = self._gnubg.ask(self._setup(position, context, False) + ["hint"])
        if "cannot double" in text:
            return True  # the doubler had no right to: nothing to refuse
        return cube_says_take(parse_cube_action(text))

    def _mwc(self, bot_away: int, opp_away: int, post_crawford: bool) -> float:
        if bot_away <= 0:
            return 1.0
        if opp_away <= 0:
            return 0.0
        if self._met is None:
            self._met = parse_met(self._gnubg.ask(["show matchequitytable 25"]))
        pre, post = self._met
        if post_crawford and (bot_away == 1 or opp_away == 1):
            if bot_away == 1 and opp_away == 1:
                return 0.5
            return 1.0 - post[opp_away] if bot_away == 1 else post[bot_away]
        return pre[(bot_away, opp_away)]

    def accepts_resignation(self, position: Position, level: int, context: MatchContext) -> bool:
        text = self._gnubg.ask(self._setup(position, context, False) + ["eval"])
        w, wg, wbg, lg, lbg = parse_probabilities(text)
        outcomes = {1: (1 - w) - lg, 2: lg - lbg, 3: lbg, -1: w - wg, -2: wg - wbg, -3: wbg}
        cube = context.cube
        if context.is_money:
            return level >= sum(p * pts for pts, p in outcomes.items()) - 1e-9
        post = context.crawford or 1 in (context.bot_away, context.opponent_away)

        def mwc(points: int) -> float:
            if points > 0:
                return self._mwc(context.bot_away - points * cube, context.opponent_away, post)
            return self._mwc(context.bot_away, context.opponent_away + points * cube, post)

        return mwc(level) >= sum(p * mwc(pts) for pts, p in outcomes.items()) - 1e-9
