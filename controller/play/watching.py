"""Watching a server match and the online door's news: one job of the controller.

While a server match is watched from the menu (`WatchShown`) its scene is shown in place of
the match's, and the local match waits (the table sets it aside). The online door tells the
table what its menu may offer (`OnlineOffered`: play online, watch online) and a banner that
outranks the match's own prompt ("connection lost, rejoining": `BannerChanged`). This job
keeps those and nothing else; the controller routes the other events while watching.
"""
from __future__ import annotations

from typing import Literal

from controller.events import BannerChanged, Event, OnlineOffered, WatchShown
from controller.show.content import Prompt, Scene


class Watching:
    """The watched match's scene, the door's offers and the banner (see the module docstring)."""

    def __init__(self) -> None:
        self._scene: Scene | None = None
        self._offered: dict[Literal["play", "watch"], bool] = {"play": False, "watch": False}
        self._banner: Prompt | None = None

    @property
    def scene(self) -> Scene | None:
        """The watched match's scene while one is watched, else None."""
        return self._scene

    @property
    def banner(self) -> Prompt | None:
        return self._banner

    def offered(self, what: Literal["play", "watch"]) -> bool:
        """The menu offers "Play online" (`what` "play") or "Watch online" ("watch")."""
        return self._offered[what]

    def offer(self, what: Literal["play", "watch"], offered: bool) -> None:
        self._offered[what] = offered

    def lift_banner(self) -> None:
        """Another seating took the table: the banner of the last one goes."""
        self._banner = None

    def news(self, event: Event) -> bool:
        """Take the event if it is this job's (True: taken)."""
        if isinstance(event, WatchShown):
            self._scene = event.scene
        elif isinstance(event, OnlineOffered):
            self.offer(event.what, event.offered)
        elif isinstance(event, BannerChanged):
            self._banner = event.banner  # while watching: shown once the local match is back
        else:
            return False
        return True
