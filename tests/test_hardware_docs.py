"""The hardware documents agree with the default profile and with the firmware.

Nothing here keeps its own copy of the pin map: the expected pins come from
hardware/profiles/default.toml, the documents are parsed (the README's tables, the SVG's
labels), and the two are compared. What the test does hold are facts of the parts
themselves: where a BCM GPIO sits on the Pi's 40-pin header, where a GP pin sits on the
Pico, which GPIOs an I2C bus uses.
"""
from __future__ import annotations

import math
import re
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from hardware.design import geometry as g
from hardware.design import modules, sensing
from hardware.design.geometry import default_board

REPO = Path(__file__).resolve().parents[1]
HARDWARE = REPO / "hardware"
SVG_NS = "{http://www.w3.org/2000/svg}"

#: BCM GPIO -> position on the Raspberry Pi's 40-pin header (the same on every 40-pin Pi).
PI_HEADER = {2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 0: 27,
             5: 29, 6: 31, 13: 33, 19: 35, 26: 37, 14: 8, 15: 10, 18: 12, 23: 16, 24: 18,
             25: 22, 8: 24, 7: 26, 1: 28, 12: 32, 16: 36, 20: 38, 21: 40}
#: GP number -> the Pico's pin number (GP23..GP25 and GP29 are not on the edge).
PICO_PINS = {0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14,
             11: 15, 12: 16, 13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25,
             20: 26, 21: 27, 22: 29, 26: 31, 27: 32, 28: 34}
#: I2C bus on the Pi's header -> (SDA, SCL) GPIOs.
PI_I2C = {0: (0, 1), 1: (2, 3)}

_PIN_TOKEN = re.compile(r"\b(GPIO|GP)(\d+)\b")


@pytest.fixture(scope="module")
def profile() -> dict[str, Any]:
    with open(HARDWARE / "profiles" / "default.toml", "rb") as handle:
        return tomllib.load(handle)


@pytest.fixture(scope="module")
def expected(profile: dict[str, Any]) -> dict[str, set[str]]:
    """Profile key -> the pin tokens the documents must use for it ("GPIO10", "GP16")."""
    pins: dict[str, set[str]] = {}
    led = re.fullmatch(r"D(\d+)", profile["leds"]["pin"])
    assert led, "leds.pin is a Blinka name like D10"
    pins["leds.pin"] = {f"GPIO{led.group(1)}"}
    pins["display.i2c_port"] = {f"GPIO{n}" for n in PI_I2C[profile["display"]["i2c_port"]]}
    for name, value in profile["buttons"].items():
        if name != "bounce_ms":
            pins[f"buttons.{name}"] = {f"GPIO{value}"}
    pins["buzzer.pin"] = {f"GPIO{profile['buzzer']['pin']}"}
    for name, value in profile["pico"].items():
        if name != "spi_id":
            pins[f"pico.{name}"] = {f"GP{value}"}
    return pins


def _board_pin(token: str) -> str:
    """Where a pin token sits: "Pi 12", "Pico 21" or "Pico on board" (GP25, the LED)."""
    kind, number = _PIN_TOKEN.fullmatch(token).groups()  # type: ignore[union-attr]
    if kind == "GPIO":
        return f"Pi {PI_HEADER[int(number)]}"
    n = int(number)
    return f"Pico {PICO_PINS[n]}" if n in PICO_PINS else "Pico on board"


def _table(text: str, header: list[str]) -> list[list[str]]:
    """The rows of the markdown table whose header row is exactly `header`."""
    lines = text.splitlines()
    want = "| " + " | ".join(header) + " |"
    start = next((i for i, line in enumerate(lines) if line.strip() == want), None)
    assert start is not None, f"no table with header {want!r}"
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    assert rows, f"table {want!r} is empty"
    return rows


def _range(cell: str, prefix: str = "") -> list[int]:
    m = re.fullmatch(rf"{prefix}(\d+)–{prefix}(\d+)", cell)
    assert m, f"not a range: {cell!r}"
    return list(range(int(m.group(1)), int(m.group(2)) + 1))


@pytest.fixture(scope="module")
def readme() -> str:
    return (HARDWARE / "README.md").read_text(encoding="utf-8")


# --- README: the pin map ------------------------------------------------------------------


def test_readme_pin_table_agrees_with_the_profile(readme: str,
                                                  expected: dict[str, set[str]]) -> None:
    rows = _table(readme, ["Signal", "Profile key", "Pin", "Board pin"])
    seen: dict[str, set[str]] = {}
    for signal, key_cell, pin, board in rows:
        key = key_cell.strip("`")
        assert key in expected, f"{signal}: {key} is not a pin key of the profile"
        assert pin in expected[key], f"{signal}: {pin}, but the profile says {expected[key]}"
        assert board == _board_pin(pin), f"{signal}: {pin} is {_board_pin(pin)}, not {board}"
        seen.setdefault(key, set()).add(pin)
    assert seen == expected, "every pin of the profile appears in the table, and only those"


