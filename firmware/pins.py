# bgboard firmware: the pin map of the default sensor board (hardware/profiles/default.toml
# [pico]) and the RP2040's registers the firmware touches. With main.py the only files
# that import `machine`.
import sys

import machine

if sys.platform == "rp2":   # the scan's read loop as machine code (the suite's fakes: bytecode)
    import fastfront
else:
    fastfront = None

# The sensor chain (hardware/front-end.md "The carrier"): GP2..GP5 the multiplexers'
# S0..S3, one masked write sets them; GP6 TCLK, GP7 TOKEN, GP8 RET (100 kOhm to GND);
# ADC0 (GP26) the analogue bus AOUT, ADC1 (GP27) the sensors' 5 V through 10k/10k.
S0 = 2
S1 = 3
S2 = 4
S3 = 5
TCLK = 6
TOKEN = 7
RET = 8
AOUT = 26            # ADC0
SUPPLY = 27          # ADC1
SUPPLY_DIVIDER = 2
ADC_REF_MV = 3300
STATUS_LED = 25
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


# RP2040 datasheet 2.3.1.7 (SIO at 0xd0000000): GPIO_OUT_XOR, so that one write changes
# S0..S3 together and nothing else.
SIO_GPIO_OUT_XOR = 0xD000001C


#: the XOR that takes the address from channel k - 1 to k, already shifted to S0..S3
_STEP = tuple(((k - 1) ^ k) << S0 if k else 0 for k in range(16))


class Front:
    """The chain's primitives on the Pico (firmware/chain.py describes them).

    The address is written through the SIO's XOR register (one write changes S0..S3
    together and nothing else), from the address this object last set (`channel`), so
    the hot loop never reads GPIO_OUT. After a switch the bus settles through 1.1 kOhm
    into 1 nF (tau 1.2 us): the bytecode below throws one conversion away (2 us, and a
    Python call or two more), the Pico's viper loop fastfront.SETTLE of them (8 us, with
    nothing else between), then one is kept: the sensor's noise is averaged over scans
    (levels.py), not over conversions microseconds apart."""

    def __init__(self):
        for gp in (S0, S1, S2, S3):
            machine.Pin(gp, machine.Pin.OUT, value=0)
        self.channel = 0
        self.tclk = machine.Pin(TCLK, machine.Pin.OUT, value=0)
        self.token = machine.Pin(TOKEN, machine.Pin.OUT, value=0)
        self.ret = machine.Pin(RET, machine.Pin.IN)
        self.aout = machine.ADC(AOUT)
        self.vsup = machine.ADC(SUPPLY)
        self.read_aout = self.aout.read_u16   # bound once: a scan allocates nothing

    def address(self, channel):
        machine.mem32[SIO_GPIO_OUT_XOR] = ((self.channel ^ channel) & 15) << S0
        self.channel = channel & 15

    def clock(self, token):
        self.token.value(token)
        self.tclk.value(1)
        self.tclk.value(0)
        return self.ret.value()

    def level(self):
        read = self.read_aout
        read()                       # the first conversion after a switch: settling
        return read() * ADC_REF_MV // 65535

    def supply(self):
        return self.vsup.read_u16() * ADC_REF_MV * SUPPLY_DIVIDER // 65535

    def read_module(self, count, out, at):
        """The hot loop: a module's channels 0..count-1, addressed and read, one call
        (on the Pico in viper code: fastfront.py; the bytecode below is the same)."""
        if fastfront is not None:
            self.channel = fastfront.read_module(count, out, at, self.channel, S0,
                                                 SIO_GPIO_OUT_XOR, fastfront.ADC_BASE)
            return
        mem = machine.mem32
        read = self.read_aout
        step = _STEP
        self.address(0)
        for k in range(count):
            if k:
                mem[SIO_GPIO_OUT_XOR] = step[k]
            read()
            out[at + k] = read() * ADC_REF_MV // 65535
        self.channel = count - 1 if count else self.channel


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
