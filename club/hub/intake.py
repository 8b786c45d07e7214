"""Whether a result a board reports is recorded (the contract's "hub's side of the rules").

A result is recorded only when it comes from the board the hub assigned that match_id to,
for a match it assigned and has not recorded yet, between the players it paired, to the
round's length, with a score that ends the match and a `.mat` record that replays clean
to that score. The same result again from the same board (the hub was stopped between
recording it and acknowledging it) is acknowledged again and changes nothing. Anything
else is refused in one line and changes nothing: a board cannot invent a match, report
another board's, or count one twice.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from club.hub.client import BoardReport
from club.state import night
from club.state.model import ClubState, MatchResult
from controller.errors import RecordError
from controller.outside_text import printable
from controller.records.replay import replay_text


@dataclass(frozen=True, slots=True)
class Verdict:
    """What to do with one report: record it (then ack), only ack it, or refuse it."""

    action: Literal["record", "ack", "refuse"]
    line: str = ""
    result: MatchResult | None = None


def judge(state: ClubState, board_id: str, report: BoardReport) -> Verdict:
    match_id = printable(report.match_id[:60])
    assigned = state.assignments.get(report.match_id)
    if assigned is None:
        return Verdict("refuse", f"a result for {match_id!r}, a match this hub did not assign")
    if assigned != board_id:
        return Verdict("refuse", f"a result for {match_id!r} from a board it was not assigned to")
    if report.match_id in state.results:
        return Verdict("ack", f"{match_id} was recorded already: acknowledged again")
    problem = _problem(state, report)
    if problem is not None:
        return Verdict("refuse", f"the result of {match_id}: {problem}")
    result = MatchResult(report.match_id, board_id, report.white, report.black, report.length, report.score,
                         report.winner, report.record, report.finished_at)
    return Verdict("record", f"{match_id}: {printable(result.winner_name())} won "
                   f"{report.score[0]}-{report.score[1]}", result)


def _problem(state: ClubState, report: BoardReport) -> str | None:
    pairing = night.pairing(state, report.match_id)
    if pairing is None or (pairing.white, pairing.black) != (report.white, report.black):
        return "its players are not the ones paired"
    tournament = next(t for t in state.tournaments if any(report.match_id in r.match_ids() for r in t.rounds))
    number = next(r.number for r in tournament.rounds if report.match_id in r.match_ids())
    if report.length != tournament.rules_of(number).length:
        return f"a match to {report.length}, not the round's {tournament.rules_of(number).length}"
    won = report.score[0 if report.winner == "white" else 1]
    lost = report.score[1 if report.winner == "white" else 0]
    if won < report.length or lost >= report.length:
        return f"the score {report.score[0]}-{report.score[1]} does not end the match for {report.winner}"
    return _record_problem(report)


def _record_problem(report: BoardReport) -> str | None:
    try:
        replayed = replay_text(report.record, report.match_id)
    except (RecordError, ValueError) as exc:
        return f"its record is not a .mat record ({printable(str(exc))[:80]})"
    if not replayed.ok:
        return f"its record does not replay: {printable(replayed.problem or '')[:80]}"
    if replayed.in_progress is not None or tuple(replayed.players) != (report.white, report.black) \
            or tuple(replayed.final) != report.score:
        return "its record is not of this match, finished, at this score"
    return None
