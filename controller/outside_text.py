"""Text from outside, made safe to show: one function for every place it is shown.

The board's HELLO firmware name and ERROR text, a server's or an opponent's chat line, a
file name given on the command line: any of them can hold a newline (which forged a whole
log line: ``bgboard run: ERROR: cannot save: disk full (forged by the board)``) or a
terminal's escape sequence (``ESC[2J ESC]0;pwned BEL`` cleared an operator's terminal and
set its title). :func:`printable` writes every control character as its escape
(``\\x1b``, ``\\n``), so what is shown is exactly one line of what was sent, and nothing
in it acts on the terminal, the log or the page. `ascii_only` escapes every non-ASCII
character too, as `bgboard monitor` shows the board's bytes; elsewhere a name or a chat
line in Danish stays as it was written.
"""
from __future__ import annotations

import unicodedata


def _shown(c: str, ascii_only: bool) -> bool:
    if ascii_only:
        return c.isascii() and c.isprintable()
    # Cc control, Cf format (bidi overrides), Cs/Co/Cn, the line and paragraph separators
    return unicodedata.category(c)[0] != "C" and c not in "\u2028\u2029"


def printable(text: str, *, ascii_only: bool = False) -> str:
    """`text` with every control character (and with `ascii_only`, every non-ASCII one)
    escaped as Python writes it (``\\x1b``, ``\\n``, ``\\u202e``)."""
    if text.isascii() and text.isprintable():
        return text
    return "".join(c if _shown(c, ascii_only) else c.encode("unicode_escape").decode("ascii") for c in text)
