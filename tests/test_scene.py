"""The scene: LED roles and the display's content from the controller's view, pure."""
from __future__ import annotations

from controller.board.reconcile import Ambiguous, Instruction, Matched, Mismatch
from controller.engine import Position, TurnPlan
from controller.engine.board_view import cell_counts
from controller.show.content import DisplayContent, Hint, Prompt
from controller.show.scene import ControllerView, build_scene

START = Position.initial()
TABLE = DisplayContent(turn="white", dice=(3, 1), match_length=5, pips_white=167, pips_black=167)
PLAN = TurnPlan(START, (3, 1))
MOVE = Prompt.of("move", side="white", dice=(3, 1))


def view(**kw: object) -> ControllerView:
    base = dict(table=TABLE, mover="white", plan=PLAN, current=START, prompt=MOVE,
                verdict=Matched(START))
    base.update(kw)
    return ControllerView(**base)  # type: ignore[arg-type]


def test_a_checker_in_hand_lights_origin_and_targets_with_dice_labels() -> None:
    scene = build_scene(view(verdict=Matched(START, in_hand=("8", "white"))))
    assert dict(scene.leds) == {"8": "origin", "7": "target", "5": "target", "4": "target"}
    assert set(scene.display.hints) == {Hint("7", "1"), Hint("5", "3"), Hint("4", "3+1")}
    assert scene.display.prompt == MOVE


def test_a_mismatch_is_error_cells_and_the_first_correction() -> None:
    verdict = Mismatch(("7", "13"), (Instruction("move", "white", 1, "7", "13"),))
    scene = build_scene(view(verdict=verdict, last_move=(("1", "7"),), show_last=True))
    assert dict(scene.leds) == {"7": "error", "13": "error"}
    assert scene.display.prompt == Prompt.of("put_back", n=1, colour="white", cell="13")
    take = build_scene(view(verdict=Mismatch(("5",), (Instruction("take", "black", 1, frm="5"),))))
    assert take.display.prompt == Prompt.of("take_off", n=1, colour="black", cell="5")


def test_set_up_lights_setup_and_names_the_count_wanted() -> None:
    verdict = Mismatch(("6",), (Instruction("put", "white", 2, to="6"),))
    scene = build_scene(view(verdict=verdict, setup=True, setup_counts=cell_counts(START, "white")))
    assert dict(scene.leds) == {"6": "setup"}
    assert scene.display.prompt == Prompt.of("setup_cell", n=5, colour="white", cell="6")


def test_the_opponents_last_move_shows_until_the_player_starts() -> None:
    last = (("24", "18"), ("13", "10"))
    lit = build_scene(view(last_move=last, show_last=True))
    assert dict(lit.leds) == {"24": "last-from", "18": "last-to", "13": "last-from", "10": "last-to"}
    started = build_scene(view(last_move=last, show_last=True, verdict=Matched(START, in_hand=("6", "white"))))
    assert "last-to" not in started.leds.values() and started.leds["6"] == "origin"
    gone = build_scene(view(last_move=last, show_last=False))
    assert dict(gone.leds) == {}


def test_a_pending_hit_and_the_computers_move() -> None:
    hit = build_scene(view(verdict=Matched(START, hits_pending=("7",))))
    assert dict(hit.leds) == {"7": "hit", "bar": "hit"}  # the blot and where it must go
    assert hit.display.prompt == Prompt.of("hit_to_bar", colour="black")
    bot = build_scene(view(mover="black", bot_move=(("17", "20"), ("19", "20")), plan=None,
                           prompt=Prompt.of("computer_move", notation="8/5 6/5")))
    assert dict(bot.leds) == {"17": "bot-from", "19": "bot-from", "20": "bot-to"}


def test_offline_and_ambiguous_prompts() -> None:
    offline = build_scene(view(online=False, verdict=Matched(START, in_hand=("8", "white"))))
    assert offline.display.prompt == Prompt.of("board_offline")
    assert offline.leds["8"] == "origin"  # the LEDs keep their meaning
    amb = build_scene(view(verdict=Ambiguous((START,), ("5", "6"))))
    assert dict(amb.leds) == {"5": "error", "6": "error"}
    assert amb.display.prompt == Prompt.of("ambiguous", cell="5")


def test_the_display_carries_the_table() -> None:
    table = DisplayContent(turn="black", dice=(6, 6), cube_value=4, cube_owner="white", score_white=2,
                           score_black=1, match_length=7, pips_white=100, pips_black=90, crawford=False)
    scene = build_scene(view(table=table, language="da"))
    d = scene.display
    assert (d.turn, d.dice, d.cube_value, d.cube_owner, d.score_white, d.score_black, d.match_length,
            d.pips_white, d.pips_black, d.language) == ("black", (6, 6), 4, "white", 2, 1, 7, 100, 90, "da")


def test_an_opponents_checker_lifted_must_go_back_unless_it_is_a_hit_blot() -> None:
    lifted = build_scene(view(verdict=Matched(START, in_hand=("12", "black"))))
    assert dict(lifted.leds) == {"12": "error"}
    assert lifted.display.prompt == Prompt.of("put_back", n=1, colour="black", cell="12")
    hit_blot = build_scene(view(verdict=Matched(START, in_hand=("bar", "black"))))
    assert dict(hit_blot.leds) == {"bar": "target"}


def test_a_moved_checker_lifted_again_may_go_back_where_it_came_from() -> None:
    after = next(START.after(s) for s in PLAN.next_steps(START) if (s.frm, s.to) == (8, 5))
    scene = build_scene(view(current=after, verdict=Matched(after, in_hand=("5", "white"))))
    assert scene.leds["5"] == "origin"
    assert scene.leds["4"] == "target"  # on with the 1
    assert scene.leds["8"] == "target"  # back: an undo
    assert Hint("4", "1") in scene.display.hints
