"""The firmware's chain of modules is the geometry's: the same modules in the same order,
each with its sensors on channels 0.. in the profile's numbering (hardware/front-end.md
"Modules, slots and channels"). CPython only: the geometry is not on the Pico."""
from __future__ import annotations

from firmware import chain
from hardware.design.geometry import default_board


def test_module_sizes_and_names_are_the_geometrys_chain() -> None:
    modules = default_board().modules
    assert chain.MODULE_SIZES == tuple(len(m.slots) for m in modules)
    assert chain.MODULE_NAMES == tuple(m.name for m in modules)
    assert max(chain.MODULE_SIZES) < chain.CHANNELS      # I15 stays free on every module


def test_channel_k_of_module_m_is_the_profiles_sensor_at_that_offset() -> None:
    start = 0
    for module in default_board().modules:
        assert module.sensors == tuple(range(start, start + len(module.slots))), module.name
        start += len(module.slots)
