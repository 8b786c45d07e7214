"""The night's state to JSON and back, exactly: `decode(encode(state)) == state`.

Decoding checks every field's type (a hand-edited or damaged file is a `StateFileError`
naming the field, never a KeyError traceback), so a state that loads is one the hub can
run on.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from club.state.model import Board, ClubState, Correction, Kind, MatchResult, Side, Tournament
from club.tournament.model import Clock, Pairing, Round, RoundRules
from controller.json_value import JsonObject

FORMAT = 1


class StateFileError(ValueError):
    """The club's state file is not one this hub wrote (one line)."""


def encode(state: ClubState) -> JsonObject:
    return {
        "format": FORMAT, "hub_id": state.hub_id, "hub_name": state.hub_name,
        "players": list(state.players),
        "boards": [{"board_id": b.board_id, "name": b.name, "address": b.address, "hub_key": b.hub_key}
                   for b in state.boards],
        "tournaments": [_tournament(t) for t in state.tournaments],
        "assignments": dict(state.assignments),
        "results": {k: _result(r) for k, r in state.results.items()},
    }


def _rules(r: RoundRules) -> JsonObject:
    clock: object = None if r.clock is None else {"minutes": r.clock.minutes, "delay_s": r.clock.delay_s}
    return {"length": r.length, "clock": clock, "crawford": r.crawford}


def _tournament(t: Tournament) -> JsonObject:
    return {"kind": t.kind, "prefix": t.prefix, "players": list(t.players), "rules": [_rules(r) for r in t.rules],
            "rounds_planned": t.rounds_planned, "seed": t.seed,
            "rounds": [{"number": r.number, "byes": list(r.byes),
                        "pairings": [{"match_id": p.match_id, "white": p.white, "black": p.black}
                                     for p in r.pairings]} for r in t.rounds]}


def _result(r: MatchResult) -> JsonObject:
    correction: object = None if r.correction is None else {
        "winner": r.correction.winner, "reason": r.correction.reason, "at": r.correction.at}
    return {"match_id": r.match_id, "board_id": r.board_id, "white": r.white, "black": r.black,
            "length": r.length, "score": list(r.score), "winner": r.winner, "record": r.record,
            "finished_at": r.finished_at, "correction": correction}


# -- decoding ------------------------------------------------------------------------
def _obj(value: object, where: str) -> Mapping[str, object]:
    if not isinstance(value, dict):
        raise StateFileError(f"{where} is not an object")
    return cast(Mapping[str, object], value)


def _str(obj: Mapping[str, object], key: str, where: str) -> str:
    value = obj.get(key)
    if not isinstance(value, str):
        raise StateFileError(f"{where}.{key} is not text")
    return value


def _int(obj: Mapping[str, object], key: str, where: str) -> int:
    value = obj.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise StateFileError(f"{where}.{key} is not a whole number")
    return value


def _list(obj: Mapping[str, object], key: str, where: str) -> list[object]:
    value = obj.get(key)
    if not isinstance(value, list):
        raise StateFileError(f"{where}.{key} is not a list")
    return value


def _names(obj: Mapping[str, object], key: str, where: str) -> tuple[str, ...]:
    values = _list(obj, key, where)
    if not all(isinstance(v, str) for v in values):
        raise StateFileError(f"{where}.{key} holds something that is not text")
    return tuple(cast(list[str], values))


def decode(value: object) -> ClubState:
    top = _obj(value, "the state")
    if top.get("format") != FORMAT:
        raise StateFileError(f"format {top.get('format')!r} is not {FORMAT}")
    boards = tuple(_board(_obj(b, "a board")) for b in _list(top, "boards", "state"))
    tournaments = tuple(_tournament_of(_obj(t, "a tournament")) for t in _list(top, "tournaments", "state"))
    assignments = {k: v for k, v in _obj(top.get("assignments"), "assignments").items() if isinstance(v, str)}
    if len(assignments) != len(_obj(top.get("assignments"), "assignments")):
        raise StateFileError("assignments holds a board id that is not text")
    results = {k: _result_of(_obj(v, f"result {k}")) for k, v in _obj(top.get("results"), "results").items()}
    return ClubState(_str(top, "hub_id", "state"), _str(top, "hub_name", "state"), _names(top, "players", "state"),
                     boards, tournaments, assignments, results)


def _board(b: Mapping[str, object]) -> Board:
    return Board(_str(b, "board_id", "board"), _str(b, "name", "board"), _str(b, "address", "board"),
                 _str(b, "hub_key", "board"))


def _rules_of(r: Mapping[str, object]) -> RoundRules:
    clock_value = r.get("clock")
    clock = None
    if clock_value is not None:
        c = _obj(clock_value, "rules.clock")
        clock = Clock(_int(c, "minutes", "clock"), _int(c, "delay_s", "clock"))
    crawford = r.get("crawford")
    if not isinstance(crawford, bool):
        raise StateFileError("rules.crawford is not true or false")
    try:
        return RoundRules(_int(r, "length", "rules"), clock, crawford)
    except ValueError as exc:
        raise StateFileError(f"rules: {exc}") from None


def _round_of(r: Mapping[str, object]) -> Round:
    pairings = tuple(Pairing(_str(p, "match_id", "pairing"), _str(p, "white", "pairing"), _str(p, "black", "pairing"))
                     for p in (_obj(x, "a pairing") for x in _list(r, "pairings", "round")))
    return Round(_int(r, "number", "round"), pairings, _names(r, "byes", "round"))


def _tournament_of(t: Mapping[str, object]) -> Tournament:
    kind = _str(t, "kind", "tournament")
    if kind not in ("swiss", "knockout"):
        raise StateFileError(f"tournament.kind {kind!r} is not swiss or knockout")
    rules = tuple(_rules_of(_obj(r, "rules")) for r in _list(t, "rules", "tournament"))
    if not rules:
        raise StateFileError("tournament.rules is empty")
    rounds = tuple(_round_of(_obj(r, "a round")) for r in _list(t, "rounds", "tournament"))
    return Tournament(cast(Kind, kind), _str(t, "prefix", "tournament"), _names(t, "players", "tournament"), rules,
                      _int(t, "rounds_planned", "tournament"), _int(t, "seed", "tournament"), rounds)


def _result_of(r: Mapping[str, object]) -> MatchResult:
    score = _list(r, "score", "result")
    if len(score) != 2 or not all(isinstance(s, int) for s in score):
        raise StateFileError("result.score is not two whole numbers")
    winner = _str(r, "winner", "result")
    if winner not in ("white", "black"):
        raise StateFileError(f"result.winner {winner!r} is not white or black")
    correction = None
    if r.get("correction") is not None:
        c = _obj(r.get("correction"), "result.correction")
        correction = Correction(_str(c, "winner", "correction"), _str(c, "reason", "correction"),
                                _str(c, "at", "correction"))
    return MatchResult(_str(r, "match_id", "result"), _str(r, "board_id", "result"), _str(r, "white", "result"),
                       _str(r, "black", "result"), _int(r, "length", "result"),
                       (cast(int, score[0]), cast(int, score[1])), cast(Side, winner), _str(r, "record", "result"),
                       _str(r, "finished_at", "result"), correction)
