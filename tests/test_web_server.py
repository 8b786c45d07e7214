"""The simulator's web server with a raw WebSocket client: bad input is answered with one
notice and changes nothing; only one tab plays; the new-match settings persist across a
restart; the display PNG is the dummy device's frame; the `.mat` download reads back."""
from __future__ import annotations

import asyncio
import io
import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from PIL import Image

from controller.records.mat_reader import check_mat
from browser_support import wait_until
from sim.page.harness import ServerThread, fast_profile
from sim.page.live import check_dialog
from controller.web.protocol import BadMessage, parse_message

pytestmark = pytest.mark.timeout(120)


@pytest.fixture()
def dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state-home"))
    return {"state": tmp_path / "state", "settings": tmp_path / "config" / "bgboard" / "simulator.json",
            "root": tmp_path}


@pytest.fixture()
def sim(dirs: dict[str, Path]) -> Iterator[ServerThread]:
    dirs["state"].mkdir()
    server = ServerThread(state_dir=dirs["state"], settings_file=dirs["settings"],
                          profile=fast_profile(dirs["root"]), seed=5)
    with server:
        wait_until(lambda: server.inspect(lambda live: live.online and
                                          not live.table.controller.status().setting_up))  # type: ignore[union-attr]
        yield server


def progress(server: ServerThread) -> tuple[Any, ...]:
    """The match as the controller has taken it in (steps count once settled)."""
    return server.inspect(lambda live: (live.table.controller.status().match.match_id,  # type: ignore[union-attr]
                                        live.table.controller.status().match.partial.id))  # type: ignore[union-attr]


def match_key(server: ServerThread) -> tuple[Any, ...]:
    """What must not change when input is ignored: the match and the physical board."""
    return server.inspect(lambda live: (live.table.controller.status().match, live.vb.sensors(),  # type: ignore[union-attr]
                                        tuple(tuple(h.items()) for h in live.hand)))


