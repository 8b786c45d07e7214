"""The table's step: `step(state, event) -> (state, effects)`, the controller as one pure function.

Every front end's controller holds one `TableState` and runs
`self.state, effects = step(self.state, event)`. The step routes each event to the part of
the step that owns it (`_ROUTES`, one line each), lets the tutor's warning be seen first,
asks the computer what it must decide, and sends the scene when it changed. It does no
I/O and reads no clock (the time is the event's): the table carries the effects out.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from controller.analysis.tutor import TUTOR_MARKS
from controller.events import (ActionRequested, AdoptMatch, Announce, BotCube, BotMoved, ButtonPressed, DiceEntered,
                               DicePhraseGiven, DiceSeeded, DieChosen, Effect, Event, HintRequested, LanguageChosen,
                               LinkChanged, LinkPublished, MatchChosen, MatchSeated, ReadingReceived, Refused,
                               RemoteActed, ReviewReady, RollQueued, ServerRolled, ShowScene, Tick, TutorChosen)
from controller.dice.state import DiceError, DiceState
from controller.inputs.menu import MenuState
from controller.play import computer, facts, match_flow, showing, watching
from controller.play.acting import act
from controller.play.answering import bot_cube, bot_moved, dice_entered, remote_acted
from controller.play.change import Stepped, adopt_match, apply, start_match
from controller.play.menu_items import show_hint
from controller.play.pressing import press
from controller.play.reconciling import kept, reading, reconcile, settle
from controller.play.rolling import phrase, roll
from controller.play.table_menu import first_die
from controller.play.table_state import TableState
from controller.show.texts import LANGUAGES


def step(state: TableState, event: Event) -> tuple[TableState, list[Effect]]:
    """The table after `event`, and what the front end must do (see the module docstring)."""
    if event.at > state.now:
        state = replace(state, table=replace(state.table, now=event.at))
    news = watching.news(state.watch, event)
    out: list[Effect]
    if news is not None:
        state, out = replace(state, watch=news), []
    elif facts.watching(state) and not isinstance(event, (LanguageChosen, TutorChosen)):
        state, out = _while_watching(state, event)
    else:
        state, out = _ROUTES[type(event)](state, event)
    state = _tutor_first(state)
    if not facts.watching(state):  # the local match waits while a server match is watched
        asked, questions = computer.ask(state.computer, state.match, setting_up=state.flow.setting_up,
                                        carrying_out=state.flow.bot is not None)
        state, out = replace(state, computer=asked), out + list(questions)
    scene = showing.changed(state)
    if scene is not None:
        state, out = replace(state, scene_sent=scene), out + [ShowScene(scene)]
    return state, out


def _tutor_first(state: TableState) -> TableState:
    """The tutor's warning is seen before the action it holds is kept: when it starts
    holding one, the open menu closes (the main button then keeps, not the menu's item)
    and a hint shown gives way to the warning and its better move. Once only: a menu
    opened again while it holds stays open."""
    state = replace(state, tutor=state.tutor.fresh(state.match))
    held = facts.tutor_hold(state)
    key = None if held is None else (held.side, held.warning.action, held.match, held.target)
    seen = state.table.held_seen
    if key is not None and key != seen:
        state = replace(state, menu=MenuState(), hint=state.hint.cleared())
    return state if key == seen else replace(state, table=replace(state.table, held_seen=key))


def _while_watching(state: TableState, event: Event) -> Stepped:
    """While watching the board is not used: readings are kept (to set the board up
    afterwards) but not played, no clock runs, only the menu's buttons count."""
    if isinstance(event, (ReadingReceived, Tick)):
        return kept(state, event if isinstance(event, ReadingReceived) else None), []
    if isinstance(event, (LinkChanged, ReviewReady, LinkPublished)):
        return _ROUTES[type(event)](state, event)
    if isinstance(event, ButtonPressed) and (event.button == "menu" or state.menu.is_open):
        return press(state, event)
    if isinstance(event, (ButtonPressed, ActionRequested, DicePhraseGiven, DiceEntered, MatchChosen, HintRequested)):
        return state, [Refused.of("watching online: the board plays nothing (the menu leaves watching)", "watching")]
    return state, []


# -- one function per event ----------------------------------------------------------------

def _reading(state: TableState, event: ReadingReceived) -> Stepped:
    return settle(reading(state, event))


def _tick(state: TableState, event: Tick) -> Stepped:
    state, out = settle(state)
    if match_flow.clock_runs(state.flow):
        transition = match_flow.clock_transition(state.flow, state.now)
        if transition is not None:
            applied = apply(state, lambda _: transition)
            state, out = applied.state, out + applied.effects
        flow, warned = match_flow.clock_warning(state.flow, state.now)
        state, out = replace(state, flow=flow), out + list(warned)
    flow, due = match_flow.auto_roll(state.flow, state.now, state.config.auto_roll_delay_s,
                                     menu_open=state.menu.is_open, board_right=state.board.is_right())
    state = replace(state, flow=flow)
    if due is None:
        return state, out
    state, more = roll(state, due)
    return state, out + more


def _link_changed(state: TableState, event: LinkChanged) -> Stepped:
    setting = replace(state.table, board_prompt=event.prompt)
    if event.online == setting.online:
        return replace(state, table=setting), []
    return replace(state, table=replace(setting, online=event.online)), [
        Announce("board online" if event.online else "board offline")]


def _action(state: TableState, event: ActionRequested) -> Stepped:
    return act(state, event.side, event.action, event.level)


def _phrase(state: TableState, event: DicePhraseGiven) -> Stepped:
    return phrase(state, event.side, event.phrase)


def _entered(state: TableState, event: DiceEntered) -> Stepped:
    return dice_entered(state, event.side, event.dice)


def _die_chosen(state: TableState, event: DieChosen) -> Stepped:
    return replace(state, menu=first_die(state.menu, event.die)), []


def _adopt(state: TableState, event: AdoptMatch) -> Stepped:
    state, out = adopt_match(state, event.match)
    state, more = reconcile(state)  # a board already standing so is set up at once
    return state, out + more


def _seated(state: TableState, event: MatchSeated) -> Stepped:
    """Another seating's match and dice (online play taking the table or leaving it, a practice)."""
    state = replace(state, dice=event.dice, watch=state.watch.without_banner(),
                    table=replace(state.table, practising=event.practice))
    state, out = adopt_match(state, event.match)
    state, more = reconcile(state)
    return state, out + more


def _review(state: TableState, event: ReviewReady) -> Stepped:
    return replace(state, table=replace(state.table, review=event.figures)), []


def _language(state: TableState, event: LanguageChosen) -> Stepped:
    """Speak the language from now on (the match is not touched, so nothing is saved)."""
    if event.language not in LANGUAGES:
        return state, [Refused.of(f"unknown language {event.language!r}; choose {', '.join(LANGUAGES)}", "not_now")]
    return replace(state, table=replace(state.table, config=replace(state.config, language=event.language))), []


def _tutor(state: TableState, event: TutorChosen) -> Stepped:
    if event.mark not in TUTOR_MARKS:
        return state, [Refused.of(f"unknown tutor setting {event.mark[:20]!r}; choose {', '.join(TUTOR_MARKS)}",
                                  "not_now")]
    return replace(state, table=replace(state.table, config=replace(state.config, tutor=event.mark))), []


def _match_chosen(state: TableState, event: MatchChosen) -> Stepped:
    """A new match with every setting chosen, as the menu's New match starts one."""
    if facts.playing_online(state):
        return state, [Refused.of("online the server starts the match: leave online play first", "online_match")]
    return start_match(state, event.match)


def _hint(state: TableState, event: HintRequested) -> Stepped:
    """The page's Hint, as the menu's; refused where the menu would not offer it."""
    if not facts.hint_allowed(state):
        return state, [Refused.of("no hint now: a hint is for the person who moves, doubles or answers a double",
                                  "no_hint")]
    return show_hint(state)


def _link_published(state: TableState, event: LinkPublished) -> Stepped:
    """A board's page's link, shown by the menu as a QR code (controller/web/page_links.py)."""
    links = dict(state.links)
    links[event.name] = event.view
    return replace(state, links=tuple(sorted(links.items()))), []


def _roll_queued(state: TableState, event: RollQueued) -> Stepped:
    """The next roll queued (a scenario script's `dice` line); refused where nobody may choose it."""
    try:
        return replace(state, dice=state.dice.push(event.dice)), []
    except DiceError as exc:
        return state, [Refused.from_error(exc)]


def _dice_seeded(state: TableState, event: DiceSeeded) -> Stepped:
    """The dice roll from the seed from now on (a script's `match seed=N`)."""
    return replace(state, dice=replace(state.dice, rng=DiceState.seeded(random.Random(event.seed)).rng)), []


def _server_rolled(state: TableState, event: ServerRolled) -> Stepped:
    """The server's roll (online): the next roll gives it."""
    try:
        return replace(state, dice=state.dice.delivered(event.dice)), []
    except DiceError as exc:
        return state, [Refused.from_error(exc)]


#: the part of the step each event goes to (each takes its own kind of event)
_ROUTES: dict[type, Callable[[TableState, Any], Stepped]] = {
    ReadingReceived: _reading, Tick: _tick, LinkChanged: _link_changed, ActionRequested: _action,
    ButtonPressed: press, DicePhraseGiven: _phrase, DiceEntered: _entered, DieChosen: _die_chosen,
    RemoteActed: remote_acted, AdoptMatch: _adopt, MatchSeated: _seated, BotMoved: bot_moved, BotCube: bot_cube,
    ReviewReady: _review, LanguageChosen: _language, TutorChosen: _tutor, MatchChosen: _match_chosen,
    HintRequested: _hint, LinkPublished: _link_published, RollQueued: _roll_queued, ServerRolled: _server_rolled,
    DiceSeeded: _dice_seeded,
}
