"""The arm64 smoke suite: run inside the arm64 root that hardware/pi/arm64-check.sh builds,
with the virtual environment install.sh made (no gnubg-nn: it has no aarch64 wheel).

Every check runs a `bgboard` command as a person would and reads its output, not only its
exit code: `moves` against the engine's known list, `replay` against gnubg's own record
of its self-play matches (tests/data/gnubg/expected.json), `analyze` against the gnubg
program's own `analyse match` run here, every computer level, the hint and the tutor
through headless scenario scripts checked by their `#?` lines (the same checker as
tests/test_scenarios.py), `selftest --sim`, `monitor --sim`, `bench --only engine`, the board's page served, and the
Pi backends imported with Blinka forced to a Pi 4 and a Pi 5. One line per check; the exit
status is the number of failed checks (0: all passed).

    python hardware/pi/arm64_smoke.py [MATCH.mat]     (MATCH: a real match for analyze)
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

SRC = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(SRC))

from controller.analysis.gnubg_program import run_gnubg_analysis  # noqa: E402
from controller.analysis.gnubg_statistics import parse_statistics  # noqa: E402
from controller.bot.base import OFFERED_LEVELS  # noqa: E402
from sim.script_checks import check, expectations  # noqa: E402

BGBOARD = str(Path(sys.executable).with_name("bgboard"))
TIMEOUT_S = 1800          # one command under qemu on a loaded machine
START = "4HPwATDgc/ABMA"

#: `bgboard moves 4HPwATDgc/ABMA 31`: every legal 3-1 from the start, as x86-64 prints it.
MOVES_31 = """\
24/23 24/21  4HPwATDgc/ABEg
24/21 8/7    4HPwATDga/ABIg
24/21 6/5    4HPwATDQc/ABIg
24/23 13/10  4HPwATDgc+IBKA
13/10 8/7    4HPwATDga+IBMA
13/10 6/5    4HPwATDQc+IBMA
24/23 8/5    4HPwATDQZ/ABKA
8/7 8/5      4HPwATDQV/ABMA
8/5 6/5      4HPwATCwZ/ABMA
24/23 6/3    4HPwATDEc/ABKA
8/7 6/3      4HPwATDEa/ABMA
6/5 6/3      4HPwATCkc/ABMA
24/20        4HPwATDgc/ABIQ
13/9         4HPwATDgc+EBMA
8/4          4HPwATDIZ/ABMA
6/2          4HPwATDCc/ABMA"""


class Failed(Exception):
    """A check's output was not what it must be (the message says what)."""


def bgboard(*args: str, env: dict[str, str] | None = None) -> str:
    done = subprocess.run([BGBOARD, *args], capture_output=True, text=True, timeout=TIMEOUT_S,
                          env={**os.environ, **(env or {})}, check=False)
    if done.returncode != 0:
        raise Failed(f"bgboard {' '.join(args)} exited {done.returncode}: "
                     f"{(done.stderr or done.stdout).strip()[-600:]}")
    return done.stdout


def _move_lines(text: str) -> set[str]:
    """Each line's move and Position ID (what follows, e.g. an XGID, is another view)."""
    found = set()
    for line in text.splitlines():
        words = line.split()
        ids = [i for i, w in enumerate(words) if len(w) == 14 and "/" not in w[:1] and i > 0]
        if ids:
            found.add(" ".join(words[:ids[0] + 1]))
    return found


def moves() -> str:
    # the engine's list is its own; what is checked is that arm64 prints x86-64's list
    got = _move_lines(bgboard("moves", START, "31"))
    want = _move_lines(MOVES_31)
    if got != want:
        raise Failed(f"moves differ from x86-64's: missing {sorted(want - got)}, extra {sorted(got - want)}")
    return f"{len(got)} moves of 3-1, as on x86-64"


def replay() -> str:
    data = SRC / "tests" / "data" / "gnubg"
    expected = json.loads((data / "expected.json").read_text())
    out = bgboard("replay", *(str(data / name) for name in expected))   # one start-up: qemu is slow
    lines = out.strip().splitlines()
    for name, want in expected.items():
        games = f"{want['games']} game{'s' if want['games'] != 1 else ''}"
        score = f"{want['final'][0]} - root {want['final'][1]}"
        if not any(line.startswith(str(data / name)) and f": ok, {games}, gnubg {score}" in line
                   for line in lines):
            raise Failed(f"replay {name}: gnubg recorded {games}, {score}; bgboard said {out[-600:]!r}")
    return f"{len(expected)} gnubg self-play matches replayed to gnubg's own scores"


