"""The review panel in real Chromium (issue 14): after each game the page shows each
player's PR and rating, the winning-chance graph with the game boundaries, the marked
decisions; "Set up on the board" asks first, keeps the match, and starts the practice
at that position with the `setup` lights on exactly the cells that must change; "Back to
the match" resumes it. A set-up request for an unknown decision, or a hostile one, is one
line and changes nothing.

Two short games are played on the page: White opens with 3-1 played 24/20 (double-clicks),
Black doubles at once and White drops (both very bad, so there are marks to list)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from browser_support import OUTPUT, Page, ctl, needs_chromium, roll, wait_until
from review_support import analyze_json, assert_review_is_the_analysis
from controller.bot.gnubg_level import load_gnubg_nn
from controller.engine.board_view import CELLS, cell_counts
from controller.engine.position import Position
from sim.page.harness import ServerThread
from browser_support import queue_roll

pytestmark = [needs_chromium,
              pytest.mark.skipif(load_gnubg_nn() is None, reason="needs gnubg-nn (installed by .ci/run)")]


def _board(sim: ServerThread) -> dict[str, tuple[int, int]]:
    return sim.inspect(lambda live: {c: live.vb.counts(c) for c in CELLS})


def _set_up(page: Page, sim: ServerThread) -> None:
    page.page.click('#helpers button[data-helper="setup"]')
    wait_until(lambda: ctl(sim, lambda c: not c.status().setting_up), 5, "the board set up")


def _short_game(page: Page, sim: ServerThread, game: int) -> None:
    sim.inspect(lambda live: queue_roll(live, (3, 1)))
    roll(page, sim)  # the opening: White 3, Black 1
    assert ctl(sim, lambda c: (c.status().match.turn, c.status().match.dice)) == ("white", (3, 1))
    page.page.dblclick('#checkers [data-cell="24"][data-colour="white"] >> nth=-1')  # 24/21
    wait_until(lambda: ctl(sim, lambda c: len(c.status().match.steps) == 1), 5, "24/21")
    page.page.dblclick('#checkers [data-cell="21"][data-colour="white"] >> nth=-1')  # 21/20
    wait_until(lambda: ctl(sim, lambda c: c.status().match.turn == "black" and c.status().match.phase == "roll"), 5, "Black's turn")
    page.click_button("black_cube")  # doubles
    wait_until(lambda: ctl(sim, lambda c: c.status().match.phase == "doubled"), 5, "the double")
    page.click_button("white_cube")  # drops
    wait_until(lambda: ctl(sim, lambda c: c.status().match.score == (0, game)), 5, f"game {game} dropped")


def _review(page: Page) -> dict[str, Any]:
    return page.page.evaluate("async () => (await fetch('/review.json')).json()")  # type: ignore[no-any-return]


def test_the_review_panel_shows_the_match_and_sets_a_marked_position_up(page: Page, sim: ServerThread,
                                                                        tmp_path: Path) -> None:
    assert page.page.locator("#review-box").is_hidden()  # no finished game, no review
    _short_game(page, sim, 1)
    page.page.wait_for_function("window.bgboard.state.review && window.bgboard.state.review.games === 1", timeout=20000)
    _set_up(page, sim)
    _short_game(page, sim, 2)
    page.page.wait_for_function("window.bgboard.state.review && window.bgboard.state.review.games === 2", timeout=20000)
    review = _review(page)
    # the review is bgboard analyze --json of the record the page downloads now
    record = tmp_path / "downloaded.mat"
    record.write_text(page.page.evaluate("async () => (await fetch('/match.mat')).text()"))
    assert_review_is_the_analysis(review, analyze_json(record))
    # PR and rating of both players, as the review (bgboard analyze's figures) has them
    page.page.wait_for_function("document.querySelectorAll('#review-list tr').length > 0")
    players = page.page.locator("#review-players").inner_text()
    for side, p in zip(("White", "Black"), review["players"]):
        assert f"{side}: PR {p['overall']['pr']:.1f}" in players
    assert "awful!" in players  # White dropped a double that was no double: gnubg's worst rating
    # the graph: one line over both games, a dashed boundary before game 2
    assert page.page.locator("#review-graph path.chance").count() == 1
    assert page.page.locator("#review-graph line.game-boundary").evaluate_all(
        "ls => ls.map(l => l.dataset.game)") == ["2"]
    assert [(p["game"], p["white"]) for p in review["series"] if p["move"] == 0] == [(1, 0.0), (2, 0.0)]
    OUTPUT.mkdir(exist_ok=True)
    page.page.locator("#review-box").screenshot(path=str(OUTPUT / "simulator-review.png"))
    # the marked decisions in match order, with their marks
    keys = page.page.locator("#review-list tr").evaluate_all("rs => rs.map(r => r.dataset.key)")
    assert keys == [d["key"] for d in review["marked"]]
    assert [(d["game"], d["move"]) for d in review["marked"]] == sorted((d["game"], d["move"]) for d in review["marked"])
    kinds = {(d["game"], d["player"], d["kind"]) for d in review["marked"]}
    assert {(1, "black", "double"), (1, "white", "pass"), (2, "black", "double"), (2, "white", "pass")} <= kinds
    # set the first game's pass up: the double offered at Black's turn after 24/20, White to answer
    chosen = next(d for d in review["marked"] if d["game"] == 1 and d["kind"] == "pass")
    _set_up(page, sim)
    before = ctl(sim, lambda c: c.status().match)
    page.page.click(f'#review-list button.review-setup[data-key="{chosen["key"]}"]')
    page.page.wait_for_selector("#confirm[open]")
    page.page.click("#confirm-no")  # asked first: "no" changes nothing
    assert ctl(sim, lambda c: c.status().match) is before
    page.page.click(f'#review-list button.review-setup[data-key="{chosen["key"]}"]')
    page.page.wait_for_selector("#confirm[open]")
    page.page.click("#confirm-yes")
    page.page.wait_for_function(f"window.bgboard.state.review && window.bgboard.state.review.practice === {json.dumps(chosen['key'])}")
    m = ctl(sim, lambda c: c.status().match)
    s = chosen["setup"]
    assert (m.phase, m.turn, m.position.id, m.cube, m.score) == ("doubled", "black", s["position_id"], 1, (0, 0))
    assert ctl(sim, lambda c: c.status().setting_up)
    # the setup lights: exactly the cells whose checkers differ from the position
    want = cell_counts(Position.from_id(s["position_id"]), "black")
    here = _board(sim)
    differ = {c for c in CELLS if here[c] != want.get(c, (0, 0))}
    assert differ  # the board stands at the start of game 3: 24/20 must be played again
    page.page.wait_for_function("Object.values(window.bgboard.state.leds).some(l => l.role === 'setup')")
    lit = page.state()["leds"]
    assert {c for c, light in lit.items() if light["role"] == "setup"} == differ
    # the panel still shows the match, the practised decision marked (drawn on the page's next frame)
    page.page.wait_for_function("document.querySelectorAll('#review-list tr.practising').length === 1")
    assert page.page.evaluate("async () => (await fetch('/match.mat')).text()").count("Game ") == 2  # the match's record
    # set up as the lights say; the practice asks White to take or drop
    _set_up(page, sim)
    assert _board(sim) == {c: want.get(c, (0, 0)) for c in CELLS}
    assert ctl(sim, lambda c: c.status().scene.display.prompt.key) == "double_offered"
    # the practice says so over the board, which it brought into view (Set up is far below it)
    banner = page.page.locator("#practice-banner")
    assert banner.is_visible()
    assert page.page.locator("#practice-what").inner_text().startswith(f"Practice: game 1, move {chosen['move']}, White to play")
    top = page.page.evaluate("document.querySelector('.table').getBoundingClientRect().top")
    assert -5 <= top <= 60, top
    # issue 35.15: the facts say it is a practice (they said "White vs Black")
    page.page.wait_for_function("document.getElementById('players').innerText === 'Practice: you play both sides'")
    assert page.page.locator("#practice-answer").is_hidden()  # no verdict before the answer
    # White takes on the board: the answer is told beside gnubg's best and the match's play
    page.click_button("white_main")
    page.page.wait_for_selector("#practice-answer:not([hidden])")
    answer = page.page.locator("#practice-answer").inner_text()
    assert answer.startswith("Your answer: takes") and f"gnubg's best: {chosen['best']}" in answer, answer
    assert f"In the match: {chosen['played']}" in answer
    # back to the match: the saved match, exactly as it was
    page.page.click("#practice-back")
    page.page.wait_for_function("window.bgboard.state.review && !window.bgboard.state.review.practice")
    assert banner.is_hidden()
    back = ctl(sim, lambda c: c.status().match)
    assert (back.score, back.game, back.phase, back.match_id) == (before.score, before.game, before.phase, before.match_id)
    assert len(back.history) == len(before.history) and back.history[:2] == before.history[:2]


def test_a_set_up_request_for_no_decision_is_one_line_and_changes_nothing(page: Page, sim: ServerThread) -> None:
    before = ctl(sim, lambda c: c.status().match)
    answers = page.page.evaluate("""() => new Promise((resolve) => {
        const ws = new WebSocket(`ws://${location.host}/ws`); const got = [];
        ws.onmessage = (ev) => { const m = JSON.parse(ev.data); if (m.type === 'notice') got.push(m.text);
                                 if (got.length === 4) { ws.close(); resolve(got); } };
        ws.onopen = () => { ws.send(JSON.stringify({type: 'practice', key: '9-9-white-move'}));
                            ws.send(JSON.stringify({type: 'practice', key: {'$gt': ''}}));
                            ws.send(JSON.stringify({type: 'practice', key: '../../etc/passwd'}));
                            ws.send(JSON.stringify({type: 'back_to_match'})); };
        setTimeout(() => resolve(got), 20000); })""")
    assert answers == ["ignored a set-up request: no marked decision 9-9-white-move in this match's review",
                       "ignored a set-up request: an object names no decision",
                       "ignored a set-up request: '../../etc/passwd' names no decision",
                       "there is no practice to end"]
    assert ctl(sim, lambda c: c.status().match) is before
