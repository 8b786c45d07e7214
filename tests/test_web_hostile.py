"""The simulator's web server against hostile input, over real TCP on loopback: a page of
another origin, a foreign Host (DNS rebinding), a server bound off loopback without its
token, a flood of messages, messages with the wrong types, a tab closing mid-answer."""
from __future__ import annotations

import asyncio
import base64
import json
import logging
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import aiohttp
import pytest

from browser_support import wait_until
from sim.page.harness import ServerThread, fast_profile
from sim.page.live import check_dialog
from controller.web.protocol import BadMessage, parse_message
from browser_support import queue_roll

REPO = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.timeout(120)


@pytest.fixture()
def sim(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ServerThread]:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    (tmp_path / "state").mkdir()
    server = ServerThread(state_dir=tmp_path / "state", settings_file=tmp_path / "config" / "sim.json",
                          profile=fast_profile(tmp_path), seed=5)
    with server:
        yield server


def _port(url: str) -> int:
    port = urlsplit(url).port
    assert port is not None
    return port


def raw_request(port: int, lines: list[str], host: str = "127.0.0.1") -> str:
    """Send one HTTP request as raw lines over TCP; the status line and headers answered."""
    with socket.create_connection((host, port), timeout=5) as conn:
        conn.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = conn.recv(4096)
            if not chunk:
                break
            answer += chunk
    return answer.decode("latin-1")


def handshake(port: int, origin: str | None, host: str | None = None) -> str:
    key = base64.b64encode(os.urandom(16)).decode()
    lines = ["GET /ws HTTP/1.1", f"Host: {host or f'127.0.0.1:{port}'}", "Upgrade: websocket",
             "Connection: Upgrade", f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13"]
    if origin is not None:
        lines.append(f"Origin: {origin}")
    return raw_request(port, lines).split("\r\n", 1)[0]


def match_key(server: ServerThread) -> tuple[Any, ...]:
    return server.inspect(lambda live: (live.table.controller.status().match, live.vb.sensors()))  # type: ignore[union-attr]


def test_a_websocket_from_another_origin_is_refused_at_the_handshake(sim: ServerThread) -> None:
    port = _port(sim.url)
    assert " 403 " in handshake(port, "http://evil.example")
    assert " 403 " in handshake(port, f"http://evil.example:{port}")
    assert " 403 " in handshake(port, "null")
    assert " 403 " in handshake(port, f"https://127.0.0.1:{port}")
    # the page's own origin (under each loopback name it is served as) is let in
    assert " 101 " in handshake(port, f"http://127.0.0.1:{port}")
    assert " 101 " in handshake(port, f"http://localhost:{port}", host=f"localhost:{port}")
    assert " 101 " in handshake(port, f"http://[::1]:{port}", host=f"[::1]:{port}")
    # an origin that is one of ours but not the page's own Host is still a different page
    assert " 403 " in handshake(port, f"http://localhost:{port}")


def test_a_foreign_host_is_refused_on_every_path(sim: ServerThread) -> None:
    port = _port(sim.url)
    for path in ("/", "/match.mat", "/display.png", "/review.json", "/static/app.js", "/ws"):
        for host in ("evil.example", f"evil.example:{port}", f"127.0.0.1:{port + 1}", "127.0.0.1",
                     f"localhost.evil.example:{port}", ""):
            status = raw_request(port, [f"GET {path} HTTP/1.1", f"Host: {host}"]).split("\r\n", 1)[0]
            assert " 403 " in status, (path, host, status)
        for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}", f"LOCALHOST:{port}"):
            status = raw_request(port, [f"GET {path} HTTP/1.1", f"Host: {host}"]).split("\r\n", 1)[0]
            assert " 403 " not in status, (path, host, status)


def test_a_cross_site_post_is_refused(sim: ServerThread) -> None:
    port = _port(sim.url)
    for origin in (None, "http://evil.example"):
        lines = ["POST /ws HTTP/1.1", f"Host: 127.0.0.1:{port}", "Content-Length: 0"]
        if origin:
            lines.append(f"Origin: {origin}")
        assert " 403 " in raw_request(port, lines).split("\r\n", 1)[0]


