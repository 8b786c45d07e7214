"""Draw a `DisplayContent` on the 128x64 one-bit display.

The layout, chosen to be read at a glance from across the table:

    +-- White --+---- to 5 ----+-- Black --+   header: the side on turn is inverted
    |     2     |  [::]  [:.]  |     4     |   score (large) | dice as real die faces
    |  pip 167  |              |  pip 142  |   pips
    |  15 1:40  |     [64]     |  15 0:20  |   clock: move timer + bank, or delay +
    +-----------+--------------+-----------+   reserve | cube, shifted to its owner
    | prompt, two lines of 25 characters,   |   or "Crawford"
    | hints "8:5  5:3  3:5+3" first         |
    +--------------------------------------+

Between games (and after the match) the review's PR stands in the pip row of each column,
and its notes (the ratings) take turns on the prompt's second line under its first line,
which stays (`pinned_lines`).

Drawing is a pure function of the content and the time (`now` only pages a prompt that
needs more than two lines), so the same content always gives the same pixels: the golden
images in tests/golden/display/ pin them down. Fonts are bitmap data (`fonts`), not
TrueType, for the same reason.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Protocol, Sequence

from luma.core.render import canvas
from PIL import Image, ImageDraw

from controller.board.profile_sections import SCREEN_SIZE
from controller.engine.board_view import Colour
from controller.show import texts
from controller.show.content import ClockView, DisplayContent, MoveTimerView
from controller.show.fonts import BIG, MEDIUM, SMALL, BitmapFont
from controller.show.pairing import draw_pairing

WIDTH, HEIGHT = SCREEN_SIZE
#: x ranges of the three columns and the height of the part above the prompt.
WHITE_COLUMN = (0, 40)
CENTRE_COLUMN = (40, 88)
BLACK_COLUMN = (88, 128)
PROMPT_TOP = 47
PROMPT_LINES = 2
#: A prompt longer than two lines shows its next two lines after this many seconds.
PAGE_SECONDS = 2.5

INK = "white"
PAPER = "black"

# Pip positions of a die face on a 3x3 grid (column, row), per value.
_DIE_PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)),
}


class LumaDevice(Protocol):
    """What bgboard uses of a luma.core device (luma ships no types): its size and pixel
    mode, showing a frame and clearing it. The OLED modules and luma's `dummy` (tests, the
    simulators) are both this."""

    @property
    def size(self) -> tuple[int, int]: ...

    @property
    def mode(self) -> str: ...

    def display(self, image: Image.Image) -> None: ...

    def clear(self) -> None: ...

    def cleanup(self) -> None: ...


class DummyDevice(LumaDevice, Protocol):
    """luma's `dummy` device, which keeps the last frame shown (tests, the simulators)."""

    @property
    def image(self) -> Image.Image: ...


def render_image(content: DisplayContent, now: float = 0.0,
                 size: tuple[int, int] = (WIDTH, HEIGHT)) -> Image.Image:
    """The frame for `content` as a new mode "1" image (what a device would show)."""
    image = Image.new("1", size, 0)
    draw_content(ImageDraw.Draw(image), content, now)
    return image


def show(device: LumaDevice, content: DisplayContent, now: float = 0.0) -> Image.Image:
    """Draw `content` on a luma device through `luma.core.render.canvas`; returns the
    frame drawn (the canvas' image), so callers can keep it without asking the device."""
    frame = canvas(device)
    with frame as draw:
        draw_content(draw, content, now)
    image: Image.Image = frame.image
    return image


def draw_content(draw: ImageDraw.ImageDraw, content: DisplayContent, now: float = 0.0) -> None:
    """Draw every part of the screen; the background is assumed black. A page's link
    to scan takes the whole screen (controller/show/pairing.py)."""
    if content.pairing is not None:
        draw_pairing(draw, content.pairing, content.language, INK, PAPER)
        return
    for side, (x0, x1) in (("white", WHITE_COLUMN), ("black", BLACK_COLUMN)):
        _draw_side(draw, content, side, x0, x1)  # type: ignore[arg-type]
    _draw_centre(draw, content)
    draw.line((0, PROMPT_TOP - 2, WIDTH - 1, PROMPT_TOP - 2), fill=INK)
    if content.notes:
        _draw_prompt(draw, pinned_lines(prompt_lines(content), note_lines(content), now), 0.0)
    else:
        _draw_prompt(draw, prompt_lines(content), now)


# --- the side columns ---------------------------------------------------------------

