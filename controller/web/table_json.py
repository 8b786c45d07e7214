"""The JSON object a scenario script prints after each line (DESIGN.md "Scenario scripts"):
the LEDs, the display's lines, the match and what happened.

The page draws the same match the same way (controller/web/table_view.py starts from
`snapshot`; the spectators' and the watched match's views from `match_view`), so the
scripts and the page never disagree on what a match looks like. The headless runner
(sim/headless.py) prints it; it lives with the page's views, below the simulator, since
the page of the real board draws from it too.
"""
from __future__ import annotations


from controller.play.status import TableStatus
from controller.engine.board_view import cube_owner
from controller.engine.match import Match
from controller.json_value import JsonObject
from controller.show.display import text_lines


def snapshot(status: TableStatus, number: int, action: str, events: list[str]) -> JsonObject:
    """The JSON object of one script line (DESIGN.md "Scenario scripts"), from the table's status."""
    scene = status.scene
    return {
        "line": number,
        "action": action,
        "leds": dict(sorted(scene.leds.items(), key=lambda kv: _cell_order(kv[0]))),
        "display": {"lines": text_lines(scene.display)},
        "match": match_view(status.match, status.setting_up),
        "events": events,
    }


def match_view(m: Match, setting_up: bool = False) -> JsonObject:
    """A snapshot's `match` object (DESIGN.md "Scenario scripts"; the page draws it too)."""
    pips = m.pips()
    return {
        "turn": m.turn,
        "dice": list(m.dice) if m.dice else [],
        "cube": m.cube,
        "cube_owner": cube_owner(m.cube_owner),
        "score": {"white": m.score[0], "black": m.score[1]},
        "length": m.length,
        "position_id": m.partial.id,
        "match_id": m.match_id,
        "pips": {"white": pips["white"], "black": pips["black"]},
        "state": "setup" if setting_up and m.phase in ("opening", "roll") else m.phase,
    }


def _cell_order(cell: str) -> int:
    """The LEDs listed as on the board: points 1-24, then the bar and the trays."""
    return int(cell) if cell.isdigit() else {"bar": 25, "off-white": 26, "off-black": 27}.get(cell, 28)
