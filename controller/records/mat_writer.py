"""Write match records in the `.mat` text layout that GNU Backgammon exports and imports.

The layout follows GNU Backgammon's own `export match mat` (export.c, `ExportGameJF`):
a left column for player 1 and a right one for player 2, `Doubles => N`, `Takes`, `Drops`,
and `Wins N point(s)` in the winner's column. Moves are written in the notation every
other part of the product prints, GNU Backgammon's `FormatMove` (`notation.format_move`:
`13/9`, `24/18(2)`, `bar/22*`, `6/off`), which GNU Backgammon's importer reads as it reads
its own one-token-per-die export. On top of that, the `; [Tag "value"]` header
that BackgammonGalaxy, Backgammon Studio and eXtreme Gammon write, including
`; [Crawford "On"]`: GNU Backgammon works out the Crawford game from the scores itself
and ignores that tag, other programs read it.

A resignation is written as the winner's `Wins N points` with N = level x cube, which
every importer reads back as that level (N / cube).
"""
from __future__ import annotations

from controller.engine.notation import format_move
from controller.records.model import Double, Drop, Game, MatchRecord, Roll, Take

_LEFT_WIDTH = 27
_OWN_TAGS = ("player 1", "player 2", "crawford", "variation")


def _points(n: int) -> str:
    return f"Wins {n} point{'s' if n != 1 else ''}"


def _cells(game: Game) -> list[tuple[int, str, bool]]:
    """(player column, text, is-the-final-Wins) for every entry of a game, in order."""
    cells: list[tuple[int, str, bool]] = []
    for action in game.actions:
        if isinstance(action, Roll):
            cells.append((action.player, f"{action.dice[0]}{action.dice[1]}: {format_move(action.steps)}".rstrip(), False))
        elif isinstance(action, Double):
            cells.append((action.player, f" Doubles => {action.cube}", False))
        elif isinstance(action, Take):
            cells.append((action.player, " Takes", False))
        elif isinstance(action, Drop):
            cells.append((action.player, " Drops", False))
        # a Resign is written as the winner's `Wins` line below
    if game.winner is not None:
        cells.append((game.winner, _points(game.points), True))
    return cells


def _game_lines(game: Game, names: tuple[str, str]) -> list[str]:
    lines = [f" Game {game.number}"]
    left = f"{names[0]} : {game.score[0]}"
    # a first name of 26 characters or more still leaves a space before the second (a club's
    # players are named up to 40: `Anna ... : 0Bo : 0` was no score line any reader knew)
    lines.append(f" {left:<30} {names[1]} : {game.score[1]}")
    rows: list[list[str | None]] = []
    final_row: int | None = None
    for player, text, final in _cells(game):
        row = rows[-1] if rows else None
        fits = row is not None and row[player] is None and (player == 1 or row[1] is None)
        if not fits:
            rows.append([None, None])
            row = rows[-1]
            if final:
                final_row = len(rows) - 1
        assert row is not None
        row[player] = text
    number = 0
    for k, (a, b) in enumerate(rows):
        if k == final_row:
            lines.append(f"      {a}" if a is not None else f"{'':34}{b}")
            continue
        number += 1
        left_cell = a or ""
        prefix = f"{number:3d}) "
        if b is None:
            lines.append((prefix + left_cell).rstrip())
        else:
            pad = _LEFT_WIDTH if len(left_cell) < _LEFT_WIDTH else len(left_cell) + 1
            lines.append(f"{prefix}{left_cell:<{pad}} {b}".rstrip())
    lines.append("")
    return lines


def write_mat(record: MatchRecord) -> str:
    """The record as `.mat` text (ending with a newline)."""
    # a score line needs a name; the tags keep the real (even empty) ones
    names = (record.players[0] or "Player_1", record.players[1] or "Player_2")
    head = [f'; [Player 1 "{record.players[0]}"]', f'; [Player 2 "{record.players[1]}"]']
    head += [f'; [{k} "{v}"]' for k, v in record.tags if k.lower() not in _OWN_TAGS]
    head += ['; [Variation "Backgammon"]', f'; [Crawford "{"On" if record.crawford_rule else "Off"}"]']
    lines = head + ["", f" {record.length} point match", ""]
    for game in record.games:
        lines += _game_lines(game, names)
    return "\n".join(lines) + "\n"
