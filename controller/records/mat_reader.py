"""Read `.mat` match records (GNU Backgammon, BackgammonGalaxy, Backgammon Studio, XG style).

Two stages, so that a bad file is reported at the right place:

1. `parse_mat` reads the text into games of *entries* (who did what, where) without any
   rules: tags, the `N point match` line, `Game N` headers, score lines, and the two
   columns of numbered move lines.
2. `check_entries` (via `read_mat`) plays the entries through the rules engine: every move
   must be legal for its dice (hits are found by the engine, so Galaxy's unmarked hits
   need nothing), the cube must be turned by the right player at the right time, and each
   game's result is worked out from the board, not taken from the file.

The variants handled (see shared/matches/README.md): bear-off `6/0` or `6/off`, bar `25/22`
or `bar/22`, hits with or without `*`, one checker's whole move in one token
(`13/7*/3*`, `24/15`), repeats `13/10(2)`, dice in rolled order, `Cannot Move`,
`Wins 1 point` in the singular, Galaxy's `Losses N point` lines and capped `Wins N`,
Studio's `; [Tag "value"]` header and `NN: ????` before a resignation.

A resignation's level is what GNU Backgammon 1.07 reads from the file: the points written
divided by the cube, rounded up, between single and backgammon (Galaxy's `Wins 3 point`
at cube 2, capped at what the match needed, is the gammon it was: 4 on the board).
The score lines must agree with the games before them, and the Crawford game is the
first one at which exactly one player stands at match point (the `; [Crawford "Off"]`
tag turns the rule off), as GNU Backgammon works it out.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import pairwise
from typing import Literal

from controller.engine import Position, Step, legal_moves
from controller.errors import RecordError
from controller.records.model import (
    Action,
    Double,
    Drop,
    End,
    Game,
    MatchRecord,
    Resign,
    Roll,
    Take,
    crawford_game,
)

EntryKind = Literal["roll", "double", "take", "drop", "wins", "losses", "unreadable", "unknown"]

# Every pattern here is linear in the line's length: no two neighbouring parts can match
# the same characters (a `(.*?)\s*:` pair tried every split of a run of spaces, and a
# 2 KB score line took 11 s), and lines and numbers are bounded before any is parsed.
MAX_LINE = 4096  # characters; the longest line of 1,464 real records has 606
MAX_DIGITS = 6  # a match length, score, move number or cube value of a real record
_TAG = re.compile(r'^\s*;\s*\[([^"\]]*)"(.*)"\s*\]\s*$')
_LENGTH = re.compile(r"^\s*(\d+)\s+[Pp]oint\s+[Mm]atch\b")
_GAME = re.compile(r"^\s*Game\s+(\d+)\s*$")
_SCORE_PART = re.compile(r":\s*(\d+)")  # a score line is `name : N   name : N`
_NUMBER = re.compile(r"^\s*(\d+)\)")
_ENTRY_START = re.compile(
    r"(?<!\S)(?:[1-6][1-6]:|\d+\)|Doubles\b|Redoubles\b|Takes\b|Drops\b|Passes\b|Wins\b|"
    r"Losses\b|Loses\b|Beavers?\b|Raccoons?\b|Resigns?\b|Accepts?\b|Rejects?\b)", re.IGNORECASE)
_ROLL = re.compile(r"^([1-6])([1-6]):(.*)$")
_DOUBLE = re.compile(r"^(?:Re)?doubles\s*(?:=>\s*(\d+))?\s*$", re.IGNORECASE)
_WINS = re.compile(r"^Wins\s+(\d+)\s+points?(?:\s+and\s+the\s+match)?\.?\s*$", re.IGNORECASE)
_LOSSES = re.compile(r"^Loss(?:es)?\s+(\d+)\s+points?\s*$|^Loses\s+(\d+)\s+points?\s*$", re.IGNORECASE)
_TOKEN = re.compile(r"^(bar|\d{1,2})\*?((?:/(?:bar|off|\d{1,2})\*?)+)(?:\((\d)\))?$", re.IGNORECASE)


# ---------------------------------------------------------------------------- stage 1
@dataclass(frozen=True, slots=True)
class Entry:
    """One column's text on one line: what a player did at move `move` of a game."""

    player: int
    kind: EntryKind
    text: str
    move: int
    line: int
    dice: tuple[int, int] | None = None
    number: int = 0  # the value of `Doubles => N`, `Wins N`, `Losses N`


