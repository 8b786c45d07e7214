# bgboard firmware: the entry point on the Pico. Wires the real pins, clock, the link to
# the host (USB serial, or the UART when the Pico's flash holds link.cfg saying "uart")
# and the watchdog into board.Board and runs its loop forever.
import os
import select
import sys
import time

import micropython
import pins
from board import Board
from calstore import Store
from chain import Chain, module_sizes
from link import Link

ROWS = 14
COLS = 13
LINK_FILE = "link.cfg"       # "uart": GP0/GP1 at 115200 8N1; absent or "usb": USB serial


def maintenance_requested():
    """BOOTSEL pressed while running: restart into maintenance mode."""
    try:
        import rp2
        return rp2.bootsel_button() == 1
    except (ImportError, AttributeError):
        return False


def link_choice():
    """The transport the maker chose: "uart" or "usb" (the default)."""
    try:
        with open(LINK_FILE) as fh:
            word = fh.read().strip().lower()
    except OSError:
        return "usb"
    return "uart" if word == "uart" else "usb"


def _poller(stream, event):
    p = select.poll()
    p.register(stream, event)
    return p


def open_link():
    if link_choice() == "uart":
        uart = pins.make_uart()
        return Link(uart, uart, _poller(uart, select.POLLIN), _poller(uart, select.POLLOUT))
    return Link(sys.stdin.buffer, sys.stdout.buffer,
                _poller(sys.stdin, select.POLLIN), _poller(sys.stdout, select.POLLOUT))


def run():
    micropython.kbd_intr(-1)          # binary frames on the USB console: no Ctrl-C
    link = open_link()
    sensors = Chain(pins.Front(), module_sizes(ROWS * COLS))
    store = Store(open, os.rename, os.remove)   # cal.bin on the Pico's flash
    led = pins.make_status_led()
    reset_by_watchdog = pins.watchdog_reset()
    wdt = pins.make_watchdog()
    board = Board(sensors, link.write, time.ticks_ms, time.ticks_diff, ROWS, COLS,
                  feed=wdt.feed, watchdog_reset=reset_by_watchdog, store=store)
    board.boot()
    loops = 0
    while True:
        loops += 1
        if loops % 100 == 0 and maintenance_requested():
            pins.request_maintenance()
        got = link.read()
        if got:
            board.receive(got)
        board.step()
        led.value((time.ticks_ms() >> 9) & 1)  # blinks at 1 Hz while the loop runs
        time.sleep_ms(1)


if pins.maintenance_boot():
    pins.watchdog_reset()             # clears the mark: `mpremote reset` is no watchdog's
    print("bgboard: maintenance mode, no scanning and no watchdog; `mpremote reset` to run")
else:
    run()
