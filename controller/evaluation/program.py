"""Where GNU Backgammon's program is installed (Debian's `gnubg` puts it in /usr/games).

Both the `gnubg` computer level (which plays through the program where the wheel is missing)
and the analysis (which reads the program's weights and runs its `analyse match` as the
oracle) look for it, so the one answer lives here, below both.
"""
from __future__ import annotations

import shutil

GNUBG_PROGRAM_PLACES = ("gnubg", "/usr/games/gnubg")


def find_gnubg_program() -> str | None:
    """The gnubg program's path, or None."""
    for name in GNUBG_PROGRAM_PLACES:
        found = shutil.which(name)
        if found:
            return found
    return None
