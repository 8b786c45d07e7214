"""The board's pages' links on the display (controller/web/page_links.py, controller/show/pairing.py).

The menu's "phone page" shows the link of `bgboard run --page` as a QR code on the real
rendered 128x64 image (Pillow's, as the OLED gets it), read back by ZBar (Debian's
libzbar0 through pyzbar) as a phone's camera would; any button closes it; "new page
links" revokes both pages' tokens. The spectators' copy of the display never carries a
link. Against `bgboard run` in Chromium: tests/test_browser_spectators.py.
"""
from __future__ import annotations

import io
from pathlib import Path

from PIL import Image
from pyzbar.pyzbar import ZBarSymbol, decode

from controller.board.profile import load_profile
from controller.controller import Controller
from controller.engine.match import Match
from controller.engine.match_settings import MatchSettings
from controller.events import ButtonPressed, LinkPublished, LinksRevoked, menu_pressed
from controller.show.content import DisplayContent
from controller.show.display import render_image, text_lines
from controller.show.display_backends import Display
from controller.table import Table
from controller.records.store import TableStore
from controller.web.page_links import pairing_view, page_token, reachable
from controller.web.spectators import table_view

LONGEST = "http://255.255.255.255:65535/?token="


def read_qr(image: Image.Image) -> list[str]:
    """What a phone's camera reads off `image`: every QR code in it. Only QR codes: ZBar
    also reads 1D barcodes, and now and then a random token's text lines under the code
    made one (a suite's run read '283693' beside the link)."""
    return [found.data.decode() for found in decode(image.convert("L"), symbols=[ZBarSymbol.QRCODE])]


def read_png(png: bytes) -> list[str]:
    return read_qr(Image.open(io.BytesIO(png)))


def test_the_display_shows_a_link_a_camera_reads() -> None:
    for url in ("http://127.0.0.1:8080/?token=" + page_token(), LONGEST + page_token()):
        view = pairing_view(url, "phone")
        image = render_image(DisplayContent(pairing=view))
        assert image.size == (128, 64) and image.mode == "1"
        assert read_qr(image) == [url]
        assert len(view.modules) <= 29  # a version 3 code at most: 2 px a module
        netloc, token = url.split("//")[1].split("/?token=")
        assert "".join(view.lines) == f"{netloc}?token={token}"  # typed by hand without a camera


def test_a_link_too_long_for_the_display_is_shown_as_text_only() -> None:
    url = "http://bgboard-in-the-living-room.local:8080/?token=" + page_token()
    view = pairing_view(url, "phone")
    assert view.modules == () and read_qr(render_image(DisplayContent(pairing=view))) == []
    assert "".join(view.lines).endswith(url.split("token=")[1])


def test_a_server_on_every_interface_shows_this_machines_address() -> None:
    url = "http://127.0.0.1:8080/?token=abc"
    assert reachable(url, "127.0.0.1") == url
    shown = reachable(url, "0.0.0.0")
    assert shown.endswith(":8080/?token=abc") and "0.0.0.0" not in shown


def _table(tmp_path: Path) -> Table:
    profile = load_profile()
    display = Display.open(profile.display, "dummy")
    return Table(Controller(Match.new(MatchSettings(length=5))), display=display,
                 store=TableStore(tmp_path), clock=lambda: 1.0)


def _choose(table: Table, item: str) -> None:
    table.dispatch(menu_pressed(1.0))
    for _ in table.controller.status().menu.items:
        if table.controller.status().menu.item == item:
            break
        table.dispatch(menu_pressed(1.0))
    assert table.controller.status().menu.item == item, table.controller.status().menu.items
    table.dispatch(ButtonPressed("white", "main", 1.0))


