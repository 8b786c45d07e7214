"""The table's buttons: where each press goes. One job of the controller.

A press goes to the first that wants it: the menu button to the menu, any button while the
menu is open to the menu too (its chosen item becomes the action it names: an action of
the match, the dice, a hint, a new match, the online door, the practice, new links), a main or cube
button while the board asks a question to its answer, else to what that side's button
means now (controller.play.possible), or to a checker landed unseen on a full point. A
button that means nothing now is refused with a buzz. The job keeps no state: it routes to
the jobs the seat names.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from controller.events import (Buzz, ButtonPressed, Effect, LinksRevoked, OnlineRequested, PracticeRequested,
                               Refused)
from controller.inputs import menu as menus
from controller.play.actions import PlayerActions
from controller.play.board_questions import BoardQuestions
from controller.play.board_sync import BoardSync
from controller.play.hint import HintJob
from controller.play.rolls import Rolls
from controller.play.table_menu import TableMenu


class ButtonSeat(Protocol):
    """The jobs a button press may go to."""

    @property
    def menu_job(self) -> TableMenu: ...
    @property
    def questions(self) -> BoardQuestions: ...
    @property
    def actions(self) -> PlayerActions: ...
    @property
    def board_sync(self) -> BoardSync: ...
    @property
    def rolls(self) -> Rolls: ...
    @property
    def hints(self) -> HintJob: ...


class Buttons:
    """Routes the buttons' presses (see the module docstring). `new_match(length, out)`
    starts a new match of that length (the menu's New match)."""

    def __init__(self, seat: ButtonSeat, new_match: Callable[[int, list[Effect]], None]) -> None:
        self._seat = seat
        self._new_match = new_match

    def press(self, event: ButtonPressed, out: list[Effect]) -> None:
        """A button: the menu's own, any button while the menu is open, an answer to the
        question about an ambiguous reading, else what the side's button means now."""
        seat = self._seat
        if event.button == "menu":
            self.menu(menus.ButtonHeld(None, "menu") if event.held else menus.ButtonPressed(None, "menu"), out)
        elif seat.menu_job.state.is_open:
            self.menu(menus.ButtonPressed(event.side, event.button), out)
        elif seat.questions.asking():
            seat.questions.answer(event.button == "main", out)
        elif event.side is not None:
            action = seat.actions.button(event.side, event.button)
            if action is None and event.button == "main" and seat.board_sync.landed_on_full(out):
                return
            if action is None:
                out.append(Refused.of(f"{event.side} {event.button} button does nothing now",
                                      "cube_idle" if event.button == "cube" else "main_idle", side=event.side))
                out.append(Buzz("error"))
            else:
                seat.actions.act(event.side, action, None, out)

    def menu(self, event: menus.ButtonEvent, out: list[Effect]) -> None:
        """The menu button and, while the menu is open, the other buttons go to the menu;
        its chosen action becomes the match action it names."""
        seat = self._seat
        action = seat.menu_job.press(event)
        if isinstance(action, (menus.Resign, menus.Forfeit, menus.Rematch)):
            name = {menus.Resign: "resign", menus.Forfeit: "forfeit", menus.Rematch: "rematch"}[type(action)]
            seat.actions.act(action.side, name, getattr(action, "level", None), out)
        elif isinstance(action, menus.DiceEntered):
            seat.rolls.entered(action.side, action.dice, out)
        elif isinstance(action, menus.RevealDice):
            seat.rolls.reveal(out)
        elif isinstance(action, menus.HintAsked):
            seat.hints.show(out)
        elif isinstance(action, menus.NewMatch):
            self._new_match(action.length, out)
        elif isinstance(action, (menus.Online, menus.Practise, menus.BackToMatch)):
            out.append(OnlineRequested(action.what) if isinstance(action, menus.Online)
                       else PracticeRequested(getattr(action, "key", None)))
        elif isinstance(action, menus.NewLinks):
            out.append(LinksRevoked())

