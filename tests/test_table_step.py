"""The controller as a pure step (issues 24 and 33): `step(state, event) -> (state, effects)`
is the live path: the controller holds one `TableState` and each event replaces it, so
folding the step over events gives the controller's effects and state, the same state and
event give the same result every time, and the state passed in is never changed. The
dice's generator is part of the state: a random roll through the step is the roll the
controller makes from the same state."""
from __future__ import annotations

import random
from dataclasses import replace

from board_states import board

from controller.controller import Controller, step
from controller.dice import DiceState
from controller.engine.match import Match
from controller.engine.match_settings import MatchSettings
from controller.events import (ActionRequested, ButtonPressed, Event, HintRequested, LinkChanged,
                               ReadingReceived, Refused, Tick)
from controller.play.table_state import TableState


def fresh(rolls: tuple[tuple[int, int], ...] = (), dice: str = "board", seed: int = 1) -> Controller:
    """A new match of two people to 5 points, the board not read yet, `rolls` queued."""
    table_dice = DiceState.seeded(random.Random(seed), entropy=lambda n: bytes(range(n)))
    for r in rolls:
        table_dice = table_dice.push(r)
    return Controller(Match.new(MatchSettings(length=5, dice=dice)), dice=table_dice)


def set_up(rolls: tuple[tuple[int, int], ...] = (), dice: str = "board", seed: int = 1) -> Controller:
    """`fresh`, with the starting board read and settled."""
    c = fresh(rolls, dice, seed)
    c.handle(ReadingReceived(board(), 0.0))
    c.handle(Tick(0.3))
    assert not c.status().setting_up
    return c


#: a stretch of play: the starting board read and settled, White's queued opening roll, a
#: step read from the board, a refused take, the menu opened and cycled, the board's link
#: lost and back, the move completed, Black's roll from the generator, a hint, time passing
PLAY: tuple[Event, ...] = (
    ReadingReceived(board(), 0.0),
    Tick(0.3),
    ActionRequested("white", "roll", 0.4),
    ReadingReceived(board({"8": (-1, 0), "5": (1, 0)}), 1.0),
    Tick(1.3),
    ActionRequested("black", "take", 1.35),
    ButtonPressed(None, "menu", 1.4),
    ButtonPressed(None, "menu", 1.45),
    ButtonPressed(None, "menu", 1.47, held=True),
    LinkChanged(False, 1.5),
    LinkChanged(True, 1.55),
    ReadingReceived(board({"8": (-1, 0), "6": (-1, 0), "5": (2, 0)}), 1.6),
    Tick(2.0),
    ActionRequested("black", "roll", 2.1),
    HintRequested(2.2),
    Tick(5.0),
)


def test_the_same_state_and_event_give_the_same_result_and_leave_the_state_alone() -> None:
    state = fresh(rolls=((3, 1),)).state
    for event in PLAY:
        said, hashed, copy = repr(state), hash(state), replace(state)
        first, second = step(state, event), step(state, event)
        assert first == second, event
        assert repr(state) == said and hash(state) == hashed and state == copy, event
        state = first[0]


def test_the_controller_is_the_step_folded_over_its_events() -> None:
    live = fresh(rolls=((3, 1),))
    state = live.state
    seen: set[str] = set()
    for event in PLAY:
        expected = live.handle(event)
        state, effects = step(state, event)
        assert effects == expected, event
        assert state == live.state, event
        seen.update(type(e).__name__ for e in effects)
    # the stretch did what it says: a step and a whole move read, a refusal, Black's random roll
    assert {"Refused", "SaveMatch", "ShowScene", "Announce"} <= seen
    assert state.flow.match.turn == "black" and state.flow.match.dice is not None
    assert state.dice.queue == () and not state.menu.is_open and state.table.online


def test_a_random_roll_through_the_step_is_the_live_controllers() -> None:
    c = set_up(seed=7)  # no dice queued: the roll comes from the generator
    before = c.state
    assert before.dice.queue == () and before.dice.rng is not None
    roll = ActionRequested("white", "roll", 0.4)
    after, effects = step(before, roll)
    assert effects == c.handle(roll) and after == c.state
    assert after.dice.rng != before.dice.rng  # the generator moved on, and the state says where
    assert after.flow.match.dice is not None or after.flow.opening_tie is not None  # rolled, or a tie shown
    again, _ = step(before, roll)
    assert again.flow.match == after.flow.match


def test_verifiable_dice_roll_the_same_through_the_step() -> None:
    c = set_up(dice="verifiable")
    before = c.state
    assert before.dice.secret is not None
    roll = ActionRequested("white", "roll", 0.4)
    after, effects = step(before, roll)
    assert effects == c.handle(roll) and after == c.state
    assert not any(isinstance(e, Refused) for e in effects)


def test_the_operating_systems_dice_cannot_be_replayed_but_still_step() -> None:
    c = Controller(Match.new(MatchSettings(length=5)))  # random.SystemRandom: no state to copy
    state: TableState = c.state
    assert state.dice.rng is None
    for event in PLAY[:3]:
        state, _ = step(state, event)
        c.handle(event)
    # each drew its own opening roll from the system: either may be a tie (one in six), so
    # only what does not hang on the dice is compared; each rolled, or showed a tie
    for flow in (state.flow, c.state.flow):
        assert flow.match.dice is not None or flow.opening_tie is not None
    assert state.table == c.state.table and state.board.settled == c.state.board.settled
