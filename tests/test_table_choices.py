"""The language and the tutor chosen at the table hold across a restart of `bgboard run`
(controller/table/choices.py): kept beside the saved match, over config.toml's value as it
was when chosen; config.toml edited since wins; a corrupt or unwritable file is one line."""
from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from pathlib import Path

import pytest

from controller.board.profile import load_profile
from controller.controller import ControllerConfig
from controller.events import LanguageChosen, TutorChosen
from controller.table import BackendChoice, Table, open_table
from controller.table.choices import CHOICES_FILE
from controller.web.board_page import board_page
from controller.web.protocol import PageAction

#: what `bgboard run` gives the table from a config.toml without language or tutor
CONFIG_TOML = ControllerConfig(language="en", tutor="off")


def _run(state_dir: Path, config: ControllerConfig, at_table: Callable[[Table], None] = lambda t: None) -> Table:
    """`bgboard run`'s main loop (controller.app.run_table) on the virtual board for a moment,
    `at_table` done at the table once it is open (as the phone's page does)."""
    from controller.app import run_table
    from sim.virtual_board import VirtualBoard

    async def main() -> Table:
        with VirtualBoard() as vb:
            vb.start()
            return await run_table(vb.port, state_dir=state_dir, config=config, strip_name="sim",
                                   display_driver="dummy", pin_factory="none", seconds=0.3, on_table=at_table)

    return asyncio.run(main())


def _open(state_dir: Path, config: ControllerConfig = CONFIG_TOML) -> Table:
    """The table opened as every front end opens it (controller/table/open.py)."""
    return open_table(load_profile(), BackendChoice(port="/dev/null", pins="none", state_dir=state_dir),
                      clock=lambda: 1.0, config=config, bots=None)


def _choose_on_the_phone(table: Table) -> None:
    """The language and the tutor chosen on the board's page, on the table's running loop."""
    page = board_page(table, load_profile())

    async def choose() -> None:
        for action in (PageAction("language", name="da"), PageAction("tutor", name="doubtful")):
            assert await page.act(action) is None

    asyncio.ensure_future(choose())


def test_a_choice_made_on_the_phone_holds_after_bgboard_run_restarts(tmp_path: Path) -> None:
    first = _run(tmp_path, CONFIG_TOML, _choose_on_the_phone)
    assert (first.controller.status().config.language, first.controller.status().config.tutor) == ("da", "doubtful")
    again = _run(tmp_path, CONFIG_TOML)
    assert (again.controller.status().config.language, again.controller.status().config.tutor) == ("da", "doubtful")
    page = board_page(again, load_profile())
    assert (page.snapshot()["settings"]["language"], page.snapshot()["settings"]["tutor"]) == ("da", "doubtful")


def test_the_new_match_dialogs_language_and_tutor_are_kept_too(tmp_path: Path) -> None:
    with _open(tmp_path) as table:
        page = board_page(table, load_profile())
        asyncio.run(page.act(PageAction("new_match", settings={"length": 3, "language": "sv", "tutor": "bad"})))
        assert table.controller.status().config.language == "sv"
    with _open(tmp_path) as table:
        assert (table.controller.status().config.language, table.controller.status().config.tutor) == ("sv", "bad")


def test_config_toml_edited_since_the_choice_wins_and_the_file_follows_it(tmp_path: Path) -> None:
    with _open(tmp_path) as table:
        table.dispatch(LanguageChosen("da", 2.0))
        table.dispatch(TutorChosen("bad", 2.0))
    edited = ControllerConfig(language="sv", tutor="off")  # the owner set language = "sv" since
    with _open(tmp_path, edited) as table:
        assert (table.controller.status().config.language, table.controller.status().config.tutor) == ("sv", "bad")
    with _open(tmp_path, CONFIG_TOML) as table:  # and back: the older choice does not come back
        assert table.controller.status().config.language == "en"


def test_nothing_chosen_writes_nothing_and_the_settings_hold(tmp_path: Path) -> None:
    with _open(tmp_path, ControllerConfig(language="sv", tutor="bad")) as table:
        assert (table.controller.status().config.language, table.controller.status().config.tutor) == ("sv", "bad")
    assert not (tmp_path / CHOICES_FILE).exists()


@pytest.mark.parametrize("text", ["{not json", '{"language": "xx", "tutor": "off", "config": {}}', "[]", ""])
def test_a_corrupt_file_is_one_line_and_the_settings_are_used(tmp_path: Path, text: str,
                                                              caplog: pytest.LogCaptureFixture) -> None:
    (tmp_path / CHOICES_FILE).write_text(text)
    with caplog.at_level(logging.WARNING, logger="bgboard"), _open(tmp_path) as table:
        assert (table.controller.status().config.language, table.controller.status().config.tutor) == ("en", "off")
        lines = [r for r in caplog.records if CHOICES_FILE in r.getMessage()]
        assert len(lines) == 1 and lines[0].exc_info is None and "\n" not in lines[0].getMessage()
        assert lines[0].getMessage() in table.log_lines
        assert "new match" in table.log_lines  # the table opened as ever
    assert (tmp_path / CHOICES_FILE).read_text() == text  # left as it was until the next choice


def test_an_unwritable_file_is_one_line_and_the_choice_holds_until_the_restart(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    (tmp_path / CHOICES_FILE).mkdir()  # where it would be written: not a file
    with caplog.at_level(logging.WARNING, logger="bgboard"), _open(tmp_path) as table:
        table.dispatch(LanguageChosen("da", 2.0))
        table.dispatch(LanguageChosen("da", 3.0))  # the same again: no second try, no second line
        assert table.controller.status().config.language == "da"
        lines = [r.getMessage() for r in caplog.records if "cannot keep" in r.getMessage()]
        assert len(lines) == 1, lines
    with _open(tmp_path) as table:
        assert table.controller.status().config.language == "en"


def test_the_file_says_what_was_chosen_over_what(tmp_path: Path) -> None:
    with _open(tmp_path) as table:
        table.dispatch(TutorChosen("very_bad", 2.0))
    doc = json.loads((tmp_path / CHOICES_FILE).read_text())
    assert doc == {"language": "en", "tutor": "very_bad", "config": {"language": "en", "tutor": "off"}}
    assert not (tmp_path / CHOICES_FILE).with_suffix(".tmp").exists()
