"""Who a table tells what happened there: the front ends' listeners (a page's push, a
loop's wake-up, the page's notices, the pages' tokens revoked), called in the order they
were added."""
from __future__ import annotations

from collections.abc import Callable

from controller.events import Refused
from controller.show.content import Scene


class TableListeners:
    """The listeners of one table, by what they listen to."""

    def __init__(self) -> None:
        self.scene: list[Callable[[Scene], None]] = []
        self.reading: list[Callable[[], None]] = []
        self.refused: list[Callable[[Refused], None]] = []
        self.revoked: list[Callable[[], None]] = []
        self.stepped: list[Callable[[], None]] = []

    def scene_shown(self, scene: Scene) -> None:
        for listener in self.scene:
            listener(scene)

    def step_taken(self) -> None:
        for listener in self.stepped:
            listener()

    def reading_handled(self) -> None:
        for listener in self.reading:
            listener()

    def refusal(self, refused: Refused) -> None:
        for listener in self.refused:
            listener(refused)

    def links_revoked(self) -> None:
        for revoke in self.revoked:
            revoke()
