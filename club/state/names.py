"""A player's name as a board shows it: 1 to 40 printable characters.

The same rule as the board's side of the club protocol (`/club/v1/assign` refuses any
other name), so a name the hub accepts is one every board accepts: a control character
(a newline, ESC, a bidi override) would forge a line of the log or act on a terminal. A
director's reason for a correction is held to the same rule, at most 200 characters.
"""
from __future__ import annotations

import unicodedata

from controller.outside_text import printable

MAX_NAME = 40
MAX_REASON = 200


def text_problem(text: str, what: str, limit: int) -> str | None:
    """Why `text` is not one line of 1..`limit` printable characters, or None."""
    if not 1 <= len(text) <= limit:
        return f"{what} is 1 to {limit} characters, not {len(text)}"
    if any(unicodedata.category(c)[0] == "C" or c in "\u2028\u2029" for c in text):
        return f"{what} has no control characters: {printable(text)[:80]!r}"
    if text != text.strip():
        return f"{what} neither starts nor ends with a space: {text!r}"
    return None


def name_problem(text: str) -> str | None:
    """Why `text` is not a player's name, in one line, or None."""
    return text_problem(text, "a name", MAX_NAME)