def _draw_side(draw: ImageDraw.ImageDraw, content: DisplayContent, side: Colour,
               x0: int, x1: int) -> None:
    name = texts.render(f"label.{side}", {}, content.language)
    on_turn = content.turn == side
    if on_turn:
        draw.rectangle((x0, 0, x1 - 1, 10), fill=INK)
    _centred(draw, MEDIUM, name, x0, x1, 1, PAPER if on_turn else INK)
    _centred(draw, BIG, str(content.score(side)), x0, x1, 12)
    pips = content.pips(side)
    pr = content.pr(side)
    if pr is not None:  # between games the review's PR stands where the pips are in play
        _centred(draw, SMALL, texts.render("label.pr", {"pr": pr}, content.language), x0, x1, 27)
    elif pips is not None:
        label = texts.render("label.pips", {}, content.language)
        _centred(draw, SMALL, f"{label} {pips}", x0, x1, 27)
    clock = content.clock(side)
    if clock is not None:
        text = clock_text(clock)
        if clock.warning:
            width = SMALL.width(text)
            left = x0 + (x1 - x0 - width) // 2
            draw.rectangle((left - 2, 35, left + width, 43), fill=INK)
        _centred(draw, SMALL, text, x0, x1, 36, PAPER if clock.warning else INK)


def clock_text(clock: ClockView) -> str:
    """Move timer (seconds) and bank, or delay (seconds) and reserve, side by side."""
    if isinstance(clock, MoveTimerView):
        first, second = clock.move_seconds, clock.bank_seconds
    else:
        first, second = clock.delay_seconds, clock.reserve_seconds
    return f"{_seconds(first)} {_minutes(second)}"


def _seconds(value: float) -> str:
    return str(int(value + 0.999))  # a timer shows 1 until it has really run out


def _minutes(value: float) -> str:
    minutes, seconds = divmod(int(value + 0.999), 60)
    return f"{minutes}:{seconds:02d}"


# --- the centre: match length, dice, cube --------------------------------------------

def _draw_centre(draw: ImageDraw.ImageDraw, content: DisplayContent) -> None:
    x0, x1 = CENTRE_COLUMN
    if content.match_length:
        label = texts.render("label.length", {"n": content.match_length}, content.language)
        _centred(draw, MEDIUM, label, x0, x1, 1)
    if content.dice:
        size = 17
        gap = 4
        total = len(content.dice) * size + (len(content.dice) - 1) * gap
        left = x0 + (x1 - x0 - total) // 2
        for index, value in enumerate(content.dice):
            _draw_die(draw, left + index * (size + gap), 12, size, value)
    if content.crawford:
        label = texts.render("label.crawford", {}, content.language)
        width = SMALL.width(label)
        left = x0 + (x1 - x0 - width) // 2
        draw.rectangle((left - 2, 33, left + width, 42), fill=INK)
        SMALL.draw(draw, (left, 34), label, PAPER)
    elif content.cube_enabled:
        _draw_cube(draw, content)


def _draw_die(draw: ImageDraw.ImageDraw, left: int, top: int, size: int, value: int) -> None:
    _rounded_box(draw, left, top, left + size - 1, top + size - 1)
    margin = 3
    step = (size - 2 * margin - 3) // 2
    for column, row in _DIE_PIPS[value]:
        x = left + margin + column * step
        y = top + margin + row * step
        draw.rectangle((x, y, x + 2, y + 2), fill=INK)


def _draw_cube(draw: ImageDraw.ImageDraw, content: DisplayContent) -> None:
    x0, x1 = CENTRE_COLUMN
    face = "64" if content.cube_value == 1 else str(content.cube_value)
    width, top, bottom = 22, 31, 44
    if content.cube_owner == "white":
        left = x0 + 1
    elif content.cube_owner == "black":
        left = x1 - width - 1
    else:
        left = x0 + (x1 - x0 - width) // 2
    draw.rectangle((left, top, left + width - 1, bottom - 1), outline=INK)
    _ink_centred(draw, BIG, face, left, left + width, top, bottom)
    # An arrow towards the owner's column makes ownership readable without counting pixels.
    middle = (top + bottom) // 2
    if content.cube_owner == "white":
        tip = left + width + 2
        _arrow(draw, tip, middle, 1)
    elif content.cube_owner == "black":
        tip = left - 3
        _arrow(draw, tip, middle, -1)


# --- the prompt ----------------------------------------------------------------------

