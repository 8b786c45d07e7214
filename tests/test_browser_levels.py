"""Every computer level on the simulator page (issue 22, item 6), in Debian's Chromium:
the New match dialog offers each level a player may choose (controller.bot.base
.OFFERED_LEVELS), a level this machine cannot play is shown and explained rather than
hidden, the players line names every level in the page's language (an injected world
class read "Computer (level.worldclass)"), and `opponent = "expert"` in config.toml is the
dialog's choice in `bgboard sim`."""
from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from browser_support import Page, ctl, needs_chromium, wait_until
from controller.bot.base import OFFERED_LEVELS
from controller.settings import Settings
from sim.page.harness import ServerThread
from sim.page.live import LiveSim


def test_config_tomls_opponent_is_the_dialogs_choice(tmp_path: Path) -> None:
    async def dialog(settings: Settings, saved: str | None = None) -> dict[str, object]:
        path = tmp_path / "dialog.json"
        if saved is not None:
            path.write_text(saved)
        live = LiveSim(state_dir=tmp_path / "state", settings_file=path, online_settings=lambda: settings)
        return dict(live.dialog)

    assert asyncio.run(dialog(Settings(opponent="expert")))["opponent"] == "expert"
    # the page's last choice is kept where config.toml says nothing of its own
    assert asyncio.run(dialog(Settings(), '{"opponent": "simple"}'))["opponent"] == "simple"
    assert asyncio.run(dialog(Settings(opponent="expert", language="da"), '{"opponent": "simple"}')) \
        == {**asyncio.run(dialog(Settings(), '{"opponent": "simple"}')), "opponent": "expert", "language": "da"}


@needs_chromium
@pytest.mark.timeout(170)
def test_the_dialog_offers_every_level_and_explains_a_missing_one(page: Page, sim: ServerThread) -> None:
    def missing_worldclass(live: LiveSim) -> None:
        assert live.page is not None
        live.page.levels = [dict(level, missing="needs GNU Backgammon") if level["name"] == "worldclass" else level
                            for level in live.page.levels]
        live._changed()

    sim.inspect(missing_worldclass)
    wait_until(lambda: page.page.evaluate(
        "() => (window.bgboard.state.levels || []).some(l => l.missing)"), 5, "the levels in the page's state")
    page.page.click("#new-match-open")
    select = page.page.locator("#new-match-form [name=opponent]")
    options = select.locator("option")
    values = [options.nth(i).get_attribute("value") for i in range(options.count())]
    assert values == ["human", *OFFERED_LEVELS]
    world = select.locator('option[value="worldclass"]')
    assert world.is_disabled() and world.get_attribute("title") == "needs GNU Backgammon"
    assert "not on this machine" in world.inner_text()
    # issue 35.16: expert is GNU Backgammon itself (0-ply, no noise), and the dialog says so
    assert select.locator('option[value="expert"]').inner_text() == \
        "computer: expert (the same player as GNU Backgammon: 0-ply, no noise)"
    select.select_option("expert")
    page.page.click("#new-match-start")
    if page.page.locator("#confirm").evaluate("d => d.open"):
        page.page.click("#confirm-yes")
    wait_until(lambda: ctl(sim, lambda c: c.status().match.settings.black_player) == "expert", 10, "the expert plays Black")
    wait_until(lambda: "Computer (expert)" in page.page.locator("#players").inner_text(), 5, "the players line")


@needs_chromium
@pytest.mark.timeout(170)
def test_every_level_is_named_in_the_pages_language(page: Page, sim: ServerThread) -> None:
    names = page.page.evaluate(
        """async (levels) => {
             const { t } = await import("/static/i18n.js");
             const out = {};
             for (const lang of ["en", "da", "sv"]) out[lang] = levels.map(l => t(lang, `level.${l}`));
             return out;
           }""", list(OFFERED_LEVELS))
    for lang, words in names.items():
        assert not [w for w in words if w.startswith("level.")], (lang, words)
    assert names["en"][OFFERED_LEVELS.index("worldclass")] == "world class"
