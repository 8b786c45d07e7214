"""The table's menu: which items it offers now, and where it stands. One job of the
controller.

The menu's steps are controller.inputs.menu's pure state machine; this job keeps its state
for the table, decides the items offered at this moment (what is possible now, the dice's
entry and reveal, a hint, the online door's and the practice's ways, the board's pages'
links) and hands the
controller the action chosen, which the controller routes to the job that carries it out.
Its slice of the table's state is the menu's own frozen `MenuState`, replaced at each step.
Others change the menu only through `close` and `ask_dice`.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Protocol

from controller.dice import TableDice
from controller.engine.board_view import Colour
from controller.inputs import menu as menus
from controller.inputs.buttons import ButtonEvent
from controller.play.hint import HintJob
from controller.play.possible import PossibleAction
from controller.play.seat import MatchSeat
from controller.show.review_notes import ReviewFigures
from controller.show.content import PairingView, Scene


class MenuSeat(MatchSeat, Protocol):
    """What the menu reads of the table to decide its items."""

    @property
    def watching(self) -> Scene | None: ...
    @property
    def playing_online(self) -> bool: ...
    @property
    def dice(self) -> TableDice: ...
    @property
    def hints(self) -> HintJob: ...
    @property
    def review(self) -> ReviewFigures | None: ...
    @property
    def practising(self) -> str | None: ...
    @property
    def online_offered(self) -> bool: ...
    @property
    def watch_offered(self) -> bool: ...
    @property
    def links(self) -> Mapping[menus.LinkName, PairingView]: ...
    def possible(self) -> tuple[PossibleAction, ...]: ...


class TableMenu:
    """The menu's state at this table and its items (see the module docstring)."""

    def __init__(self, seat: MenuSeat) -> None:
        self._seat = seat
        self._state = menus.MenuState()

    @property
    def state(self) -> menus.MenuState:
        """Where the menu stands (closed, on an item, asking for dice, ...): the menu's
        slice of the table's state (a frozen value)."""
        return self._state

    def close(self) -> None:
        self._state = menus.MenuState()

    def ask_dice(self, side: Colour, opening: bool) -> None:
        """Open on the dice's entry: real dice to key in (at the opening, White's die first)."""
        self._state = menus.MenuState(mode="dice", side="white" if opening else side, opening=opening)

    def first_die(self, die: int) -> None:
        """The first of the real dice, keyed in on the page: the display, which asks for
        the dice (`ask_dice`), asks for the second from now on, as after the main button
        took the first (issue 35.10: it asked for die 1 until both were sent)."""
        if self._state.mode == "dice" and not self._state.dice and 1 <= die <= 6:
            self._state = replace(self._state, dice=(die,), die=1)

    def press(self, event: ButtonEvent) -> menus.MenuAction | None:
        """A button for the menu: its next state, and the action chosen (None: none)."""
        seat = self._seat
        result = menus.step(self._state, event, self.items(), seat.review.marked if seat.review else ())
        self._state = result.state
        if self._state.mode == "dice" and seat.match.phase == "opening" and not self._state.opening:
            self._state = replace(self._state, side="white", opening=True)  # one die per side
        return result.action

    def items(self) -> tuple[menus.MenuItem, ...]:
        """The menu's items now: what is possible now (controller.play.possible), and the
        table's own (dice entry, the dice's reveal, a hint)."""
        seat = self._seat
        if seat.watching is not None:
            return ("leave_watching",)
        actions = seat.possible()
        remote = seat.playing_online
        # online the server decides a new match and rolls the dice; leaving gives the local match back
        available: list[menus.MenuItem] = ["leave_online" if remote else "new_match"]
        available += [f"resign_{a.level}" for a in actions if a.action == "resign"]  # type: ignore[misc]
        for item in ("forfeit", "rematch"):
            if any(a.action == item for a in actions):
                available.append(item)
        if any(a.action == "roll" for a in actions) and seat.dice.mode not in ("verifiable", "server"):
            available.append("dice_entry")
        if seat.dice.secret is not None and not seat.dice.secret.revealed:
            available.append("reveal_dice")
        if seat.hints.allowed():
            available.append("hint")
        if not remote:
            available += self._door_items() + self._practice_items()
        available += [item for item, name in menus.LINK_ITEMS.items() if name in seat.links]  # the pages'
        return tuple(available + (["new_links"] if seat.links else []))

    def _practice_items(self) -> list[menus.MenuItem]:
        """The practice's items (controller/table/practice.py): a marked decision of the
        review to practise, and while practising the way back to the match."""
        seat = self._seat
        offered: list[menus.MenuItem] = ["practise"] if seat.review is not None and seat.review.marked else []
        return offered + (["back_to_match"] if seat.practising is not None else [])

    def _door_items(self) -> list[menus.MenuItem]:
        """The online door's ways in that the table offers (controller/online/door.py)."""
        seat = self._seat
        offered: list[menus.MenuItem] = []
        if seat.practising is not None:  # a practice is neither played nor left for watching online
            return offered
        if seat.online_offered:
            offered.append("play_online")
        if seat.watch_offered:
            offered.append("watch_online")
        return offered