def test_the_menu_shows_a_pages_link_until_a_button_is_pressed(tmp_path: Path) -> None:
    table = _table(tmp_path)
    table.dispatch(menu_pressed(1.0))
    assert not {"phone_link", "spectators_link", "new_links"} & set(table.controller.status().menu.items)  # no pages
    table.dispatch(menu_pressed(1.0, held=True))
    phone, spectators = ("http://127.0.0.1:8080/?token=" + page_token(), "http://127.0.0.1:8081/?token=" + page_token())
    table.dispatch(LinkPublished("phone", pairing_view(phone, "phone"), 1.0))
    table.dispatch(LinkPublished("spectators", pairing_view(spectators, "spectators"), 1.0))
    for item, url in (("phone_link", phone), ("spectators_link", spectators)):
        _choose(table, item)
        assert table.display is not None
        assert read_png(table.display.frame_png()) == [url]
        spectator = table_view(table, load_profile())
        assert read_png(spectator.display_png()) == []  # never to spectators
        assert not any(url.split("token=")[1] in line for line in text_lines(table.controller.status().scene.display))
        table.dispatch(ButtonPressed("black", "cube", 1.0))  # any button closes it
        assert not table.controller.status().menu.is_open and table.controller.status().scene.display.pairing is None
        assert read_png(table.display.frame_png()) == []


def test_new_page_links_revokes_every_page(tmp_path: Path) -> None:
    table = _table(tmp_path)
    table.dispatch(LinkPublished("phone", pairing_view("http://127.0.0.1:8080/?token=x", "phone"), 1.0))
    revoked: list[str] = []
    table.on_links_revoked(lambda: revoked.append("phone"))
    table.on_links_revoked(lambda: revoked.append("spectators"))
    table.dispatch(menu_pressed(1.0))
    while table.controller.status().menu.item != "new_links":
        table.dispatch(menu_pressed(1.0))
    effects = table.dispatch(ButtonPressed("black", "main", 1.0))
    assert LinksRevoked() in effects and revoked == ["phone", "spectators"]
    assert not table.controller.status().menu.is_open


def test_a_replaced_link_is_told_as_replaced_and_the_new_one_opens() -> None:
    """Issue 35.5: after "New page links" the old link and cookie are refused with a line
    that says what happened and what to do (the page shows it and stops retrying)."""
    from controller.web.guard import REPLACED, Guard

    guard = Guard("0.0.0.0", 8080, "old-token", frozenset({"127.0.0.1"}))
    fresh = guard.rotated("new-token").rotated("newest")
    host = {"Host": "127.0.0.1:8080"}
    assert fresh.check("GET", host, {"token": "old-token"}, {}) == REPLACED
    assert fresh.check("GET", host, {}, {"bgboard_token": "new-token"}) == REPLACED
    assert fresh.check("GET", host, {}, {"bgboard_token": "newest"}) is None
    other = fresh.check("GET", host, {"token": "never-given"}, {})
    assert other is not None and "replaced" not in other
    assert guard.check("GET", host, {"token": "old-token"}, {}) is None  # the guard itself is unchanged


def test_a_page_on_loopback_says_on_the_display_that_only_this_pi_opens_it(tmp_path: Path) -> None:
    """Issue 35.9: with `page_host` left at loopback the display showed a QR code no phone
    can open, and said nothing of it."""
    from controller.web.page_links import LOCAL_ONLY, offer_link

    class Server:
        guard = None

        def rotate(self) -> None:
            pass

    for host, title in (("127.0.0.1", LOCAL_ONLY), ("0.0.0.0", "pairing.title")):
        table = _table(tmp_path)
        offer_link(table, "phone", Server(), host, lambda url: None)("http://127.0.0.1:8080/?token=abc")  # type: ignore[arg-type]
        assert table.controller.state.link("phone").title == title
    view = pairing_view("http://127.0.0.1:8080/?token=abc", "phone", local_only=True)
    assert read_qr(render_image(DisplayContent(pairing=view))) == ["http://127.0.0.1:8080/?token=abc"]  # the Pi's own browser
