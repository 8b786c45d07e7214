"""The night as a director reads it: each tournament's standings (Swiss) or places
(knockout) as rows, the same rows for the room's page, the terminal and standings.csv,
and each result's record under a file name that says which match it was."""
from __future__ import annotations

import csv
import io
import re

from club.state import night
from club.state.model import ClubState, MatchResult, Tournament
from club.tournament.knockout import knockout, places
from club.tournament.swiss import standings

SWISS_HEAD = ("tournament", "rank", "name", "score", "buchholz", "median_buchholz", "sonneborn_berger")
KNOCKOUT_HEAD = ("tournament", "place", "name")


def rows(state: ClubState, tournament: Tournament) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """The head and the rows of one tournament's standings, best first."""
    known = night.winners(state)
    label = tournament.prefix.rstrip("-")
    if tournament.kind == "swiss":
        table = standings(tournament.players, tournament.rounds, known, tournament.seed)
        return SWISS_HEAD, [(label, str(s.rank), s.name, str(s.score), str(s.buchholz), str(s.median_buchholz),
                             str(s.sonneborn_berger)) for s in table]
    body: list[tuple[str, ...]] = [(label, place, name) for place, name in places(tournament.players, known, tournament.prefix)]
    consolation = knockout(tournament.players, known, tournament.prefix).consolation
    if consolation is not None and consolation.champion is not None:
        body.append((label, "consolation winner", consolation.champion))
    return KNOCKOUT_HEAD, body


def standings_csv(state: ClubState) -> str:
    """Every tournament of the night, one table after the other, each with its head."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for tournament in state.tournaments:
        head, body = rows(state, tournament)
        writer.writerow(head)
        writer.writerows(body)
    return out.getvalue()


def record_name(result: MatchResult) -> str:
    """`T1-R2-3-Anna-vs-Bjørn.mat`: the match, then its players (safe in any file system)."""
    def safe(text: str) -> str:
        return re.sub(r"[^\w.-]+", "_", text).strip("_")[:40] or "_"
    return f"{safe(result.match_id)}-{safe(result.white)}-vs-{safe(result.black)}.mat"


def result_lines(state: ClubState) -> list[str]:
    """One line per recorded result, a correction with its reason."""
    lines = []
    for result in state.results.values():
        line = f"{result.match_id}: {result.white} v {result.black} {result.score[0]}-{result.score[1]}, " \
               f"{result.winner_name()} won"
        if result.correction is not None:
            line += f" (corrected: {result.correction.reason})"
        lines.append(line)
    return lines
