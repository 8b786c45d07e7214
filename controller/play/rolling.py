"""The dice at the table: drawing a roll, a dice phrase, the seed's reveal. Part of the
table's step.

The dice are the state's `DiceState` (controller.dice.state: the source chosen by the
match's `dice` setting, or the server's online); a roll draws from them and the dice after
the draw are the state's. A roll that waits for real dice opens the menu on the dice's
entry; one that waits for the server's says so (the online seat sends `roll`).
"""
from __future__ import annotations

from dataclasses import replace

from controller.dice.state import DiceError, DiceNeeded
from controller.engine.board_view import Colour
from controller.events import Announce, Refused
from controller.play import table_menu
from controller.play.change import Stepped, apply, save
from controller.play.table_state import TableState


def roll(state: TableState, side: Colour) -> Stepped:
    """`side` rolls (the match checks that it may); with entered dice and none keyed in
    yet, the menu asks `side` for them (at the opening, White's die then Black's)."""
    match = state.match
    try:
        dice, drawn = state.dice.draw(match)
    except DiceNeeded as exc:
        state = replace(state, dice=exc.dice)
        if exc.dice.entered:  # real dice to key in (online, the server sends them)
            state = replace(state, menu=table_menu.ask_dice(side, match.phase == "opening"))
        return state, [Announce(f"waiting: {exc}")]
    now = state.now
    applied = apply(replace(state, dice=drawn), lambda mm: mm.roll(side, dice, now))
    return applied.state, applied.effects


def phrase(state: TableState, side: Colour, text: str) -> Stepped:
    """A player's dice phrase (verifiable dice): part of the seed, said before it is used."""
    try:
        dice = state.dice.with_phrase(side, text, state.match)
    except DiceError as exc:
        return state, [Refused.from_error(exc)]
    state = replace(state, dice=dice)
    return state, [Announce(f"{side} gave a dice phrase")] + save(state)


def reveal(state: TableState) -> Stepped:
    """Reveal the verifiable dice's seed on demand (the guarantee ends)."""
    if state.dice.secret is None:
        return state, [Refused.of("this match has no verifiable dice to reveal", "no_secret")]
    dice = state.dice.revealed(state.match)
    if dice is None:
        return state, [Refused.of("the dice seed is already revealed", "seed_revealed")]
    state = replace(state, dice=dice)
    if dice.secret is not None and dice.secret.ended:
        return state, [Announce("dice seed revealed: the rest of the match rolls ordinary dice, no longer verifiable")]
    return state, [Announce("dice seed revealed: the match is over")] + save(state)
