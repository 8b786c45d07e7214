"""`bgboard bench`: speed and memory figures of this machine.

Each part of the product contributes one section module here with
`NAME: str` and `run(quick: bool) -> dict[str, object]` returning flat figures (a section
that runs for a chosen time, `soak`, also takes `seconds`: `bench --only soak --seconds S`)
(numbers with their unit in the key, e.g. `median_us`). The command prints them
as a table or, with `--json`, as one JSON object keyed by section.
"""
from __future__ import annotations

SECTIONS: tuple[str, ...] = ("engine", "link", "controller", "page", "bot", "dice", "analysis", "soak", "pi", "club")
