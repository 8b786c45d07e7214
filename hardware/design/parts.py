"""Every part of the sensor modules and the Pico carrier, defined once: pins (from each
part's datasheet pinout) and what the BOM says about it."""
from __future__ import annotations

from .netlist import PartType, Pin, PinKind
from . import sensing


def _pins(*spec: tuple[int, str, PinKind]) -> tuple[Pin, ...]:
    return tuple(Pin(*s) for s in spec)


def _two(kind: PinKind = "passive") -> tuple[Pin, ...]:
    return _pins((1, "1", kind), (2, "2", kind))


def _code(ohms: float) -> str:
    """Yageo's value code: 10K, 1M, 1K8, 470R."""
    for div, letter in ((1e6, "M"), (1e3, "K"), (1.0, "R")):
        if ohms >= div:
            v = f"{ohms / div:g}"
            return v.replace(".", letter) if "." in v else v + letter
    raise ValueError(ohms)


def resistor(ohms: float, why: str) -> PartType:
    value = _code(ohms).replace("K", " kΩ").replace("M", " MΩ").replace("R", " Ω")
    if not value.endswith("Ω"):                      # 1K8 -> 1.8 kΩ
        value = f"{ohms / 1e3:g} kΩ" if ohms < 1e6 else f"{ohms / 1e6:g} MΩ"
    return PartType(f"R{ohms:g}", f"{value} resistor, 1 %, 0.25 W ({why})",
                    f"Yageo MFR-25FBF52-{_code(ohms)}", 0.03, _two(), conducts=True)


DRV5053 = PartType(
    "DRV5053", "Analogue bipolar hall sensor, −90 mV/mT, TO-92",
    "TI DRV5053VAQLPG (SOT-23: DRV5053VAQDBZR)", 0.95,
    _pins((1, "VCC", "supply"), (2, "GND", "ground"), (3, "OUT", "out")))
LM339 = PartType(
    "LM339", "Quad comparator, open collector, DIP-14 (half per sensor)", "TI LM339N", 0.30,
    _pins((1, "OUT2", "oc"), (2, "OUT1", "oc"), (3, "VCC", "supply"), (4, "IN1-", "in"),
          (5, "IN1+", "in"), (6, "IN2-", "in"), (7, "IN2+", "in"), (8, "IN3-", "in"),
          (9, "IN3+", "in"), (10, "IN4-", "in"), (11, "IN4+", "in"), (12, "GND", "ground"),
          (13, "OUT4", "oc"), (14, "OUT3", "oc")))
#: LM339 unit -> (output, inverting input, non-inverting input) pin numbers
LM339_UNITS = ((2, 4, 5), (1, 6, 7), (14, 8, 9), (13, 10, 11))
HC165 = PartType(
    "74HC165", "8-bit parallel-in shift register, DIP-16", "TI SN74HC165N", 0.45,
    _pins((1, "SH/LD", "in"), (2, "CLK", "in"), (3, "E", "in"), (4, "F", "in"), (5, "G", "in"),
          (6, "H", "in"), (7, "QH'", "nc"), (8, "GND", "ground"), (9, "QH", "out"),
          (10, "SER", "in"), (11, "A", "in"), (12, "B", "in"), (13, "C", "in"), (14, "D", "in"),
          (15, "CLK INH", "in"), (16, "VCC", "supply")))
#: the inputs in shift order: H leaves first (README, "The shift-register chain")
HC165_INPUTS = ("H", "G", "F", "E", "D", "C", "B", "A")
HC14 = PartType(
    "74HC14", "Hex Schmitt-trigger inverter, DIP-14 (SCK and SH/LD buffer)", "TI SN74HC14N", 0.40,
    _pins((1, "1A", "in"), (2, "1Y", "out"), (3, "2A", "in"), (4, "2Y", "out"), (5, "3A", "in"),
          (6, "3Y", "out"), (7, "GND", "ground"), (8, "4Y", "out"), (9, "4A", "in"),
          (10, "5Y", "out"), (11, "5A", "in"), (12, "6Y", "out"), (13, "6A", "in"),
          (14, "VCC", "supply")))
