"""Every part of the sensor modules and the Pico carrier, defined once: pins (from each
part's datasheet pinout), its KiCad footprint (KiCad's own libraries), how it is mounted,
and what the BOM says about it (hardware/front-end.md is the design these serve).

Part numbers are the manufacturers'; `lcsc` is given where the assembly service's number
is known, otherwise the service matches the manufacturer's number. Prices are approximate,
in euros, at the quantities one board needs."""
from __future__ import annotations

from controller.board.profile import load_profile

from .netlist import PartType, Pin, PinKind

SMD_SECTION = "Sensor modules and carrier: assembled by the PCB fab"
THT_SECTION = "Sensor modules and carrier: soldered by the maker"


def _pins(*spec: tuple[int, str, PinKind]) -> tuple[Pin, ...]:
    return tuple(Pin(*s) for s in spec)


def _two(kind: PinKind = "passive") -> tuple[Pin, ...]:
    return _pins((1, "1", kind), (2, "2", kind))


def _code(ohms: float) -> str:
    """The resistor value as a BOM's comment column writes it: 33R, 1k, 47k, 100k."""
    for div, letter in ((1e6, "M"), (1e3, "k"), (1.0, "R")):
        if ohms >= div:
            v = f"{ohms / div:g}"
            return v.replace(".", letter) if "." in v else v + letter
    raise ValueError(ohms)


def resistor(ohms: float, why: str, part_number: str, lcsc: str = "") -> PartType:
    return PartType(f"R{ohms:g}", f"{_code(ohms)} resistor, 1 %, 0603 ({why})", part_number, 0.01,
                    _two(), conducts=True, footprint="Resistor_SMD:R_0603_1608Metric", lcsc=lcsc,
                    section=SMD_SECTION, height=0.55, value=_code(ohms))


def capacitor(value: str, why: str, part_number: str, footprint: str, lcsc: str = "",
              height: float = 0.9) -> PartType:
    return PartType(f"C{value}", f"{value}F ceramic capacitor, X7R/X5R ({why})", part_number, 0.01,
                    _two(), capacitor=True, footprint=footprint, lcsc=lcsc, section=SMD_SECTION,
                    height=height, value=f"{value}F")


# --- the sensor --------------------------------------------------------------------------
#: SOT-23 (DBZ): 1 VCC, 2 OUT, 3 GND (SLIS153C, "Pin Configuration"). The TO-92 (LPG) has
#: GND on 2 and OUT on 3: the two packages are not pin-compatible.
DRV5053 = PartType(
    "DRV5053RA", "Analogue bipolar hall sensor, −45 mV/mT (RA), SOT-23", "TI DRV5053RAQDBZR", 0.90,
    _pins((1, "VCC", "supply"), (2, "OUT", "passive"), (3, "GND", "ground")),
    footprint="Package_TO_SOT_SMD:SOT-23", section=SMD_SECTION, height=1.12, value="DRV5053RA")

# --- a module's logic ----------------------------------------------------------------------
MUX = PartType(
    "CD74HC4067", "16-channel analogue multiplexer, SOIC-24 wide", "TI CD74HC4067M96", 0.80,
    _pins((1, "COM", "passive"), (2, "I7", "passive"), (3, "I6", "passive"), (4, "I5", "passive"),
          (5, "I4", "passive"), (6, "I3", "passive"), (7, "I2", "passive"), (8, "I1", "passive"),
          (9, "I0", "passive"), (10, "S0", "in"), (11, "S1", "in"), (12, "GND", "ground"),
          (13, "S3", "in"), (14, "S2", "in"), (15, "/E", "in"), (16, "I15", "passive"),
          (17, "I14", "passive"), (18, "I13", "passive"), (19, "I12", "passive"),
          (20, "I11", "passive"), (21, "I10", "passive"), (22, "I9", "passive"), (23, "I8", "passive"),
          (24, "VCC", "supply")),
    footprint="Package_SO:SOIC-24W_7.5x15.4mm_P1.27mm", lcsc="C98457", section=SMD_SECTION, height=2.65,
    value="CD74HC4067")
#: the channel inputs in channel order: MUX.named(MUX_CHANNELS[k]) is channel k's pin
MUX_CHANNELS = tuple(f"I{k}" for k in range(16))
FLIP_FLOP = PartType(
    "74LVC1G74", "D flip-flop with set and reset (the module's token), VSSOP-8", "TI SN74LVC1G74DCUR", 0.25,
    _pins((1, "CLK", "in"), (2, "D", "in"), (3, "/Q", "out"), (4, "GND", "ground"), (5, "Q", "out"),
          (6, "/CLR", "in"), (7, "/PRE", "in"), (8, "VCC", "supply")),
    footprint="Package_SO:VSSOP-8_2.3x2mm_P0.5mm", section=SMD_SECTION, height=0.9, value="74LVC1G74")
