"""Why an action is refused, in the match's language (issue 13: notices in the match's
language; the reasons stayed English behind a translated "Not now:").

Every refusal the controller makes carries a message key `refused.<name>` of
controller/show/texts.py with its parameters, beside the English log line scripts read
("rejected: ..."); the match's and the dice's errors name their reason the same way. The
page's notice says it in the match's language.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from controller.board.reconcile import BoardState
from controller.controller import Controller
from controller.dice import DiceState
from controller.engine.board_view import COLOURS, cell_counts
from controller.engine.errors import MatchStateError
from controller.engine.match import LEVELS, Match
from controller.engine.match_settings import MatchSettings
from controller.engine.moves import Step
from controller.engine.position import Position
from controller.events import ActionRequested, ButtonPressed, ReadingReceived, Refused, Tick
from controller.show.texts import LANGUAGES, MESSAGES, render
from sim.page.harness import ServerThread, fast_profile
from controller.web.protocol import Notice, PageAction
from controller.events import RollQueued


def _commands(m: Match) -> list[object]:
    """Every command either side could give now (most of them refused)."""
    out: list[object] = []
    for side in COLOURS:
        out += [lambda s=side: m.roll(s, (3, 1)), lambda s=side: m.double(s), lambda s=side: m.take(s),
                lambda s=side: m.drop(s), lambda s=side: m.accept(s), lambda s=side: m.decline(s),
                lambda s=side: m.forfeit(s), lambda s=side: m.rematch(s), lambda s=side: m.done(s),
                lambda s=side: m.undo(s), lambda s=side: m.step(s, Step(24, 23, 1))]
        out += [lambda s=side, lv=level: m.resign(s, lv) for level in LEVELS]
    return out


def _states(seed: int, count: int) -> list[Match]:
    """States of random matches with the cube in play (every phase is reached)."""
    rng = random.Random(seed)
    states: list[Match] = []
    m = Match.new(MatchSettings(length=3, confirm="button"))
    while len(states) < count:
        states.append(m)
        options = []
        for command in _commands(m):
            try:
                options.append(command().match)  # type: ignore[operator]
            except MatchStateError:
                pass
        if m.phase == "move" and m.turn is not None and not m.steps:
            options += [m.play(m.turn, move).match for move in m.legal_moves()[:3]]
        m = rng.choice(options) if options else Match.new(MatchSettings(length=3, confirm="button"))
        if m.phase == "over" and rng.random() < 0.5:
            m = Match.new(MatchSettings(length=3, confirm="button"))
    return states


def test_every_refusal_of_the_match_names_a_reason_in_every_language() -> None:
    keys: set[str] = set()
    for m in _states(7, 400):
        for command in _commands(m):
            try:
                command()  # type: ignore[operator]
            except MatchStateError as exc:
                assert exc.key is not None, str(exc)
                keys.add(exc.key)
                for language in LANGUAGES:
                    assert render(f"refused.{exc.key}", exc.params, language), (exc.key, language)
    assert {"phase_opening", "phase_roll", "phase_move", "phase_doubled", "not_your_turn",
            "answers_double", "resign_before_roll", "match_over"} <= keys, keys


def test_the_texts_of_the_reasons_are_each_defined_once_in_python() -> None:
    """The page shows what the server renders; its catalogue keeps only "Not now: {reason}"."""
    i18n = (Path(__file__).resolve().parents[1] / "controller" / "web" / "static" / "i18n.js").read_text(encoding="utf-8")
    assert "refused." not in i18n
    for key in MESSAGES:
        if key.startswith("refused."):
            assert set(MESSAGES[key]) == set(LANGUAGES), key


def _controller(black: str = "human") -> Controller:
    dice = DiceState.seeded(random.Random(1))
    c = Controller(Match.new(MatchSettings(length=3, black_player=black)), dice=dice)
    c.handle(ReadingReceived(BoardState.of(cell_counts(Position.initial(), "white")), 0.0))
    c.handle(Tick(0.5))
    return c


def _refusals(effects: list[object]) -> list[Refused]:
    return [e for e in effects if isinstance(e, Refused)]


def test_the_controllers_refusals_say_why_for_the_players() -> None:
    c = _controller(black="simple")
    (refused,) = _refusals(c.handle(ActionRequested("black", "double", 1.0)))
    assert refused.reason == "black is played by the computer"  # the log's line, as before
    assert render(refused.why.key, refused.why.as_dict(), "da") == "Sort spilles af computeren"
    assert render(refused.why.key, refused.why.as_dict(), "sv") == "Svart spelas av datorn"
    (refused,) = _refusals(c.handle(ButtonPressed("white", "cube", 1.5)))
    assert render(refused.why.key, refused.why.as_dict(), "en") == "White's cube button does nothing now"
    (refused,) = _refusals(c.handle(ActionRequested("white", "reveal", 2.0)))
    assert render(refused.why.key, refused.why.as_dict(), "sv") == "Matchen har inga tärningar att avslöja"


def test_a_refused_match_command_says_what_the_match_waits_for() -> None:
    c = _controller()
    c.handle(RollQueued((3, 1), c.status().now))
    c.handle(ActionRequested("white", "roll", 1.0))  # White opens 3-1 and is moving
    (refused,) = _refusals(c.handle(ActionRequested("black", "roll", 1.5)))
    assert refused.reason.startswith("cannot roll now")
    assert render(refused.why.key, refused.why.as_dict(), "da") == "Hvid flytter 3-1"


@pytest.fixture()
def danish_sim(tmp_path: Path) -> ServerThread:
    settings = tmp_path / "config" / "bgboard" / "simulator.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps({"language": "da"}))
    (tmp_path / "state").mkdir()
    return ServerThread(state_dir=tmp_path / "state", settings_file=settings, profile=fast_profile(tmp_path), seed=3)


def test_the_pages_notice_gives_the_reason_in_the_matchs_language(danish_sim: ServerThread) -> None:
    with danish_sim as sim:
        assert sim.live is not None
        notice = sim.run(sim.live.act(PageAction("command", name="black double")))
    assert isinstance(notice, Notice) and notice.key == "rejected"
    assert notice.text.startswith("rejected: ")  # the English line stays for logs and tests
    assert notice.params["reason"] in ("Spil 1 venter på åbningsslaget", "Ret brættet først"), notice.params
