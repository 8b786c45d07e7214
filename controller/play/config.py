"""How a table plays: its one configuration value (part of the table's state)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ControllerConfig:
    """How this table plays: the display's language, the settling time of a reading, the
    pause before an automatic roll, the tutor. Who plays each colour is the match's own
    (`MatchSettings.player`): a rematch swaps it, a saved match keeps it."""

    language: str = "en"
    settle_s: float = 0.3
    auto_roll_delay_s: float = 2.0
    tutor: str = "off"  # or the least mark it warns about (controller.analysis.tutor.TUTOR_MARKS)