def test_every_pin_named_in_the_readme_is_one_of_the_profile(
        readme: str, expected: dict[str, set[str]]) -> None:
    allowed = set().union(*expected.values())
    named = {kind + number for kind, number in _PIN_TOKEN.findall(readme)}
    assert named, "the README names pins"
    assert named <= allowed, f"pins not in the profile: {sorted(named - allowed)}"


def test_header_positions_in_the_readme_prose_are_right(readme: str) -> None:
    pairs = re.findall(r"\b((?:GPIO|GP)\d+) \((Pi|Pico) (\d+)\)", readme)
    assert len(pairs) >= 5
    for token, board, number in pairs:
        assert _board_pin(token) == f"{board} {number}", token


def test_readme_names_the_display_address_and_link_speed(readme: str,
                                                         profile: dict[str, Any]) -> None:
    assert f"0x{profile['display']['i2c_address']:02X}" in readme
    assert f"{profile['link']['baudrate']} 8N1" in readme


#: rpi_ws281x's outputs on a Pi 3/4/Zero 2 W: GPIO -> what it drives the LEDs with. PWM and
#: PCM need /dev/mem (root); SPI goes through /dev/spidev0.0 and /dev/gpiomem (groups).
RPI_WS281X_OUTPUTS = {12: "PWM", 18: "PWM", 13: "PWM", 19: "PWM", 21: "PCM", 10: "SPI"}


def test_the_led_pin_is_one_the_unprivileged_service_can_drive(profile: dict[str, Any]) -> None:
    """The service runs as the user `bgboard` (hardware/pi/bgboard.service): only SPI0
    MOSI lets rpi_ws281x light the LEDs without root."""
    gpio = int(profile["leds"]["pin"].removeprefix("D"))
    assert RPI_WS281X_OUTPUTS.get(gpio) == "SPI", f"GPIO{gpio} would need root"
    script = (HARDWARE / "pi" / "install.sh").read_text(encoding="utf-8")
    groups = re.search(r"^SERVICE_GROUPS=\(([^)]*)\)", script, re.M)
    assert groups and {"spi", "gpio"} <= set(groups.group(1).split())


def test_readme_and_install_script_name_the_same_boot_settings(readme: str) -> None:
    """What the README tells a builder is what install.sh writes (rpi_ws281x's README,
    "SPI": a larger spidev buffer, a fixed core clock on a Pi 3 and on a Pi 4)."""
    script = (HARDWARE / "pi" / "install.sh").read_text(encoding="utf-8")
    for setting in ("spidev.bufsiz=32768", "core_freq=250", "core_freq=500",
                    "core_freq_min=500", "/boot/firmware/cmdline.txt",
                    "/boot/firmware/config.txt"):
        assert setting in readme, setting
        assert setting in script or setting.rsplit("/", 1)[-1] in script, setting
    assert "audio=off" not in readme           # the PWM's audio clash is gone with SPI


# --- README: cells, sensors, modules, LEDs -------------------------------------------------


def test_cell_table_agrees_with_the_profile(readme: str, profile: dict[str, Any]) -> None:
    rows = _table(readme, ["Cell", "Slots", "Sensors", "Module, channels", "LEDs"])
    cells, leds = profile["cells"], profile["leds"]["cells"]
    assert [row[0] for row in rows] == list(cells)        # every cell, in the profile's order
    channel = {s: (m.name, k) for m in default_board().modules for k, s in enumerate(m.sensors)}
    for cell, slots, sensors, where, led_cells in rows:
        assert int(slots) == len(cells[cell]), cell
        assert sorted(_range(sensors)) == sorted(cells[cell]), cell
        for part in where.split(", "):
            name, channels = part.split(" ")
            ks = [k for s, (m, k) in channel.items() if m == name and s in cells[cell]]
            assert channels == f"I{min(ks)}–I{max(ks)}", (cell, part)
        assert _range(led_cells) == leds[cell], cell


def test_sensor_and_part_counts_follow_the_matrix_and_the_netlists(readme: str,
                                                                   profile: dict[str, Any]) -> None:
    sensors = profile["sensors"]["rows"] * profile["sensors"]["cols"]
    assert f"{sensors} hall sensors" in readme
    bom = (HARDWARE / "bom.md").read_text(encoding="utf-8")
    quantities = {row[1].split(",")[0]: int(row[0]) for row in _bom_rows(bom)}
    assert quantities["Analogue bipolar hall sensor"] == sensors
    boards = len(default_board().modules)
    assert quantities["16-channel analogue multiplexer"] == boards
    assert quantities["D flip-flop with set and reset (the module's token)"] == boards
    assert f"on 16\nprinted module boards" in readme or f"{boards} module boards" in readme.replace("\n", " ")
    smd = sum(k for n, k in modules.all_netlists() for part in n.parts.values() if part.mount == "smd")
    joints = sum(k * len(part.pins) for n, k in modules.all_netlists() for part in n.parts.values()
                 if part.mount == "smd")
    hand = sum(k * len(part.pins) for n, k in modules.all_netlists() for part in n.parts.values()
               if part.mount == "tht")
    assert f"{joints:,} placed by the fab's assembly, {hand} by hand" in readme, (smd, joints, hand)