@dataclass(frozen=True, slots=True)
class RawGame:
    """A game as written: its number, players and score line, and its entries."""

    number: int
    names: tuple[str, str]
    score: tuple[int, int]
    entries: tuple[Entry, ...]
    line: int


@dataclass(frozen=True, slots=True)
class RawMatch:
    length: int
    tags: tuple[tuple[str, str], ...]
    games: tuple[RawGame, ...]


def _number(digits: str | None) -> int:
    """A number of an entry (`Doubles => N`, `Wins N`), 0 when absent; -1 when it is
    longer than any real record's (the entry is then unreadable)."""
    if not digits:
        return 0
    return int(digits) if len(digits) <= MAX_DIGITS else -1


def clip(text: str, limit: int = 80) -> str:
    """`text` cut to `limit` characters: an error names what it could not read, it never
    echoes a whole long line back."""
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def _score_line(line: str) -> tuple[tuple[str, str], tuple[int, int], int] | None:
    """`name : N   name : N` as (names, score, column of the second name), or None.

    The first `: N` followed by a space and the `: N` after it, each name what stands
    before its colon: what the lazy pattern `(.*?)\\s*:\\s*(\\d+)\\s+(.*?)\\s*:\\s*(\\d+)` found,
    in one pass over the line instead of every split of every run of spaces."""
    parts = list(_SCORE_PART.finditer(line))
    for first, second in pairwise(parts):
        end = first.end()
        if end >= len(line) or not line[end].isspace():
            continue
        if max(len(first.group(1)), len(second.group(1))) > MAX_DIGITS:
            return None
        column = end
        while column < second.start() and line[column].isspace():
            column += 1
        names = (line[: first.start()].strip(), line[column: second.start()].strip())
        return names, (int(first.group(1)), int(second.group(1))), column
    return None


def _classify(player: int, text: str, move: int, line: int) -> Entry:
    text = text.strip()
    m = _ROLL.match(text)
    if m:
        return Entry(player, "roll", m.group(3).strip(), move, line, (int(m.group(1)), int(m.group(2))))
    m = _DOUBLE.match(text)
    if m and _number(m.group(1)) >= 0:
        return Entry(player, "double", text, move, line, number=_number(m.group(1)))
    low = text.lower()
    if re.match(r"^(takes|accepts)\b", low):
        return Entry(player, "take", text, move, line)
    if re.match(r"^(drops|passes|rejects)\b", low):
        return Entry(player, "drop", text, move, line)
    m = _WINS.match(text)
    if m and _number(m.group(1)) >= 0:
        return Entry(player, "wins", text, move, line, number=_number(m.group(1)))
    m = _LOSSES.match(text)
    if m and _number(m.group(1) or m.group(2)) >= 0:
        return Entry(player, "losses", text, move, line, number=_number(m.group(1) or m.group(2)))
    if re.match(r"^resigns?\b", low):  # a .gam marker; like `Losses`, the `Wins` line decides
        return Entry(player, "losses", text, move, line)
    if re.match(r"^(beavers?|raccoons?)\b", low):  # not in our rules (RULES.md "Doubling cube")
        return Entry(player, "unknown", text, move, line)
    return Entry(player, "unreadable", text, move, line)


