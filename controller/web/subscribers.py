"""The tabs a page's backend tells when what it shows changed (`PageBackend.subscribe`).

The simulator, its spectators' view and a watched match each kept the same list of
callbacks and the same loop over it; the simulator also skipped telling when nothing
shown had changed (a key of all it shows, compared with the last one told). One small
class for all three.
"""
from __future__ import annotations

from collections.abc import Callable


class Subscribers:
    """Callbacks to tell; with `key`, told only when the key differs from the last told."""

    def __init__(self, key: Callable[[], str] | None = None) -> None:
        self._callbacks: list[Callable[[], None]] = []
        self._key = key
        self._last_key = ""

    def add(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Tell `callback` from now on; returns the way to stop."""
        self._callbacks.append(callback)
        return lambda: self._callbacks.remove(callback)

    def changed(self) -> None:
        """Something may have changed: tell every callback (with a key, only if it did)."""
        if self._key is not None:
            key = self._key()
            if key == self._last_key:
                return
            self._last_key = key
        for callback in list(self._callbacks):
            callback()
