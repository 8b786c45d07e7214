"""The night's changes as pure functions: each takes the state and returns the new one, or
raises `NightError` (one line: the state is unchanged, since nothing was replaced).

The formats (club.tournament) decide the pairings; this module only keeps them: who
plays, which board has which match, which results are in and what the director corrected.
"""
from __future__ import annotations

from dataclasses import replace

from club.state.model import Board, ClubState, Correction, Kind, MatchResult, Tournament
from club.state.names import MAX_REASON, name_problem, text_problem
from club.tournament.knockout import knockout, knockout_round
from club.tournament.model import Pairing, Round, RoundRules, Winners
from club.tournament.swiss import pair_round
from controller.errors import UsageError


class NightError(UsageError):
    """A change the night's state refuses (one line; nothing changed)."""


def add_player(state: ClubState, name: str) -> ClubState:
    problem = name_problem(name)
    if problem is not None:
        raise NightError(problem)
    if name.casefold() in (p.casefold() for p in state.players):
        raise NightError(f"{name!r} is already a player")
    return replace(state, players=state.players + (name,))


def add_board(state: ClubState, board: Board) -> ClubState:
    """A paired board (again: its new key and address replace the old)."""
    others = tuple(b for b in state.boards if b.board_id != board.board_id)
    return replace(state, boards=others + (board,))


def winners(state: ClubState) -> Winners:
    """match_id -> winner's name of every recorded result (corrections applied)."""
    return {match_id: result.winner_name() for match_id, result in state.results.items()}


def start(state: ClubState, kind: Kind, rules: tuple[RoundRules, ...], rounds: int | None, seed: int) -> ClubState:
    """A new tournament of every player (in the order they were entered: their seeding),
    its first round paired."""
    current = state.current()
    if current is not None and not finished(state, current):
        raise NightError("the night's tournament is not finished yet")
    if len(state.players) < 2:
        raise NightError("a tournament needs at least 2 players: bgboard club player add NAME")
    prefix = f"T{len(state.tournaments) + 1}-"
    if kind == "knockout":
        planned = knockout(state.players, {}, prefix).rounds_total()
    else:
        planned = rounds if rounds is not None else 3
        if not 1 <= planned <= len(state.players) + 5:
            raise NightError(f"a Swiss of {len(state.players)} players has 1 to {len(state.players) + 5} rounds")
    tournament = Tournament(kind, prefix, state.players, rules, planned, seed)
    return next_round(replace(state, tournaments=state.tournaments + (tournament,)))


def next_round(state: ClubState) -> ClubState:
    """The current tournament with its next round paired (the last must be finished)."""
    tournament = state.current()
    if tournament is None:
        raise NightError("no tournament: bgboard club swiss|knockout starts one")
    if len(tournament.rounds) >= tournament.rounds_planned:
        raise NightError("the tournament is over: every round has been played")
    known = winners(state)
    try:
        if tournament.kind == "swiss":
            paired = pair_round(tournament.players, tournament.rounds, known, tournament.prefix)
        else:
            paired = knockout_round(tournament.players, known, tournament.prefix, len(tournament.rounds) + 1)
    except ValueError as exc:
        raise NightError(str(exc)) from None
    changed = replace(tournament, rounds=tournament.rounds + (paired,))
    return replace(state, tournaments=state.tournaments[:-1] + (changed,))


def current_round(state: ClubState) -> tuple[Tournament, Round] | None:
    tournament = state.current()
    if tournament is None or not tournament.rounds:
        return None
    return tournament, tournament.rounds[-1]


def finished(state: ClubState, tournament: Tournament) -> bool:
    """Whether every round was paired and every match has its result."""
    known = winners(state)
    return len(tournament.rounds) >= tournament.rounds_planned and all(r.finished(known) for r in tournament.rounds)


def unassigned(state: ClubState) -> list[tuple[Pairing, RoundRules]]:
    """The current round's matches with no board and no result yet, in table order."""
    found = current_round(state)
    if found is None:
        return []
    tournament, paired = found
    rules = tournament.rules_of(paired.number)
    return [(p, rules) for p in paired.pairings
            if p.match_id not in state.assignments and p.match_id not in state.results]


def free_boards(state: ClubState) -> list[Board]:
    """Paired boards with no match under way (each assigned match has its result)."""
    busy = {board for match_id, board in state.assignments.items() if match_id not in state.results}
    return [b for b in state.boards if b.board_id not in busy]


def assign(state: ClubState, match_id: str, board_id: str) -> ClubState:
    return replace(state, assignments={**state.assignments, match_id: board_id})


def unassign(state: ClubState, match_id: str) -> ClubState:
    return replace(state, assignments={k: v for k, v in state.assignments.items() if k != match_id})


def pairing(state: ClubState, match_id: str) -> Pairing | None:
    for tournament in state.tournaments:
        for paired in tournament.rounds:
            for p in paired.pairings:
                if p.match_id == match_id:
                    return p
    return None


def record(state: ClubState, result: MatchResult) -> ClubState:
    if result.match_id in state.results:
        raise NightError(f"{result.match_id} is already recorded")
    return replace(state, results={**state.results, result.match_id: result})


def correct(state: ClubState, match_id: str, winner: str, reason: str, at: str) -> ClubState:
    """The director's correction of a recorded result: the winner must be one of its
    players, the reason is said (and kept with the result)."""
    result = state.results.get(match_id)
    if result is None:
        raise NightError(f"no result of {match_id!r} to correct")
    if winner not in (result.white, result.black):
        raise NightError(f"{winner!r} did not play {match_id} ({result.white} v {result.black})")
    problem = text_problem(reason, "a reason", MAX_REASON)
    if problem is not None:
        raise NightError(problem)
    corrected = replace(result, correction=Correction(winner, reason, at))
    return replace(state, results={**state.results, match_id: corrected})