def _split_line(raw: str, threshold: int, move: int, line_no: int) -> list[Entry]:
    """The entries of one move line, each given to the left (0) or right (1) player."""
    body = raw.rstrip()
    number = _NUMBER.match(body)
    start = number.end() if number else 0
    starts = [m.start() for m in _ENTRY_START.finditer(body, start)]
    if not starts:
        rest = body[start:].strip()
        return [Entry(0, "unreadable", rest, move, line_no)] if rest else []
    lead = body[start:starts[0]].strip()
    chunks = [(s, body[s:e].strip()) for s, e in zip(starts, starts[1:] + [len(body)])]
    if lead:
        return [Entry(0, "unreadable", body[start:].strip(), move, line_no)]
    for k, (col, text) in enumerate(chunks):
        if _NUMBER.match(text) or k >= 2:  # a second `NN)` or a third entry: garbled from here
            sides = [0 if chunks[0][0] < threshold else 1, 1][:k]
            good = [_classify(side, t, move, line_no) for side, (_, t) in zip(sides, chunks)]
            side = 1 if k >= 1 or col >= threshold else 0
            return good + [Entry(side, "unreadable", " ".join(body[col:].split()), move, line_no)]
    if len(chunks) == 2:
        if chunks[0][0] >= threshold:  # two entries both right of the left column
            return [Entry(1, "unreadable", body[starts[0]:].strip(), move, line_no)]
        return [_classify(0, chunks[0][1], move, line_no), _classify(1, chunks[1][1], move, line_no)]
    col, text = chunks[0]
    return [_classify(0 if col < threshold else 1, text, move, line_no)]


def parse_mat(text: str) -> RawMatch:
    """Stage 1: the structure of a `.mat` file, no rules. Raises RecordError when there is
    no `N point match` line or a game header has no score line."""
    lines = _record_lines(text)
    tags, length, i = _header(lines)
    return RawMatch(length, tuple(tags), tuple(_games(lines, i)))


def _record_lines(text: str) -> list[str]:
    """The file's lines, whatever their ends (XG writes a BOM); a line longer than any
    record's means the file is no record, and is refused before any pattern sees it."""
    lines = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for number, line in enumerate(lines, 1):
        if len(line) > MAX_LINE:
            raise RecordError(f"line {number} is {len(line):,} characters long: not a match record "
                              f"(a line has at most {MAX_LINE:,})")
    return lines


def _header(lines: list[str]) -> tuple[list[tuple[str, str]], int, int]:
    """The tags before the `N point match` line, the match length, and the index of the
    line after it."""
    tags: list[tuple[str, str]] = []
    for i, line in enumerate(lines):
        m = _TAG.match(line)
        if m:
            tags.append((m.group(1).strip(), m.group(2)))
            continue
        m = _LENGTH.match(line)
        if m:
            if len(m.group(1)) > MAX_DIGITS:
                raise RecordError(f"line {i + 1}: a match to {clip(m.group(1), 20)} points is not a match length")
            return tags, int(m.group(1)), i + 1
    raise RecordError("not a .mat match record: no 'N point match' line")


def _games(lines: list[str], i: int) -> list[RawGame]:
    """The games from line index `i` on; only blank and comment lines may come before
    the first `Game N` header."""
    games: list[RawGame] = []
    while i < len(lines):
        m = _GAME.match(lines[i])
        if m:
            game, i = _game(lines, i, m.group(1))
            games.append(game)
            continue
        if lines[i].strip() and not lines[i].lstrip().startswith(";") and not games:
            raise RecordError(f"line {i + 1}: text before the first 'Game 1': {clip(lines[i].strip())!r}")
        i += 1
    return games