def _bom_rows(bom: str) -> list[list[str]]:
    rows = []
    for line in bom.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) == 5 and cells[0].isdigit():
            rows.append(cells)
    return rows


def test_readme_links_point_at_files(readme: str) -> None:
    links = re.findall(r"\]\(([^)#]+)\)", readme)
    assert "protocol.md" in links          # the protocol document (another engineer's file)
    for link in links:
        if link == "protocol.md" or link.startswith("http"):
            continue
        assert (HARDWARE / link).exists(), link


# --- wiring.svg -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def svg_labels() -> list[tuple[str, str | None]]:
    root = ET.parse(HARDWARE / "wiring.svg").getroot()
    assert root.tag == f"{SVG_NS}svg"
    return [("".join(t.itertext()), t.get("data-profile-key")) for t in root.iter(f"{SVG_NS}text")]


def test_every_pin_label_in_the_svg_agrees_with_the_profile(
        svg_labels: list[tuple[str, str | None]], expected: dict[str, set[str]]) -> None:
    labelled: dict[str, set[str]] = {}
    for label, key in svg_labels:
        tokens = {kind + number for kind, number in _PIN_TOKEN.findall(label)}
        if not tokens:
            continue
        assert key is not None, f"label {label!r} names a pin but no profile key"
        assert key in expected, f"label {label!r}: {key} is not a pin key of the profile"
        assert tokens <= expected[key], f"label {label!r}: the profile says {expected[key]}"
        labelled.setdefault(key, set()).update(tokens)
        for token, number in re.findall(r"\b((?:GPIO|GP)\d+) \(pin (\d+)\)", label):
            assert _board_pin(token).split()[-1] == number, f"label {label!r}"
    assert labelled == expected, "every pin of the profile is labelled in the diagram"


def test_svg_shows_every_part_of_the_board(svg_labels: list[tuple[str, str | None]]) -> None:
    text = " ".join(label for label, _ in svg_labels)
    for part in ("Raspberry Pi", "Pico carrier", "CD74HC4067", "74LVC1G74", "74LVC1G17", "DRV5053RA",
                 "WS2812B", "74AHCT125", "LED supply 5 V", "SSD1306", "buzzer", "White main",
                 "Black cube", "Menu", "USB", "shunt J2 13–14"):
        assert part in text, part


# --- power.md -------------------------------------------------------------------------------


def test_power_budget_uses_the_profiles_led_count(profile: dict[str, Any]) -> None:
    power = (HARDWARE / "power.md").read_text(encoding="utf-8")
    count = profile["leds"]["count"]
    full_white = count * 0.060                            # 3 × 20 mA a WS2812B
    row = next(line for line in power.splitlines() if "full white, brightness 1.0" in line)
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert int(cells[1]) == count
    assert cells[3] == f"**{full_white:.2f} A**"
    at_default = full_white * profile["leds"]["brightness"]
    assert f"about {at_default:.2f} A" in power
    sensors = profile["sensors"]["rows"] * profile["sensors"]["cols"]
    assert f"| DRV5053RA hall sensors | {sensors} |" in power


# --- the README and power.md against the board's one description (hardware/design) ---------


def test_readme_geometry_magnet_and_stack_are_the_models(readme: str) -> None:
    for figure in (f"{g.PITCH:.2f} mm", f"{g.BAR_PITCH:.2f} mm", f"{g.POINT_LENGTH:.2f} mm",
                   f"{g.TRAY_WIDTH:.2f} mm", f"{g.BAR_WIDTH:.1f} mm bar", f"{g.RECESS:g} mm recess",
                   f"{g.TOP:g} mm plywood", f"**{g.STANDOFF:g} mm**", f"**{sensing.GAP:.2f}**",
                   f"± {sensing.GAP_TOLERANCE:g}", f"**{min(m.margin for m in sensing.margins()):.2f} mT**"):
        assert figure in readme, figure
    magnet = sensing.MAGNET
    assert f"{magnet.diameter:g} mm × {magnet.thickness:g} mm (N42)" in readme
    assert "DESIGN.md" not in readme                  # not in the repository
    assert "drawings/module-" not in readme           # the stripboard route is retired
    assert "31 mm pitch" not in readme and "60 a metre" not in readme


def test_power_budget_counts_the_schematics_parts() -> None:
    power = (HARDWARE / "power.md").read_text(encoding="utf-8")
    counts: dict[str, int] = {}
    for netlist, boards in modules.all_netlists():
        for part in netlist.parts.values():
            counts[part.key] = counts.get(part.key, 0) + boards
    assert f"| CD74HC4067 multiplexers | {counts['CD74HC4067']} |" in power
    assert f"| 74LVC1G74 flip-flops and 74LVC1G17 buffers | {counts['74LVC1G74'] + counts['74LVC1G17']} |" in power
    assert "LM339" not in power and "74HC165" not in power
