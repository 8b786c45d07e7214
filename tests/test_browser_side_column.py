"""Issue 35.13's side column in Swedish: the clock's rows on one line each (beside the
board), the move list scrolled to the move being played, the review graph's labels beside
the plot, never on it."""
from __future__ import annotations

from typing import Any

import random

import pytest

from browser_support import Page, ctl, needs_chromium, wait_until
from controller.engine.match import Match
from controller.engine.match_settings import MatchSettings
from controller.events import AdoptMatch
from sim.page.harness import ServerThread
from controller.web.protocol import PageAction

pytestmark = [needs_chromium, pytest.mark.timeout(300)]


def _act(sim: ServerThread, action: PageAction) -> Any:
    live = sim.inspect(lambda live: live)
    return sim.run(live.act(action))


def _long_game(turns: int) -> Match:
    """A game of `turns` turns played by the first legal move of seeded rolls, tournament clock."""
    rolls = random.Random(5)
    m = Match.new(MatchSettings(length=7, clock="tournament"))
    m = m.roll("white", (4, 2)).match
    while len(m.history[-1].actions) < turns and not m.is_over:
        if m.phase == "roll" and m.turn is not None:
            m = m.roll(m.turn, (rolls.randint(1, 6), rolls.randint(1, 6))).match
        elif m.phase == "move" and m.turn is not None:
            moves = m.legal_moves()
            m = m.play(m.turn, moves[0]).match if moves else m.done(m.turn).match
    return m


def test_the_side_column_fits_a_phone_in_swedish(browser: Any, sim: ServerThread) -> None:
    _act(sim, PageAction("language", name="sv"))
    game = _long_game(30)
    sim.inspect(lambda live: live.table.dispatch(AdoptMatch(game, live.table.clock())))
    _act(sim, PageAction("setup"))
    wait_until(lambda: not ctl(sim, lambda c: c.status().setting_up), 20, "the board set up")
    phone = Page(browser, sim.url, width=390, height=900)
    try:
        phone.page.wait_for_function("document.querySelectorAll('#move-list tr').length >= 12")
        # the move being played is in view inside the list (it stayed below the fold)
        wait_until(lambda: phone.page.evaluate("""() => {
            const box = document.getElementById('moves-box').getBoundingClientRect();
            const rows = document.querySelectorAll('#move-list tr');
            const row = (document.querySelector('#move-list td.current') || {}).parentElement || rows[rows.length - 1];
            const r = row.getBoundingClientRect();
            return r.top >= box.top - 1 && r.bottom <= box.bottom + 1; }"""), 10, "the current move in view")
        # the graph's axis labels end left of the plot
        labels = phone.page.evaluate("""async () => {
            const { drawGraph } = await import('/static/review.js');
            const svg = document.getElementById('review-graph');
            drawGraph(svg, [{game: 1, move: 1, white: 0.5}, {game: 1, move: 2, white: 0.7}], 'sv');
            svg.closest('[hidden]')?.removeAttribute('hidden');
            const even = svg.querySelector('line.even');
            return [...svg.querySelectorAll('text.axis')].map(t => t.getBBox().x + t.getBBox().width
                                                                 - even.x1.baseVal.value); }""")
        assert len(labels) == 3 and all(overlap <= 0 for overlap in labels), labels
        assert phone.errors == [], phone.errors
    finally:
        phone.close()
    desk = Page(browser, sim.url)  # the side column beside the board: narrowest there
    try:
        desk.page.wait_for_selector("#clock .clock-side span")
        # every part of a clock row on one line ("fördröjning 11 s" wrapped its seconds)
        heights = desk.page.locator("#clock .clock-side span").evaluate_all(
            "spans => spans.map(s => [s.getBoundingClientRect().height, parseFloat(getComputedStyle(s).lineHeight)"
            " || 1.2 * parseFloat(getComputedStyle(s).fontSize)])")
        assert heights and all(h <= 1.5 * line for h, line in heights), heights
    finally:
        desk.close()