def _game(lines: list[str], i: int, digits: str) -> tuple[RawGame, int]:
    """The game whose `Game N` header (N written `digits`) is at line index `i`: its score
    line and entries, and the index of the line after it."""
    if len(digits) > MAX_DIGITS:
        raise RecordError(f"line {i + 1}: game {clip(digits, 20)} is not a game number")
    number, header_line = int(digits), i + 1
    i += 1
    while i < len(lines) and not lines[i].strip():
        i += 1
    found = _score_line(lines[i]) if i < len(lines) else None
    if not found:
        raise RecordError(f"game {number}: no score line after 'Game {number}' (line {header_line})")
    names, score, right_col = found
    threshold = max(12, (right_col + 6) // 2)
    entries, i = _entries(lines, i + 1, threshold)
    return RawGame(number, names, score, tuple(entries), header_line), i


def _entries(lines: list[str], i: int, threshold: int) -> tuple[list[Entry], int]:
    """A game's entries from line index `i` up to the next `Game N` header (or the end),
    and that header's index; `threshold` is the column where the right player's begin."""
    entries: list[Entry] = []
    move = 0
    while i < len(lines) and not _GAME.match(lines[i]):
        raw = lines[i]
        if raw.strip() and not raw.lstrip().startswith(";"):
            nm = _NUMBER.match(raw)
            if nm and len(nm.group(1)) > MAX_DIGITS:  # no real move number: the line is unreadable
                entries.append(Entry(0, "unreadable", clip(raw.strip()), max(move, 1), i + 1))
            else:
                if nm:
                    move = int(nm.group(1))
                entries.extend(_split_line(raw, threshold, max(move, 1), i + 1))
        i += 1
    return entries, i


# ---------------------------------------------------------------------------- moves
@lru_cache(maxsize=8192)
def parse_move_text(text: str) -> tuple[tuple[int, int], ...] | None:
    """Segments `(from, to)` of a written move in the mover's numbering (25 bar, 0 off),
    one per written hop; None if the text is not move notation. `Cannot Move` and `` are ()."""
    text = text.strip()
    if not text or text.lower() in ("cannot move", "can't move", "no move"):
        return ()
    segments: list[tuple[int, int]] = []
    for token in text.split():
        m = _TOKEN.match(token)
        if not m:
            return None
        points = [m.group(1)] + [p.rstrip("*") for p in m.group(2).split("/")[1:]]
        values = [25 if p.lower() == "bar" else 0 if p.lower() == "off" else int(p) for p in points]
        if any(v > 25 for v in values):
            return None
        repeat = int(m.group(3) or 1)
        chain = list(pairwise(values))
        if any(a <= b for a, b in chain) or any(b == 25 for _, b in chain) or any(a == 0 for a, _ in chain):
            return None
        segments.extend(chain * repeat)
    return tuple(segments)


_Key = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[tuple[int, int], ...]]


