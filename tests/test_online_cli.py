"""`bgboard online`'s failures: one clear line each, exit 1 (2 for a usage mistake).

The protocol double runs on its own event loop in a thread; the command runs as a user
runs it (`bgboard.cli.main`), against it over loopback TCP.
"""
from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from bgboard.cli import main
from controller.bgammon import commands
from controller.online.client import Connection
from tests.online_double import BgammonDouble, until
from tests.test_online_client import address, free_port


@pytest.fixture
def double() -> Iterator[BgammonDouble]:
    loop = asyncio.new_event_loop()
    server = BgammonDouble(free_port())
    ready = threading.Event()

    def serve() -> None:
        asyncio.set_event_loop(loop)
        loop.run_until_complete(server.__aenter__())
        ready.set()
        loop.run_forever()
        loop.run_until_complete(server.__aexit__())

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    ready.wait(5)
    server.loop = loop  # type: ignore[attr-defined]
    yield server
    loop.call_soon_threadsafe(loop.stop)
    thread.join(5)


def _online(double: BgammonDouble, tmp: Path, *args: str) -> list[str]:
    return ["online", "--server", str(address(double)), "--headless", "--state-dir", str(tmp),
            "--seconds", "20", *args]


def _one_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert "Traceback" not in err[0]
    return err[0]


def test_an_unreachable_server(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    port = free_port()
    code = main(["online", "--server", f"127.0.0.1:{port}", "--headless", "--create", "public",
                 "--state-dir", str(tmp_path)])
    assert code == 1
    assert _one_line(capsys) == f"bgboard online: cannot reach 127.0.0.1:{port}: Connection refused"


def test_a_refused_log_in(double: BgammonDouble, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    double.accounts["carol"] = "right"
    secret = tmp_path / "password"
    secret.write_text("wrong\n")
    code = main(_online(double, tmp_path, "--user", "carol", "--password-file", str(secret), "--create", "public"))
    assert code == 1
    assert "refused the log-in: No account was found" in _one_line(capsys)
    # the password went to the server in the log-in line only, never on a command line
    assert "wrong" not in " ".join(_online(double, tmp_path))


def test_a_user_without_a_password_file_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["online", "--headless", "--user", "carol", "--create", "public", "--config",
                 str(_empty_config(tmp_path))])
    assert code == 2
    assert "needs its password in a file" in _one_line(capsys)


def _empty_config(tmp: Path) -> Path:
    path = tmp / "config.toml"
    path.write_text("")
    return path


def test_an_unknown_match(double: BgammonDouble, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(_online(double, tmp_path, "--join", "42"))
    assert code == 1
    assert _one_line(capsys).endswith("cannot join match 42 on " f"{address(double)}: Match not found.")


def test_a_full_match(double: BgammonDouble, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    async def two_players() -> list[Connection]:
        seated = []
        for name, line in (("p1", commands.create(None, 1)), ("p2", commands.join("1"))):
            c = await Connection.open(address(double))
            await c.login(name)
            await c.send(line)
            seated.append(c)
        await until("both seats taken", lambda: bool(double.games) and all(double.games[0].clients[n] is not None for n in (1, 2)))
        return seated

    loop = double.loop  # type: ignore[attr-defined]
    asyncio.run_coroutine_threadsafe(two_players(), loop).result(5)
    code = main(_online(double, tmp_path, "--join", "1"))
    assert code == 1
    assert "it is full (two players already)" in _one_line(capsys)


def _host_a_match(double: BgammonDouble) -> None:
    """A player named host creates a 3-point match on the double and waits in it."""
    async def host() -> Connection:
        c = await Connection.open(address(double))
        await c.login("host")
        await c.send(commands.create(None, 3))
        await until("the match created", lambda: bool(double.games))
        return c

    asyncio.run_coroutine_threadsafe(host(), double.loop).result(5)  # type: ignore[attr-defined]


def test_a_malformed_server_line_ends_with_one_line_and_keeps_the_saved_match(
        double: BgammonDouble, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _host_a_match(double)
    double.after_join = "<html>502 Bad Gateway</html>"
    code = main(_online(double, tmp_path, "--join", "Guest_host"))
    assert code == 1
    assert _one_line(capsys) == "bgboard online: server sent a line that is not JSON: '<html>502 Bad Gateway</html>'"
    # which server match this was is kept: a restart resumes it
    assert (tmp_path / "online.json").exists()


@pytest.mark.parametrize("fields, why", [
    ({"Turn": 1, "Roll1": 6, "Roll2": 0}, "board event whose Roll1 and Roll2"),
    ({"Turn": 2, "Roll1": 0, "Roll2": 4}, "board event whose Roll1 and Roll2"),
    ({"Board": [0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 1, 0, 0, 0]},
     "board event whose Board"),
    ({"DoubleValue": 3}, "board event whose DoubleValue"),
])
def test_a_board_the_rules_cannot_hold_ends_with_one_line(
        double: BgammonDouble, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        fields: dict[str, object], why: str) -> None:
    """Issue 22.13: a die of 0 in a turn (the real server's own board once) reached the rules
    engine and `bgboard online` ended in a 50-line traceback. Every field is checked where the
    line is read: one line, and the table is never given the board."""
    _host_a_match(double)
    double.board_fields = fields
    code = main(_online(double, tmp_path, "--join", "Guest_host"))
    assert code == 1
    line = _one_line(capsys)
    assert line.startswith("bgboard online: server sent a ") and why in line, line
