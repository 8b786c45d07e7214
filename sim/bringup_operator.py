"""The simulator standing in for the person at the board.

`SimOperator` carries requests out on the virtual board and answers each question by
looking at the simulated hardware: the LED strip's last frame, the dummy display's image,
the buzzer pin's history. It knows nothing of injected faults, so a fault shows up
exactly as it would to a person.
"""
from __future__ import annotations

import asyncio

from PIL import ImageChops

from controller.bringup.requests import (
    CellLit,
    ClearBoard,
    ClearCell,
    CoverCells,
    HeardBeep,
    PlaceChecker,
    PressButton,
    Question,
    Request,
    SawPattern,
)
from sim.bringup_rig import SimBench
from controller.bringup.steps import display_test_pattern


class SimOperator:
    """Does what is asked on the virtual board and reports what the simulated parts show."""

    def __init__(self, bench: SimBench) -> None:
        self.bench = bench
        self._buzzer_mark = len(bench.buzzer_pin().states)
        self.log: list[str] = []

    def say(self, text: str) -> None:
        self.log.append(text)

    async def do(self, request: Request) -> None:
        bench = self.bench
        self.log.append(str(request))
        if isinstance(request, PlaceChecker):
            bench.board.place(request.cell, request.colour)
            bench.settle()
        elif isinstance(request, ClearCell):
            while bench.board.counts(request.cell) != (0, 0):
                bench.board.lift(request.cell)
            bench.settle()
        elif isinstance(request, PressButton):
            await bench.press(request.key)
        elif isinstance(request, ClearBoard):
            bench.board.clear()
            bench.settle()
        elif isinstance(request, CoverCells):
            bench.board.clear()              # the checkers come off the cells done before
            for cell in request.cells:
                slots = bench.cell_slots[cell]
                bench.board.set_cell(cell, *((slots, 0) if request.colour == "white" else (0, slots)))
            bench.settle()
        self._buzzer_mark = len(bench.buzzer_pin().states)

    async def confirm(self, question: Question) -> bool:
        self.log.append(str(question))
        try:
            return await self._look(question)
        finally:
            self._buzzer_mark = len(self.bench.buzzer_pin().states)

    async def _look(self, question: Question) -> bool:
        bench = self.bench
        if isinstance(question, CellLit):
            frame = bench.strip.last
            lit = {i for i, rgb in enumerate(frame.pixels) if any(rgb)} if frame else set()
            return lit == set(bench.strip.config.cells[question.cell])
        if isinstance(question, HeardBeep):
            for _ in range(100):         # the beep starts on gpiozero's own thread
                states = bench.buzzer_pin().states[self._buzzer_mark:]
                if any(state.state for state in states):
                    return True
                await asyncio.sleep(0.01)
            return False
        if isinstance(question, SawPattern):
            device = bench.display_device
            expected = display_test_pattern(device.size).convert(device.mode)
            return ImageChops.difference(device.image.convert(device.mode), expected).getbbox() is None
        raise TypeError(f"cannot answer {question!r}")