def realise(position: Position, dice: tuple[int, int], segments: tuple[tuple[int, int], ...]
            ) -> list[tuple[Position, tuple[Step, ...], int]]:
    """Every way of playing the written segments with these dice, step by step under the
    rules of one step (RULES.md "Moving", "Bearing off"): (result, steps, dice used).

    A written hop may take several dice (`13/7` with 4-2) and a bear-off hop may take a
    die larger than needed. Whether the whole move is legal (use as many dice as possible,
    the higher die) is the caller's question: a play that uses every die is always legal.
    The search stops at the first play that uses every die without hitting anywhere the
    text did not name (the usual case: nothing else could be meant).
    """
    written = {b for _, b in segments}
    d1, d2 = dice
    pool = (d1,) * 4 if d1 == d2 else tuple(sorted((d1, d2)))
    out: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[Position, tuple[Step, ...], int]] = {}
    seen: set[_Key] = set()
    full = len(pool)
    done = [False]

    def search(mine: list[int], theirs: list[int], left: tuple[int, ...],
               segs: tuple[tuple[int, int], ...], steps: tuple[Step, ...]) -> None:
        if not segs:
            key = (tuple(mine), tuple(theirs))
            if key not in out:
                out[key] = (Position(key[0], key[1]), steps, len(steps))
                if len(steps) == full and not any(s.hit and s.to not in written for s in steps):
                    done[0] = True
            return
        if not left or done[0]:
            return
        state = (tuple(mine), tuple(theirs), left, tuple(sorted(segs)))
        if state in seen:
            return
        seen.add(state)
        on_bar = mine[24] > 0
        tried: set[tuple[tuple[int, int], int]] = set()
        for si, (frm, target) in enumerate(segs):
            if on_bar and frm != 25:
                continue
            if frm != 25 and not mine[frm - 1]:
                continue
            if frm == 25 and not on_bar:
                continue
            for di, die in enumerate(left):
                if ((frm, target), die) in tried:
                    continue
                tried.add(((frm, target), die))
                to = frm - die
                if target > 0 and to < target:
                    continue
                hit = False
                if to >= 1:
                    opp = theirs[24 - to]
                    if opp >= 2:
                        continue
                    hit = opp == 1
                else:
                    if target != 0 or any(mine[k] for k in range(6, 25)):
                        continue
                    if to < 0 and any(mine[k] for k in range(frm, 6)):
                        continue
                    to = 0
                m2 = mine.copy()
                m2[24 if frm == 25 else frm - 1] -= 1
                t2 = theirs
                if to:
                    m2[to - 1] += 1
                    if hit:
                        t2 = theirs.copy()
                        t2[24 - to] = 0
                        t2[24] += 1
                # keep the written order (a hop that goes on stays in its place), so that
                # the steps come out in the order they were written whenever that is legal
                rest = segs[:si] + (((to, target),) if to != target else ()) + segs[si + 1:]
                search(m2, t2, left[:di] + left[di + 1:], rest, steps + (Step(frm, to, die, hit),))
                if done[0]:
                    return

    search(list(position.mine), list(position.theirs), pool, tuple(segments), ())
    return list(out.values())


def play_written(position: Position, dice: tuple[int, int], text: str) -> tuple[Position, tuple[Step, ...]]:
    """The legal move that `text` describes for `dice` from `position`: (result seen by the
    mover, steps). Raises ValueError with a one-line reason when it is not legal."""
    segments = parse_move_text(text)
    if segments is None:
        raise ValueError(f"unreadable move {text!r}")
    shown = f"{dice[0]}-{dice[1]}"
    full = 4 if dice[0] == dice[1] else 2
    if not segments:
        if legal_moves(position, dice):
            raise ValueError(f"no move is not legal for {shown}: a move is possible")
        return position, ()
    options = realise(position, dice, segments)
    complete = [o for o in options if o[2] == full]
    if not complete and options:
        legal = {m.result for m in legal_moves(position, dice)}
        complete = [o for o in options if o[0] in legal]
    if not complete:
        raise ValueError(f"{text} is not legal for {shown}")
    if len(complete) > 1:  # e.g. `13/7` with 4-2: prefer the path whose hits were written
        written = {int(p) for p in re.findall(r"(\d+)\*", text)}
        complete.sort(key=lambda o: sum(1 for s in o[1] if s.hit and s.to not in written))
    return complete[0][0], complete[0][1]


# ---------------------------------------------------------------------------- stage 2
@dataclass(frozen=True, slots=True)
class Problem:
    """The first illegal or unreadable entry: where it is and why."""

    game: int
    move: int
    reason: str
    line: int = 0

    def __str__(self) -> str:
        if self.move:
            return f"game {self.game} move {self.move}: {self.reason}"
        return f"game {self.game}: {self.reason}"


@dataclass(slots=True)
class _GameState:
    """The board and cube while a game is being replayed."""

    position: Position = field(default_factory=Position.initial)
    turn: int | None = None  # who is on roll; `position` is seen from them
    cube: int = 1
    owner: int | None = None
    offered: bool = False
    winner: int | None = None
    points: int = 0
    end: End | None = None
    abandoned: Entry | None = None  # Studio `NN: ????`: must be followed by a resignation


