"""The controller: typed events in, effects out; settling on an injected clock; no I/O."""
from __future__ import annotations

import random

from board_states import START, board
from controller.board.reconcile import BoardState
from controller.controller import Controller, ControllerConfig
from controller.dice import DiceState
from controller.engine import Position
from controller.engine.board_view import cell_counts
from controller.engine.match import Match
from controller.engine.notation import format_path
from controller.engine.match_settings import MatchSettings
from controller.events import (ActionRequested, Announce, ButtonPressed, Buzz, LinkChanged,
                               ReadingReceived, Refused, SaveMatch, ShowScene, Tick)
from controller.play.showing import phase_prompt
from controller.events import RollQueued



def texts(effects: list[object]) -> list[str]:
    """What the table logs of the effects; a refusal reads "rejected: <reason>"."""
    return [e.text if isinstance(e, Announce) else f"rejected: {e.reason}"
            for e in effects if isinstance(e, (Announce, Refused))]


def make(confirm: str = "auto", rolls: list[tuple[int, int]] = ()) -> Controller:
    dice = DiceState.seeded(random.Random(1))
    for r in rolls:
        dice = dice.push(r)
    c = Controller(Match.new(MatchSettings(length=5, confirm=confirm)), dice=dice)
    c.handle(ReadingReceived(board(), 0.0))
    c.handle(Tick(0.3))
    assert not c.status().setting_up
    return c


def test_a_reading_counts_only_after_the_settling_time() -> None:
    c = make(rolls=[(3, 1)])
    c.handle(ActionRequested("white", "roll", 0.4))
    moved = board({"8": (-1, 0), "5": (1, 0)})
    out = c.handle(ReadingReceived(moved, 1.0))
    assert c.status().match.steps == ()
    out = c.handle(Tick(1.29))
    assert c.status().match.steps == () and "white step 8/5" not in texts(out)
    out = c.handle(Tick(1.30))
    assert "white step 8/5" in texts(out)
    assert any(isinstance(e, SaveMatch) for e in out)


def test_flicker_restarts_the_settling_and_never_counts() -> None:
    c = make(rolls=[(3, 1)])
    c.handle(ActionRequested("white", "roll", 0.4))
    t = 1.0
    for i in range(10):
        state = board({"10": (1, 0)}) if i % 2 == 0 else board()
        c.handle(ReadingReceived(state, t))
        c.handle(Tick(t + 0.1))
        t += 0.15
    c.handle(ReadingReceived(board(), t))
    c.handle(Tick(t + 1))
    assert c.status().match.steps == () and c.status().verdict is not None and c.status().verdict.is_exact  # type: ignore[union-attr]


def test_a_refused_action_changes_nothing_and_buzzes() -> None:
    c = make()
    before = c.status().match
    out = c.handle(ActionRequested("black", "take", 1.0))
    assert c.status().match is before
    assert any(t.startswith("rejected:") for t in texts(out))
    assert any(isinstance(e, Buzz) for e in out)
    assert not any(isinstance(e, SaveMatch) for e in out)


def test_roll_is_refused_while_the_board_is_wrong() -> None:
    c = make(rolls=[(3, 1)])
    c.handle(ReadingReceived(board({"13": (-1, 0), "12": (1, 0)}), 1.0))
    c.handle(Tick(1.4))
    out = c.handle(ActionRequested("white", "roll", 1.5))
    assert c.status().match.phase == "opening"
    assert any("put the board right" in t for t in texts(out))
    scene = c.status().scene
    assert scene.leds["13"] == "error"


def test_buttons_mean_what_the_moment_needs() -> None:
    c = make(confirm="button", rolls=[(3, 1)])
    c.handle(ButtonPressed("black", "main", 0.5))  # the opening roll by either side
    assert c.status().match.phase == "move" and c.status().match.turn == "white"
    c.handle(ReadingReceived(board({"8": (-1, 0), "6": (-1, 0), "5": (2, 0)}), 1.0))
    c.handle(Tick(1.4))
    assert c.status().match.turn == "white" and c.status().match.move_complete  # waits for done
    out = c.handle(ButtonPressed("white", "main", 1.5))
    assert c.status().match.turn == "black" and any("moved" in t for t in texts(out))
    c.handle(ButtonPressed("black", "cube", 1.6))
    assert c.status().match.phase == "doubled"
    c.handle(ButtonPressed("white", "cube", 1.7))  # drop
    assert c.status().match.score == (0, 1)


