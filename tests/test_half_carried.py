"""A computer's move half carried out (issue 22, item 4): the person carries out the
computer's move step by step from the LEDs; a step already on the board is done, so its
lights go out and its die is used, on the board and on the page, as for one's own steps."""
from __future__ import annotations

import random

from controller.board.reconcile import BoardState
from controller.controller import Controller
from controller.dice import DiceState
from controller.engine import Position
from controller.engine.board_view import CELLS, cell_counts, step_cells
from controller.engine.match import Match
from controller.engine.match_settings import MatchSettings
from controller.events import ActionRequested, BotMoved, ReadingReceived, Tick
from controller.web.page_facts import page_facts


def test_a_step_carried_out_goes_dark_and_uses_its_die() -> None:
    dice = DiceState.seeded(random.Random(1))
    dice = dice.push((3, 6))  # the opening roll: Black's 6 beats White's 3, the computer plays 6-3
    c = Controller(Match.new(MatchSettings(length=5, black_player="simple")), dice=dice)
    c.handle(ReadingReceived(BoardState.of(cell_counts(Position.initial(), "white")), 0.0))
    c.handle(Tick(0.3))
    c.handle(ActionRequested("white", "roll", 0.4))
    move = next(m for m in c.status().match.legal_moves() if m.notation == "24/18 13/10")
    c.handle(BotMoved(move, 1.0, c.status().bot_token))
    first, second = (step_cells(s, "black") for s in move.steps)
    lit = c.status().scene.leds
    assert lit[first[0]] == "bot-from" and lit[second[0]] == "bot-from"
    counts = {cell: list(c.status().board.count(cell)) for cell in CELLS}  # type: ignore[union-attr]
    counts[first[0]][1] -= 1
    counts[first[1]][1] += 1
    c.handle(ReadingReceived(BoardState.of({k: (w, b) for k, (w, b) in counts.items()}), 1.5))
    c.handle(Tick(2.0))
    assert c.status().match.turn == "black" and c.status().carried_out is not None  # half carried out
    lit = c.status().scene.leds
    assert first[0] not in lit and first[1] not in lit  # the done step is dark
    assert lit[second[0]] == "bot-from" and lit[second[1]] == "bot-to"
    used = {d["value"]: d["used"] for d in page_facts(c.status(), "en")["dice_view"]}
    assert used == {move.steps[0].die: True, move.steps[1].die: False}
    assert page_facts(c.status(), "en")["bot_move"] == [list(second)]  # the page's arrows too
