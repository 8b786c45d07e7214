"""A match state as plain JSON data and back, exactly (history and clocks included).

Used to save a match after every confirmed action and to resume it. Positions are
written as GNU Backgammon Position IDs, steps as ``[from, to, die, hit]`` in the mover's
numbering. Anything malformed raises :class:`MatchStateError` naming what is wrong, and
a match that is well-formed but that play could not have reached is refused too
(``match_check``): a loaded match is held to the same rules as one being played.
"""
from __future__ import annotations

import math
from typing import Any

from controller.engine.clock import clock_from_dict
from controller.engine.errors import EngineError, MatchStateError
from controller.engine.match import PHASES, LastMove, Match
from controller.engine.match_check import check_reachable, check_step_shape
from controller.engine.match_history import (
    Action,
    CubeRecord,
    GameEnd,
    GameRecord,
    ResignRecord,
    TurnRecord,
)
from controller.engine.match_settings import MatchSettings
from controller.engine.moves import Step
from controller.engine.position import Position
from controller.json_value import JsonObject

FORMAT = 1
#: the largest whole number a saved match holds (a clock's milliseconds, a game number)
WHOLE_LIMIT = 10**12


def _whole(value: Any, what: str) -> int:
    """A whole number as JSON holds it: not a bool, a float, a string or a huge number."""
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) > WHOLE_LIMIT:
        raise MatchStateError(f"{what} {str(value)[:20]!r} is not a whole number")
    return value


def _finite(data: Any) -> Any:
    """`data` with every number in it finite and moderate (a clock's seconds)."""
    if isinstance(data, dict):
        for item in data.values():
            _finite(item)
    elif isinstance(data, list):
        for item in data:
            _finite(item)
    elif isinstance(data, float | int) and not isinstance(data, bool) and not (
            math.isfinite(data) and abs(data) <= WHOLE_LIMIT):
        raise MatchStateError(f"number {str(data)[:20]} out of range")
    return data


def _steps_out(steps: tuple[Step, ...]) -> list[list[Any]]:
    return [[s.frm, s.to, s.die, s.hit] for s in steps]


def _steps_in(data: Any) -> tuple[Step, ...]:
    steps = []
    if not isinstance(data, list) or len(data) > 4:
        raise MatchStateError("bad steps: up to four steps a turn")
    for frm, to, die, hit in data:
        if not isinstance(hit, bool):
            raise MatchStateError("bad step: hit is true or false")
        step = Step(_whole(frm, "step from"), _whole(to, "step to"), _whole(die, "die"), hit)
        check_step_shape(step)
        steps.append(step)
    return tuple(steps)


def _dice_in(data: Any) -> tuple[int, int] | None:
    if data is None:
        return None
    d1, d2 = data
    if not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in (d1, d2)):
        raise MatchStateError(f"bad dice {data!r}")
    return d1, d2


def _side_in(data: Any, none: bool = True) -> Any:
    if data in ("white", "black") or (none and data is None):
        return data
    raise MatchStateError(f"bad side {data!r}")


def _action_out(a: Action) -> JsonObject:
    if isinstance(a, TurnRecord):
        return {"type": "turn", "side": a.side, "dice": list(a.dice), "steps": _steps_out(a.steps),
                "opening": a.opening}
    if isinstance(a, CubeRecord):
        return {"type": "cube", "side": a.side, "action": a.action, "value": a.value}
    return {"type": "resign", "side": a.side, "action": a.action, "level": a.level}


def _action_in(d: dict[str, Any]) -> Action:
    kind = d["type"]
    side = _side_in(d["side"], none=False)
    if kind == "turn":
        dice = _dice_in(d["dice"])
        assert dice is not None
        return TurnRecord(side, dice, _steps_in(d["steps"]), _flag(d["opening"]))
    if kind == "cube" and d["action"] in ("double", "take", "drop"):
        return CubeRecord(side, d["action"], _whole(d["value"], "cube value"))
    if kind == "resign" and d["action"] in ("offer", "accept", "decline"):
        return ResignRecord(side, d["action"], str(d["level"]))
    raise MatchStateError(f"bad history entry {d!r}")


def _game_out(g: GameRecord) -> JsonObject:
    end = None
    if g.end is not None:
        end = {"winner": g.end.winner, "how": g.end.how, "result": g.end.result, "cube": g.end.cube,
               "points": g.end.points}
        if g.end.note:
            end["note"] = g.end.note
    return {"number": g.number, "score_before": list(g.score_before), "crawford": g.crawford,
            "actions": [_action_out(a) for a in g.actions], "end": end}


