"""The scene's value types: validated, immutable, comparable, repr rebuilds them."""
from __future__ import annotations

import pytest

from controller.show.content import (DisplayContent, Hint, MoveTimerView, Prompt, Scene,
                                     TournamentClockView)


def test_scene_is_a_value() -> None:
    leds = {"8": "origin", "5": "target"}
    scene = Scene(leds, DisplayContent(turn="white", dice=(5, 3), hints=(Hint("5", "3"),)))
    leds["9"] = "error"
    assert "9" not in scene.leds, "the scene keeps its own copy"
    with pytest.raises(TypeError):
        scene.leds["9"] = "error"  # type: ignore[index]
    again = eval(repr(scene))
    assert again == scene and hash(again) == hash(scene)
    assert scene != Scene({"8": "origin"}, scene.display)


@pytest.mark.parametrize("kwargs", [
    {"turn": "red"}, {"dice": (7, 1)}, {"dice": (1, 2, 3)}, {"cube_value": 3},
    {"cube_owner": "nobody"}, {"language": "de"}, {"score_white": -1},
])
def test_bad_content_is_refused(kwargs: dict) -> None:
    with pytest.raises(ValueError):
        DisplayContent(**kwargs)


def test_bad_scene_cells_and_roles_are_refused() -> None:
    with pytest.raises(ValueError, match="25"):
        Scene({"25": "target"})
    with pytest.raises(ValueError, match="glow"):
        Scene({"5": "glow"})
    with pytest.raises(ValueError):
        Hint("26", "5")
    with pytest.raises(ValueError):
        MoveTimerView(-1, 10)
    with pytest.raises(ValueError):
        TournamentClockView(5, -2)


def test_prompt_params_are_order_independent() -> None:
    a = Prompt.of("put_back", n=1, colour="white", cell="13")
    b = Prompt.of("put_back", cell="13", colour="white", n=1)
    assert a == b and a.as_dict() == {"n": 1, "colour": "white", "cell": "13"}


def test_per_side_accessors() -> None:
    clock = MoveTimerView(12, 40, warning=True)
    content = DisplayContent(score_white=2, score_black=4, pips_white=100, pips_black=90,
                             clock_black=clock)
    assert content.score("black") == 4 and content.pips("white") == 100
    assert content.clock("black") is clock and content.clock("white") is None


def test_pure_parts_load_no_hardware_or_drawing_libraries() -> None:
    """The scene function imports content, texts, leds and menu: they must stay light."""
    import subprocess
    import sys
    code = ("import sys, controller.show.content, controller.show.texts, "
            "controller.show.leds, controller.inputs.menu; "
            "print(sorted(m for m in ('PIL', 'luma', 'gpiozero', 'neopixel', 'serial') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