SIP_47K = PartType(
    "SIP47k", "47 kΩ × 8 bussed resistor network, SIP-9 (comparator pull-ups)",
    "Bourns 4609X-101-473LF", 0.35,
    _pins((1, "COM", "passive"), *((i, f"R{i - 1}", "passive") for i in range(2, 10))),
    conducts=True)
C100N = PartType("C100n", "100 nF ceramic capacitor, 50 V (each IC, each threshold node)",
                 "Kemet C320C104K5R5TA", 0.10, _two(), capacitor=True)
C10N = PartType("C10n", "10 nF ceramic capacitor, 50 V (sensor supply)", "Kemet C315C103K5R5TA",
                0.10, _two(), capacitor=True)
C100U = PartType("C100u", "100 µF 10 V electrolytic capacitor (sensor supply, carrier)",
                 "Panasonic EEU-FR1A101", 0.30, _two(), capacitor=True)
R_IN = resistor(sensing.R_IN, "comparator input, hysteresis")
R_FEEDBACK = resistor(sensing.R_FEEDBACK, "comparator hysteresis feedback")
R_TOP = resistor(sensing.R_TOP, "threshold divider, top")
R_MID = resistor(sensing.R_MID, "threshold divider, middle")
R_BOTTOM = resistor(sensing.R_BOTTOM, "threshold divider, bottom")
R_SERIES = resistor(33, "series, clock and load lines")

#: The 10-way ribbon between modules, seen from a module's IN header (the Pico side).
#: pin -> (signal, kind on the IN header, kind on the OUT header). "feed" brings a signal
#: onto the board, "link" carries it off it.
RIBBON: dict[int, tuple[str, PinKind, PinKind]] = {
    1: ("GND", "ground", "ground"),
    2: ("+3V3", "feed", "link"),
    3: ("SCK", "feed", "link"),
    4: ("GND", "ground", "ground"),
    5: ("SH/LD", "feed", "link"),
    6: ("CLK INH", "feed", "link"),
    7: ("GND", "ground", "ground"),
    8: ("DATA", "link", "feed"),
    9: ("AUX N", "link", "oc"),
    10: ("AUX S", "link", "oc"),
}
HEADER_IN = PartType(
    "IDC10", "Box header 2 × 5, 2.54 mm, keyed (ribbon in and out)", "Würth 61201021621", 0.40,
    _pins(*((p, sig, inward) for p, (sig, inward, _) in RIBBON.items())))
HEADER_OUT = PartType(
    "IDC10", HEADER_IN.description, HEADER_IN.part_number, HEADER_IN.price,
    _pins(*((p, sig, outward) for p, (sig, _, outward) in RIBBON.items())))
POWER_IN = PartType(
    "TB2", "Screw terminal, 2 way, 5.08 mm (5 V from the star)", "Phoenix Contact 1715721", 0.50,
    _pins((1, "+5V", "feed"), (2, "GND", "ground")))
STAR_OUT = PartType(
    "TB2", POWER_IN.description, POWER_IN.part_number, POWER_IN.price,
    _pins((1, "+5V", "link"), (2, "GND", "ground")))
FUSE = PartType(
    "F2A", "Blade fuse 2 A with holder (the sensors' 5 V: 0.84 A at most)",
    "Littelfuse 0287002.PXCN + 01530008Z", 2.00, _two(), conducts=True)
PICO = PartType(
    "PICO", "Raspberry Pi Pico (RP2040)", "SC0915", 4.50,
    _pins((21, "GP16", "in"), (22, "GP17", "out"), (24, "GP18", "out"), (25, "GP19", "out"),
          (36, "3V3 OUT", "feed"), (3, "GND", "ground"), (8, "GND", "ground"),
          (38, "GND", "ground")))