def test_board_offline_is_shown_and_nothing_is_lost() -> None:
    c = make(rolls=[(3, 1)])
    c.handle(ActionRequested("white", "roll", 0.4))
    out = c.handle(LinkChanged(False, 1.0))
    scene = next(e.scene for e in out if isinstance(e, ShowScene))
    assert scene.display.prompt is not None and scene.display.prompt.key == "board_offline"
    assert c.status().match.dice == (3, 1)
    c.handle(LinkChanged(True, 2.0))
    assert c.status().scene.display.prompt.key == "opening_won"  # type: ignore[union-attr]  # the opening move's own line


def test_auto_roll_waits_for_its_delay_on_the_injected_clock() -> None:
    dice = DiceState.seeded(random.Random(2))
    dice = dice.push((3, 1))
    dice = dice.push((6, 5))
    c = Controller(Match.new(MatchSettings(length=1)), dice=dice,
                   config=ControllerConfig(auto_roll_delay_s=1.0))
    c.handle(ReadingReceived(board(), 0.0))
    c.handle(Tick(0.3))
    c.handle(ActionRequested("white", "roll", 0.4))
    c.handle(ReadingReceived(board({"8": (-1, 0), "6": (-1, 0), "5": (2, 0)}), 1.0))
    c.handle(Tick(1.3))
    assert c.status().match.turn == "black" and c.status().match.phase == "roll"  # a 1-point match: no cube
    c.handle(Tick(2.0))
    assert c.status().match.phase == "roll"
    c.handle(Tick(2.31))
    assert c.status().match.phase == "move" and c.status().match.dice == (6, 5)


def test_scenes_are_only_sent_when_they_change() -> None:
    c = make()
    assert not any(isinstance(e, ShowScene) for e in c.handle(Tick(5.0)))
    out = c.handle(ReadingReceived(board({"13": (-1, 0)}), 6.0))
    out += c.handle(Tick(6.3))
    assert sum(isinstance(e, ShowScene) for e in out) == 1


def test_the_menu_enters_real_dice_and_resigns() -> None:
    from controller.events import menu_pressed as MenuPressed  # noqa: N812 - reads as the event

    c = make()
    c.handle(MenuPressed(1.0))  # open: forfeit, new match, dice entry, close
    c.handle(MenuPressed(1.1))
    c.handle(MenuPressed(1.2))
    assert phase_prompt(c.state) is not None and phase_prompt(c.state).params == (("item_key", "menu.dice_entry"),)  # type: ignore[union-attr]
    c.handle(ButtonPressed("white", "main", 1.3))  # choose dice entry
    c.handle(ButtonPressed("white", "cube", 1.4))
    c.handle(ButtonPressed("white", "cube", 1.5))
    c.handle(ButtonPressed("white", "main", 1.6))  # first die: 3
    out = c.handle(ButtonPressed("white", "main", 1.7))  # second die: 1
    assert c.status().match.dice == (3, 1) and c.status().match.turn == "white"
    assert any("game 1 starts" in t for t in texts(out))
    assert not c.status().menu.is_open
    # resign from the menu at the start of one's own turn
    c.handle(ReadingReceived(board({"8": (-1, 0), "6": (-1, 0), "5": (2, 0)}), 2.0))
    c.handle(Tick(2.4))
    assert c.status().match.turn == "black" and c.status().match.phase == "roll"
    c.handle(MenuPressed(3.0))  # resign single is the first item now
    c.handle(ButtonPressed("black", "main", 3.1))
    assert c.status().match.phase == "resigning" and c.status().match.resign_level == "single"
    c.handle(ButtonPressed("white", "main", 3.2))  # accept
    assert c.status().match.score == (1, 0)


