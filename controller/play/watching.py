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

    def offered(self, what: Literal["play", "watch"]) -> bool:
        """The menu offers "Play online" (`what` "play") or "Watch online" ("watch")."""
        return self.play_offered if what == "play" else self.watch_offered

    def without_banner(self) -> WatchState:
        """Another seating took the table: the banner of the last one goes."""
        return replace(self, banner=None)


def news(watch: WatchState, event: Event) -> WatchState | None:
    """Watching's slice after `event` if the event is this job's (None: it is not)."""
    if isinstance(event, WatchShown):
        return replace(watch, scene=event.scene)
    if isinstance(event, OnlineOffered) and event.what == "play":
        return replace(watch, play_offered=event.offered)
    if isinstance(event, OnlineOffered):
        return replace(watch, watch_offered=event.offered)
    if isinstance(event, BannerChanged):
        return replace(watch, banner=event.banner)  # while watching: shown once the local match is back
    return None
