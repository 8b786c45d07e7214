"""The virtual board's analogue path against physics and the datasheets: the tabulated field
against the exact disc field, each sensor's output against SLIS153C's transfer function
(V = VQ + S·B, clamped), the parts against their limits, the chain against
hardware/front-end.md (token, RET, the bus's divider and pull-down, the ADC's 12 bits)."""
from __future__ import annotations

import math
import random
import statistics
import subprocess
import sys
from array import array
from pathlib import Path

import pytest

from controller.board.profile import load_profile
from firmware import levels as scan  # the sensor values: 0 empty, 1 white, 2 black, 3 fault
from hardware.design import sensing
from hardware.design.magnet import Disc
from hardware.design.geometry import CHECKER_HEIGHT
from sim.vboard_analogue import AnalogueSensors, Drift
from sim.vboard_chain import TokenChain
from sim.vboard_field import REACH, FieldTable, field_table
from sim.vboard_hardware import HallField
from sim.vboard_parts import Placements, SensorPart, random_part, typical_part
from sim.vboard_sensing import build, module_sizes

PROFILE = load_profile()
TABLE = field_table(sensing.MAGNET)
N = PROFILE.sensors.count
#: the bus as hardware/front-end.md builds it: 1 kΩ at each module's COM, 47 kΩ to ground
#: on the carrier, the CD74HC4067's switch (about 100 Ω at 3.3 V) in series
DIVIDER = 47_000 / (47_000 + 1_000 + 100)
LSB_MV = 3300 / 4096


def part(sensitivity: float = 20.0, vq: float = 1.0, gap: float = sensing.GAP) -> SensorPart:
    return SensorPart(vq, sensitivity, sensing.V_SAT_LOW, sensing.V_SAT_HIGH, sensing.NOISE_PP, gap, (0.0, 0.0))


def sensors_of(parts: list[SensorPart], kind: str = "typical") -> AnalogueSensors:
    field = HallField(PROFILE, Placements(kind, 0))  # type: ignore[arg-type]
    return AnalogueSensors(PROFILE, parts, field, TABLE)


def sensor(cell: str, slot: int) -> int:
    return PROFILE.cell_sensors(cell)[slot]


# -- the field ------------------------------------------------------------------------------
def test_the_table_gives_the_exact_disc_field() -> None:
    disc = sensing.MAGNET
    rng = random.Random(5)
    near, far = sensing.GAP - sensing.GAP_TOLERANCE, sensing.GAP + sensing.GAP_TOLERANCE + 2 * CHECKER_HEIGHT
    for _ in range(300):
        d, r = rng.uniform(near, far), rng.uniform(0.0, REACH - 0.01)
        assert TABLE.bz(d, r) == pytest.approx(disc.bz(d, r), abs=0.03), (d, r)
    # past REACH the table counts nothing, and the magnet gives less than a tenth of the
    # sensor's input-referred noise there
    assert TABLE.bz(near, REACH) == 0.0 and abs(disc.bz(near, REACH)) < sensing.NOISE_PP / 10
    with pytest.raises(ValueError):
        TABLE.bz(0.0, 3.0)


def test_a_table_is_made_once_per_magnet() -> None:
    assert field_table(sensing.MAGNET) is TABLE
    other = FieldTable(Disc(6.0, 2.0, 1300.0))
    other.bz(6.0, 1.0)
    assert other.rows_made == 2     # the two rows around 6 mm, nothing else


# -- the parts -------------------------------------------------------------------------------
def test_the_typical_part_is_the_datasheets() -> None:
    p = typical_part()
    assert (p.vq, p.sensitivity, p.sat_low, p.sat_high) == (1.02, 45.0, 0.2, 1.8)
    assert p.gap == sensing.GAP and p.offset == (0.0, 0.0)


def test_random_parts_spread_over_the_limits_and_replay_from_their_seed() -> None:
    parts = [random_part(random.Random(f"parts {k}")) for k in range(300)]
    vqs, sens, gaps = [p.vq for p in parts], [p.sensitivity for p in parts], [p.gap for p in parts]
    assert sensing.VQ[0] <= min(vqs) and max(vqs) <= sensing.VQ[1]
    assert sensing.SENSITIVITY[0] <= min(sens) and max(sens) <= sensing.SENSITIVITY[1]
    tol = sensing.GAP_TOLERANCE
    assert sensing.GAP - tol <= min(gaps) and max(gaps) <= sensing.GAP + tol
    assert all(math.hypot(*p.offset) <= sensing.SENSOR_OFFSET for p in parts)
    # uniform over the whole range, not bunched at the typical value
    assert max(vqs) - min(vqs) > 0.9 * (sensing.VQ[1] - sensing.VQ[0])
    assert max(sens) - min(sens) > 0.9 * (sensing.SENSITIVITY[1] - sensing.SENSITIVITY[0])
    assert random_part(random.Random("parts 3")) == parts[3]


