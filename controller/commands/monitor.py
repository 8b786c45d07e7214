"""`bgboard monitor`: print every frame the sensor board sends, live.

    bgboard monitor [--port P] [--profile F] [--raw] [--json] [--seconds S] [--sim]

Without `--raw` each SCAN is shown as the cells' counts (the reading); with `--raw`
the frames as they are. `--json` prints one JSON object a line; status changes of the
link go to stderr so stdout stays parseable. At exit (after S seconds, or on Ctrl-C)
one last line: {"type": "stats", "frames": n, "crc_errors": n, "framing_errors": n,
"lost": n}. `--sim` starts a virtual board in this process (opening position set up),
so the command works without hardware.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import sys
from dataclasses import dataclass, field
from typing import Any, TextIO

from controller.commands.numbers import seconds
from controller.errors import UsageError

HELP = "print what the sensor board reports, live (--sim: a virtual board)"

#: the opening position on the virtual board: cell -> (white, black)
OPENING: dict[str, tuple[int, int]] = {"24": (2, 0), "13": (5, 0), "8": (3, 0), "6": (5, 0),
                                       "1": (0, 2), "12": (0, 5), "17": (0, 3), "19": (0, 5)}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", metavar="P",
                        help="serial device (default: the first Raspberry Pi Pico found)")
    parser.add_argument("--profile", metavar="F", help="hardware profile (default: the default board)")
    parser.add_argument("--raw", action="store_true", help="the frames themselves, not cell counts")
    parser.add_argument("--json", action="store_true", help="one JSON object a line")
    parser.add_argument("--seconds", metavar="S", type=seconds(zero=True),
                        help="stop after S seconds (default: until Ctrl-C)")
    parser.add_argument("--sim", action="store_true",
                        help="start a virtual board in-process (no hardware needed)")


@dataclass
class _Session:
    """What the monitor holds while running, so the stats line survives Ctrl-C."""

    link: Any = None
    board: Any = None
    rows_cols: tuple[int, int] = (0, 0)
    extras: dict[str, Any] = field(default_factory=dict)


def find_pico_port() -> str | None:
    """The first USB serial device with the Raspberry Pi vendor id (RP2040 MicroPython)."""
    from serial.tools import list_ports

    for p in list_ports.comports():
        if p.vid == 0x2E8A:
            return str(p.device)
    return None


def run(args: argparse.Namespace) -> int:
    if args.sim and args.port:
        raise UsageError("--sim and --port exclude each other")
    from controller.board.profile import load_profile

    profile = load_profile(args.profile)
    session = _Session(rows_cols=(profile.sensors.rows, profile.sensors.cols))
    out = sys.stdout
    try:
        asyncio.run(_monitor(args, profile, session, out))
    except KeyboardInterrupt:
        pass
    finally:
        if session.link is not None:
            session.link.close()
            if not session.extras.get("reader_gone"):
                stats = {"type": "stats", **session.link.stats.as_dict()}
                out.write(json.dumps(stats) + "\n")
                out.flush()
        if session.board is not None:
            session.board.close()
    return 0


async def _monitor(args: argparse.Namespace, profile: Any, session: _Session, out: TextIO) -> None:
    from controller.link.codec import Hello
    from controller.link.serial_link import BoardLink
    from controller.link.session import check_hello

    port = args.port
    if args.sim:
        from sim.virtual_board import VirtualBoard

        vb = VirtualBoard(profile)
        session.board = vb
        for cell, (w, b) in OPENING.items():
            vb.set_cell(cell, w, b)
        vb.start()
        port = vb.port
        _status_line(f"virtual board on {port}")
    elif port is None:
        port = find_pico_port()
        if port is None:
            raise UsageError("no --port given and no Raspberry Pi Pico found; "
                             "try --port /dev/ttyACM0, or --sim for a virtual board")

    stop = asyncio.Event()

    def on_frame(message: Any) -> None:
        if isinstance(message, Hello) and (problem := check_hello(message, profile)):
            _status_line(f"board mismatch: {problem}")  # what `bgboard run` would refuse
        line = format_message(message, profile, session, raw=args.raw, as_json=args.json)
        if line is not None and not stop.is_set():
            try:
                out.write(line + "\n")
                out.flush()
            except BrokenPipeError:  # `bgboard monitor | head`: the reader has gone
                session.extras["reader_gone"] = True
                stop.set()

    def on_status(status: Any) -> None:
        _status_line(f"link {status.state.value}" + (f": {status.detail}" if status.detail else ""))

    link = BoardLink(port, on_frame=on_frame, on_status=on_status,
                     baudrate=profile.link.baudrate,
                     offline_after=profile.link.offline_after_ms / 1000)
    await link.start()
    session.link = link
    try:
        await asyncio.wait_for(stop.wait(), args.seconds)
    except asyncio.TimeoutError:
        pass


def _status_line(text: str) -> None:
    sys.stderr.write(f"bgboard monitor: {text}\n")
    sys.stderr.flush()


def format_message(message: Any, profile: Any, session: _Session, *, raw: bool,
                   as_json: bool) -> str | None:
    """One output line for a message (None: nothing to print)."""
    from controller.board.reading import Reading
    from controller.link.codec import BoardError, Hello, Pong, Scan

    if isinstance(message, Hello):
        session.rows_cols = (message.rows, message.cols)
        obj: dict[str, Any] = {"type": "hello", "seq": message.seq, "version": message.version,
                               "rows": message.rows, "cols": message.cols,
                               "firmware": message.firmware}
        text = (f"hello seq={message.seq} protocol={message.version} "
                f"matrix={message.rows}x{message.cols} firmware={message.firmware!r}")
    elif isinstance(message, Scan):
        rows, cols = session.rows_cols
        count = min(rows * cols, 4 * len(message.packed))
        sensors = message.sensors(count)
        if raw:
            obj = {"type": "scan", "seq": message.seq, "sensors": list(sensors)}
            text = f"scan seq={message.seq} " + "".join(".wbX"[v] for v in sensors)
        else:
            if count < profile.sensors.count:
                return None  # a board with a smaller matrix than the profile: cannot map
            reading = Reading.from_sensors(sensors, profile)
            obj = {"type": "reading", "seq": message.seq, **reading.as_json()}
            text = f"reading seq={message.seq} {reading}"
    elif isinstance(message, Pong):
        obj = {"type": "pong", "seq": message.seq, "payload": message.payload.hex()}
        text = f"pong seq={message.seq} payload={message.payload.hex()}"
    elif isinstance(message, BoardError):
        obj = {"type": "error", "seq": message.seq, "code": message.code, "text": message.text}
        text = f"error seq={message.seq} code={message.code} {message.text}"
    else:
        return None
    return json.dumps(obj) if as_json else text
