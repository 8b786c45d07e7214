"""The display's pairing screen: a page's link as a QR code and a short address.

`bgboard run --page` serves the board's page to the player's phone and `--spectators` a
read-only page to anyone; both need a link that carries a token. The menu's "phone page"
and "spectators' page" show it on the 128x64 display until a button is pressed: the QR
code on a lit square at the left (dark modules on light, as every camera reads them, 2 px
a module with a lit quiet zone around it), the address and the token as text at the right
for a phone without a camera.

The code's modules are made by whoever knows the link (controller/web/board_page.py, with segno)
and handed here as rows of "1"/"0", so drawing stays a pure function of the content, as
the rest of the display is (tests/golden/display/). A link too long for a code that fits
(`PAIRING_MODULES`: a version 3 code, 53 bytes at error correction L) is shown as text only.
"""
from __future__ import annotations

from PIL import ImageDraw

from controller.show import texts
from controller.show.content import PAIRING_MODULES, PairingView
from controller.show.fonts import MEDIUM, SMALL

#: the smallest module worth showing: at 1 px (0.17 mm on a 0.96" display) no camera reads it
MODULE_PX = 2
#: the lit square that holds the code and its quiet zone (a module or more each side)
SQUARE = 64
TEXT_LEFT = SQUARE + 3
assert (PAIRING_MODULES + 2) * MODULE_PX <= SQUARE


def draw_pairing(draw: ImageDraw.ImageDraw, view: PairingView, language: str = "en",
                 ink: str = "white", paper: str = "black") -> None:
    """The whole screen (the background is assumed `paper`)."""
    if view.modules:
        draw.rectangle((0, 0, SQUARE - 1, SQUARE - 1), fill=ink)
        start = (SQUARE - len(view.modules) * MODULE_PX) // 2
        for y, row in enumerate(view.modules):
            for x, module in enumerate(row):
                if module == "1":
                    left, top = start + x * MODULE_PX, start + y * MODULE_PX
                    draw.rectangle((left, top, left + MODULE_PX - 1, top + MODULE_PX - 1), fill=paper)
    left = TEXT_LEFT if view.modules else 0
    MEDIUM.draw(draw, (left, 0), texts.render(view.title, {}, language), ink)
    for index, line in enumerate(view.lines):
        SMALL.draw(draw, (left, MEDIUM.height + 2 + index * SMALL.height), line, ink)