def analyze(match: Path) -> Callable[[], str]:
    def run() -> str:
        ours = json.loads(bgboard("analyze", "--json", str(match)).splitlines()[0])
        theirs = parse_statistics(run_gnubg_analysis(match, plies=0))
        for player, g in zip(ours["players"], theirs):
            c = player["checker"]
            if c["unforced"] != g.unforced or player["cube"]["close"] != g.close_cube:
                raise Failed(f"{player['name']}: {c['unforced']} unforced / {player['cube']['close']} "
                             f"close cube, gnubg {g.unforced} / {g.close_cube}")
            for ours_mark, gnubg_mark in ((c["doubtful"], g.doubtful), (c["bad"], g.bad),
                                          (c["very_bad"], g.very_bad)):
                if abs(ours_mark - gnubg_mark) > 1:
                    raise Failed(f"{player['name']}: marks {c}, gnubg {g}")
            if abs(c["error_total_emg"] - g.checker_error) > 0.02 + 0.04 * g.checker_error:
                raise Failed(f"{player['name']}: checker error {c['error_total_emg']}, gnubg {g.checker_error}")
            if abs(player["overall"]["error_rate_memg"] - g.overall_rate) > 1.0:
                raise Failed(f"{player['name']}: error rate {player['overall']['error_rate_memg']}, "
                             f"gnubg {g.overall_rate}")
        prs = ", ".join(f"{p['name']} PR {p['overall']['pr']}" for p in ours["players"])
        return f"{match.name}: {prs}, as gnubg's own analyse match ({ours['weights']})"
    return run