#: the problem of a game the record stops in the middle of (a match still in progress when
#: it was written, if it is the record's last game)
UNFINISHED = "the record ends before the game does"


class _Stop(Exception):
    def __init__(self, entry: Entry | None, reason: str) -> None:
        super().__init__(reason)
        self.entry = entry
        self.reason = reason


def _result_level(after: Position) -> int:
    """1, 2 or 3 for the player who just bore off the last checker (`after` from them)."""
    loser = after.theirs
    if sum(loser) < 15:
        return 1
    if any(loser[k] for k in range(18, 25)):
        return 3
    return 2


@dataclass
class _Turn:
    """One entry being applied to the game it belongs to (what `_apply`'s parts share)."""

    entry: Entry
    st: _GameState
    actions: list[Action]
    who: str
    crawford: bool
    length: int


def _apply(entry: Entry, st: _GameState, actions: list[Action], names: tuple[str, str],
           crawford: bool, length: int) -> None:
    """Apply one entry of a game to its state and action list; _Stop names what is wrong."""
    who = names[entry.player] or f"player {entry.player + 1}"
    if st.winner is not None:
        if entry.kind == "wins":
            if entry.player != st.winner:
                raise _Stop(entry, f"'{entry.text}' for {who}, but {names[st.winner] or 'the other player'} won")
            return
        if entry.kind == "losses":
            return
        raise _Stop(entry, f"'{entry.text}' after the game has ended")
    if st.abandoned is not None and entry.kind not in ("wins", "losses"):
        raise _Stop(st.abandoned, f"unreadable move {st.abandoned.text!r}")
    if entry.kind == "losses":
        return  # Galaxy's marker; its column is not reliable, the `Wins` line decides
    part = _KINDS.get(entry.kind)
    if part is None:
        what = "unreadable entry" if entry.kind == "unreadable" else "unknown command"
        raise _Stop(entry, f"{what} {entry.text!r}")
    part(_Turn(entry, st, actions, who, crawford, length))


def _roll(t: _Turn) -> None:
    entry, st, p, who = t.entry, t.st, t.entry.player, t.who
    assert entry.dice is not None
    if st.offered:
        raise _Stop(entry, f"{who} rolls before the double is answered")
    if st.turn is None:
        st.turn = p
    elif st.turn != p:
        raise _Stop(entry, f"{who} rolls out of turn")
    if entry.text.strip() == "????":
        st.abandoned = entry
        return
    try:
        after, steps = play_written(st.position, entry.dice, entry.text)
    except ValueError as exc:
        raise _Stop(entry, str(exc)) from None
    t.actions.append(Roll(p, entry.dice, steps))
    if sum(after.mine) == 0:
        st.winner, st.points, st.end = p, _result_level(after) * st.cube, "bearoff"
        st.position = after
        return
    st.position, st.turn = after.swap(), 1 - p


def _double(t: _Turn) -> None:
    entry, st, p, who = t.entry, t.st, t.entry.player, t.who
    if st.turn is None or st.turn != p:
        raise _Stop(entry, f"{who} doubles out of turn")
    if st.offered:
        raise _Stop(entry, f"{who} doubles twice")
    if t.length == 1:
        raise _Stop(entry, "no cube in a match to 1 point")
    if t.crawford:
        raise _Stop(entry, "no doubling in the Crawford game")
    if st.owner not in (None, p):
        raise _Stop(entry, f"{who} doubles but does not own the cube")
    if entry.number and entry.number != 2 * st.cube:
        raise _Stop(entry, f"'{entry.text}' but the cube is on {st.cube}")
    st.offered = True
    t.actions.append(Double(p, 2 * st.cube))