def test_off_loopback_every_request_needs_the_printed_token(tmp_path: Path) -> None:
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "cfg"), XDG_STATE_HOME=str(tmp_path / "st"))
    proc = subprocess.Popen([sys.executable, "-m", "bgboard.cli", "sim", "--no-browser", "--host", "0.0.0.0",
                             "--port", "0", "--state-dir", str(tmp_path / "state")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stdout is not None and proc.stderr is not None
        url = proc.stdout.readline().strip()
        warning = proc.stderr.readline()
        assert "warning" in warning and "0.0.0.0" in warning and "token" in warning
        parts = urlsplit(url)
        assert parts.query.startswith("token=") and len(parts.query) > 20, url
        port = _port(url)
        token = parts.query.split("=", 1)[1]
        host = f"127.0.0.1:{port}"
        for path in ("/", "/match.mat", "/display.png", "/review.json", "/ws", f"/?token={token[:-1]}{'y' if token.endswith('x') else 'x'}"):
            status = raw_request(port, [f"GET {path} HTTP/1.1", f"Host: {host}"]).split("\r\n", 1)[0]
            assert " 403 " in status, (path, status)
        answer = raw_request(port, [f"GET /?token={token} HTTP/1.1", f"Host: {host}"])
        # issue 23 item 9: the token is exchanged for the cookie and leaves the address bar
        assert " 303 " in answer.split("\r\n", 1)[0] and "bgboard_token=" in answer
        assert "\r\nLocation: /\r\n" in answer
        # issue 35.6: Lax, so a link followed from a chat or a mail keeps the cookie through
        # the redirect (Strict dropped it there: 403); kept until the link is replaced
        assert "HttpOnly" in answer and "SameSite=Lax" in answer and "Max-Age=34560000" in answer
        # then the page's own requests carry the cookie
        cookie = f"Cookie: bgboard_token={token}"
        for path in ("/match.mat", "/display.png", "/review.json"):
            status = raw_request(port, [f"GET {path} HTTP/1.1", f"Host: {host}", cookie]).split("\r\n", 1)[0]
            assert " 200 " in status, (path, status)

        async def ws() -> str:
            async with aiohttp.ClientSession(cookies={"bgboard_token": token}) as session, \
                    session.ws_connect(f"http://{host}/ws", origin=f"http://{host}") as sock:
                return str(json.loads((await sock.receive(timeout=5)).data)["type"])
        assert asyncio.run(ws()) == "state"
    finally:
        proc.terminate()
        proc.wait(10)


def test_wrong_types_get_one_short_line_and_the_socket_lives_on(sim: ServerThread) -> None:
    before = match_key(sim)
    hostile = ['{"type": "lift", "cell": ["13"]}', '{"type": "lift", "cell": {"a": 1}}',
               '{"type": "button", "name": ["white_main"]}', '{"type": "fault", "name": {}}',
               '{"type": "new_match", "settings": {"length": Infinity}}',
               '{"type": "new_match", "settings": {"length": 1e400}}',
               '{"type": "new_match", "settings": {"length": [5]}}',
               '{"type": "new_match", "settings": {"length": true}}',
               '{"type": "new_match", "settings": {"cube": ["on"]}}',
               '{"type": "command", "name": "' + "white " * 9000 + '"}',
               '{"type": "lift", "cell": "' + "x" * 60000 + '"}',
               "[" * 30000 + "]" * 30000]

    async def body() -> list[str]:
        async with aiohttp.ClientSession() as session, session.ws_connect(sim.url + "ws") as sock:
            notices = []
            for raw in hostile:
                await sock.send_str(raw)
                while True:
                    msg = await sock.receive(timeout=5)
                    assert msg.type == aiohttp.WSMsgType.TEXT, msg
                    data = json.loads(msg.data)
                    if data["type"] == "notice":
                        notices.append(data["text"])
                        break
            return notices

    notices = asyncio.run(body())
    assert len(notices) == len(hostile)
    for text in notices:
        assert len(text) <= 240 and "\n" not in text and "Traceback" not in text, text[:300]
    assert "not a place" in notices[0] and "not JSON" in notices[4] and "not a number" in notices[5]
    assert "not JSON" in notices[-1]
    assert match_key(sim) == before


def test_parse_message_names_bad_values_briefly() -> None:
    for bad in ['{"type": "lift", "cell": ["1"]}', '{"type": "lift", "cell": 1, "colour": [1]}',
                '{"type": "button", "name": {"x": 1}}', '{"type": "lift", "cell": NaN}']:
        with pytest.raises(BadMessage):
            parse_message(bad)
    with pytest.raises(BadMessage) as info:
        parse_message('{"type": "' + "q" * 5000 + '"}')
    assert len(str(info.value)) < 100


def test_a_damaged_dialog_file_never_stops_the_start() -> None:
    for bad in ([], None, float("inf"), 1e400, "x", {"length": float("inf")}, {"length": [3]}):
        with pytest.raises(ValueError):
            check_dialog(bad)  # type: ignore[arg-type]


def test_a_flood_of_messages_does_not_stall_http(sim: ServerThread) -> None:
    """10,000 messages as fast as one socket can send them; the page and its images are
    still answered at once meanwhile, and the flood changes nothing."""
    before = match_key(sim)

    async def fetch_ten(session: aiohttp.ClientSession) -> tuple[float, int]:
        """The display's image fetched ten times: the slowest answer, and how many came."""
        worst = 0.0
        fetched = 0
        for _ in range(10):
            start = time.monotonic()
            async with session.get(sim.url + "display.png") as resp:
                assert resp.status == 200
                await resp.read()
            worst = max(worst, time.monotonic() - start)
            fetched += 1
            await asyncio.sleep(0.05)
        return worst, fetched

    async def body() -> tuple[float, float, int, str]:
        async with aiohttp.ClientSession() as session, session.ws_connect(sim.url + "ws") as sock:
            calm, _ = await fetch_ten(session)  # this machine's pace now, without the flood

            async def flood() -> None:
                for _ in range(10_000):
                    await sock.send_str('{"type": "setup"}')
            flooding = asyncio.create_task(flood())
            await asyncio.sleep(0.3)
            worst, fetched = await fetch_ten(session)
            await flooding
            told = ""
            while not told.startswith("ignored") or "messages" not in told:
                data = json.loads((await sock.receive(timeout=5)).data)
                told = data.get("text", "")
            return calm, worst, fetched, told

    calm, worst, fetched, told = asyncio.run(body())
    # at once: within two seconds, or (on a machine loaded by other jobs, where the calm
    # answers are slow too: 9 s was seen) within a few times the calm pace; beside four
    # test workers 0.75 s was seen with a calm 0.01 s
    assert fetched == 10 and worst < max(2.0, 5 * calm), (worst, calm)
    assert "more than 100 a second" in told
    assert match_key(sim) == before


def test_a_tab_closing_mid_answer_is_quiet(sim: ServerThread, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)

    async def body() -> None:
        for _ in range(20):
            async with aiohttp.ClientSession() as session:
                sock = await session.ws_connect(sim.url + "ws")
                for raw in ('{"type": "setup"}', '{"type": "lift", "cell": "bar"}', "junk"):
                    await sock.send_str(raw)
                sock._response.connection.transport.abort()  # type: ignore[union-attr]  # gone at once
        await asyncio.sleep(0.5)

    asyncio.run(body())
    assert sim.call(lambda: True)  # still serving
    problems = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert not problems, [r.getMessage() for r in problems]


@pytest.mark.parametrize("text", ["[]", "null", "1e400", '{"length": 1e400}', "[" * 100_000])
def test_a_damaged_dialog_file_is_ignored_with_one_line(tmp_path: Path, text: str,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    settings = tmp_path / "config" / "sim.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(text)
    (tmp_path / "state").mkdir()
    with ServerThread(state_dir=tmp_path / "state", settings_file=settings,
                      profile=fast_profile(tmp_path)) as server:
        assert server.inspect(lambda live: live.dialog["length"]) == 5
    out = capsys.readouterr().out
    assert out.count("ignoring") == 1 and len(out.strip().splitlines()) == 1 and len(out) < 300, out[:400]


def test_two_quick_highest_steps_within_the_settle_time_use_each_die_once(tmp_path: Path) -> None:
    """5-2: double-click 13 (13/8 with the 5), then at once 8, before the first step has
    settled: the second plays the 2 (8/6), not the 5 again from the stale board."""
    (tmp_path / "state").mkdir()
    server = ServerThread(state_dir=tmp_path / "state", settings_file=tmp_path / "sim.json",
                          profile=fast_profile(tmp_path, settle_ms=600), seed=5)
    with server:
        end = time.monotonic() + 10
        while not server.inspect(lambda live: live.online and not live.table.controller.status().setting_up):  # type: ignore[union-attr]
            assert time.monotonic() < end
            time.sleep(0.02)
        server.inspect(lambda live: queue_roll(live, (5, 2)))

        async def body() -> None:
            async with aiohttp.ClientSession() as session, session.ws_connect(server.url + "ws") as sock:
                await sock.send_str(json.dumps({"type": "button", "name": "white_main"}))
                while server.inspect(lambda live: live.table.controller.status().match.phase) != "move":  # type: ignore[union-attr]
                    await asyncio.sleep(0.02)
                await sock.send_str(json.dumps({"type": "auto_step", "cell": "13"}))
                await sock.send_str(json.dumps({"type": "auto_step", "cell": "8"}))
                end = time.monotonic() + 8
                while server.inspect(lambda live: live.table.controller.status().match.turn) == "white":  # type: ignore[union-attr]
                    assert time.monotonic() < end, "the move never completed"
                    await asyncio.sleep(0.05)

        asyncio.run(body())
        turn = server.inspect(lambda live: live.table.controller.status().match.history[-1].actions[-1])  # type: ignore[union-attr]
        assert [(s.frm, s.to, s.die) for s in turn.steps] == [(13, 8, 5), (8, 6, 2)]
        assert server.inspect(lambda live: (live.vb.counts("8"), live.vb.counts("6"), live.vb.counts("3"))) \
            == ((3, 0), (6, 0), (0, 0))


def test_what_the_simulator_keeps_while_idle_stays_bounded(sim: ServerThread) -> None:
    time.sleep(3.0)  # no tab asks for anything: the frame window keeps only its last 2 s
    oldest, now, log_cap = sim.inspect(lambda live: (live._frames_window[0], live._now(),  # type: ignore[union-attr]
                                                     live.table.log_lines.maxlen))  # type: ignore[union-attr]
    assert now - oldest < 2.5
    sim.inspect(lambda live: live.table.log_lines.extend(f"line {i}" for i in range(10_000)))  # type: ignore[union-attr]
    assert sim.inspect(lambda live: len(live.table.log_lines)) == log_cap == 200  # type: ignore[union-attr]


def test_a_scan_of_the_wrong_length_is_counted_not_a_traceback(sim: ServerThread,
                                                               caplog: pytest.LogCaptureFixture) -> None:
    from controller.link.codec import Scan, encode

    before = match_key(sim)
    wait_until(lambda: sim.inspect(lambda live: live.online), 5, "the board online")  # its SCANs are read
    for n, packed in enumerate((b"\x00" * 10, b"\x00" * 60)):
        sim.call(lambda packed=packed, n=n: sim.live.vb.cable.write(encode(Scan(200 + n, packed))))  # type: ignore[union-attr]
    end = time.monotonic() + 5
    while sim.inspect(lambda live: live.bad_scans) < 2:
        assert time.monotonic() < end, "the bad SCANs were not counted"
        time.sleep(0.02)
    assert sim.inspect(lambda live: live.snapshot()["debug"]["bad_scans"]) == 2
    assert match_key(sim) == before
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_a_chat_line_with_terminal_escapes_arrives_escaped() -> None:
    """Issue 22 item 14: an opponent's chat `ESC[2J ESC]0;pwned BEL` cleared the operator's
    terminal and set its title. Every text field of a server event is escaped at the edge
    (controller/outside_text.py), so the log, the terminal, the display and the page get
    one line that does nothing."""
    from controller.online.events import Say, decode_event

    event = decode_event(json.dumps({"Type": "say", "Player": "eve\x1b[31m",
                                     "Message": "hi\x1b[2J\x1b]0;pwned\x07\nbgboard online: forged"}))
    assert isinstance(event, Say)
    assert event.message == "hi\\x1b[2J\\x1b]0;pwned\\x07\\nbgboard online: forged"
    assert event.player == "eve\\x1b[31m"
    assert decode_event(json.dumps({"Type": "say", "Player": "Søren", "Message": "æøå"})) == Say("Søren", "æøå")


def test_two_simulators_on_one_state_directory_the_second_says_who_has_it(tmp_path: Path) -> None:
    """Issue 23 item 3: two simulators on one state directory each saved over the other's
    match (B's 15 actions gone at restart). The directory is locked; the second is one line."""
    state = tmp_path / "state"
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "config"))
    first = subprocess.Popen([sys.executable, "-m", "bgboard.cli", "sim", "--port", "0", "--no-browser",
                              "--state-dir", str(state)], cwd=REPO, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        assert first.stdout is not None
        assert first.stdout.readline().startswith("http://")  # serving: its table is open
        second = subprocess.run([sys.executable, "-m", "bgboard.cli", "sim", "--port", "0", "--no-browser",
                                 "--state-dir", str(state)], cwd=REPO, env=env, capture_output=True, text=True,
                                timeout=60)
    finally:
        first.terminate()
        first.wait(timeout=20)
    assert second.returncode == 1 and second.stdout == ""
    lines = second.stderr.splitlines()
    assert len(lines) == 1 and f"in use by pid {first.pid}" in lines[0], second.stderr


def test_the_address_printed_for_another_loopback_address_is_answered() -> None:
    """Issue 23 item 9: `--host 127.0.0.2` printed an address it then refused (403)."""
    from controller.web.guard import Guard

    guard = Guard.for_server("127.0.0.2", 8123)
    host = urlsplit(guard.url()).netloc
    assert host == "127.0.0.2:8123" and guard.loopback
    assert guard.check("GET", {"Host": host}, {}, {}) is None


def test_requests_whose_headers_never_finish_are_closed_and_logged_once(sim: ServerThread,
                                                                      caplog: pytest.LogCaptureFixture) -> None:
    """Issue 23 item 7: connections that never finished their headers stayed open 600 s
    (1,100 of them used up the process's files); 2,000 requests with two Host headers
    wrote 2,000 tracebacks. Slow ones are closed, malformed ones are one line a minute."""
    sim.inspect(lambda live: None)
    port = _port(sim.url)
    keeper = sim.call(lambda: _server_of(sim).keeper)
    keeper.header_s = 0.5
    slow = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(20)]
    for conn in slow:
        conn.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and never the blank line
    for conn in slow:
        assert conn.recv(100) == b""  # closed by the simulator, not by the test
        conn.close()
    caplog.set_level(logging.WARNING)
    for _ in range(50):
        answer = raw_request(port, ["GET / HTTP/1.1", f"Host: 127.0.0.1:{port}", "Host: evil"])
        assert " 400 " in answer.split("\r\n", 1)[0]
    lines = [r for r in caplog.records if r.name == "aiohttp.server"]
    assert len(lines) == 1 and "Traceback" not in lines[0].getMessage() and not lines[0].exc_info
    assert "malformed request" in lines[0].getMessage() and "Duplicate 'Host'" in lines[0].getMessage()
    assert keeper.closed >= 20
    assert match_key(sim) is not None  # the simulator plays on


def _server_of(sim: ServerThread) -> Any:
    return sim.server


def test_a_settings_folder_that_cannot_be_written_does_not_refuse_a_new_match(tmp_path: Path) -> None:
    """Issue 23 item 9: a read-only config directory refused New match ("ignored
    new_match: PermissionError ...simulator.tmp"). The match starts; only its settings
    are not remembered (here the folder's place is taken by a file: no write can succeed)."""
    (tmp_path / "state").mkdir()
    (tmp_path / "config").write_text("a file where the folder should be")
    with ServerThread(state_dir=tmp_path / "state", settings_file=tmp_path / "config" / "sim.json",
                      profile=fast_profile(tmp_path)) as server:
        async def body() -> str:
            async with aiohttp.ClientSession() as session, session.ws_connect(server.url + "ws") as sock:
                await sock.send_str(json.dumps({"type": "new_match", "settings": {"length": 3}}))
                while True:
                    message = json.loads((await sock.receive(timeout=20)).data)
                    if message["type"] == "notice":
                        return str(message["text"])
        assert asyncio.run(body()) == "new match to 3"
        assert server.inspect(lambda live: live.table.controller.status().match.length) == 3  # type: ignore[union-attr]
