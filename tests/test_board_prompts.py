"""What the display and LEDs show of the board session: a faulty sensor, a board of
another size, a failing sensor chain, an ERROR (issue 11: one clear line, shown)."""
from __future__ import annotations

from controller.board.reconcile import BoardState, Instruction, Mismatch
from controller.link.board_events import (
    BoardErrorReport,
    BoardStatus,
    SessionState,
    Size,
)
from controller.show.content import Prompt
from controller.show.scene import ControllerView, board_status_prompt, build_scene
from controller.show.texts import render

PUT_BACK = Mismatch(("13",), (Instruction("put", "black", 1, to="13"),))


def test_a_faulty_sensor_lights_its_cell_error_and_is_named_not_put_back() -> None:
    scene = build_scene(ControllerView(verdict=PUT_BACK, faults=frozenset({"13", "bar"})))
    assert scene.leds["13"] == "error" and scene.leds["bar"] == "error"
    prompt = scene.display.prompt
    assert prompt == Prompt.of("sensor_fault", cell="13")
    assert render(prompt.key, prompt.as_dict()) == "Sensor fault at 13: check it"
    assert render("sensor_fault", {"cell": "bar"}, "da") == "Sensorfejl på baren: tjek den"


def test_board_state_carries_faults_and_compares_by_them() -> None:
    counts = {"13": (0, 2)}
    assert BoardState.of(counts, faults=["13"]).faults == frozenset({"13"})
    assert BoardState.of(counts, faults=["13"]) != BoardState.of(counts)


def test_a_board_of_another_size_is_shown_with_both_sizes() -> None:
    status = BoardStatus(SessionState.MISMATCH, 0.0, "profile 14x13, board 12x12",
                         profile_size=Size(14, 13), board_size=Size(12, 12), board_version=2)
    prompt = board_status_prompt(status)
    assert prompt is not None
    scene = build_scene(ControllerView(board_prompt=prompt))
    shown = scene.display.prompt
    assert shown is not None
    assert render(shown.key, shown.as_dict()) == "Wrong board: profile 14x13, board 12x12"


def test_other_statuses_and_errors() -> None:
    assert board_status_prompt(BoardStatus(SessionState.ONLINE, 0.0)) is None
    assert board_status_prompt(None) is None
    failing = board_status_prompt(BoardStatus(SessionState.SCAN_FAILING, 0.0))
    assert failing == Prompt.of("board_scan_failed")
    old = board_status_prompt(BoardStatus(SessionState.MISMATCH, 0.0, board_version=1,
                                          profile_size=Size(14, 13), board_size=Size(14, 13)))
    assert old == Prompt.of("board_protocol", version=1)
    assert render(old.key, old.as_dict()) == "Board firmware is protocol 1: flash it"
    newer = board_status_prompt(BoardStatus(SessionState.MISMATCH, 0.0, board_version=3,
                                            profile_size=Size(14, 13), board_size=Size(14, 13)))
    assert newer is not None
    assert render(newer.key, newer.as_dict()) == "Board speaks protocol 3: update bgboard"
    error = board_status_prompt(BoardErrorReport(3, "restarted by the watchdog", 0.0))
    assert error is not None
    assert render(error.key, error.as_dict(), "sv") == "Brädfel 3: restarted by the watchdog"


def test_the_sessions_reason_beats_a_plain_offline() -> None:
    view = ControllerView(online=False, board_prompt=Prompt.of("board_scan_failed"),
                          faults=frozenset({"1"}))
    assert build_scene(view).display.prompt == Prompt.of("board_scan_failed")
    assert build_scene(ControllerView(online=False, faults=frozenset({"1"}))).display.prompt \
        == Prompt.of("board_offline")


def test_a_reading_with_a_faulty_sensor_is_never_taken_for_a_move() -> None:
    """A fault on 8 hides a checker: the reading looks like 8/5 played, but nothing is
    accepted until the sensor reads again; then the true board counts."""
    import random

    from controller.controller import Controller
    from controller.dice import DiceState
    from controller.engine import Position
    from controller.engine.board_view import cell_counts
    from controller.engine.match import Match
    from controller.engine.match_settings import MatchSettings
    from controller.events import ActionRequested, ReadingReceived, Tick

    dice = DiceState.seeded(random.Random(0))
    dice = dice.push((3, 1))
    controller = Controller(Match.new(MatchSettings(length=3)), dice=dice)
    start = cell_counts(Position.initial(), "white")
    controller.handle(ReadingReceived(BoardState.of(start), 0.0))
    controller.handle(Tick(1.0))
    controller.handle(ActionRequested("white", "roll", 1.1))
    partial = controller.status().match.partial
    looks_played = dict(start)
    looks_played["8"] = (2, 0)
    looks_played["5"] = (1, 0)
    controller.handle(ReadingReceived(BoardState.of(looks_played, faults=["8"]), 2.0))
    effects = controller.handle(Tick(5.0))
    assert controller.status().match.partial == partial
    assert controller.status().scene.display.prompt == Prompt.of("sensor_fault", cell="8")
    assert not any(type(e).__name__ == "SaveMatch" for e in effects)
    controller.handle(ReadingReceived(BoardState.of(start), 6.0))   # the sensor works again
    controller.handle(Tick(7.0))
    assert controller.status().match.partial == partial and controller.status().scene.leds.get("8") != "error"