def _game_in(d: dict[str, Any]) -> GameRecord:
    end = None
    if d["end"] is not None:
        e = d["end"]
        if e["how"] not in ("bearoff", "drop", "resign", "forfeit", "time"):
            raise MatchStateError(f"bad game end {e!r}")
        note = e.get("note", "")
        if not isinstance(note, str):
            raise MatchStateError("a game end's note is not text")
        end = GameEnd(_side_in(e["winner"], none=False), e["how"], e["result"], _whole(e["cube"], "cube"),
                      _whole(e["points"], "points"), note)
    w, b = d["score_before"]
    return GameRecord(_whole(d["number"], "game number"), (_whole(w, "score"), _whole(b, "score")),
                      _flag(d["crawford"]), tuple(_action_in(a) for a in d["actions"]), end)


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise MatchStateError(f"{str(value)[:20]!r} is not true or false")
    return value


def match_to_dict(m: Match) -> JsonObject:
    """The whole state as JSON-ready data."""
    last = None
    if m.last_move is not None:
        last = {"side": m.last_move.side, "dice": list(m.last_move.dice), "steps": _steps_out(m.last_move.steps)}
    return {
        "format": FORMAT,
        "settings": m.settings.to_dict(),
        "phase": m.phase, "score": list(m.score), "game": m.game, "crawford": m.crawford,
        "post_crawford": m.post_crawford, "turn": m.turn, "position": m.position.id,
        "dice": None if m.dice is None else list(m.dice), "steps": _steps_out(m.steps),
        "partial": m.partial.id, "cube": m.cube, "cube_owner": m.cube_owner,
        "resign_level": m.resign_level, "declined": m.declined, "resume": m.resume,
        "resume_used": m.resume_used,
        "last_move": last, "winner": m.winner, "end": m.end, "rematch_offer": m.rematch_offer,
        "clock": None if m.clock is None else m.clock.to_dict(),
        "history": [_game_out(g) for g in m.history],
    }


def match_from_dict(data: JsonObject) -> Match:
    """Rebuild a match saved with :func:`match_to_dict`; MatchStateError if malformed."""
    d: Any = data  # read by trying: any wrong shape raises below and is named in one line
    try:
        if d.get("format") != FORMAT:
            raise MatchStateError(f"unknown saved match format {d.get('format')!r}")
        if d["phase"] not in PHASES:
            raise MatchStateError(f"unknown phase {d['phase']!r}")
        last = None
        if d["last_move"] is not None:
            lm = d["last_move"]
            dice = _dice_in(lm["dice"])
            assert dice is not None
            last = LastMove(_side_in(lm["side"], none=False), dice, _steps_in(lm["steps"]))
        w, b = d["score"]
        m = Match(
            settings=MatchSettings.from_dict(d["settings"]), phase=d["phase"],
            score=(_whole(w, "score"), _whole(b, "score")), game=_whole(d["game"], "game"),
            crawford=_flag(d["crawford"]), post_crawford=_flag(d["post_crawford"]), turn=_side_in(d["turn"]),
            position=Position.from_id(d["position"]), dice=_dice_in(d["dice"]),
            steps=_steps_in(d["steps"]), partial=Position.from_id(d["partial"]),
            cube=_whole(d["cube"], "cube"), cube_owner=_side_in(d["cube_owner"]),
            resign_level=d["resign_level"], declined=_whole(d["declined"], "declined"), resume=d["resume"],
            resume_used=_finite(float(d.get("resume_used", 0.0))),
            last_move=last, winner=_side_in(d["winner"]), end=d["end"],
            rematch_offer=_side_in(d["rematch_offer"]), clock=clock_from_dict(_finite(d["clock"])),
            history=tuple(_game_in(g) for g in d["history"]),
        )
    except MatchStateError:
        raise
    except (KeyError, TypeError, ValueError, AssertionError, AttributeError, OverflowError) as exc:
        if isinstance(exc, EngineError):
            raise MatchStateError(f"saved match: {exc}") from None
        raise MatchStateError(f"saved match is malformed: {type(exc).__name__} {exc}") from None
    if not m.history:
        raise MatchStateError("saved match has no game in its history")
    if m.resign_level not in (None, "single", "gammon", "backgammon") or m.resume not in (None, "roll", "move") \
            or m.end not in (None, "score", "forfeit", "time") or not 0 <= m.declined <= 3:
        raise MatchStateError("saved match has an unknown resignation, phase or ending")
    rolled = m.phase == "move" or (m.phase == "resigning" and m.resume == "move")
    if m.phase != "over" and ((m.phase == "opening") != (m.turn is None) or rolled != (m.dice is not None)):
        raise MatchStateError(f"saved match is inconsistent: phase {m.phase} with turn {m.turn} and dice {m.dice}")
    return check_reachable(m)
