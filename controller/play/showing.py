"""What the table shows and what the outside may read of it: one job of the controller.

From the table's state this builds the scene (controller.show.scene: the LEDs, the
display's table and prompt), the display's prompt line (controller.play.prompt decides it)
and `TableStatus`, the frozen value the page, the headless runner and the Pi's loop read
of the table: all pure functions of the one `TableState` (controller/play/table_state.py).
The state keeps the scene sent last, so the step sends a scene only when it changed.
"""
from __future__ import annotations

from dataclasses import replace

from controller.engine.board_view import COLOURS, Colour, cell_counts, other, step_cells
from controller.engine.match_settings import REMOTE
from controller.engine.moves import Move, Step
from controller.engine.notation import format_path
from controller.play import facts, hint, menu_items, tutor
from controller.play import prompt as prompts
from controller.play.status import DiceView, TableStatus
from controller.play.table_state import TableState
from controller.play.tracker import steps_carried
from controller.play.tutor import warning_prompt
from controller.show.announce import announcements
from controller.show.content import DisplayContent, Prompt, Scene
from controller.show.match_content import match_content
from controller.show.review_notes import review_display
from controller.show.scene import ControllerView, build_scene


def changed(state: TableState) -> Scene | None:
    """The scene now if it is not the one sent last."""
    scene = scene_of(state)
    return None if scene == state.scene_sent else scene


def shown(state: TableState) -> Scene:
    """The scene sent last (built now if none was sent yet)."""
    return state.scene_sent if state.scene_sent is not None else scene_of(state)


def scene_of(state: TableState) -> Scene:
    """The scene now: the match's, or while watching the watched match's with the
    menu's line while it is open."""
    watched, menu = state.watch.scene, state.menu
    if watched is not None:
        prompt = menu.prompt
        return watched if prompt is None else replace(watched, display=replace(watched.display, prompt=prompt))
    scene = build_scene(view(state))
    link = state.link(menu.link) if menu.mode == "link" else None  # the whole screen
    return scene if link is None else replace(scene, display=replace(scene.display, pairing=link))


def status(state: TableState) -> TableStatus:
    """The table's state as the front ends read it (a frozen value)."""
    board, menu, m, bot = state.board, state.menu, state.match, state.flow.bot
    actions = facts.possible_actions(state)
    return TableStatus(
        match=m, mover=bot.side if bot is not None else m.turn, online=state.table.online,
        setting_up=state.flow.setting_up, settling=board.settling,
        reading=board.raw, reading_since=board.raw_since, board=board.settled, verdict=board.verdict,
        board_ready=facts.board_ready(state),
        carried_out=bot, roll_due=state.flow.roll_due,
        clock_running=m.clock is not None and not m.is_over, menu=menu,
        entering_dice=state.dice.mode == "entered" and menu.mode == "dice",
        actions=actions, now=state.now, opening_tie=state.flow.opening_tie,
        held_steps=_held_steps(state), scene=shown(state), config=state.config,
        dice=DiceView(state.dice.mode, state.dice.secret, state.dice.asked),
        hint_allowed=facts.hint_allowed(state), watching=facts.watching(state),
        play_offered=state.watch.play_offered, watch_offered=state.watch.watch_offered,
        banner=state.watch.banner, practising=state.table.practising, review=state.table.review,
        bot_token=state.computer.token, menu_items=tuple(e.id for e in menu_items.offered(facts.menu_facts(state, actions))))


def _held_steps(state: TableState) -> tuple[Step, ...]:
    """The steps of a move the tutor holds that the match does not have yet."""
    held, plan = facts.tutor_hold(state), facts.turn_plan(state)
    if held is None or not held.is_move or held.target is None or plan is None:
        return ()
    return plan.path(state.match.partial, held.target) or ()