SCHMITT = PartType(
    "74LVC1G17", "Schmitt-trigger buffer (re-times the token clock), SOT-23-5", "TI SN74LVC1G17DBVR", 0.15,
    _pins((1, "NC", "nc"), (2, "A", "in"), (3, "GND", "ground"), (4, "Y", "out"), (5, "VCC", "supply")),
    footprint="Package_TO_SOT_SMD:SOT-23-5", section=SMD_SECTION, height=1.45, value="74LVC1G17")

C100N = capacitor("100n", "every sensor and IC", "Samsung CL10B104KB8NNNC",
                  "Capacitor_SMD:C_0603_1608Metric", "C1591")
C1N = capacitor("1n", "the ADC's input", "Samsung CL10B102KB8NNNC", "Capacitor_SMD:C_0603_1608Metric", "C1588")
C22U = capacitor("22u", "the sensors' 5 V on the carrier", "Samsung CL31A226KAHNNNE",
                 "Capacitor_SMD:C_1206_3216Metric", "", 1.8)
R_BUS = resistor(1e3, "multiplexer to the analogue bus", "UNI-ROYAL 0603WAF1001T5E", "C21190")
R_SERIES = resistor(33, "series, driven lines", "UNI-ROYAL 0603WAF330JT5E")
R_ADC = resistor(100, "the ADC's input", "UNI-ROYAL 0603WAF1000T5E", "C22775")
R_BUS_PULL = resistor(47e3, "the analogue bus to GND: undriven reads 0 V", "UNI-ROYAL 0603WAF4702T5E")
R_RET_PULL = resistor(100e3, "RET to GND: an open chain reads 0", "UNI-ROYAL 0603WAF1003T5E", "C25803")
R_DIVIDER = resistor(10e3, "the sensor supply's monitor, 1:2", "UNI-ROYAL 0603WAF1002T5E", "C25804")
POLYFUSE = PartType(
    "MF-MSMF110", "Resettable fuse 1.1 A hold, 1812 (the sensors' 5 V: 0.66 A at most)",
    "Bourns MF-MSMF110-2", 0.30, _two(), conducts=True, footprint="Fuse:Fuse_1812_4532Metric",
    section=SMD_SECTION, height=1.1, value="1.1A")
SCHOTTKY = PartType(
    "SS14", "Schottky diode 1 A 40 V, SMA (5 V to the Pico's VSYS for the UART link)", "MDD SS14", 0.05,
    _pins((1, "K", "passive"), (2, "A", "passive")), conducts=True, footprint="Diode_SMD:D_SMA",
    lcsc="C2480", section=SMD_SECTION, height=2.3, value="SS14")
TEST_POINT = PartType(
    "TP", "Test point pad 1.5 mm (bring-up: probe here)", "(copper only)", 0.0,
    _pins((1, "1", "passive")), footprint="TestPoint:TestPoint_Pad_D1.5mm", mount="loose",
    section=SMD_SECTION, value="TP")

# --- connectors ----------------------------------------------------------------------------
#: The 14-way ribbon between the carrier and the modules, seen from a module's IN header
#: (the Pico's side). pin -> (signal, kind on the IN header, kind on the OUT header):
#: "feed" brings a signal onto the board, "link" carries it off it; analogue "passive".
RIBBON: dict[int, tuple[str, PinKind, PinKind]] = {
    1: ("+3V3", "feed", "link"),
    2: ("GND", "ground", "ground"),
    3: ("S0", "feed", "link"),
    4: ("S1", "feed", "link"),
    5: ("S2", "feed", "link"),
    6: ("S3", "feed", "link"),
    7: ("GND", "ground", "ground"),
    8: ("AOUT", "passive", "passive"),
    9: ("GND", "ground", "ground"),
    10: ("TCLK", "feed", "link"),
    11: ("GND", "ground", "ground"),
    12: ("GND", "ground", "ground"),
    13: ("TOKEN", "feed", "link"),
    14: ("RET", "link", "feed"),
}


def ribbon_pin(signal: str) -> int:
    """The ribbon's pin that carries `signal` (the first, for GND)."""
    return next(p for p, (s, _, _) in RIBBON.items() if s == signal)




def _idc(inward: bool) -> PartType:
    return PartType(
        "IDC14", "Box header 2 × 7, 2.54 mm, keyed, straight (ribbon in and out)", "Würth 61201421621", 0.45,
        _pins(*((p, sig, kin if inward else kout) for p, (sig, kin, kout) in RIBBON.items())),
        footprint="Connector_IDC:IDC-Header_2x07_P2.54mm_Vertical", mount="tht", section=THT_SECTION,
        height=9.1, value="IDC 2x7")


HEADER_IN = _idc(inward=True)
HEADER_OUT = _idc(inward=False)      # the carrier's header too: its RET comes in from the chain


