"""A match state as plain JSON data and back, exactly (history and clocks included).

Used to save a match after every confirmed action and to resume it. Positions are
written as GNU Backgammon Position IDs, steps as ``[from, to, die, hit]`` in the mover's
numbering. Anything malformed raises :class:`MatchStateError` naming what is wrong.
"""
from __future__ import annotations

from typing import Any

from controller.engine.clock import clock_from_dict
from controller.engine.errors import EngineError, MatchStateError
from controller.engine.match import PHASES, LastMove, Match
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

FORMAT = 1


def _steps_out(steps: tuple[Step, ...]) -> list[list[Any]]:
    return [[s.frm, s.to, s.die, s.hit] for s in steps]


def _steps_in(data: Any) -> tuple[Step, ...]:
    steps = []
    for frm, to, die, hit in data:
        if not (isinstance(frm, int) and isinstance(to, int) and isinstance(die, int) and isinstance(hit, bool)):
            raise MatchStateError(f"bad step {[frm, to, die, hit]!r}")
        steps.append(Step(frm, to, die, hit))
    return tuple(steps)


def _dice_in(data: Any) -> tuple[int, int] | None:
    if data is None:
        return None
    d1, d2 = data
    if not all(isinstance(d, int) and 1 <= d <= 6 for d in (d1, d2)):
        raise MatchStateError(f"bad dice {data!r}")
    return d1, d2


def _side_in(data: Any, none: bool = True) -> Any:
    if data in ("white", "black") or (none and data is None):
        return data
    raise MatchStateError(f"bad side {data!r}")


def _action_out(a: Action) -> dict[str, Any]:
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
        return TurnRecord(side, dice, _steps_in(d["steps"]), bool(d["opening"]))
    if kind == "cube" and d["action"] in ("double", "take", "drop"):
        return CubeRecord(side, d["action"], int(d["value"]))
    if kind == "resign" and d["action"] in ("offer", "accept", "decline"):
        return ResignRecord(side, d["action"], str(d["level"]))
    raise MatchStateError(f"bad history entry {d!r}")


def _game_out(g: GameRecord) -> dict[str, Any]:
    end = None
    if g.end is not None:
        end = {"winner": g.end.winner, "how": g.end.how, "result": g.end.result, "cube": g.end.cube,
               "points": g.end.points}
    return {"number": g.number, "score_before": list(g.score_before), "crawford": g.crawford,
            "actions": [_action_out(a) for a in g.actions], "end": end}


def _game_in(d: dict[str, Any]) -> GameRecord:
    end = None
    if d["end"] is not None:
        e = d["end"]
        if e["how"] not in ("bearoff", "drop", "resign", "forfeit", "time"):
            raise MatchStateError(f"bad game end {e!r}")
        end = GameEnd(_side_in(e["winner"], none=False), e["how"], e["result"], int(e["cube"]), int(e["points"]))
    w, b = d["score_before"]
    return GameRecord(int(d["number"]), (int(w), int(b)), bool(d["crawford"]),
                      tuple(_action_in(a) for a in d["actions"]), end)


def match_to_dict(m: Match) -> dict[str, Any]:
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


def match_from_dict(d: dict[str, Any]) -> Match:
    """Rebuild a match saved with :func:`match_to_dict`; MatchStateError if malformed."""
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
            score=(int(w), int(b)), game=int(d["game"]), crawford=bool(d["crawford"]),
            post_crawford=bool(d["post_crawford"]), turn=_side_in(d["turn"]),
            position=Position.from_id(d["position"]), dice=_dice_in(d["dice"]),
            steps=_steps_in(d["steps"]), partial=Position.from_id(d["partial"]),
            cube=int(d["cube"]), cube_owner=_side_in(d["cube_owner"]),
            resign_level=d["resign_level"], declined=int(d["declined"]), resume=d["resume"],
            resume_used=float(d.get("resume_used", 0.0)),
            last_move=last, winner=_side_in(d["winner"]), end=d["end"],
            rematch_offer=_side_in(d["rematch_offer"]), clock=clock_from_dict(d["clock"]),
            history=tuple(_game_in(g) for g in d["history"]),
        )
    except MatchStateError:
        raise
    except (KeyError, TypeError, ValueError, AssertionError, AttributeError) as exc:
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
    return m