def view(state: TableState) -> ControllerView:
    """What the scene is built from (controller.show.scene)."""
    m, bot, board, menu = state.match, state.flow.bot, state.board, state.menu
    mover: Colour | None = bot.side if bot is not None else m.turn
    last: tuple[tuple[str, str], ...] = ()
    if m.last_move is not None and m.phase in ("roll", "move", "doubled"):
        last = tuple(step_cells(s, m.last_move.side) for s in m.last_move.steps)
    bot_cells: tuple[tuple[str, str], ...] = ()
    if bot is not None:  # the steps still to carry out (the done ones are dark)
        done = steps_carried(bot, board.verdict)
        bot_cells = tuple(step_cells(s, bot.side) for s in bot.move.steps[done:])
    setup_counts = None
    if state.flow.setting_up:
        position, colour = m.board()
        setup_counts = cell_counts(position, colour)
    return ControllerView(
        table=table(state), language=state.config.language, online=state.table.online, mover=mover,
        verdict=board.in_air or board.verdict, plan=facts.turn_plan(state) if bot is None else None,
        current=m.partial, last_move=last, show_last=state.flow.show_last, bot_move=bot_cells,
        setup=state.flow.setting_up, setup_counts=setup_counts, prompt=phase_prompt(state),
        faults=board.raw.faults if board.raw is not None else frozenset(),
        board_prompt=state.table.board_prompt,
        hint_move=hint.cells(state.hint, m, facts.tutor_hold(state)),
        banner=None if menu.is_open else state.watch.banner)


def table(state: TableState) -> DisplayContent:
    """The display's table: the match's, with the pips of a held move and the review's figures."""
    m = state.match
    pips = None
    held = facts.tutor_hold(state)
    if held is not None and held.target is not None and m.turn is not None:
        mine, theirs = held.target.pips()  # the held move stands on the board, not yet in the match
        pips = {m.turn: mine, other(m.turn): theirs}
    figures = state.table.review if state.table.practising is None else None  # the match's figures
    review = review_display(m, figures)
    return replace(match_content(m, state.now, pips), notes=review.notes, pr_white=review.pr_white,
                   pr_black=review.pr_black)


def _announcement(state: TableState) -> Prompt | None:
    """An opening tie, the won game (until the next opening roll) or the computer's take
    (until the doubler rolls) in place of the phase's own prompt, which the buttons' lights
    say too."""
    m = state.match
    if m.phase not in ("opening", "roll"):
        return None
    computer = [s for s in COLOURS if m.settings.is_computer(s)]
    said = announcements(m, computer, state.flow.opening_tie)
    return said[-1] if said else None  # the outcome: they come in the order they happened


def phase_prompt(state: TableState) -> Prompt | None:
    """The display's prompt line now (controller.play.prompt decides it)."""
    return prompts.phase_prompt(_prompt_facts(state))


def _prompt_facts(state: TableState) -> prompts.PromptFacts:
    m, menu, bot = state.match, state.menu, state.flow.bot
    overlay = hint.prompt(state.hint, m, menu)
    if overlay is None and menu.is_open:
        overlay = menu.prompt
    choice = facts.ambiguous_choice(state)
    graph = facts.turn_plan(state)
    path = graph.path(graph.start, choice) if choice is not None and graph is not None else None
    secret = state.dice.secret
    held = facts.tutor_hold(state)
    whole = facts.whole_move_choice(state) if choice is None else None
    return prompts.PromptFacts(
        match=m, now=state.now, overlay=overlay or state.watch.banner,
        confirm=Move(path, choice).notation if choice is not None and path is not None else
        format_path(whole.steps) if whole is not None else None,
        setting_up=state.flow.setting_up,
        announcement=_announcement(state) or tutor.notice(m, state.config.tutor),
        commitment=secret.short_commitment if secret is not None and not secret.revealed else None,
        carried_out=bot, by_remote=bot is not None and m.settings.player(bot.side) == REMOTE,
        tutor=None if held is None else warning_prompt(held.warning))