def _xh(supply: PinKind) -> PartType:
    return PartType(
        "XH2", "JST XH header 2-pin, 2.5 mm, straight (5 V and GND)", "JST B2B-XH-A(LF)(SN)", 0.10,
        _pins((1, "+5V", supply), (2, "GND", "ground")),
        footprint="Connector_JST:JST_XH_B2B-XH-A_1x02_P2.50mm_Vertical", mount="tht", section=THT_SECTION,
        height=7.0, value="XH 2")


POWER_IN = _xh("feed")
STAR_OUT = _xh("link")
UART_HEADER = PartType(
    "HDR3", "Pin header 1 × 3, 2.54 mm (the optional UART link to the Pi: TX, RX, GND)",
    "Amphenol 77311-118-03LF", 0.15,
    _pins((1, "TX", "passive"), (2, "RX", "passive"), (3, "GND", "ground")),
    footprint="Connector_PinHeader_2.54mm:PinHeader_1x03_P2.54mm_Vertical", mount="tht",
    section=THT_SECTION, height=8.5, value="UART")

# --- the Pico, on two 1×20 sockets ---------------------------------------------------------
#: Raspberry Pi Pico's pins (its datasheet, "Pinout"), and what the carrier makes of each.
PICO_PINS: dict[int, str] = {
    1: "GP0", 2: "GP1", 3: "GND", 4: "GP2", 5: "GP3", 6: "GP4", 7: "GP5", 8: "GND", 9: "GP6", 10: "GP7",
    11: "GP8", 12: "GP9", 13: "GND", 14: "GP10", 15: "GP11", 16: "GP12", 17: "GP13", 18: "GND",
    19: "GP14", 20: "GP15", 21: "GP16", 22: "GP17", 23: "GND", 24: "GP18", 25: "GP19", 26: "GP20",
    27: "GP21", 28: "GND", 29: "GP22", 30: "RUN", 31: "GP26", 32: "GP27", 33: "AGND", 34: "GP28",
    35: "ADC_VREF", 36: "3V3 OUT", 37: "3V3_EN", 38: "GND", 39: "VSYS", 40: "VBUS",
}
#: The carrier's use of the Pico: the profile's [pico] section (one definition, which the
#: firmware's pin map and the controller read too; hardware/front-end.md).
PICO_GPIOS = load_profile().pico
ADDRESS_GPIOS = (PICO_GPIOS.s0, PICO_GPIOS.s1, PICO_GPIOS.s2, PICO_GPIOS.s3)
TCLK_GPIO, TOKEN_GPIO, RET_GPIO = PICO_GPIOS.tclk, PICO_GPIOS.token, PICO_GPIOS.ret
AOUT_ADC_GPIO, SUPPLY_ADC_GPIO = PICO_GPIOS.aout, PICO_GPIOS.supply
UART_GPIOS = (PICO_GPIOS.uart_tx, PICO_GPIOS.uart_rx)


def _pico_kind(name: str) -> PinKind:
    outputs = {f"GP{n}" for n in (*ADDRESS_GPIOS, TCLK_GPIO, TOKEN_GPIO)}
    if name in outputs:
        return "out"
    if name == f"GP{RET_GPIO}":
        return "in"
    if name in ("GND", "AGND"):
        return "ground"
    if name == "3V3 OUT":
        return "feed"
    return "passive"


def _socket(first: int) -> PartType:
    return PartType(
        "PICO-SOCKET", "Socket strip 1 × 20, 2.54 mm (the Pico plugs in; order the Pico with headers)",
        "Samtec SSW-120-01-T-S", 1.20,
        _pins(*((n - first + 1, PICO_PINS[n], _pico_kind(PICO_PINS[n])) for n in range(first, first + 20))),
        footprint="Connector_PinSocket_2.54mm:PinSocket_1x20_P2.54mm_Vertical", mount="tht",
        section=THT_SECTION, height=8.5, value=f"Pico {first}-{first + 19}")


PICO_LEFT = _socket(1)            # the Pico's pins 1..20, socket pin n = Pico pin n
PICO_RIGHT = _socket(21)          # pins 21..40, socket pin n = Pico pin n + 20
PICO = PartType("PICO", "Raspberry Pi Pico (RP2040) with soldered headers", "Raspberry Pi SC0917 (Pico H)",
                5.00, (), mount="loose", section=THT_SECTION)


def pico_pin(gpio_or_name: int | str) -> tuple[str, int]:
    """(socket reference, socket pin) that carries the Pico's pin named `GPn` or by name."""
    name = f"GP{gpio_or_name}" if isinstance(gpio_or_name, int) else gpio_or_name
    return socket_pin(next(n for n, v in PICO_PINS.items() if v == name))


def socket_pin(number: int) -> tuple[str, int]:
    """(socket reference, socket pin) of the Pico's pin `number` (1..40)."""
    return ("J4", number) if number <= 20 else ("J5", number - 20)

