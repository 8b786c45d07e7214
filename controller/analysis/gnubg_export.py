"""GNU Backgammon's per-decision analysis, read from its `export match text` files.

`show statistics match` gives totals only; to compare decision by decision (the tests do,
at 2 plies especially, where a move filter or a pruned reply shows in single moves long
before it moves a total), gnubg is told to export the analysed match as text: one file
per game (`NAME.txt`, then `NAME_002.txt`, ...), each move record a block opened by
`Move number N:`. Per block it prints the cube analysis (`Cubeful equities:` with no
double, double/take and double/pass, from the side whose decision it is) and, for a
roll, the ranked moves with the one played starred and its loss in parentheses (ranked
`??` where gnubg listed it below the moves it kept). What it
evaluated with is printed too (`Cubeful 2-ply`, `2-ply cubeless equity`), so a caller can
check that gnubg really looked as deep as it was told.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from controller.analysis.match import Decision, Kind, MatchAnalysis

_BLOCK = re.compile(r"^Move number \d+:\s+(.*)$", re.M)
_ROLL = re.compile(r"^(.+) to play (\d)(\d)$")
_PLAYED = re.compile(r"^\*\s+(?:\d+\.|\?\?)\s+(Cubeful \d+-ply)\s+(.*?)\s+"
                     r"Eq\.:\s+[-+]\d+\.\d+(?:\s+\(([-+]\d+\.\d+)\))?$", re.M)
_TOP = re.compile(r"^[* ]\s+1\.\s+(Cubeful \d+-ply)\s+(.*?)\s+Eq\.:", re.M)
_CUBE_EVAL = re.compile(r"^(\d+-ply) cubeless equity", re.M)
_CUBE_LINE = re.compile(r"^\d\. (No double|Double, take|Double, pass|No redouble|Redouble, take|Redouble, pass)"
                        r"\s+([-+]\d+\.\d+)", re.M)
_ACTOR = re.compile(r"^\* (.+) (doubles|accepts|rejects)$", re.M)


@dataclass(frozen=True, slots=True)
class GnubgCube:
    """A cube decision's equities as gnubg printed them, for the side deciding (the
    doubled side for a take or a pass), EMG at 3 decimals."""

    no_double: float
    take: float
    drop: float
    evaluation: str  # "2-ply"

    @property
    def optimal(self) -> float:
        """The equity of the proper cube action, from the doubler's side (`doubler_view`)."""
        if self.take >= self.no_double and self.drop >= self.no_double:
            return min(self.take, self.drop)
        return self.no_double

    def doubler_view(self) -> GnubgCube:
        """The same equities from the other side (a take's block is printed for the taker)."""
        return GnubgCube(-self.no_double, -self.take, -self.drop, self.evaluation)


@dataclass(frozen=True, slots=True)
class GnubgDecision:
    """One decision of gnubg's export: its game (1-based), who decided, what, the dice of
    a move, the loss gnubg charged (EMG, sign-free, its 3 decimals) and the evaluation
    it used (`Cubeful 2-ply`; a move outside the filter shows `Cubeful 0-ply`); for a
    move also gnubg's best one and how that was evaluated."""

    game: int
    player: str
    kind: Kind
    dice: tuple[int, int] | None
    played: str
    loss: float
    evaluation: str
    best: str = ""
    best_evaluation: str = ""


def _cube(block: str) -> GnubgCube | None:
    found = dict((name.replace("Redouble", "Double").replace("No redouble", "No double"), float(value))
                 for name, value in _CUBE_LINE.findall(block))
    evaluation = _CUBE_EVAL.search(block)
    if not found or evaluation is None:
        return None
    return GnubgCube(found["No double"], found["Double, take"], found["Double, pass"], evaluation.group(1))


def _roll_block(game: int, player: str, dice: tuple[int, int], block: str) -> list[GnubgDecision]:
    out = []
    cube = _cube(block)
    if cube is not None:
        out.append(GnubgDecision(game, player, "no double", None, "No double",
                                 round(max(0.0, cube.optimal - cube.no_double), 3), cube.evaluation))
    played = _PLAYED.search(block)
    if played is not None:
        top = _TOP.search(block)
        loss = -float(played.group(3)) if played.group(3) else 0.0
        out.append(GnubgDecision(game, player, "move", dice, played.group(2), loss, played.group(1),
                                 top.group(2) if top else "", top.group(1) if top else ""))
    return out


def _cube_block(game: int, block: str) -> list[GnubgDecision]:
    actor = _ACTOR.search(block)
    cube = _cube(block)
    if actor is None or cube is None:
        return []
    player, verb = actor.group(1), actor.group(2)
    if verb == "doubles":
        loss = max(0.0, cube.optimal - min(cube.take, cube.drop))
        return [GnubgDecision(game, player, "double", None, "Double", round(loss, 3), cube.evaluation)]
    doubler = cube.doubler_view()
    took = verb == "accepts"
    loss = max(0.0, doubler.take - doubler.drop) if took else max(0.0, doubler.drop - doubler.take)
    return [GnubgDecision(game, player, "take" if took else "pass", None, "Take" if took else "Pass",
                          round(loss, 3), cube.evaluation)]


def parse_game(text: str, game: int) -> list[GnubgDecision]:
    """The decisions of one game's exported text, in order."""
    heads = list(_BLOCK.finditer(text))
    out: list[GnubgDecision] = []
    for i, head in enumerate(heads):
        block = text[head.end():heads[i + 1].start() if i + 1 < len(heads) else len(text)]
        title = head.group(1).strip()
        roll = _ROLL.match(title)
        if roll is not None:
            out += _roll_block(game, roll.group(1), (int(roll.group(2)), int(roll.group(3))), block)
        else:
            out += _cube_block(game, block)
    return out


def game_files(first: Path) -> list[Path]:
    """The files `export match text FIRST` wrote: FIRST, then FIRST's stem `_002`, ..."""
    files = [first]
    while True:
        nxt = first.with_name(f"{first.stem}_{len(files) + 1:03d}{first.suffix}")
        if not nxt.exists():
            return files
        files.append(nxt)


def read_export(first: Path) -> list[GnubgDecision]:
    """Every decision of every game gnubg exported to `first` and its sequels."""
    out: list[GnubgDecision] = []
    for number, path in enumerate(game_files(first), start=1):
        out += parse_game(path.read_text(encoding="utf-8", errors="replace"), number)
    return out


def paired(ours: MatchAnalysis, theirs: list[GnubgDecision]) -> list[tuple[Decision, GnubgDecision]]:
    """Our decisions beside gnubg's, in order, for the games gnubg's list covers (gnubg
    prints no roll without a legal move); ValueError where they do not line up."""
    games = {d.game for d in theirs}
    mine = [d for d in ours.decisions if d.game in games and (d.kind != "move" or d.played != "(no move)")]
    if len(mine) != len(theirs):
        raise ValueError(f"{len(mine)} decisions against gnubg's {len(theirs)}")
    for a, b in zip(mine, theirs):
        if (a.game, ours.players[a.player], a.kind, a.dice) != (b.game, b.player, b.kind, b.dice):
            raise ValueError(f"game {a.game} move {a.move}: our {a.kind} {a.dice} against gnubg's {b.kind} {b.dice}")
    return list(zip(mine, theirs))
