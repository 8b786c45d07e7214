# bgboard firmware: the pin map of the default sensor board (hardware/profiles/default.toml
# [pico]). With main.py the only files that import `machine`.
import machine

SPI_ID = 0
SCK = 18
MISO = 16
MOSI = 7             # SPI0 TX: unused by the chain, left unconnected (not GP19, CLK INH)
LOAD = 17            # SH/LD of every 74HC165, active low
CLOCK_INHIBIT = 19   # CLK INH, held low
STATUS_LED = 25
SPI_BAUD = 1000000
WATCHDOG_MS = 2000


def make_spi():
    return machine.SPI(SPI_ID, baudrate=SPI_BAUD, polarity=0, phase=0, bits=8,
                       firstbit=machine.SPI.MSB, sck=machine.Pin(SCK),
                       mosi=machine.Pin(MOSI), miso=machine.Pin(MISO))


def make_load():
    """SH/LD high (shift mode) and CLK INH low; call after make_spi()."""
    inhibit = machine.Pin(CLOCK_INHIBIT, machine.Pin.OUT, value=0)
    return machine.Pin(LOAD, machine.Pin.OUT, value=1), inhibit


def make_watchdog():
    return machine.WDT(timeout=WATCHDOG_MS)


def make_status_led():
    return machine.Pin(STATUS_LED, machine.Pin.OUT, value=0)


def watchdog_reset():
    return machine.reset_cause() == machine.WDT_RESET


def reset():
    machine.reset()
