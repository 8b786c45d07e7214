"""The part of the page's snapshot that reads the table alone: the LEDs and the display as
the scene has them, the match as a scenario script's snapshot shows it (plus what the
dialog draws), the actions the players may take, the hint, the page's facts beside the
board and the dice panel.

It starts from the scenario scripts' `snapshot` (controller/web/table_json.py), so the page and the
scripts show the same match the same way; `LiveSim.snapshot` adds what only the page has
(the hand, the dialog, online play, the Debug panel). It was part of that method.
"""
from __future__ import annotations


from controller.board.profile_sections import LedConfig
from controller.json_value import JsonObject, json_object
from controller.table import Table
from controller.web.table_json import snapshot as script_snapshot
from controller.web.dice_panel import dice_panel
from controller.web.page_debug import possible_view, prompt_text
from controller.web.page_facts import led_view, page_facts
from controller.web.page_hint import page_hint


def display_version(table: Table | None, tables: object) -> str:
    """Changes exactly when the display draws a new frame (the page then fetches it): the
    `tables` opened so far (each new display counts from 0) and the display's own count of
    frames, so no frame is encoded just to compare it."""
    frames = table.display.frames_written if table is not None and table.display is not None else 0
    return f"{tables}.{frames}"


def display_png(table: Table | None) -> bytes:
    """The display's frame as a PNG (nothing without a table or a display)."""
    if table is None or table.display is None:
        return b""
    png: bytes = table.display.frame_png()
    return png


def table_view(table: Table, leds: LedConfig, *, version: str, in_hand: bool, watching: bool) -> JsonObject:
    """The table's part of the snapshot; `version` is the display's frame count, `in_hand`
    whether checkers are in the air, `watching` whether a server match is shown instead
    (no hint then, as when playing online)."""
    status = table.controller.status()
    scene = status.scene
    base = script_snapshot(status, 0, "", [])
    match = json_object(base["match"], "the snapshot's match")
    match["cube_enabled"] = status.match.cube_enabled
    match["crawford"] = status.match.crawford
    return {
        "leds": led_view(scene.leds, leds.roles),
        "led_counts": {c: len(ix) for c, ix in leds.cells.items()},
        "display": {"version": version, "lines": json_object(base["display"], "the snapshot's display")["lines"]},
        "prompt": prompt_text(scene, table.store.status.line),
        "match": match,
        "actions": [a.command for a in status.actions],
        "possible": possible_view(status),
        "awaits_landing": status.awaits_landing,  # the main button says a checker landed on a full point
        "hint": None if status.playing_online or watching else page_hint(status, in_hand),
        "hint_ask": not watching and status.hint_allowed,  # the page's Hint button, as the menu's
        **page_facts(status, status.language),
        "dice_panel": dice_panel(status, status.dice.mode, status.dice.secret),  # online: the server's
    }