def _answer(t: _Turn) -> None:
    """A take or a drop of the double offered."""
    entry, st, p = t.entry, t.st, t.entry.player
    if not st.offered or st.turn == p:
        raise _Stop(entry, f"'{entry.text}' without a double to answer")
    st.offered = False
    if entry.kind == "take":
        st.cube, st.owner = 2 * st.cube, p
        t.actions.append(Take(p))
    else:
        t.actions.append(Drop(p))
        st.winner, st.points, st.end = 1 - p, st.cube, "drop"


def _wins(t: _Turn) -> None:
    """A `Wins N` line ending a game not ended by play: a resignation, or a double that was
    never answered (the doubler wins it)."""
    entry, st, p = t.entry, t.st, t.entry.player
    loser = 1 - p
    if st.offered and st.turn == p:
        t.actions.append(Drop(loser))
        st.offered = False
        st.winner, st.points, st.end = p, st.cube, "drop"
        return
    level = min(3, max(1, -(-entry.number // st.cube)))  # as gnubg: up to the next level
    st.abandoned = None
    st.offered = False
    t.actions.append(Resign(loser, level))
    st.winner, st.points, st.end = p, level * st.cube, "resign"


_KINDS: dict[str, Callable[[_Turn], None]] = {
    "roll": _roll, "double": _double, "take": _answer, "drop": _answer, "wins": _wins,
}


def check_entries(raw: RawMatch) -> tuple[MatchRecord, Problem | None]:
    """Stage 2: play every game's entries through the engine. Returns the record of what
    could be checked (games up to and including the one with a problem) and the first
    problem, if any."""
    tags = {k.lower(): v for k, v in raw.tags}
    crawford_rule = tags.get("crawford", "On").strip().lower() not in ("off", "false", "no", "0")
    players = raw.games[0].names if raw.games else ("", "")
    players = (tags.get("player 1", players[0]), tags.get("player 2", players[1]))
    games: list[Game] = []
    score = (0, 0)
    crawford_done = False
    problem: Problem | None = None
    for rg in raw.games:
        if raw.length and max(score) >= raw.length:
            problem = Problem(rg.number, 0, "the match was already over before this game", rg.line)
            break
        if rg.score != score:
            problem = Problem(rg.number, 0, f"the score line says {rg.score[0]}-{rg.score[1]}, "
                              f"the games before give {score[0]}-{score[1]}", rg.line)
            break
        crawford = crawford_game(raw.length, score, crawford_done, crawford_rule)
        crawford_done = crawford_done or crawford
        st = _GameState()
        actions: list[Action] = []
        try:
            for entry in rg.entries:
                _apply(entry, st, actions, rg.names, crawford, raw.length)
            if st.abandoned is not None:
                raise _Stop(st.abandoned, f"unreadable move {st.abandoned.text!r}")
            if st.winner is None:
                last = rg.entries[-1] if rg.entries else None
                raise _Stop(last, UNFINISHED)
        except _Stop as stop:
            move = stop.entry.move if stop.entry else 1
            line = stop.entry.line if stop.entry else rg.line
            problem = Problem(rg.number, move, clip(stop.reason, 160), line)
        games.append(Game(rg.number, score, crawford, tuple(actions), st.winner, st.points, st.end,
                          st.cube))
        if problem:
            break
        s = list(score)
        s[st.winner] += st.points  # type: ignore[index]
        score = (s[0], s[1])
    record = MatchRecord(raw.length, players, tuple(games), raw.tags, crawford_rule)
    return record, problem


def check_mat(text: str) -> tuple[MatchRecord, Problem | None]:
    """Read and check a `.mat` text: the record and the first problem (None when clean).
    Raises RecordError only when the text is not a match record at all."""
    return check_entries(parse_mat(text))


def read_mat(text: str) -> MatchRecord:
    """Read a `.mat` text whose every entry must be legal; RecordError names the first
    problem (`game 3 move 12: 13/7 is not legal for 6-5`)."""
    record, problem = check_mat(text)
    if problem is not None:
        raise RecordError(str(problem))
    return record
