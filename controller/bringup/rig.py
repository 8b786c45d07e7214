"""The hardware a bring-up step works on (`Rig`) and the person it asks (`Operator`).

A `Rig` is built either on the Raspberry Pi (`bringup.pi_rig`) or around the virtual
board (`sim.bringup_rig`); the steps cannot tell which. It is a plain holder of open
devices, not a value: the builder that opened them closes them.
"""
from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

from controller.board.profile import Profile
from controller.bringup.feed import SensorFeed
from controller.bringup.requests import Question, Request
from controller.inputs.buttons import ButtonPanel
from controller.inputs.press import ButtonPressed
from controller.inputs.buzzer import Buzzer
from controller.link.board_link import BoardLink
from controller.show.display import LumaDevice
from controller.show.leds import LedStrip


def button_emitter(loop: asyncio.AbstractEventLoop,
                   queue: asyncio.Queue[ButtonPressed]) -> Callable[[ButtonPressed], None]:
    """The ButtonPanel's `emit`: gpiozero's threads hand each event to the loop's queue."""
    def emit(event: ButtonPressed) -> None:
        loop.call_soon_threadsafe(queue.put_nowait, event)
    return emit


class Operator(Protocol):
    """The person at the board (or the simulator standing in for one)."""

    def say(self, text: str) -> None:
        """Tell the person something that needs no answer."""

    async def do(self, request: Request) -> None:
        """Ask the person to do something; returns once asked (a person) or done (sim)."""

    async def confirm(self, question: Question) -> bool:
        """Ask a yes/no question about what the person sees or hears."""


@dataclass
class Rig:
    """Open devices of one board, plus how long to wait for a person, for settling and for
    the board's answer to a request (`reply`, wall seconds: LEVELS?, CAL_SAVE).

    `pass_time(seconds)` lets time pass for the board: a sleep on the Pi, the virtual
    board's clock in the simulator (so a 10 s link test takes no 10 s there), the emulated
    Pico's clock in its tests (which runs slower than the wall clock: a longer `reply`).
    """

    profile: Profile
    feed: SensorFeed
    link: BoardLink
    strip: LedStrip
    display_device: LumaDevice
    buttons: ButtonPanel
    button_events: asyncio.Queue[ButtonPressed]
    buzzer: Buzzer
    pass_time: Callable[[float], Awaitable[None]]
    wait: float = 120.0
    quiet: float = 0.3
    reply: float = 5.0
