"""`bgboard calibrate`'s own rig around the emulated Pico, and sensors built from parts at
their datasheet limits (hardware/design/sensing.py), so a test can run the real calibration
(controller/bringup/sensor_levels.py) through the real protocol on the real firmware image
and then ask whether a checker reads right on the worst parts.

The rig is the one `open_sim_rig` builds, with the emulated Pico's USB port as the board
and its emulated clock as the time that passes; the operator stands in for the person by
setting each sensor's output voltage: the part's level for the field its checker (or its
neighbours) give it.

Every sensor i gets one corner of the DRV5053RA's spread (`sensing.corners()`: VQ 0.90 or
1.15 V, a sensitivity from 20 to 70 mV/mT) and one of the two cases that bound a
calibrated reading (`sensing.margins()`), each at the gap where that part's margin is least.
Each case meets every corner, and neighbours alternate the VQ corners: four neighbours
reading the very same empty, white and black levels (parts at one corner saturate alike)
are the signature of a stuck multiplexer, which `bgboard calibrate` rightly refuses.

- CHECKER (even i): calibrated with the strongest field a checker gives on its slot with
  its own colour all around, played with the weakest with the other colour all around and
  the sensitivity up since calibration (`sensing.sensitivity_ratio()`): it must still read
  the checker's colour;
- EMPTY (odd i): calibrated with the weakest field, played empty under the full
  neighbourhood's stray field toward a colour with the sensitivity down since: it must
  still read empty.
"""
from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Literal

from controller.board.profile import Profile
from controller.bringup.feed import SensorFeed
from controller.bringup.requests import ClearBoard, CoverCells, Question, Request
from controller.bringup.rig import Rig, button_emitter
from controller.inputs.buttons import ButtonPanel, make_mock_pins
from controller.inputs.press import ButtonPressed
from controller.inputs.buzzer import Buzzer
from controller.link.board_link import BoardLink
from controller.show.display_backends import open_dummy
from controller.show.leds import SimulatedStrip
from hardware.design import sensing
from tests.pico_emulator import EmulatedPico

Colour = Literal["white", "black"]
Case = Literal["checker", "empty"]
COLOURS: tuple[Colour, Colour] = ("white", "black")
#: the sensor's noise as Gaussian rms at the ADC: 0.79 mTpp input-referred (about 6
#: sigma) at the highest sensitivity, for every sensor
NOISE_MV_RMS = sensing.NOISE_PP / 6 * sensing.SENSITIVITY[1]


@dataclass(frozen=True)
class WorstSensor:
    """One sensor's part, its case, and the fields (mT) it is calibrated and played with,
    per colour, at that part's worst gap."""

    part: sensing.Part
    case: Case
    calibrated_mt: dict[str, float]
    played_mt: dict[str, float]
    ratio: float                       # sensitivity in play over sensitivity at calibration

    def empty_volts(self) -> float:
        return self.part.vq

    def calibration_volts(self, colour: Colour) -> float:
        return sensing.sensor_volts(self.calibrated_mt[colour], self.part.vq, self.part.sensitivity, colour)

    def play_volts(self, colour: Colour) -> float:
        """A CHECKER sensor with its checker of `colour` on it; an EMPTY one under the stray
        field toward `colour`."""
        lo, hi = sensing.SENSITIVITY
        s = min(max(self.part.sensitivity * self.ratio, lo), hi)
        return sensing.sensor_volts(self.played_mt[colour], self.part.vq, s, colour)

    def expected(self, colour: Colour) -> int:
        """The class the board must report in play: 1 white, 2 black, 0 empty."""
        return (1 if colour == "white" else 2) if self.case == "checker" else 0