def test_worst_parts_sit_at_the_edges_of_their_limits() -> None:
    hw = build(PROFILE, "worst", 0, lambda: 0)
    tol = sensing.GAP_TOLERANCE
    for p in hw.sensors.parts:
        assert p.vq in sensing.VQ
        assert sensing.SENSITIVITY[0] <= p.sensitivity <= sensing.SENSITIVITY[1]
        assert p.gap in (sensing.GAP - tol, sensing.GAP + tol)
        assert math.hypot(*p.offset) == pytest.approx(sensing.SENSOR_OFFSET)


def _room(hw_sensors: AnalogueSensors, table: list[int], s: int, colour: int) -> float:
    """How far an empty sensor stays from its threshold at half its calibrated swing
    toward `colour`, as a fraction of that swing."""
    empty, white, black = table[3 * s:3 * s + 3]
    level = hw_sensors.outputs()[s] * 1000 * DIVIDER
    if colour == scan.WHITE:
        return (empty + (white - empty) / 2 - level) / (white - empty)
    return (level - (empty - (empty - black) / 2)) / (empty - black)


@pytest.mark.parametrize("colour", ["white", "black"])
def test_a_worst_part_has_less_room_than_random_parts_where_it_sits(colour: str) -> None:
    """An empty slot among full neighbours of the other colour (whose reversed lobes push
    it toward this colour): its reading lies nearer its threshold toward `colour` on the
    worst board than on any of ten random boards."""
    other = "black" if colour == "white" else "white"
    target = sensor("8", 2)
    rooms = {}
    for kind, seed in [("worst", 0)] + [("random", k) for k in range(10)]:
        hw = build(PROFILE, kind, seed, lambda: 0)  # type: ignore[arg-type]
        for cell in ("7", "9"):
            hw.field.set_cell(cell, 6 if other == "white" else 0, 6 if other == "black" else 0)
        for _ in range(2):
            hw.field.place("8", other)    # slots 0-1 taken, slot 2 empty, 3-5 empty
        value = scan.WHITE if colour == "white" else scan.BLACK
        rooms[(kind, seed)] = _room(hw.sensors, hw.factory_table(), target, value)
    worst = rooms.pop(("worst", 0))
    assert worst < min(rooms.values()), (worst, sorted(rooms.values())[:3])


# -- the outputs ------------------------------------------------------------------------------
def test_an_empty_board_outputs_every_parts_quiescent_level() -> None:
    hw = build(PROFILE, "random", 4, lambda: 0)
    assert hw.sensors.outputs() == pytest.approx([p.vq for p in hw.sensors.parts])


def test_a_checker_on_its_slot_moves_the_output_by_sensitivity_times_its_field() -> None:
    """White's north pole drives the RA's output up, black's south pole down; on the axis the
    field is the closed form Br/2·[(d+L)/√((d+L)²+a²) − d/√(d²+a²)]."""
    s = sensors_of([part(20.0)] * N)
    b = sensing.MAGNET.on_axis(sensing.GAP)
    s.checkers.place("13", "white")
    assert s.outputs()[sensor("13", 0)] == pytest.approx(1.0 + 0.020 * b, abs=0.001)
    s.checkers.set_cell("13", 0, 1)
    assert s.outputs()[sensor("13", 0)] == pytest.approx(1.0 - 0.020 * b, abs=0.001)


def test_a_strong_field_saturates_the_output_at_its_limits() -> None:
    s = sensors_of([part(70.0)] * N)
    s.checkers.set_cell("13", 1, 0)
    s.checkers.set_cell("14", 0, 1)
    assert s.outputs()[sensor("13", 0)] == sensing.V_SAT_HIGH
    assert s.outputs()[sensor("14", 0)] == sensing.V_SAT_LOW


