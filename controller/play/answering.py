"""Answers from outside the table's people: the computer's, a remote player's, and real dice
keyed in. Part of the table's step.

The computer's questions are asked by controller.play.computer (an `AskBot` effect with a
token); its answers come back as events, and a stale one (another token) is dropped. A move
is carried out on the board by the person (reconciling.carry_out); a cube action, an answer
or a roll is the side's action, checked by the match. A remote player's actions (online)
are carried out the same way. Real dice keyed in are queued and rolled for whoever rolls now.
"""
from __future__ import annotations

from dataclasses import replace

from controller.dice.state import DiceError
from controller.engine.board_view import Colour
from controller.engine.match_settings import HUMAN
from controller.events import Announce, BotCube, BotMoved, Buzz, Effect, Refused, RemoteActed
from controller.inputs.menu import MenuState
from controller.play import computer
from controller.play.acting import act
from controller.play.change import Stepped
from controller.play.computer import Answer
from controller.play.reconciling import carry_out
from controller.play.rolling import roll
from controller.play.table_state import TableState


def bot_moved(state: TableState, event: BotMoved) -> Stepped:
    """The computer's move, to be carried out on the board."""
    found = computer.move_path(state.computer, state.match, event)
    return (state, []) if found is None else carry_out(state, *found)


def bot_cube(state: TableState, event: BotCube) -> Stepped:
    """The computer's cube action, answer or roll (or its rematch, after the match)."""
    answer = computer.cube_answer(state.computer, state.match, event)
    return (state, []) if answer is None else _carry(state, answer)


def remote_acted(state: TableState, event: RemoteActed) -> Stepped:
    """The remote player's action, as the server reported it."""
    answer = computer.remote_answer(state.match, event)
    return (state, [answer]) if isinstance(answer, Refused) else _carry(state, answer)


def _carry(state: TableState, answer: Answer) -> Stepped:
    """A roll, or an action the match checks (not the table: the computer's own)."""
    if answer[0] == "roll":
        return roll(state, answer[1])
    _, side, action, level = answer
    return act(state, side, action, level, by_bot=True)


def dice_entered(state: TableState, side: Colour, dice: tuple[int, int]) -> Stepped:
    """Real dice keyed in (menu or page): queued, then rolled for whoever rolls now."""
    m = state.match
    if m.phase not in ("opening", "roll"):
        return state, [Refused.of("dice can be entered only before a roll", "dice_not_now"), Buzz("error")]
    try:
        queued = state.dice.push(dice)
    except DiceError as exc:
        return state, [Refused.from_error(exc), Buzz("error")]
    state = replace(state, dice=queued, menu=MenuState())
    out: list[Effect] = [Announce(f"dice entered: {dice[0]}-{dice[1]}")]
    roller = side if m.phase == "opening" else (m.turn or side)
    if m.settings.player(roller) == HUMAN or m.phase == "opening":
        state, more = act(state, roller, "roll", None)
        out += more
    elif not state.flow.setting_up:
        state, more = roll(state, roller)  # the computer's roll, made with real dice for it
        out += more
    return replace(state, dice=replace(state.dice, queue=())), out  # a refused roll does not keep them
