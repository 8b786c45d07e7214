# bgboard firmware: the pin map of the default sensor board (hardware/profiles/default.toml
# [pico]) and the RP2040's registers the firmware touches. With main.py the only files
# that import `machine`.
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
UART_ID = 0          # the optional UART link to the Pi (hardware/README.md)
UART_TX = 0          # GP0, Pico pin 1, to the Pi's RXD
UART_RX = 1          # GP1, Pico pin 2, from the Pi's TXD
UART_BAUD = 115200   # the profile's link.baudrate, 8N1

# RP2040 datasheet 4.7 (watchdog at 0x40058000): REASON (+0x08) says why the last reset
# came from the watchdog, bit 0 TIMER (it expired) or bit 1 FORCE (software triggered it,
# as machine.reset() does); SCRATCH0..7 (+0x0c..+0x28) keep their values through a
# watchdog reboot, only power-on or the RUN pin clears them. The pico-sdk and the
# bootrom use SCRATCH4..7 (watchdog_reboot, the boot magic); the firmware's marks are in
# SCRATCH0 (its watchdog was running) and SCRATCH1 (maintenance mode asked for).
WATCHDOG_REASON = 0x40058008
REASON_TIMER = 1
WATCHDOG_SCRATCH0 = 0x4005800C
WATCHDOG_SCRATCH1 = 0x40058010
ARMED = 0x62674257        # "bgBW": the firmware's watchdog was running
MAINTENANCE = 0x62674D4D  # "bgMM": the next boot is maintenance mode


def make_spi():
    return machine.SPI(SPI_ID, baudrate=SPI_BAUD, polarity=0, phase=0, bits=8,
                       firstbit=machine.SPI.MSB, sck=machine.Pin(SCK),
                       mosi=machine.Pin(MOSI), miso=machine.Pin(MISO))


def make_load():
    """SH/LD high (shift mode) and CLK INH low; call after make_spi()."""
    inhibit = machine.Pin(CLOCK_INHIBIT, machine.Pin.OUT, value=0)
    return machine.Pin(LOAD, machine.Pin.OUT, value=1), inhibit


def make_uart():
    return machine.UART(UART_ID, baudrate=UART_BAUD, bits=8, parity=None, stop=1,
                        tx=machine.Pin(UART_TX), rx=machine.Pin(UART_RX))


def make_watchdog():
    """Start the 2 s watchdog, marked so that a reboot by it is told from machine.reset()."""
    machine.mem32[WATCHDOG_SCRATCH0] = ARMED
    return machine.WDT(timeout=WATCHDOG_MS)


def make_status_led():
    return machine.Pin(STATUS_LED, machine.Pin.OUT, value=0)


def watchdog_reset():
    """True only when the firmware's watchdog expired. machine.reset() on the rp2 port
    reboots through the watchdog too (reset_cause() reads WDT_RESET after it, from
    `mpremote reset` as well), so the timer bit of REASON and the mark left by
    make_watchdog() and removed by reset() tell the two apart."""
    armed = machine.mem32[WATCHDOG_SCRATCH0] == ARMED
    machine.mem32[WATCHDOG_SCRATCH0] = 0
    expired = machine.mem32[WATCHDOG_REASON] & REASON_TIMER
    return armed and bool(expired) and machine.reset_cause() == machine.WDT_RESET


def reset():
    """A deliberate restart: not reported as the watchdog's."""
    machine.mem32[WATCHDOG_SCRATCH0] = 0
    machine.reset()


def request_maintenance():
    """Restart into maintenance mode (the watchdog cannot be stopped, a restart can)."""
    machine.mem32[WATCHDOG_SCRATCH1] = MAINTENANCE
    reset()


def maintenance_boot():
    """True (and the mark cleared) when the last run asked for maintenance mode."""
    asked = machine.mem32[WATCHDOG_SCRATCH1] == MAINTENANCE
    machine.mem32[WATCHDOG_SCRATCH1] = 0
    return asked
