"""Readings: counts per cell from a SCAN's sensor values and the profile."""
from __future__ import annotations

import pytest

from controller.board.profile import load_profile
from controller.board.reading import CellReading, Reading

PROFILE = load_profile()


def sensors(**cells: list[int]) -> list[int]:
    v = [0] * 182
    for cell, values in cells.items():
        name = cell.lstrip("p").replace("_", "-")
        for slot, value in enumerate(values):
            v[PROFILE.cell_sensors(name)[slot]] = value
    return v


def test_counts_per_cell() -> None:
    r = Reading.from_sensors(sensors(p13=[2, 2, 2], p1=[1, 1], bar=[1, 2]), PROFILE)
    assert r["13"] == CellReading(0, 3, 6, 0)
    assert (r["1"].white, r["1"].black) == (2, 0)
    assert (r["bar"].white, r["bar"].black) == (1, 1)
    assert r["24"].is_empty
    assert r.counts()["13"] == (0, 3)
    assert str(r) == "1:2w 13:3b bar:1w1b"


def test_saturated_only_when_every_slot_is_full() -> None:
    r = Reading.from_sensors(sensors(p6=[1] * 6, p8=[1] * 5, off_black=[2] * 15), PROFILE)
    assert r["6"].saturated and not r["8"].saturated and r["off-black"].saturated
    assert r.saturated == ("6", "off-black")
    assert "6:6w+" in str(r)


def test_faults_are_listed_and_not_counted() -> None:
    v = sensors(p2=[1, 3, 1])
    r = Reading.from_sensors(v, PROFILE)
    assert r.faults == (PROFILE.cell_sensors("2")[1],)
    assert r["2"] == CellReading(2, 0, 6, 1)
    assert not r["2"].saturated and r.has_faults


def test_equal_and_hashable() -> None:
    a = Reading.from_sensors(sensors(p13=[2, 2]), PROFILE)
    b = Reading.from_sensors(tuple(sensors(p13=[2, 2])), PROFILE)
    c = Reading.from_sensors(sensors(p13=[2]), PROFILE)
    assert a == b and hash(a) == hash(b) and a != c
    assert len({a, b, c}) == 2
    assert Reading.empty(PROFILE) == Reading.from_sensors([0] * 182, PROFILE)


def test_json_lists_only_non_empty_cells() -> None:
    r = Reading.from_sensors(sensors(p13=[2] * 6), PROFILE)
    assert r.as_json() == {"cells": {"13": {"white": 0, "black": 6, "saturated": True}}, "faults": []}


def test_too_few_sensor_values_is_an_error() -> None:
    with pytest.raises(ValueError, match="181 sensor values"):
        Reading.from_sensors([0] * 181, PROFILE)