class Client:
    """One browser tab, as a raw WebSocket."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws

    async def send(self, data: Any) -> None:
        await self.ws.send_str(data if isinstance(data, str) else json.dumps(data))

    async def notice(self, timeout: float = 3.0) -> str:
        """The next notice (states in between are skipped)."""
        end = asyncio.get_running_loop().time() + timeout
        while True:
            msg = await self.ws.receive(timeout=max(0.01, end - asyncio.get_running_loop().time()))
            if msg.type != aiohttp.WSMsgType.TEXT:
                raise AssertionError(f"socket closed: {msg}")
            data = json.loads(msg.data)
            if data["type"] == "notice":
                return str(data["text"])

    async def state(self, timeout: float = 3.0) -> dict[str, Any]:
        msg = await self.ws.receive(timeout=timeout)
        data = json.loads(msg.data)
        while data["type"] != "state":
            data = json.loads((await self.ws.receive(timeout=timeout)).data)
        return data  # type: ignore[no-any-return]


async def _tabs(url: str, n: int, body: Any) -> Any:
    async with aiohttp.ClientSession() as session:
        sockets = [await session.ws_connect(url + "ws") for _ in range(n)]
        clients = [Client(ws) for ws in sockets]
        for c in clients:
            first = await c.state()
            assert first["type"] == "state" and "board" in first
        try:
            return await body(clients)
        finally:
            for ws in sockets:
                await ws.close()


def test_parse_message_checks_every_field() -> None:
    assert parse_message('{"type": "lift", "cell": "13", "colour": "white"}').cell == "13"
    assert parse_message('{"type": "die", "die": 5}').name == "5"
    for bad, words in [("nonsense", "not JSON"), ("[1, 2]", "without a type"), ('{"type": 3}', "without a type"),
                       ('{"type": "lift", "cell": "25"}', "not a place"),
                       ('{"type": "place", "cell": "1", "colour": "red"}', "neither white nor black"),
                       ('{"type": "button", "name": "self_destruct"}', "unknown button"),
                       ('{"type": "fault", "name": "fire"}', "unknown fault"),
                       ('{"type": "new_match"}', "settings missing"),
                       ('{"type": "teleport"}', "unknown message type"),
                       ('{"type": "die", "die": 7}', "a number 1-6"), ('{"type": "die", "die": true}', "a number 1-6")]:
        with pytest.raises(BadMessage, match=words):
            parse_message(bad)


def test_dialog_settings_are_checked() -> None:
    assert check_dialog({"length": "7"})["length"] == 7
    for bad, words in [({"length": 0}, "out of range"), ({"length": "x"}, "not a number"),
                       ({"cube": "maybe"}, "choose on, off"), ({"colour": "red"}, "unknown setting")]:
        with pytest.raises(ValueError, match=words):
            check_dialog(bad)


def test_bad_messages_get_a_notice_and_change_nothing(sim: ServerThread) -> None:
    before = match_key(sim)

    async def body(c: list[Client]) -> list[str]:
        notices = []
        for raw in ["this is not json", '{"type": "warp", "cell": "1"}', '{"type": "lift", "cell": "99"}',
                    '{"type": "lift", "cell": "bar"}', '{"type": "place", "cell": "5"}',
                    '{"type": "new_match", "settings": {"length": 500}}',
                    '{"type": "command", "name": "purple roll"}']:
            await c[0].send(raw)
            notices.append(await c[0].notice())
        await c[0].ws.send_bytes(b"\x00\x01")
        notices.append(await c[0].notice())
        return notices

    notices = asyncio.run(_tabs(sim.url, 1, body))
    assert "not JSON" in notices[0]
    assert "unknown message type 'warp'" in notices[1]
    assert "'99' is not a place" in notices[2]
    assert "no black checker on bar" in notices[3]
    assert "no checker in hand" in notices[4]
    assert "out of range" in notices[5]
    assert "say '<white|black> <action>'" in notices[6]
    assert "not text" in notices[7]
    assert match_key(sim) == before


def test_a_drop_outside_puts_the_checker_back(sim: ServerThread) -> None:
    before = match_key(sim)

    async def body(c: list[Client]) -> str:
        await c[0].send({"type": "lift", "cell": "13", "colour": "white"})
        deadline = time.monotonic() + 3
        while True:
            state = await c[0].state()
            if state["hand"]:
                break
            assert time.monotonic() < deadline
        assert state["board"]["13"] == [4, 0] and state["hand"] == [{"colour": "white", "from": "13"}]
        await c[0].send({"type": "drop_outside"})
        return await c[0].notice()

    text = asyncio.run(_tabs(sim.url, 1, body))
    assert text == "dropped outside the board: the white checker went back to 13"
    assert match_key(sim) == before


def test_a_second_tab_only_watches(sim: ServerThread) -> None:
    async def body(c: list[Client]) -> tuple[str, Any, Any]:
        playing, watching = c
        await playing.send({"type": "lift", "cell": "6", "colour": "white"})
        wait_until(lambda: sim.inspect(lambda live: len(live.hand) == 1))
        key = match_key(sim)
        await watching.send({"type": "place", "cell": "3"})
        text = await watching.notice()
        await watching.send({"type": "button", "name": "white_main"})
        text2 = await watching.notice()
        after = match_key(sim)
        # the watcher sees the playing tab's checker in the air
        assert (await watching.state())["hand"] == [{"colour": "white", "from": "6"}]
        await playing.send({"type": "place", "cell": "6", "colour": "white"})
        wait_until(lambda: sim.inspect(lambda live: not live.hand))
        return text + " / " + text2, key, after

    text, key, after = asyncio.run(_tabs(sim.url, 2, body))
    assert text.count("another browser tab is playing") == 2
    assert key == after

    # once the playing tab is gone, another tab may play
    async def later(c: list[Client]) -> dict[str, Any]:
        await c[0].send({"type": "lift", "cell": "8", "colour": "white"})
        state = await c[0].state()
        while not state["hand"]:
            state = await c[0].state()
        await c[0].send({"type": "place", "cell": "8", "colour": "white"})
        return state

    assert asyncio.run(_tabs(sim.url, 1, later))["hand"] == [{"colour": "white", "from": "8"}]


def test_display_png_is_the_dummy_devices_frame(sim: ServerThread) -> None:
    async def fetch() -> bytes:
        async with aiohttp.ClientSession() as session, session.get(sim.url + "display.png") as resp:
            assert resp.status == 200 and resp.content_type == "image/png"
            assert resp.headers["Cache-Control"] == "no-store"
            return await resp.read()

    png = asyncio.run(fetch())
    device = sim.inspect(lambda live: live.table.display.device.image.copy())  # type: ignore[union-attr]
    served = Image.open(io.BytesIO(png)).convert("1")
    assert served.size == device.size
    assert served.tobytes() == device.convert("1").tobytes()
    assert served.getbbox() is not None  # something is drawn


def _play_opening(sim: ServerThread) -> None:
    """Roll the opening with the buttons and play the first move with the conveniences."""
    async def body(c: list[Client]) -> None:
        await c[0].send({"type": "button", "name": "white_main"})
        wait_until(lambda: sim.inspect(lambda live: live.table.controller.status().match.phase == "move"))  # type: ignore[union-attr]
        side = sim.inspect(lambda live: live.table.controller.status().match.turn)  # type: ignore[union-attr]
        start = "13" if side == "white" else "12"
        for _ in range(4):
            done = sim.inspect(lambda live: live.table.controller.status().match.phase != "move"  # type: ignore[union-attr]
                               or live.table.controller.status().match.turn != side)  # type: ignore[union-attr]
            if done:
                break
            steps = sim.inspect(lambda live: len(live.table.controller.status().match.steps))  # type: ignore[union-attr]
            await c[0].send({"type": "auto_step", "cell": start})
            wait_until(lambda steps=steps: sim.inspect(
                lambda live: len(live.table.controller.status().match.steps) > steps  # type: ignore[union-attr]
                or live.table.controller.status().match.turn != side))  # type: ignore[union-attr]
    asyncio.run(_tabs(sim.url, 1, body))


def test_match_record_downloads_as_mat_and_reads_back(sim: ServerThread) -> None:
    _play_opening(sim)
    wait_until(lambda: sim.inspect(lambda live: live.table.controller.status().match.phase == "roll"))  # type: ignore[union-attr]

    async def fetch() -> tuple[str, str]:
        async with aiohttp.ClientSession() as session, session.get(sim.url + "match.mat") as resp:
            assert resp.status == 200
            return await resp.text(), resp.headers["Content-Disposition"]

    text, disposition = asyncio.run(fetch())
    # the file name says who played and when: the players' names, then the date and time
    assert re.fullmatch(r'attachment; filename="White-vs-Black-\d{4}-\d\d-\d\d-\d{4}\.mat"', disposition), disposition
    assert " 5 point match" in text and "Game 1" in text and '; [EventDate "' in text
    record, problem = check_mat(text)
    # the game is still going: the reader says so, and every move written reads back
    assert problem is not None and problem.reason == "the record ends before the game does", str(problem)
    assert record.length == 5 and len(record.games) == 1
    first = record.games[0].actions[0]
    history = sim.inspect(lambda live: live.table.controller.status().match.history[0].actions[0])  # type: ignore[union-attr]
    from controller.engine.notation import format_move

    assert format_move(first.steps) == format_move(history.steps)  # type: ignore[union-attr]
    # and bgboard replay takes it as a match in progress (issue 12), exit 0
    from controller.records.replay import replay_text

    report = replay_text(text)
    assert report.ok and report.in_progress is not None and report.in_progress[0] == 1


def test_new_match_settings_persist_across_a_restart(dirs: dict[str, Path]) -> None:
    dirs["state"].mkdir()
    profile = fast_profile(dirs["root"])
    chosen = {"length": 7, "cube": "off", "crawford": "off", "clock": "off", "confirm": "button",
              "opponent": "human", "language": "da", "dice": "verifiable", "tutor": "bad"}
    with ServerThread(state_dir=dirs["state"], settings_file=dirs["settings"], profile=profile) as first:
        async def body(c: list[Client]) -> str:
            await c[0].send({"type": "new_match", "settings": chosen})
            return await c[0].notice()
        assert asyncio.run(_tabs(first.url, 1, body)) == "new match to 7"
        assert first.inspect(lambda live: live.table.controller.status().match.settings.length) == 7  # type: ignore[union-attr]
    assert json.loads(dirs["settings"].read_text()) == chosen
    with ServerThread(state_dir=dirs["state"], settings_file=dirs["settings"], profile=profile) as second:
        snap = second.inspect(lambda live: live.snapshot())
        assert snap["settings"] == {**chosen, "score": "0-0", "crawford_played": "auto"}  # a score is one match's
        assert snap["match"]["length"] == 7 and snap["match"]["cube_enabled"] is False
        assert second.inspect(lambda live: live.table.controller.status().config.language) == "da"  # type: ignore[union-attr]
        assert second.inspect(lambda live: live.table.controller.status().config.tutor) == "bad"  # type: ignore[union-attr]


def test_a_damaged_settings_file_is_ignored(dirs: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    dirs["state"].mkdir()
    dirs["settings"].parent.mkdir(parents=True)
    dirs["settings"].write_text('{"length": "lots"}')
    with ServerThread(state_dir=dirs["state"], settings_file=dirs["settings"],
                      profile=fast_profile(dirs["root"])) as server:
        assert server.inspect(lambda live: live.dialog["length"]) == 5
    assert "ignoring" in capsys.readouterr().out


def _start_cli(tmp: Path, *extra: str) -> Any:
    import os
    import subprocess
    import sys

    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp / "cfg"), XDG_STATE_HOME=str(tmp / "st"))
    return subprocess.Popen([sys.executable, "-m", "bgboard.cli", "sim", "--no-browser", *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def test_bgboard_sim_prints_the_address_serves_the_page_and_stops_cleanly(tmp_path: Path) -> None:
    import signal
    import urllib.request

    proc = _start_cli(tmp_path, "--port", "0", "--state-dir", str(tmp_path / "state"))
    try:
        assert proc.stdout is not None
        url = proc.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:") and url.endswith("/"), url
        with urllib.request.urlopen(url, timeout=5) as resp:
            page = resp.read().decode()
        assert "bgboard simulator" in page and "/static/app.js" in page
        for asset in ("static/app.js", "static/board.js", "static/style.css"):
            with urllib.request.urlopen(url + asset, timeout=5) as resp:
                assert resp.status == 200
        proc.send_signal(signal.SIGINT)
        assert proc.wait(10) == 0
        assert "Traceback" not in (proc.stderr.read() if proc.stderr else "")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_a_port_in_use_is_one_clear_line(tmp_path: Path) -> None:
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        proc = _start_cli(tmp_path, "--port", str(port), "--state-dir", str(tmp_path / "state"))
        _, err = proc.communicate(timeout=20)
    assert proc.returncode == 1
    assert f"port {port} on 127.0.0.1 is in use" in err and "Traceback" not in err


def test_against_the_computer_the_helper_plays_its_move(sim: ServerThread) -> None:
    """Opponent "simple": the person carries out the computer's moves, or lets the page's
    helper do it through the virtual board; either way the controller sees sensor changes."""
    settings = {"length": 3, "opponent": "simple"}

    def phase() -> tuple[Any, ...]:
        return sim.inspect(lambda live: (live.table.controller.status().match.phase, live.table.controller.status().match.turn,  # type: ignore[union-attr]
                                         live.table.controller.status().carried_out is not None, live.helpers(),  # type: ignore[union-attr]
                                         live.table.controller.status().match.game))  # type: ignore[union-attr]

    async def body(c: list[Client]) -> list[str]:
        played: list[str] = []
        await c[0].send({"type": "new_match", "settings": settings})
        assert await c[0].notice() == "new match to 3"
        wait_until(lambda: not sim.inspect(lambda live: live.table.controller.status().setting_up))  # type: ignore[union-attr]
        await c[0].send({"type": "button", "name": "white_main"})
        deadline = time.monotonic() + 40
        while played.count("computer") < 2 and time.monotonic() < deadline:
            ph, turn, bot, helpers, _ = phase()
            if bot:
                assert "bot_move" in helpers
                key = match_key(sim)
                await c[0].send({"type": "bot_move"})
                wait_until(lambda key=key: match_key(sim) != key and not phase()[2], 5)
                played.append("computer")
            elif ph == "roll" and turn == "white":
                await c[0].send({"type": "button", "name": "white_main"})
                wait_until(lambda: phase()[0] != "roll", 5)
            elif ph == "move" and turn == "white":
                # one step at a time, and only once the controller has seen the last one
                cells = sim.inspect(lambda live: [c for c in live.led_config.cells if live.vb.counts(c)[0]])
                before, board = progress(sim), match_key(sim)
                for cell in sorted(cells, key=lambda x: -int(x) if x.isdigit() else 0):
                    await c[0].send({"type": "auto_step", "cell": cell})
                    await asyncio.sleep(0.05)
                    if match_key(sim) != board:
                        break
                wait_until(lambda before=before: progress(sim) != before, 5)
                if phase()[1] != "white":
                    played.append("person")
            else:
                await asyncio.sleep(0.05)
        return played

    played = asyncio.run(_tabs(sim.url, 1, body))
    assert played.count("computer") >= 2, played


def test_the_computers_move_is_finished_for_me_after_part_of_it_by_hand(sim: ServerThread) -> None:
    """Issue 23 item 4: once one step of the computer's move was carried out by hand (or
    the checker on the bar entered first), "Play the computer's move for me" asked for a
    checker no longer there ("no black checker on cell 12") for ever. It plays what is left."""
    from sim.page.live import step_cells

    settings = {"length": 3, "opponent": "simple"}

    def bot_side() -> Any:
        return sim.inspect(lambda live: live.table.controller.status().carried_out)  # type: ignore[union-attr]

    async def body(c: list[Client]) -> int:
        await c[0].send({"type": "new_match", "settings": settings})
        assert await c[0].notice() == "new match to 3"
        wait_until(lambda: not sim.inspect(lambda live: live.table.controller.status().setting_up))  # type: ignore[union-attr]
        finished = 0
        deadline = time.monotonic() + 60
        while finished < 2 and time.monotonic() < deadline:
            plan = bot_side()
            if plan is not None and len(plan.move.steps) >= 2:
                first = plan.move.steps[0]
                frm, to = step_cells(first, plan.side)
                sim.inspect(lambda live: (live.hands.carry_out(frm, to, plan.side, first.hit), live._changed()))
                await asyncio.sleep(0.3)  # the hand's step is read, then settles
                wait_until(lambda: not sim.inspect(lambda live: live.table.controller.status().settling), 10)  # type: ignore[union-attr]
                await c[0].send({"type": "bot_move"})
                wait_until(lambda: bot_side() is None, 10)
                finished += 1
                continue
            ph, turn, helpers = sim.inspect(lambda live: (live.table.controller.status().match.phase,  # type: ignore[union-attr]
                                                          live.table.controller.status().match.turn,  # type: ignore[union-attr]
                                                          live.helpers()))
            if plan is not None:
                await c[0].send({"type": "bot_move"})
                wait_until(lambda: bot_side() is None, 10)
            elif ph in ("roll", "opening") and turn in ("white", None):
                await c[0].send({"type": "button", "name": "white_main"})
                await asyncio.sleep(0.2)
            elif ph == "move" and turn == "white":
                move = sim.inspect(lambda live: live.table.controller.status().match.legal_moves())  # type: ignore[union-attr]
                for step in move[0].steps if move else ():
                    a, b = step_cells(step, "white")
                    before = progress(sim)
                    sim.inspect(lambda live, a=a, b=b, step=step: (live.hands.carry_out(a, b, "white", step.hit),
                                                                   live._changed()))
                    wait_until(lambda before=before: progress(sim) != before, 10)
                await asyncio.sleep(0.2)
            else:
                await asyncio.sleep(0.05)
        return finished

    assert asyncio.run(_tabs(sim.url, 1, body)) == 2


def test_an_idle_playing_tab_hands_the_board_over(dirs: dict[str, Path]) -> None:
    dirs["state"].mkdir()
    with ServerThread(state_dir=dirs["state"], settings_file=dirs["settings"],
                      profile=fast_profile(dirs["root"]), handover_s=0.4) as server:
        async def body(c: list[Client]) -> tuple[str, str, str]:
            first, second = c
            await first.send({"type": "lift", "cell": "6", "colour": "white"})
            wait_until(lambda: server.inspect(lambda live: len(live.hand) == 1))
            await asyncio.sleep(0.5)
            await second.send({"type": "button", "name": "white_main"})
            held = await second.notice()  # idle, but a checker is in the air: not yet
            await first.send({"type": "place", "cell": "6", "colour": "white"})
            wait_until(lambda: server.inspect(lambda live: not live.hand))
            await asyncio.sleep(0.5)
            await second.send({"type": "lift", "cell": "8", "colour": "white"})
            told = await first.notice()
            wait_until(lambda: server.inspect(lambda live: len(live.hand) == 1))
            await first.send({"type": "lift", "cell": "13", "colour": "white"})
            return held, told, await first.notice()

        held, told, refused = asyncio.run(_tabs(server.url, 2, body))
    assert held.startswith("another browser tab is playing")
    assert told == "another browser tab plays now; this tab only watches"
    assert refused.startswith("another browser tab is playing")


def test_a_restart_resumes_the_match_with_the_board_where_it_stood(dirs: dict[str, Path]) -> None:
    dirs["state"].mkdir()
    profile = fast_profile(dirs["root"])
    with ServerThread(state_dir=dirs["state"], settings_file=dirs["settings"], profile=profile, seed=5) as first:
        wait_until(lambda: first.inspect(lambda live: live.online and not live.table.controller.status().setting_up))  # type: ignore[union-attr]
        _play_opening(first)
        wait_until(lambda: first.inspect(lambda live: live.table.controller.status().match.phase == "roll"))  # type: ignore[union-attr]
        saved = first.inspect(lambda live: (live.table.controller.status().match.match_id,  # type: ignore[union-attr]
                                            live.table.controller.status().match.partial.id,  # type: ignore[union-attr]
                                            {c: live.vb.counts(c) for c in live.led_config.cells}))
    with ServerThread(state_dir=dirs["state"], settings_file=dirs["settings"], profile=profile, seed=5) as second:
        wait_until(lambda: second.inspect(lambda live: live.online and not live.table.controller.status().setting_up))  # type: ignore[union-attr]
        again = second.inspect(lambda live: (live.table.controller.status().match.match_id,  # type: ignore[union-attr]
                                             live.table.controller.status().match.partial.id,  # type: ignore[union-attr]
                                             {c: live.vb.counts(c) for c in live.led_config.cells}))
        assert again == saved
