"""The table's state as one frozen value (issues 24 and 33): the controller holds one
`TableState`, each job's slice in it; it is hashable, equal while nothing changes, unchanged by a refused action (RULES.md:
a refused action changes nothing), different after a roll, and a copy taken before an event
is never changed by the event."""
from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from dataclasses import FrozenInstanceError, replace

import pytest

from board_states import board
from controller.controller import Controller
from controller.dice import DiceState
from controller.engine.match import Match
from controller.engine.match_settings import MatchSettings
from controller.events import (ActionRequested, ButtonPressed, DiceEntered, DicePhraseGiven, Event, HintRequested, LanguageChosen,
                               LinkChanged, LinkPublished, ReadingReceived, Refused, SaveMatch, Tick, TutorChosen)
from controller.play.table_state import TableState
from controller.show.content import PairingView



def set_up(rolls: tuple[tuple[int, int], ...] = ()) -> Controller:
    """A match of two people at the table, its board set up, the dice keyed in waiting."""
    dice = DiceState.seeded(random.Random(1))
    for r in rolls:
        dice = dice.push(r)
    c = Controller(Match.new(MatchSettings(length=5)), dice=dice)
    c.handle(ReadingReceived(board(), 0.0))
    c.handle(Tick(0.3))
    assert not c.status().setting_up
    return c


def frozen_all_the_way(value: object) -> None:
    """Every dataclass in `value`'s slices is frozen (no slice can be edited in place)."""
    assert dataclasses.is_dataclass(value) and not isinstance(value, type)
    assert getattr(type(value), "__dataclass_params__").frozen, type(value).__name__
    for field in dataclasses.fields(value):
        part = getattr(value, field.name)
        if dataclasses.is_dataclass(part) and not isinstance(part, type):
            frozen_all_the_way(part)


def test_the_state_is_one_frozen_hashable_value() -> None:
    c = set_up()
    state = c.state
    assert isinstance(state, TableState)
    frozen_all_the_way(state)
    hash(state)
    with pytest.raises(FrozenInstanceError):
        state.flow = state.flow  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        state.flow.match = state.flow.match  # type: ignore[misc]


def test_the_state_is_equal_while_nothing_changes() -> None:
    c = set_up()
    first, second = c.state, c.state
    assert first == second and hash(first) == hash(second)


def test_the_status_reads_the_state() -> None:
    c = set_up()
    state, status = c.state, c.status()
    assert status.match is state.flow.match
    assert status.setting_up is state.flow.setting_up is False
    assert status.menu == state.menu and status.menu_open == state.menu.is_open
    assert status.scene == state.scene_sent and status.config == state.table.config
    assert status.board == state.board.settled == board() and status.now == state.table.now


def test_a_refused_action_leaves_the_state_as_it_was() -> None:
    c = set_up()
    before = c.state
    out = c.handle(ActionRequested("black", "take", c.status().now))  # no double was offered
    assert any(isinstance(e, Refused) for e in out) and not any(isinstance(e, SaveMatch) for e in out)
    assert c.state == before


@pytest.mark.parametrize("refused", [
    lambda at: ActionRequested("white", "roll", at),  # the board is not right
    lambda at: ActionRequested("black", "double", at),  # the game waits for its opening roll
    lambda at: HintRequested(at),  # nobody decides yet
    lambda at: TutorChosen("sometimes", at),  # no such setting
    lambda at: DicePhraseGiven("white", "a phrase", at),  # the dice are not verifiable
    lambda at: DiceEntered("white", (7, 1), at),  # no die shows 7: not queued, not logged, the menu left alone
    lambda at: DiceEntered("white", (0, 3), at),
], ids=["roll", "double", "hint", "tutor", "phrase", "dice 7-1", "dice 0-3"])
def test_no_refusal_changes_the_state(refused: Callable[[float], Event]) -> None:
    c = set_up(rolls=((3, 1),))
    c.handle(ReadingReceived(board({"8": (-1, 0)}), c.status().now))  # a checker off the board
    c.handle(Tick(c.status().now + 0.5))
    before = c.state
    out = c.handle(refused(c.status().now))
    assert any(isinstance(e, Refused) for e in out)
    assert c.state == before


def test_a_refused_action_later_moves_only_the_clock() -> None:
    c = set_up()
    before = c.state
    c.handle(ActionRequested("black", "take", c.status().now + 0.05))
    after = c.state
    assert after != before and after.table.now == before.table.now + 0.05
    assert replace(after, table=replace(after.table, now=before.table.now)) == before


def test_a_roll_changes_the_state() -> None:
    c = set_up(rolls=((3, 1),))
    before = c.state
    assert before.dice.queue == ((3, 1),) and before.flow.match.phase == "opening"
    c.handle(ActionRequested("white", "roll", c.status().now))
    after = c.state
    assert after != before
    assert after.flow.match.dice == (3, 1) and after.dice.queue == ()


def test_a_copy_taken_before_events_is_not_changed_by_them() -> None:
    c = set_up(rolls=((3, 1),))
    before = c.state
    said, hashed = repr(before), hash(before)
    c.handle(ActionRequested("white", "roll", 0.4))  # the dice's queue empties
    c.handle(ReadingReceived(board({"8": (-1, 0), "5": (1, 0)}), 1.0))  # the board's reading changes
    c.handle(Tick(1.3))  # the step is played
    c.handle(ButtonPressed(None, "menu", 1.4))  # the menu opens
    c.handle(LinkChanged(False, 1.5))  # the board goes offline
    c.handle(LinkPublished("phone", PairingView("pairing.phone", ("http://table.local",)), 1.6))  # the page's link
    after = c.state
    assert after != before
    assert after.flow.match.steps and after.menu.is_open and not after.table.online and after.links
    assert repr(before) == said and hash(before) == hashed
    assert before.dice.queue == ((3, 1),) and before.board.raw == board() and before.links == ()
    assert before.flow.match.phase == "opening" and not before.menu.is_open and before.table.online


def test_the_tables_own_setting_is_part_of_the_state() -> None:
    c = set_up()
    before = c.state
    out = c.handle(LanguageChosen("xx", c.status().now))  # no such language: refused, nothing changes
    assert any(isinstance(e, Refused) for e in out) and c.state == before
    c.handle(LanguageChosen("da", c.status().now))
    after = c.state
    assert after.table.config.language == "da" == c.status().config.language and before.table.config.language == "en"
    # the language and the scene it is said in change, nothing else
    assert replace(after, table=replace(after.table, config=before.table.config),
                   scene_sent=before.scene_sent) == before