def prompt_lines(content: DisplayContent, width: int = WIDTH) -> list[str]:
    """The prompt area's lines: the hints first (if a checker is in hand), then the
    prompt in the content's language, wrapped at word boundaries to `width` pixels."""
    lines: list[str] = []
    if content.hints:
        lines += wrap(" ".join(f"{hint.cell}:{hint.dice}" for hint in content.hints),
                      SMALL, width, separator="  ")
    if content.prompt is not None:
        text = texts.render(content.prompt.key, content.prompt.as_dict(), content.language)
        lines += wrap(text, SMALL, width)
    return lines


def note_lines(content: DisplayContent, width: int = WIDTH) -> list[str]:
    """The notes' lines (the review's ratings), wrapped as the prompt is."""
    lines: list[str] = []
    for note in content.notes:
        lines += wrap(texts.render(note.key, note.as_dict(), content.language), SMALL, width)
    return lines


def pinned_lines(prompt: Sequence[str], notes: Sequence[str], now: float) -> list[str]:
    """With notes: the prompt's first line stays on the first line (what to do next is
    never hidden); the second line pages through the prompt's other lines and the notes."""
    rest = [*prompt[1:], *notes]
    first = list(prompt[:1])
    if not first:
        return visible_lines(rest, now)
    if not rest:
        return first
    return first + [rest[int(now // PAGE_SECONDS) % len(rest)]]


def page_index(content: DisplayContent, now: float) -> int:
    """Which page of the prompt area shows at `now` (0 when it all fits), as drawn: a
    backend redraws only when it changes."""
    lines, notes = prompt_lines(content), note_lines(content)
    if notes and lines:
        pages = len(lines) - 1 + len(notes)  # the second line's turns under the first
    else:
        pages = -(-(len(lines) + len(notes)) // PROMPT_LINES)
    return int(now // PAGE_SECONDS) % pages if pages > 1 else 0


def wrap(text: str, font: BitmapFont, width: int, separator: str = " ") -> list[str]:
    """Greedy word wrap by pixel width, words joined by `separator` within a line;
    a word wider than a line is cut into pieces."""
    return list(_wrapped(text, font, width, separator))


#: `_wrapped`'s memo: the texts on the display now (a prompt, its notes, hints) are asked
#: again at every tick; older ones never come back. 512 held ~330 KB of past prompts, filled
#: over a simulator's first games (part of the soak's creep after the first game); 32
#: hold the current screen many times over and are full within the first game.
WRAPPED_MEMO = 32


@lru_cache(maxsize=WRAPPED_MEMO)
def _wrapped(text: str, font: BitmapFont, width: int, separator: str) -> tuple[str, ...]:
    """`wrap`, measured once per text: the display asks which page of the prompt shows at
    every tick of the table (20 a second while anything moves), with the same prompt."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line}{separator}{word}" if line else word
        if font.width(candidate) <= width:
            line = candidate
            continue
        if line:
            lines.append(line)
        while font.width(word) > width:
            cut = len(word)
            while cut > 1 and font.width(word[:cut]) > width:
                cut -= 1
            lines.append(word[:cut])
            word = word[cut:]
        line = word
    if line:
        lines.append(line)
    return tuple(lines)


def visible_lines(lines: Sequence[str], now: float) -> list[str]:
    """The two lines shown at time `now`: long prompts page through, two lines a page."""
    if len(lines) <= PROMPT_LINES:
        return list(lines)
    pages = (len(lines) + PROMPT_LINES - 1) // PROMPT_LINES
    page = int(now // PAGE_SECONDS) % pages
    return list(lines[page * PROMPT_LINES:(page + 1) * PROMPT_LINES])


def _draw_prompt(draw: ImageDraw.ImageDraw, lines: Sequence[str], now: float) -> None:
    for index, line in enumerate(visible_lines(lines, now)):
        SMALL.draw(draw, (0, PROMPT_TOP + 1 + index * (SMALL.height + 0)), line)


# --- the display as text (headless scenario output) ----------------------------------

def text_lines(content: DisplayContent) -> list[str]:
    """What the screen says, as lines of text: the `display.lines` of the headless
    simulator's JSON, so scenario tests can read the prompt without pixels.

    The side on turn is marked with `*`; the prompt is one unwrapped line, after the
    hints line when a checker is in hand.
    """
    language = content.language
    lines = [_header_line(content)]
    for row in (_middle_line(content), _counts_line(content), _clocks_line(content), _hints_line(content)):
        if row:
            lines.append(row)
    if content.prompt is not None:
        lines.append(texts.render(content.prompt.key, content.prompt.as_dict(), language))
    lines += [texts.render(note.key, note.as_dict(), language) for note in content.notes]
    return lines


def _header_line(content: DisplayContent) -> str:
    """Both sides and their scores, the one on turn marked `*`, and the match length."""
    language = content.language
    sides = []
    for side in ("white", "black"):
        mark = "*" if content.turn == side else ""
        name = texts.render(f"label.{side}", {}, language)
        sides.append(f"{mark}{name} {content.score(side)}")
    header = f"{sides[0]}  {sides[1]}"
    if content.match_length:
        header += "  " + texts.render("label.length", {"n": content.match_length}, language)
    return header


def _middle_line(content: DisplayContent) -> str:
    """The dice, and the Crawford game or the cube (64 in the centre, as on a board)."""
    language = content.language
    middle = []
    if content.dice:
        middle.append("-".join(str(die) for die in content.dice))
    if content.crawford:
        middle.append(texts.render("label.crawford", {}, language))
    elif content.cube_enabled:
        face = 64 if content.cube_value == 1 else content.cube_value
        middle.append(f"[{face}]" + ("" if content.cube_owner == "center" else
                                     f" {texts.render(f'label.{content.cube_owner}', {}, language)}"))
    return "  ".join(middle)


def _clocks_line(content: DisplayContent) -> str:
    """Both clocks (`!` when one runs low, `-` for a side without one); empty without clocks."""
    clocks = [content.clock_white, content.clock_black]
    if all(clock is None for clock in clocks):
        return ""
    return " | ".join((clock_text(clock) + ("!" if clock.warning else ""))
                      if clock is not None else "-" for clock in clocks)


def _hints_line(content: DisplayContent) -> str:
    """The hinted cells and the dice that reach them, as `cell:dice`; empty without hints."""
    return "  ".join(f"{hint.cell}:{hint.dice}" for hint in content.hints)


def _counts_line(content: DisplayContent) -> str:
    """The pip row as text: both PRs between games (the review), else both pip counts."""
    language = content.language
    if content.pr_white is not None and content.pr_black is not None:
        return (f"{texts.render('label.pr', {'pr': content.pr_white}, language)} "
                f"{texts.render('label.pr', {'pr': content.pr_black}, language)}")
    if content.pips_white is not None and content.pips_black is not None:
        return f"{texts.render('label.pips', {}, language)} {content.pips_white} {content.pips_black}"
    return ""


# --- helpers -------------------------------------------------------------------------
# Shapes are built from straight lines only: Pillow's rounded rectangles and polygons
# have changed their pixels between versions, and the goldens must not depend on that.

def _rounded_box(draw: ImageDraw.ImageDraw, x0: int, y0: int, x1: int, y1: int) -> None:
    """An outlined box with its corners cut (a die)."""
    draw.line((x0 + 2, y0, x1 - 2, y0), fill=INK)
    draw.line((x0 + 2, y1, x1 - 2, y1), fill=INK)
    draw.line((x0, y0 + 2, x0, y1 - 2), fill=INK)
    draw.line((x1, y0 + 2, x1, y1 - 2), fill=INK)
    for x, y in ((x0 + 1, y0 + 1), (x1 - 1, y0 + 1), (x0 + 1, y1 - 1), (x1 - 1, y1 - 1)):
        draw.point((x, y), fill=INK)


def _arrow(draw: ImageDraw.ImageDraw, tip: int, middle: int, direction: int) -> None:
    """A filled triangle, its tip at (`tip`, `middle`), widening in `direction` (+1 right)."""
    for step in range(5):
        x = tip + direction * step
        draw.line((x, middle - step, x, middle + step), fill=INK)


def _centred(draw: ImageDraw.ImageDraw, font: BitmapFont, text: str, x0: int, x1: int,
             top: int, fill: str = INK) -> None:
    font.draw(draw, (x0 + (x1 - x0 - font.width(text)) // 2, top), text, fill)


def _ink_centred(draw: ImageDraw.ImageDraw, font: BitmapFont, text: str, x0: int, x1: int,
                 y0: int, y1: int) -> None:
    """Centre the inked pixels of `text` (not its cell) in the box, so digits sit
    in the middle of the cube whatever the font's ascent and descent."""
    mask = font.mask(text)
    box = mask.getbbox() or (0, 0, mask.width, mask.height)
    ink_w, ink_h = box[2] - box[0], box[3] - box[1]
    left = x0 + (x1 - x0 - ink_w + 1) // 2 - box[0]
    top = y0 + (y1 - y0 - ink_h + 1) // 2 - box[1]
    draw.bitmap((left, top), mask, fill=INK)