def test_a_truly_ambiguous_reading_asks_the_player() -> None:
    from dataclasses import replace as dc_replace

    # 7 white on the 6 point and 6 on the 5 point (6 slots each); 1-1 to play.
    pos = Position.from_points({6: 7, 5: 6, 13: 2}, {24: 2, 13: 5, 8: 3, 6: 5})
    dice = DiceState.seeded(random.Random(0))
    dice = dice.push((1, 1))
    match = dc_replace(Match.new(MatchSettings(length=5)), phase="roll", turn="white",
                       position=pos, partial=pos)
    c = Controller(match, dice=dice)

    def reading(changes: dict[str, tuple[int, int]], full: tuple[str, ...]) -> BoardState:
        counts = cell_counts(pos, "white")
        for cell, (dw, db) in changes.items():
            w, b = counts[cell]
            counts[cell] = (w + dw, b + db)
        return BoardState.of(counts, full)

    c.handle(ReadingReceived(reading({"6": (-1, 0)}, ("5", "6")), 0.0))
    c.handle(Tick(0.3))
    assert not c.status().setting_up
    c.handle(ActionRequested("white", "roll", 0.5))
    # 5/4 played: the 5 point now holds 5 (not full), the 4 point 1
    c.handle(ReadingReceived(reading({"6": (-1, 0), "5": (-1, 0), "4": (1, 0)}, ("6",)), 1.0))
    c.handle(Tick(1.3))
    assert len(c.status().match.steps) == 1
    # The checker goes back 4 -> 5 and is the board now the start (7 and 6, undo) or
    # 5/4 4/5 ... read as 6/5 (6 and 7)? Both read "6 full, 5 full": ask.
    c.handle(ReadingReceived(reading({"6": (-1, 0)}, ("5", "6")), 2.0))
    c.handle(Tick(2.3))
    first = asked(c)  # "Was it ...?": the whole turn taken back (nothing), or 6/5
    assert c.status().scene.leds["5"] == "error" and c.status().scene.leds["6"] == "error"
    c.handle(ButtonPressed("white", "cube", 2.4))  # no: the other one
    second = asked(c)
    assert second != first and "" in (first, second)  # one of the two is the turn's start
    c.handle(ButtonPressed("white", "main", 2.5))  # yes
    assert format_path(c.status().match.steps) == second
    assert len(c.status().match.steps) == (0 if second == "" else 1)


def asked(c: Controller) -> str:
    """The notation of the reading the display asks about ("Was it 6/5?")."""
    prompt = c.status().scene.display.prompt
    assert prompt is not None and prompt.key == "confirm_move", prompt
    return str(dict(prompt.params)["notation"])


def test_the_computers_hit_is_accepted_only_when_the_blot_is_on_the_bar() -> None:
    from controller.engine import legal_moves
    from controller.engine.board_view import step_cells
    from controller.events import AskBot, BotCube, BotMoved

    dice = DiceState.seeded(random.Random(0))
    dice = dice.push((6, 2))
    c = Controller(Match.new(MatchSettings(length=3, black_player="simple")), dice=dice)
    counts = cell_counts(START, "white")
    c.handle(ReadingReceived(BoardState.of(counts), 0.0))
    c.handle(Tick(0.3))
    c.handle(ActionRequested("white", "roll", 0.4))
    counts["13"] = (3, 0)
    counts["7"] = (1, 0)
    counts["11"] = (1, 0)
    out = c.handle(ReadingReceived(BoardState.of(counts), 1.0))
    out += c.handle(Tick(1.3))
    assert c.status().match.turn == "black" and c.status().match.phase == "roll"
    c.handle(RollQueued((6, 4), c.status().now))
    asked = [e for e in out if isinstance(e, AskBot)]
    assert [a.kind for a in asked] == ["cube"]  # the computer may double: it is asked first
    c.handle(BotCube("roll", 1.5, asked[0].turn_token))
    assert c.status().match.phase == "move" and c.status().match.dice == (6, 4)
    hitting = next(m for m in legal_moves(c.status().match.position, (6, 4))
                   if any(s.hit and s.frm == 24 and s.to == 18 for s in m.steps))
    c.handle(BotMoved(hitting, 4.0, c.status().bot_token))
    assert c.status().scene.leds["1"] == "bot-from" and c.status().scene.leds["7"] == "bot-to"
    # the person plays Black's 24/18*: the black checker lands, the white blot still there
    counts["1"] = (0, 1)
    counts["7"] = (1, 1)
    c.handle(ReadingReceived(BoardState.of(counts), 5.0))
    c.handle(Tick(5.3))
    assert c.status().scene.leds["7"] == "hit" and c.status().match.turn == "black"
    counts["7"] = (0, 1)
    counts["bar"] = (1, 0)
    rest = [s for s in hitting.steps if not (s.frm == 24 and s.to == 18)]
    for s in rest:
        frm, to = step_cells(s, "black")
        counts[frm] = (counts[frm][0], counts[frm][1] - 1)
        counts[to] = (counts[to][0], counts[to][1] + 1)
    c.handle(ReadingReceived(BoardState.of(counts), 6.0))
    out = c.handle(Tick(6.3))
    assert c.status().match.turn == "white", texts(out)
    assert any("black moved 6-4" in t for t in texts(out))
