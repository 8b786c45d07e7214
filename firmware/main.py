# bgboard firmware: the entry point on the Pico. Wires the real pins, clock, USB serial
# and watchdog into board.Board and runs its loop forever.
import os
import select
import sys
import time

import micropython
import pins
from board import Board
from scan import Scanner

ROWS = 14
COLS = 13


MAINTENANCE_FLAG = "maintenance"


def maintenance_requested():
    """BOOTSEL pressed while running: restart into maintenance mode."""
    try:
        import rp2
        return rp2.bootsel_button() == 1
    except (ImportError, AttributeError):
        return False


def run():
    micropython.kbd_intr(-1)          # binary frames on the USB console: no Ctrl-C
    out = sys.stdout.buffer
    inp = sys.stdin.buffer
    poll = select.poll()
    poll.register(sys.stdin, select.POLLIN)
    spi = pins.make_spi()
    load, _inhibit = pins.make_load()
    scanner = Scanner(spi, load, ROWS * COLS)
    led = pins.make_status_led()
    reset_by_watchdog = pins.watchdog_reset()
    wdt = pins.make_watchdog()
    board = Board(scanner, out.write, time.ticks_ms, time.ticks_diff, ROWS, COLS,
                  feed=wdt.feed, watchdog_reset=reset_by_watchdog)
    board.boot()
    loops = 0
    while True:
        loops += 1
        if loops % 100 == 0 and maintenance_requested():
            # the watchdog cannot be stopped: leave a flag and restart without it
            with open(MAINTENANCE_FLAG, "w") as fh:
                fh.write("1")
            pins.reset()
        got = bytearray()
        while len(got) < 64 and poll.poll(0):
            byte = inp.read(1)
            if not byte:
                break
            got.extend(byte)
        if got:
            board.receive(got)
        board.step()
        led.value((time.ticks_ms() >> 9) & 1)  # blinks at 1 Hz while the loop runs
        time.sleep_ms(1)


def maintenance_boot():
    """True (and the flag cleared) when the last run asked for maintenance mode."""
    try:
        os.stat(MAINTENANCE_FLAG)
    except OSError:
        return False
    os.remove(MAINTENANCE_FLAG)
    return True


if maintenance_boot():
    print("bgboard: maintenance mode, no scanning and no watchdog; `mpremote reset` to run")
else:
    run()
