"""What the table's state says beyond its fields: the read-only facts the jobs are given.

Each is a pure function of the one `TableState` (controller/play/table_state.py): whether
the board stands as the match says, the plan of the roll being played, the action the tutor
holds, what each player may do now, whether a hint can be given, the board's questions, the
menu's facts. The table's step reads them to hand each job the few facts it needs, and the
status (showing.py) to tell the front ends; no job reads the whole state.
"""
from __future__ import annotations

from controller.engine.board_view import COLOURS, Colour
from controller.engine.match_settings import HUMAN, REMOTE
from controller.engine.moves import Move
from controller.engine.position import Position
from controller.engine.turn import TurnPlan
from controller.play import board_questions, hint, possible, tutor
from controller.play.table_menu import MenuFacts
from controller.play.table_state import TableState
from controller.play.tutor import TutorHold


def player(state: TableState, side: Colour) -> str:
    """Who plays `side` in the match now (HUMAN, REMOTE or a computer level)."""
    return state.match.settings.player(side)


def playing_online(state: TableState) -> bool:
    """A remote player sits at this table (an online match is being played)."""
    return REMOTE in state.match.settings.players


def watching(state: TableState) -> bool:
    """A server match is watched from the menu: its scene is shown, the local match waits."""
    return state.watch.scene is not None


def board_ready(state: TableState) -> bool:
    """The board stands as the match says (or has not been read yet)."""
    return not state.flow.setting_up and state.board.is_right()


def turn_plan(state: TableState) -> TurnPlan | None:
    """The engine's plan of the roll being played (the match builds it once per roll)."""
    return state.match.plan if state.match.turn is not None else None


def tutor_hold(state: TableState) -> TutorHold | None:
    """The action the tutor holds back now (controller.play.tutor)."""
    return tutor.hold(state.tutor, state.match, state.config.tutor)


def possible_actions(state: TableState) -> tuple[possible.PossibleAction, ...]:
    """What each player at the table may do now (controller.play.possible): nothing
    while watching."""
    if watching(state):
        return ()
    held = tutor_hold(state)
    people = tuple(side for side in COLOURS if player(state, side) == HUMAN)
    facts = possible.TableFacts(at_table=lambda side: side in people, board_ready=board_ready(state),
                                carrying_out=state.flow.bot is not None,
                                held=held.held if held is not None else None)
    return possible.possible_actions(state.match, facts)


def hint_allowed(state: TableState) -> bool:
    """A hint can be given now (controller.play.hint.allowed)."""
    return hint.allowed(state.match, carrying_out=state.flow.bot is not None, setting_up=state.flow.setting_up)


def ambiguous_choice(state: TableState) -> Position | None:
    """The option of an ambiguous reading the player is asked about now."""
    return board_questions.ambiguous_choice(state.questions, state.board.verdict, state.match)


def whole_move_choice(state: TableState) -> Move | None:
    """The whole move the player is asked about now."""
    return board_questions.whole_move_choice(state.questions, state.match, carrying_out=state.flow.bot is not None,
                                             setting_up=state.flow.setting_up, board_right=state.board.is_right())


def asking(state: TableState) -> bool:
    """The board asks a question now (the buttons answer it)."""
    return ambiguous_choice(state) is not None or whole_move_choice(state) is not None


def menu_facts(state: TableState, actions: tuple[possible.PossibleAction, ...] | None = None) -> MenuFacts:
    """What decides the menu's items now (controller.play.table_menu); `actions`: the
    possible actions when the caller has them already."""
    return MenuFacts(actions=possible_actions(state) if actions is None else actions, playing_online=playing_online(state),
                     watching=watching(state), dice=state.dice, hint_allowed=hint_allowed(state),
                     review=state.table.review, practising=state.table.practising,
                     play_offered=state.watch.play_offered, watch_offered=state.watch.watch_offered,
                     links=tuple(name for name, _ in state.links))