def _checker_case(part: sensing.Part, colour: Colour) -> tuple[float, float, float]:
    """(margin, calibrated field, played field) at the worst gap, sensing.margins()' way."""
    r_lo, _ = sensing.sensitivity_ratio()
    worst: tuple[float, float, float] | None = None
    for d in sensing.gaps():
        hood, _ = sensing.worst_neighbourhood(d)
        weakest, strongest = sensing.on_slot(d)
        b_cal, b_play = strongest + hood, weakest - hood
        margin = b_play - sensing.threshold_field(part, colour, b_cal, r_lo, sensing.ENTER)
        if worst is None or margin < worst[0]:
            worst = (margin, b_cal, b_play)
    assert worst is not None
    return worst


def _empty_case(part: sensing.Part, colour: Colour) -> tuple[float, float, float]:
    _, r_hi = sensing.sensitivity_ratio()
    worst: tuple[float, float, float] | None = None
    for d in sensing.gaps():
        hood, _ = sensing.worst_neighbourhood(d)
        weakest, _ = sensing.on_slot(d)
        b_cal = weakest - hood
        margin = sensing.threshold_field(part, colour, b_cal, r_hi, sensing.ENTER) - hood
        if worst is None or margin < worst[0]:
            worst = (margin, b_cal, hood)
    assert worst is not None
    return worst


def worst_sensors(count: int) -> tuple[WorstSensor, ...]:
    """Sensor i: CHECKER when i is even, EMPTY when odd, each case taking the corners in turn,
    neighbours half the corners apart (the other VQ)."""
    corners = sensing.corners()
    r_lo, r_hi = sensing.sensitivity_ratio()
    out = []
    for i in range(count):
        part = corners[(i // 2 + (len(corners) // 2) * (i % 2)) % len(corners)]
        case: Case = "checker" if i % 2 == 0 else "empty"
        find = _checker_case if case == "checker" else _empty_case
        fields = {colour: find(part, colour) for colour in COLOURS}
        out.append(WorstSensor(part, case, {c: f[1] for c, f in fields.items()},
                               {c: f[2] for c, f in fields.items()}, r_lo if case == "checker" else r_hi))
    return tuple(out)


class PartsOperator:
    """The person at the emulated board: checkers put and taken as sensor voltages."""

    def __init__(self, pico: EmulatedPico, profile: Profile, sensors: tuple[WorstSensor, ...]) -> None:
        self.pico = pico
        self.profile = profile
        self.sensors = sensors
        self.log: list[str] = []

    def say(self, text: str) -> None:
        self.log.append(text)

    def empty(self) -> dict[int, float]:
        return {i: s.empty_volts() for i, s in enumerate(self.sensors)}

    async def do(self, request: Request) -> None:
        self.log.append(str(request))
        volts = self.empty()
        if isinstance(request, CoverCells):
            for cell in request.cells:
                for i in self.profile.cell_sensors(cell):
                    volts[i] = self.sensors[i].calibration_volts("white" if request.colour == "white" else "black")
        elif not isinstance(request, ClearBoard):
            raise TypeError(f"the emulated board's operator cannot do {request!r}")
        self.pico.set_volts(volts)

    async def confirm(self, question: Question) -> bool:
        raise TypeError(f"the emulated board's operator cannot answer {question!r}")


@asynccontextmanager
async def open_pico_rig(pico: EmulatedPico, profile: Profile) -> AsyncIterator[Rig]:
    """bgboard calibrate's Rig with the emulated Pico as its board (its USB port, its clock)."""
    loop = asyncio.get_running_loop()
    feed = SensorFeed(profile.sensors.count)
    link = BoardLink(pico.port, on_frame=feed.on_message, baudrate=profile.link.baudrate,
                     offline_after=60.0)
    strip = SimulatedStrip(profile.leds)
    factory = make_mock_pins()
    events: asyncio.Queue[ButtonPressed] = asyncio.Queue()
    panel = ButtonPanel(profile.buttons, factory, button_emitter(loop, events))
    buzzer = Buzzer(profile.buzzer, factory)
    try:
        await link.start()
        yield Rig(profile, feed, link, strip, open_dummy(profile.display), panel, events, buzzer,
                  pico.pass_time, wait=600.0, quiet=0.0, reply=120.0)
    finally:
        link.close()
        panel.close()
        buzzer.close()
        strip.close()
        factory.close()
