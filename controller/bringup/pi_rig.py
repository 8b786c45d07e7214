"""A rig of the real hardware on the Raspberry Pi: NeoPixels, the OLED, GPIO, the serial port.

Each device is opened by its own module's opener, so a missing driver or a wrong wire
becomes that module's one-line `BackendUnavailableError` (or `LinkError` for the port).
"""
from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path

from controller.board.profile import Profile
from controller.bringup.feed import SensorFeed
from controller.bringup.rig import Rig, button_emitter
from controller.inputs.buttons import ButtonPanel, make_pin_factory
from controller.inputs.press import ButtonPressed
from controller.inputs.buzzer import Buzzer
from controller.link.board_link import BoardLink
from controller.show.display_backends import open_device
from controller.show.leds import open_strip

MODEL_FILE = Path("/proc/device-tree/model")


def pin_factory_name(model_file: Path = MODEL_FILE) -> str:
    """gpiozero's pin factory for this Pi: lgpio on the Pi 5 family, RPi.GPIO before it."""
    try:
        model = model_file.read_bytes().decode("ascii", "replace")
    except OSError:
        return "rpigpio"
    return "lgpio" if model.startswith(("Raspberry Pi 5", "Raspberry Pi Compute Module 5")) \
        else "rpigpio"


@asynccontextmanager
async def open_pi_rig(profile: Profile, port: str,
                      *, wait: float = 120.0) -> AsyncIterator[Rig]:
    """The real board's rig; every device is closed on the way out, even after an error."""
    loop = asyncio.get_running_loop()
    async with AsyncExitStack() as stack:
        strip = open_strip("neopixel", profile.leds)
        stack.callback(strip.close)
        device = open_device(profile.display)
        stack.callback(device.cleanup)
        factory = make_pin_factory(pin_factory_name())
        stack.callback(factory.close)
        events: asyncio.Queue[ButtonPressed] = asyncio.Queue()
        panel = ButtonPanel(profile.buttons, factory,
                            button_emitter(loop, events))
        stack.callback(panel.close)
        buzzer = Buzzer(profile.buzzer, factory)
        stack.callback(buzzer.close)
        feed = SensorFeed(profile.sensors.count)
        link = BoardLink(port, on_frame=feed.on_message, baudrate=profile.link.baudrate,
                         offline_after=profile.link.offline_after_ms / 1000)
        await link.start()
        stack.callback(link.close)
        yield Rig(profile, feed, link, strip, device, panel, events, buzzer, asyncio.sleep,
                  wait=wait, quiet=profile.timing.settle_ms / 1000)