def test_checkers_beyond_the_slots_lie_on_top_one_checker_higher() -> None:
    s = sensors_of([part(20.0)] * N)
    s.checkers.set_cell("13", 6, 0)
    six = s.outputs()[sensor("13", 0)]
    s.checkers.place("13", "white")        # the seventh lies on the first slot's checker
    seven = s.outputs()[sensor("13", 0)]
    on_top = sensing.MAGNET.on_axis(sensing.GAP + CHECKER_HEIGHT)
    assert seven - six == pytest.approx(0.020 * on_top, abs=0.0005)
    assert s.outputs()[sensor("13", 1)] == pytest.approx(s.outputs()[sensor("13", 1)])


def test_a_neighbours_reversed_lobe_pulls_an_empty_sensor_the_other_way() -> None:
    """Two slots apart (66 mm) a white checker's field at the sensor is negative: its field
    lines return there, so the empty sensor's output falls a little, as a black one's would."""
    s = sensors_of([part(70.0)] * N)
    s.checkers.set_cell("13", 3, 0)
    s.checkers.lift("13")
    s.checkers.lift("13")                  # slot 0 white, slots 1-2 empty
    pitch = 13 * 2.54
    expected = sensing.MAGNET.bz(sensing.GAP, 2 * pitch)
    assert expected < 0
    assert s.outputs()[sensor("13", 2)] - 1.0 == pytest.approx(0.070 * expected, abs=0.0005)


def test_temperature_scales_the_swing_and_moves_the_quiescent_level() -> None:
    s = sensors_of([part(20.0)] * N)
    s.checkers.place("13", "white")
    at = sensor("13", 0)
    swing = s.outputs()[at] - 1.0
    s.set_drift(Drift(sensitivity=1.1))
    assert s.outputs()[at] - 1.0 == pytest.approx(1.1 * swing)
    s.set_drift(Drift(br=0.97))
    assert s.outputs()[at] - 1.0 == pytest.approx(0.97 * swing)
    s.set_drift(Drift(vq_mv=15.0))
    assert s.outputs()[at] - 1.0 == pytest.approx(swing + 0.015)


def test_the_noise_is_the_datasheets_input_referred_noise() -> None:
    """0.79 mTpp input-referred at 20 mV/mT: a standard deviation of 0.79/6 · 20 mV."""
    s = sensors_of([part(20.0)] * N)
    draws = [s.noisy(0, 1.0) for _ in range(20000)]
    assert statistics.fmean(draws) == pytest.approx(1.0, abs=0.0002)
    assert statistics.pstdev(draws) == pytest.approx(sensing.NOISE_PP / 6 * 0.020, rel=0.05)
    assert max(draws) - min(draws) < 1.5 * sensing.NOISE_PP * 0.020


def test_stuck_and_flickering_sensors_output_the_level_of_their_value() -> None:
    s = sensors_of([part(20.0)] * N)
    s.checkers.stick(5, scan.WHITE)
    assert s.output(5, 0) == pytest.approx(1.0 + 0.020 * sensing.MAGNET.on_axis(sensing.GAP), abs=0.001)
    s.checkers.stick(5, scan.FAULT)
    assert s.output(5, 0) == 0.0           # a dead output: the bus's pull-down
    s.checkers.flicker(9, 10, scan.BLACK)
    assert s.output(9, 5) == 1.0 and s.output(9, 15) < 0.9


# -- the chain ----------------------------------------------------------------------------------
def chain(kind: str = "typical", seed: int = 0) -> TokenChain:
    return build(PROFILE, kind, seed, lambda: 0).chain  # type: ignore[arg-type]


def flush(c: TokenChain) -> None:
    for _ in range(16):
        c.clock(0)


def read_near(c: TokenChain, sensor: int, mv: float) -> bool:
    """A level within four standard deviations of the sensor's noise (and a few codes)."""
    sigma = c.sensors.parts[sensor].noise_sigma_v() * 1000 * DIVIDER
    return abs(c.level() - mv) < 4 * sigma + 3 * LSB_MV


def test_the_chain_is_built_in_the_geometrys_module_order() -> None:
    assert module_sizes(PROFILE) == (12,) * 12 + (4, 4, 15, 15)


