"""Issue 22.13: every field of every server event is checked where the line is read.

A board with a die of 0 in a turn went through the parser into the rules engine and the
display (`dice must be up to two values 1..6, not (6, 0)`, a 50-line traceback from
`bgboard online`), and fuzzing found `InvalidDiceError` through `TurnPlan`. Here lines near
the real ones (bgammon's event.go fields, one to three of them changed to anything) go to
`decode_event`, and what it accepts goes on to the remote opponent and a real controller:
nothing but the typed one-line `ProtocolError` may escape, anywhere on the way.
"""
from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.controller import Controller
from controller.dice import DiceState
from controller.engine.match_settings import MatchSettings
from controller.online.events import Board, ProtocolError, decode_event
from controller.online.remote import match_from_state
from tests.online_double import new_board
from tests.test_online_remote import ME, YOU, opened

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _player(n: int, name: str) -> dict[str, Any]:
    return {"Number": n, "Name": name, "Rating": 0, "Points": 0}


def board_event(**fields: Any) -> dict[str, Any]:
    """A board event as bgammon's sendBoard writes it: our turn, 5-2 rolled."""
    return {"Type": "board", "Player": "", "Player1": _player(1, ME), "Player2": _player(2, YOU),
            "Variant": 0, "Board": new_board(), "Turn": 1, "Roll1": 5, "Roll2": 2, "Roll3": 0,
            "Moves": [], "Winner": 0, "Points": 3, "Crawford": 0, "DoubleValue": 1, "DoublePlayer": 0,
            "DoubleOffered": False, "PlayerNumber": 1, "Available": [], "Spectating": False, **fields}


BASES: list[dict[str, Any]] = [
    board_event(), board_event(Turn=0, Roll1=0, Roll2=0), board_event(Turn=2, Roll1=0, Roll2=0),
    {"Type": "rolled", "Player": YOU, "Roll1": 6, "Roll2": 4, "Roll3": 0},
    {"Type": "rolled", "Player": ME, "Roll1": 3, "Roll2": 1, "Roll3": 0},
    {"Type": "moved", "Player": YOU, "Moves": [[13, 7], [8, 7]]},
    {"Type": "win", "Player": YOU, "Points": 2, "Resigned": ME},
    {"Type": "joined", "Player": YOU, "GameID": 1, "PlayerNumber": 2},
    {"Type": "failedmove", "Player": "", "Reason": "Illegal move."},
    {"Type": "list", "Games": [{"ID": 1, "Password": False, "Points": 3, "Players": 1, "Name": "x"}]},
    {"Type": "say", "Player": YOU, "Message": "hi"},
]
anything = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 130) | st.sampled_from([2**40, -(2**40)]) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=30), max_leaves=40)
small = st.integers(-1, 7)


@st.composite
def events(draw: st.DrawFn) -> str:
    event = json.loads(json.dumps(draw(st.sampled_from(BASES))))
    for _ in range(draw(st.integers(1, 3))):
        key = draw(st.sampled_from(sorted(event) + ["Board.", "Player1.Points", "Player2.Points"]))
        board = event.get("Board")
        if key == "Board." and isinstance(board, list) and len(board) == 28:
            event["Board"][draw(st.integers(0, 27))] = draw(small)  # a checker more or less
        elif key.startswith("Player") and "." in key and isinstance(event.get(key[:7]), dict):
            event[key[:7]]["Points"] = draw(small)
        elif key != "Type":
            event[key] = draw(small if key.startswith("Roll") or key in ("Turn", "Winner") else anything)
    return json.dumps(event)


def _decoded(line: str) -> Any:
    try:
        return decode_event(line)
    except ProtocolError as exc:
        assert "\n" not in str(exc)
        return None


@FUZZ
@given(events())
def test_a_board_the_parser_takes_is_one_the_rules_engine_and_the_display_take(line: str) -> None:
    event = _decoded(line)
    if not isinstance(event, Board):
        return
    match = match_from_state(event.state, MatchSettings(black_player="remote"))
    c = Controller(match, dice=DiceState(mode="server"), now=0.0)
    c.status().scene
    c.status().match.legal_moves()


@FUZZ
@given(st.lists(events(), min_size=1, max_size=4))
def test_no_event_gets_past_the_edge_but_as_one_typed_line(lines: list[str]) -> None:
    table = opened((3, 1), starter=2)
    for line in lines:
        event = _decoded(line)
        if event is None:
            continue
        try:
            table.server(event)
        except ProtocolError as exc:
            assert "\n" not in str(exc)
        table.c.status()


@pytest.mark.parametrize("line", [
    json.dumps(board_event(Roll2=0)),
    json.dumps(board_event(Board=[0] + new_board()[1:26] + [1, 0])),
    json.dumps(board_event(Player1=dict(_player(1, ME), Points=3))),
])
def test_a_board_no_game_can_show_is_refused(line: str) -> None:
    with pytest.raises(ProtocolError, match="^server sent a board event whose "):
        decode_event(line)


def test_a_die_of_0_in_a_turn_is_refused_before_the_table_hears_of_it() -> None:
    table = opened((3, 1), starter=2)
    before = table.c.status().match
    with pytest.raises(ProtocolError, match="rolled event whose Roll1 and Roll2"):
        table.server(decode_event('{"Type":"rolled","Player":"Guest_you","Roll1":6,"Roll2":0}'))
    assert table.c.status().match is before and not table.remote.facts
