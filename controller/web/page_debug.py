"""The parts of the page's snapshot read from the table's scene, the board and the profile
alone: the display's prompt in words, the Debug panel (the sensors, the frame rate, the
board session's counters) and the actions the table offers as the page draws them.

They were computed inside `LiveSim.snapshot`, which then also did the page's plumbing; as
plain functions of what they read they are tested and changed without a running table.
"""
from __future__ import annotations

import collections

from controller.board.profile import Profile
from controller.engine.board_view import CELLS
from controller.json_value import JsonObject
from controller.link.board_session import BoardSession
from controller.play.status import TableStatus
from controller.show.content import Scene
from controller.show.texts import render

#: the frame rate is counted over this many seconds of SCANs
FPS_WINDOW_S = 2.0


def prompt_text(scene: Scene, save_problem: str) -> str:
    """The display's prompt in the display's language (its key if the words cannot be
    made), after a failed save's line, which is shown at once."""
    prompt = ""
    if scene.display.prompt is not None:
        try:
            prompt = render(scene.display.prompt.key, dict(scene.display.prompt.params), scene.display.language)
        except (KeyError, ValueError):
            prompt = scene.display.prompt.key
    if save_problem:
        prompt = f"{save_problem} · {prompt}" if prompt else save_problem
    return prompt


def possible_view(status: TableStatus) -> list[JsonObject]:
    """The table's possible actions (controller.play.possible) as the page's buttons read them."""
    return [{"side": a.side, "action": a.action, "level": a.level, "button": a.button} for a in status.actions]


def trim_frames(window: collections.deque[float], now: float) -> None:
    """Forget the SCAN times older than the frame rate's window."""
    while window and now - window[0] >= FPS_WINDOW_S:
        window.popleft()


def sensor_cells(profile: Profile) -> list[str]:
    """The cell each sensor of the matrix watches (the Debug panel labels them)."""
    cells = [""] * (profile.sensors.rows * profile.sensors.cols)
    for cell in CELLS:
        for index in profile.cell_sensors(cell):
            if 0 <= index < len(cells):
                cells[index] = cell
    return cells


def debug_view(sensors: list[int], profile: Profile, session: BoardSession | None, *, online: bool,
               frames: int, bad_scans: int, flickering: int | None) -> JsonObject:
    """The Debug panel: the `sensors` as the board reads them, the SCANs of the last window
    per second, and the board session's counters."""
    stats = session.stats if session is not None else None
    return {
        "online": online,
        "sensors": sensors,
        "rows": profile.sensors.rows,
        "cols": profile.sensors.cols,
        "fps": round(frames / FPS_WINDOW_S, 1),
        "bad_scans": bad_scans,
        "sensor_cells": sensor_cells(profile),
        "flickering": flickering,
        **(stats.as_dict() if stats is not None else {}),
    }
