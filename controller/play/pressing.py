"""The table's buttons: where each press goes. Part of the table's step.

A press goes to the first that wants it: the menu button to the menu, any button while the
menu is open to the menu too (its chosen item becomes what the item does: an action of the
match, the dice, a hint, a new match, the online door, the practice, new links), a main or
cube button while the board asks a question to its answer, else to what that side's button
means now (controller.play.possible), or to a checker landed unseen on a full point.
What a menu item does is its entry in the menu's registry (controller/play/menu_items.py). A
button that means nothing now is refused with a buzz.
"""
from __future__ import annotations

from dataclasses import replace

from controller.board.reconcile import Matched, Mismatch
from controller.engine.match import Match
from controller.engine.notation import format_path
from controller.events import Announce, Buzz, ButtonPressed, PracticeRequested, Refused
from controller.inputs import menu as menus
from controller.play import facts, menu_items, possible, table_menu, tracker
from controller.play.acting import act
from controller.play.answering import dice_entered
from controller.play.board_questions import whole_move
from controller.play.change import Stepped, apply, start_match
from controller.play.rolling import reveal
from controller.play.stepping import sync
from controller.play.table_state import TableState


def press(state: TableState, event: ButtonPressed) -> Stepped:
    """A button: the menu's own, any button while the menu is open, an answer to the
    question about the board, else what the side's button means now."""
    if event.button == "menu" or state.menu.is_open:
        return menu(state, event)
    if facts.asking(state):
        return answer(state, event.button == "main")
    side = event.side
    if side is None:
        return state, []
    found = possible.for_button(facts.possible_actions(state), side, event.button)
    if found is not None:
        return act(state, side, found.action, None)
    if event.button == "main":
        landed = landed_on_full(state)
        if landed is not None:
            return landed
    return state, [Refused.of(f"{side} {event.button} button does nothing now",
                              "cube_idle" if event.button == "cube" else "main_idle", side=side), Buzz("error")]


def menu(state: TableState, event: ButtonPressed) -> Stepped:
    """The menu button and, while the menu is open, the other buttons go to the menu: an
    item chosen does what its registry entry says (controller/play/menu_items.py), a second
    step's answer is carried out here."""
    offered = menu_items.offers(facts.menu_facts(state))
    opened, action = table_menu.press(state.menu, event, offered, state.match.phase == "opening")
    state = replace(state, menu=opened)
    if isinstance(action, menus.Chosen):
        return menu_items.choose(state, action)
    if isinstance(action, menus.Forfeit):
        return act(state, action.side, "forfeit", None)
    if isinstance(action, menus.DiceEntered):
        return dice_entered(state, action.side, action.dice)
    if isinstance(action, menus.RevealDice):
        return reveal(state)
    if isinstance(action, menus.NewMatch):
        return start_match(state, Match.new(replace(state.match.settings, length=action.length)))
    if isinstance(action, menus.Practise):
        return state, [PracticeRequested(action.key)]
    return state, []


def answer(state: TableState, yes: bool) -> Stepped:
    """The player's answer to the question asked (main: yes, cube: no, the next option)."""
    choice = facts.ambiguous_choice(state)
    whole = facts.whole_move_choice(state) if choice is None else None
    if whole is not None:
        side = state.match.turn
        if not yes or side is None:  # a die is still to play: play on
            return replace(state, questions=state.questions.declined(state.match)), []
        said = Announce(f"the player confirmed the whole move {format_path(whole.steps)}")
        applied = apply(state, whole_move(whole, side, state.now))
        return applied.state, [said] + applied.effects
    if choice is None:
        return state, []
    if not yes:
        return replace(state, questions=state.questions.next_option()), []
    state = replace(state, questions=state.questions.first_option(), board=state.board.judged(Matched(choice)))
    state, out = sync(state, choice)
    return state, [Announce("the player confirmed the reading")] + out


def landed_on_full(state: TableState) -> Stepped | None:
    """The main button while the board may hold the checker in hand unseen on a full
    point (controller.board.reconcile): it has landed. The step it completes is played
    (a move it completes is done: one press, as the prompt says), or a checker too
    many on the full point is told as a correction. None: no such checker."""
    landed, side = tracker.landed(state.board, state.match, state.flow.bot), state.match.turn
    if landed is None or side is None:
        return None
    state = replace(state, board=state.board.judged(landed))
    if isinstance(landed, Matched):
        state, out = sync(state, landed.position)
        m = state.match
        if m.phase == "move" and m.turn == side and m.move_complete and facts.tutor_hold(state) is None:
            state, more = act(state, side, "done", None)
            out += more
        return state, out
    if isinstance(landed, Mismatch):
        ins = landed.instructions[0]
        return state, [Refused.of(f"one {ins.colour} checker too many on {ins.frm}: put it on {ins.to}", "too_many",
                                  colour=ins.colour, n=ins.n, **{"from": ins.frm or "", "to": ins.to or ""}),
                       Buzz("error")]
    return state, []
