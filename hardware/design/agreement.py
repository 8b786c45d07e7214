"""Whether a hardware profile describes the boards as they are built: the modules' sensors
are numbered by the chain (a module's place in it and the multiplexer channel), so a
profile must list, for every cell and slot, the sensor number the chain gives the board's
sensor under that slot. A copy edited by hand for a rewired board that no longer agrees
reads checkers on the wrong cells; `python -m hardware.design --check --profile F` says so
in one line a disagreement."""
from __future__ import annotations

from controller.board.profile import Profile

from . import geometry as g


def expected_numbers() -> dict[tuple[str, int], int]:
    """(cell, slot) -> the sensor number the boards' chain gives the sensor under it."""
    numbers: dict[tuple[str, int], int] = {}
    base = 0
    for m in g.default_board().modules:
        for channel, slot in enumerate(m.slots):
            numbers[(slot.cell, slot.slot)] = base + channel
        base += len(m.slots)
    return numbers


def profile_problems(profile: Profile, name: str = "profile") -> list[str]:
    """One line for each way `profile` disagrees with the boards (empty: it agrees)."""
    expected = expected_numbers()
    out: list[str] = []
    count = len(expected)
    if profile.sensors.count != count:
        out.append(f"{name}: the matrix is {profile.sensors.rows} × {profile.sensors.cols} = "
                   f"{profile.sensors.count} sensors, the boards carry {count}")
    listed = dict(profile.cells)
    for (cell, slot), number in sorted(expected.items(), key=lambda item: item[1]):
        sensors = listed.get(cell, ())
        if slot >= len(sensors):
            out.append(f"{name}: cell {cell} lists {len(sensors)} slots, the boards have a sensor under slot {slot}")
        elif sensors[slot] != number:
            module = next(m.name for m in g.default_board().modules if any(
                s.cell == cell and s.slot == slot for s in m.slots))
            out.append(f"{name}: cell {cell} slot {slot} is sensor {sensors[slot]}, but the boards' chain reads"
                       f" the sensor there as {number} ({module})")
    return out
