"""How a computer level is chosen by name (`make_bot`, which imports every level), and
what the table asks of any level beside its moves (rematches). What every level answers
and is told is the contract in `contract`, which the levels and the analysis import.
"""
from __future__ import annotations

import random

# the contract is imported from here too (a level's callers name it with the factory)
from controller.analysis.match_context import MONEY, BotCubeOwner, MatchContext
from controller.bot.contract import Bot
from controller.errors import BackendUnavailableError, UsageError

LEVELS: tuple[str, ...] = ("simple", "gnubg", "beginner", "casual", "intermediate", "advanced", "expert",
                          "worldclass", "pubeval")
"""Names `make_bot` knows; `pubeval` is the benchmark opponent, not offered to players.
`beginner` .. `worldclass` are GNU Backgammon's own player settings (gnubg_strength)."""
OFFERED_LEVELS: tuple[str, ...] = LEVELS[:-1]
"""The levels a player may choose (settings, the simulator's dialog, scenario scripts)."""


def accepts_rematch(bot: object, context: MatchContext) -> bool:
    """Whether the computer takes the person's rematch offer (RULES.md "Match"). A level
    may answer with its own ``accepts_rematch(context)``; by default it accepts: the
    computer is always ready for another match."""
    own = getattr(bot, "accepts_rematch", None)
    return True if own is None else bool(own(context))


def offers_rematch(bot: object, context: MatchContext, lost: bool) -> bool:
    """Whether the computer offers a rematch itself once the match is over. A level may
    decide with its own ``offers_rematch(context, lost)``; by default it offers after
    losing (asking for its revenge) and leaves the winner's offer to the person, who
    then sees the result until they press."""
    own = getattr(bot, "offers_rematch", None)
    return lost if own is None else bool(own(context, lost))


def level_missing(level: str) -> str | None:
    """What `level` lacks on this machine (None: it can play here), without loading it: a
    player is shown every offered level, and a missing one is explained, not hidden.
    `simple` needs nothing; `gnubg` and `worldclass` the gnubg-nn wheel or the gnubg
    program; `beginner` .. `expert` gnubg's network (the wheel, or the program's weights)."""
    if level in ("simple", "pubeval"):
        return None
    from controller.evaluation.wheel import wheel_installed

    if wheel_installed():
        return None
    if level in ("gnubg", "worldclass"):
        from controller.bot.gnubg_level import find_gnubg_program

        return None if find_gnubg_program() else "GNU Backgammon is not installed (sudo apt install gnubg)"
    from controller.analysis.network import BINARY_WEIGHTS

    return None if any(p.is_file() for p in BINARY_WEIGHTS) else \
        "GNU Backgammon's network is not installed (sudo apt install gnubg)"


def check_level(level: str) -> None:
    """Refuse, in one line, a level that is unknown or cannot play on this machine, without
    loading it: a New match chosen on the page or in a script must not hold the table's loop
    while a network loads or GNU Backgammon starts (a second and more on a Pi). The level
    is made when it is first asked for a move, in a worker (`ComputerSeat`)."""
    if level not in LEVELS:
        raise _unknown(level)
    missing = level_missing(level)
    if missing is not None:
        raise BackendUnavailableError(f"the {level} level cannot play here: {missing}")


def make_bot(level: str, *, rng: random.Random | None = None, **options: object) -> Bot:
    """The bot for a level name: `simple`, `gnubg` (wheel, else the program), `pubeval`.

    `gnubg` raises BackendUnavailableError when neither gnubg-nn nor the gnubg program is
    installed: choosing a level never falls back to another silently.
    Options: `plies` (gnubg: 0..2), `backend` (gnubg: "nn" or "process").
    """
    if level == "simple":
        from controller.bot.simple import SimpleBot

        return SimpleBot(rng=rng)
    if level == "pubeval":
        from controller.bot.pubeval import PubevalBot

        return PubevalBot()
    if level == "gnubg":
        from controller.bot.gnubg_level import make_gnubg_bot

        return make_gnubg_bot(**options)  # type: ignore[arg-type]
    if level == "worldclass":
        from controller.bot.gnubg_level import make_gnubg_bot

        return make_gnubg_bot(plies=2, backend=options.get("backend"))  # type: ignore[arg-type]
    if level in LEVELS[2:7]:
        from controller.analysis.network import network_available
        from controller.evaluation.backend import INSTALL_HINT

        if not network_available():
            raise BackendUnavailableError(f"the {level} level needs GNU Backgammon's weights: {INSTALL_HINT}")
        from controller.bot.gnubg_strength import StrengthBot

        return StrengthBot(level)
    raise _unknown(level)


def _unknown(level: str) -> UsageError:
    """The one line for a level name nobody knows, naming those a player may choose."""
    return UsageError(f"unknown computer level {level!r}; choose {', '.join(OFFERED_LEVELS)}")


__all__ = ["LEVELS", "MONEY", "OFFERED_LEVELS", "BackendUnavailableError", "Bot", "BotCubeOwner", "MatchContext", "accepts_rematch",
           "check_level", "level_missing", "make_bot", "offers_rematch"]
