"""Watching a server match and the online door's news: one job of the controller.

While a server match is watched from the menu (`WatchShown`) its scene is shown in place of
the match's, and the local match waits (the table sets it aside). The online door tells the
table what its menu may offer (`OnlineOffered`: play online, watch online) and a banner that
outranks the match's own prompt ("connection lost, rejoining": `BannerChanged`). This job
keeps those and nothing else (one frozen `WatchState`); the controller routes the other
events while watching.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from controller.events import BannerChanged, Event, OnlineOffered, WatchShown
from controller.show.content import Prompt, Scene


@dataclass(frozen=True)
class WatchState:
    """Watching's slice of the table's state: the watched match's scene while one is watched,
    whether the menu offers "Play online" and "Watch online", and the banner."""

    scene: Scene | None = None
    play_offered: bool = False
    watch_offered: bool = False
    banner: Prompt | None = None


class Watching:
    """The watched match's scene, the door's offers and the banner (see the module docstring)."""

    def __init__(self) -> None:
        self._state = WatchState()

    @property
    def state(self) -> WatchState:
        """Watching's slice of the table's state (a frozen value)."""
        return self._state

    @property
    def scene(self) -> Scene | None:
        """The watched match's scene while one is watched, else None."""
        return self._state.scene

    @property
    def banner(self) -> Prompt | None:
        return self._state.banner

    def offered(self, what: Literal["play", "watch"]) -> bool:
        """The menu offers "Play online" (`what` "play") or "Watch online" ("watch")."""
        return self._state.play_offered if what == "play" else self._state.watch_offered

    def offer(self, what: Literal["play", "watch"], offered: bool) -> None:
        if what == "play":
            self._state = replace(self._state, play_offered=offered)
        else:
            self._state = replace(self._state, watch_offered=offered)

    def lift_banner(self) -> None:
        """Another seating took the table: the banner of the last one goes."""
        self._state = replace(self._state, banner=None)

    def news(self, event: Event) -> bool:
        """Take the event if it is this job's (True: taken)."""
        if isinstance(event, WatchShown):
            self._state = replace(self._state, scene=event.scene)
        elif isinstance(event, OnlineOffered):
            self.offer(event.what, event.offered)
        elif isinstance(event, BannerChanged):
            # while watching: shown once the local match is back
            self._state = replace(self._state, banner=event.banner)
        else:
            return False
        return True