def test_the_token_walks_the_chain_and_ret_follows_the_last_module() -> None:
    c = chain("random", 2)
    flush(c)
    assert c.level() < 50                          # nobody drives: the pull-down
    outputs = c.sensors.outputs()
    rets = []
    for m, size in enumerate(c.sizes):
        rets.append(c.clock(1 if m == 0 else 0))
        first = sum(c.sizes[:m])
        for k in range(size):
            c.address(k)
            assert read_near(c, first + k, outputs[first + k] * 1000 * DIVIDER)
        c.address(15 if size < 16 else 0)
        if size < 16:
            assert c.level() < 50                  # an unused channel is tied to ground
    assert rets == [0] * 15 + [1]
    assert c.clock(0) == 0 and c.level() < 50


def test_the_flip_flops_power_up_in_any_state_until_the_flush() -> None:
    states = []
    for seed in range(6):
        c = chain(seed=seed)
        states.append(sum(c.q))
        flush(c)
        assert sum(c.q) == 0 and c.bus_volts() == 0.0
    assert max(states) >= 2                       # two modules would fight over the bus


def test_two_modules_on_the_bus_meet_between_their_sensors() -> None:
    c = chain()
    flush(c)
    c.clock(1)
    c.clock(1)                                    # modules 0 and 1 both hold a token
    c.address(0)
    a, b = c.sensors.output(0, 0), c.sensors.output(12, 0)
    g = 1 / 1100
    assert c.bus_volts() == pytest.approx((a + b) * g / (2 * g + 1 / 47_000))


def test_an_unplugged_module_cuts_the_chain_there() -> None:
    c = chain()
    c.unplug_module(3)
    flush(c)
    rets, levels = [], []
    for m, size in enumerate(c.sizes):
        rets.append(c.clock(1 if m == 0 else 0))
        c.address(0)
        levels.append(c.level())
    assert rets == [0] * 16
    assert all(v > 500 for v in levels[:3]) and all(v < 50 for v in levels[3:])
    c.unplug_module(None)
    flush(c)
    assert [c.clock(1 if m == 0 else 0) for m in range(16)][-1] == 1


def test_a_stuck_multiplexer_reads_one_channel_on_every_address() -> None:
    c = chain("random", 3)
    c.stick_mux(0, 4)
    flush(c)
    c.clock(1)
    want = c.ideal_mv(c.sensors.outputs()[4])
    for k in range(12):
        c.address(k)
        assert read_near(c, 4, want)
    with pytest.raises(ValueError):
        c.stick_mux(0, 16)


def test_without_the_sensors_supply_every_channel_reads_nothing() -> None:
    c = chain()
    assert abs(c.supply() - 5000) < 10
    c.sensors.set_supply(0.0)
    assert c.supply() < 10
    flush(c)
    c.clock(1)
    out = array("H", [0] * 12)
    c.read_module(12, out, 0)
    assert max(out) < 50


def test_the_adc_reads_12_bits_of_3_3_volts() -> None:
    c = chain()
    assert c.ideal_mv(0.0) == 0
    assert c.ideal_mv(3.4 / DIVIDER) == 3300       # full scale: code 4095
    one_code = c.ideal_mv(LSB_MV / 1000 / DIVIDER)
    assert one_code in (0, 1)                      # 0.8 mV: the firmware's integer mV
    assert c.ideal_mv(1.0) == pytest.approx(1000 * DIVIDER, abs=1)


def test_a_failing_chain_raises_from_every_primitive() -> None:
    c = chain()
    c.fail = "TCLK shorted"
    for call in (lambda: c.clock(0), c.level, c.supply, lambda: c.address(1)):
        with pytest.raises(OSError, match="TCLK shorted"):
            call()


def test_the_sampled_scan_carries_the_sensors_noise() -> None:
    """One scan's outputs, drawn at once: each with the datasheet's noise, a fresh draw a scan."""
    s = sensors_of([part(20.0)] * N)
    draws = [s.sample(0)[7] for _ in range(4000)]
    assert statistics.fmean(draws) == pytest.approx(1.0, abs=0.0005)
    assert statistics.pstdev(draws) == pytest.approx(sensing.NOISE_PP / 6 * 0.020, rel=0.06)
    s.checkers.stick(7, scan.FAULT)
    assert s.sample(0)[7] == 0.0          # a dead output carries no noise


def test_the_field_model_is_installed_with_the_simulator(tmp_path: Path) -> None:
    """The virtual board reads hardware/design's field and limits: `bgboard sim` started
    from any directory must find them (the package installs hardware.design)."""
    done = subprocess.run([sys.executable, "-c", "import sim.vboard_sensing"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