def scenario(text: str, name: str) -> str:
    """Play a scenario script headless and check its `#?` lines; the checks' count."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"{name}.txt"
        path.write_text(text)
        out = bgboard("sim", "--headless", "--script", str(path))
        records = {r["line"]: r for r in map(json.loads, out.splitlines())}
        checks = expectations(path)
    if not checks:
        raise Failed(f"{name} checks nothing")
    for line, items in checks.items():
        if line not in records:
            raise Failed(f"{name}: no record of line {line}")
        for number, expr in items:
            why = check(records[line], expr)
            if why:
                raise Failed(f"{name}:{number}: {why}")
    return f"{sum(map(len, checks.values()))} checks"


def level(name: str) -> Callable[[], str]:
    # Black (the computer) wins the opening 3-1 and plays it; the move's notation is the
    # level's own (noisy levels may choose another), the check is that it played one.
    script = (f"match length=1 opponent={name} seed=7\ndice 1 3\nwhite roll\n"
              "#? match.turn == black\n#? events ~ black (computer) plays\n")
    return lambda: scenario(script, f"level_{name}")


def from_tests(name: str) -> Callable[[], str]:
    path = SRC / "tests" / "scenarios" / f"{name}.txt"
    return lambda: scenario(path.read_text(), name)


def selftest() -> str:
    out = bgboard("selftest", "--sim", "--link-seconds", "3")
    if "selftest: all" not in out or "FAIL" in out:
        raise Failed(out.strip()[-600:])
    return out.strip().splitlines()[-1]


def monitor() -> str:
    out = bgboard("monitor", "--sim", "--seconds", "5", "--json")
    kinds = [json.loads(line)["type"] for line in out.splitlines() if line.startswith("{")]
    if "hello" not in kinds or "reading" not in kinds:
        raise Failed(f"no hello and reading from the virtual board: {out[:300]!r}")
    return f"{len(kinds)} frames: {', '.join(sorted(set(kinds)))}"


def page() -> str:
    """The board's web front end as `bgboard run --page` serves it (the phone's page, the
    spectators', the club door): aiohttp, segno and zeroconf from the Pi's own extra, the
    page answered on loopback, the club door closed to a caller without a hub's key."""
    import urllib.error
    import urllib.request
    with tempfile.TemporaryDirectory() as state:
        proc = subprocess.Popen([BGBOARD, "sim", "--no-browser", "--port", "0", "--state-dir", state],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            address = proc.stdout.readline().strip() if proc.stdout else ""
            if not address.startswith("http://127.0.0.1:"):
                raise Failed(f"bgboard sim printed {address!r}, not its page's address")
            with urllib.request.urlopen(address, timeout=120) as answer:
                if answer.status != 200 or b"<html" not in answer.read(4096).lower():
                    raise Failed(f"the page at {address} answered {answer.status}")
            try:
                urllib.request.urlopen(address + "club/v1/status", timeout=120)
                raise Failed("the club door answered a caller without a hub's key")
            except urllib.error.HTTPError as refused:
                if refused.code != 403:
                    raise Failed(f"the club door answered {refused.code} without a key, not 403") from None
        finally:
            proc.terminate()
            proc.wait(timeout=60)
    subprocess.run([sys.executable, "-c", "import aiohttp, segno, zeroconf"], check=True, timeout=TIMEOUT_S)
    return f"page 200 at {address}, club door 403 without a key; aiohttp, segno, zeroconf import"


def bench() -> str:
    out = json.loads(bgboard("bench", "--only", "engine", "--quick", "--json"))
    engine = out.get("engine", {})
    if not engine or not all(isinstance(v, (int, float)) and v >= 0 for v in engine.values()
                             if not isinstance(v, (str, dict, list))):
        raise Failed(f"bench engine figures: {engine}")
    return f"{len(engine)} engine figures (emulated times: no measure of a Pi's speed)"


#: (board, chip) as Blinka's detection names them, the board's revision code, and the NeoPixel
#: driver of each. BLINKA_FORCEBOARD names the board, but Blinka 10's NeoPixel import asks
#: whether this is a Raspberry Pi by the revision code in /proc/cpuinfo (or the device tree),
#: which only a real Pi has: the check gives Blinka the forced board's own code (a Pi 4 B
#: 4 GB, c03111; a Pi 5 4 GB, d04170), so everything after it is Blinka's real choice.
PI_BOARDS = (("RASPBERRY_PI_4B", "BCM2XXX", "c03111", "_rpi_ws281x"),
             ("RASPBERRY_PI_5", "BCM2XXX", "d04170", "adafruit_raspberry_pi5_neopixel_write"))


def pi_backend(board: str, chip: str, revision: str, driver: str) -> Callable[[], str]:
    code = ("from adafruit_blinka.agnostic import detector\n"
            "cpuinfo = detector.get_cpuinfo_field\n"
            f"detector.get_cpuinfo_field = lambda field: {revision!r} if field == 'Revision' else cpuinfo(field)\n"
            "import board, neopixel, gpiozero, luma.oled.device, lgpio, importlib, importlib.util\n"
            f"importlib.import_module({driver!r})\n"
            "from gpiozero.pins.lgpio import LGPIOFactory\n"
            # rpi-lgpio's RPi.GPIO reads the device tree's revision as it is imported and
            # refuses anything but a Pi: off a Pi only its presence can be checked
            "assert importlib.util.find_spec('RPi.GPIO') and importlib.util.find_spec('gpiozero.pins.rpigpio')\n"
            "import controller.show.leds, controller.inputs.buttons, controller.show.display_backends\n"
            "print(board.D10, board.board_id)\n")

    def run() -> str:
        env = {**os.environ, "BLINKA_FORCEBOARD": board, "BLINKA_FORCECHIP": chip}
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              timeout=TIMEOUT_S, env=env, cwd=SRC, check=False)
        if done.returncode != 0 or board.lower() not in done.stdout.lower():
            raise Failed((done.stderr or done.stdout).strip()[-600:])
        return f"board, neopixel ({driver}), gpiozero's factories, luma.oled: {done.stdout.strip()}"
    return run


def main(argv: list[str]) -> int:
    match = Path(argv[0]) if argv else SRC / "tests" / "data" / "gnubg" / "selfplay_7pt_seed14.mat"
    checks: list[tuple[str, Callable[[], str]]] = [
        ("moves", moves),
        ("replay", replay),
        ("analyze", analyze(match)),
        *((f"level {name}", level(name)) for name in OFFERED_LEVELS),
        ("hint", from_tests("hint")),
        ("tutor", from_tests("tutor_double")),
        ("computer opponent scenario", from_tests("computer_opponent")),
        ("selftest --sim", selftest),
        ("monitor --sim", monitor),
        ("bench --only engine", bench),
        ("the board's page", page),
        *((f"Pi backends as {b}", pi_backend(b, c, r, d)) for b, c, r, d in PI_BOARDS),
    ]
    failed = 0
    for name, run in checks:
        started = time.monotonic()
        try:
            said = run()
        except (Failed, subprocess.TimeoutExpired, ValueError, KeyError) as error:
            failed += 1
            print(f"arm64 smoke: FAIL {name}: {error}", flush=True)
            continue
        print(f"arm64 smoke: ok {name} ({time.monotonic() - started:.0f}s): {said}", flush=True)
    print(f"arm64 smoke: {len(checks) - failed} passed, {failed} failed", flush=True)
    return min(failed, 100)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
