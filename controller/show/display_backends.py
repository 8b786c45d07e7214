"""The display backends: one interface, the device picked by name at run time.

- `dummy`: `luma.core.device.dummy`, which keeps the last frame; used by the tests and
  the simulator page, which shows that frame pixel for pixel (`Display.frame_png`).
- `ssd1306`, `sh1106`: the 128x64 OLED modules over I2C through luma.oled, imported
  only when chosen, so a laptop without luma.oled or I2C still runs the simulator.

The profile's [display] section gives the driver, size, I2C port and address.
`Display.show` redraws only when the content (or the prompt's page) changed: an I2C
frame of 1 KiB takes about 25 ms at 400 kHz and the loop has better things to do.
"""
from __future__ import annotations

import io
from dataclasses import replace
from typing import Callable

from PIL import Image

# the [display] section is parsed with the profile; re-exported here for the display's users
from controller.board.profile_sections import DISPLAY_DRIVERS, DisplayConfig  # noqa: F401
from controller.errors import BackendUnavailableError, ProfileError
from controller.show import display as drawing
from controller.show.content import DisplayContent
from controller.show.display import DummyDevice, LumaDevice

DRIVERS: tuple[str, ...] = DISPLAY_DRIVERS


def open_device(config: DisplayConfig, driver: str | None = None) -> LumaDevice:
    """A luma device for `driver` (default: the profile's), opened now.

    Raises `BackendUnavailableError` when luma.oled is missing or the I2C bus cannot be
    opened, with the device path and a hint.
    """
    name = driver or config.driver
    factory = _FACTORIES.get(name)
    if factory is None:
        raise ProfileError(f"display driver {name!r} is unknown; choose one of {', '.join(DRIVERS)}")
    return factory(config)


def open_dummy(config: DisplayConfig) -> DummyDevice:
    """luma's `dummy` device of the profile's size: it keeps the last frame shown."""
    from luma.core.device import dummy
    device: DummyDevice = dummy(width=config.width, height=config.height, rotate=config.rotate, mode="1")
    return device


def _open_oled(name: str) -> Callable[[DisplayConfig], LumaDevice]:
    def opener(config: DisplayConfig) -> LumaDevice:
        try:
            from luma.core.error import DeviceNotFoundError, DevicePermissionError
            from luma.core.interface.serial import i2c
            from luma.oled import device as oled
        except ImportError:
            raise BackendUnavailableError(
                f"the {name} display needs luma.oled: pip install 'bgboard[pi]'") from None
        path = f"/dev/i2c-{config.i2c_port}"
        try:
            serial = i2c(port=config.i2c_port, address=config.i2c_address)
            return getattr(oled, name)(serial, width=config.width, height=config.height,
                                       rotate=config.rotate)
        except DevicePermissionError:
            raise BackendUnavailableError(
                f"no permission to open {path}: add the user to the i2c group") from None
        except (DeviceNotFoundError, OSError) as error:
            raise BackendUnavailableError(
                f"{name} display at {path} address {config.i2c_address:#04x} not found "
                f"({error}); enable I2C with raspi-config and check the wiring") from None
    return opener


_FACTORIES: dict[str, Callable[[DisplayConfig], LumaDevice]] = {
    "dummy": open_dummy,
    "ssd1306": _open_oled("ssd1306"),
    "sh1106": _open_oled("sh1106"),
}


class Display:
    """Shows `DisplayContent` on a luma device and keeps the last frame.

    Use as a context manager or call `close()`; the device is passed in (tests and the
    simulator give a dummy), or opened by name with `Display.open(config, driver)`.
    """

    def __init__(self, device: LumaDevice) -> None:
        self._device = device
        self._last_key: tuple[DisplayContent, object, int] | None = None
        self._frame: Image.Image = Image.new("1", device.size, 0)
        self.frames_written = 0

    @classmethod
    def open(cls, config: DisplayConfig, driver: str | None = None) -> "Display":
        return cls(open_device(config, driver))

    @property
    def device(self) -> LumaDevice:
        return self._device

    def show(self, content: DisplayContent, now: float = 0.0) -> bool:
        """Draw `content` unless the same frame is already shown; True if written."""
        page = drawing.page_index(content, now)
        # the clocks as drawn (whole seconds), so a running clock redraws once a second,
        # not at every tick with the same pixels
        shown = replace(content, clock_white=None, clock_black=None)
        clocks = tuple((drawing.clock_text(c), c.warning) if c is not None else None
                       for c in (content.clock_white, content.clock_black))
        key = (shown, clocks, page)
        if key == self._last_key:
            return False
        self._frame = drawing.show(self._device, content, now)
        self._last_key = key
        self.frames_written += 1
        return True

    def frame(self) -> Image.Image:
        """A copy of the frame shown last (black before the first `show`)."""
        return self._frame.copy()

    def frame_png(self) -> bytes:
        """The frame shown last as PNG bytes: the simulator page serves this."""
        return frame_png(self._frame)

    def close(self) -> None:
        cleanup = getattr(self._device, "cleanup", None)
        if callable(cleanup):
            cleanup()

    def __enter__(self) -> "Display":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def frame_png(image: Image.Image) -> bytes:
    """`image` as PNG bytes (one bit per pixel, so a frame is a few hundred bytes)."""
    buffer = io.BytesIO()
    image.convert("1").save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def device_frame_png(device: LumaDevice) -> bytes:
    """The last frame a luma dummy device holds, as PNG bytes (black before any frame)."""
    image = getattr(device, "image", None)
    if image is None:
        image = Image.new("1", device.size, 0)
    return frame_png(image)
