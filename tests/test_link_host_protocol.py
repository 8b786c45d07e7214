"""The link's protocol core without any I/O (controller/link/host_protocol.py): bytes in,
events out, on the time it is given, as DESIGN.md's wire protocol says. No port, no
thread, no clock: each test feeds bytes as a port would and reads what comes out."""
from __future__ import annotations

from controller.link.codec import (
    Config,
    Frame,
    Hello,
    HelloRequest,
    MsgType,
    Ping,
    Pong,
    Scan,
    StreamDecoder,
    encode,
    parse,
)
from controller.link.host_protocol import LinkProtocol, LinkState, LinkStatus


def _events(protocol: LinkProtocol) -> list[object]:
    out = []
    while (event := protocol.next_event()) is not None:
        out.append(event)
    return out


def _sent(wire: bytes) -> list[object]:
    return [parse(frame) for frame in StreamDecoder().feed(wire)]


def test_an_opened_port_asks_hello_and_host_frames_count_their_own_seq() -> None:
    protocol = LinkProtocol("port", offline_after=2.0)
    assert _sent(protocol.connection_made(0.0)) == [HelloRequest(seq=0)]
    assert _events(protocol) == [LinkStatus(LinkState.CONNECTING, "port", "port open, asking HELLO?")]
    ping = _sent(protocol.send(Ping(payload=b"\x00ab\x00")))
    config = _sent(protocol.send(Config(scan_period_ms=5, debounce_scans=2, heartbeat_ms=100)))
    assert ping == [Ping(seq=1, payload=b"\x00ab\x00")]  # zeros in a payload survive COBS
    assert config == [Config(seq=2, scan_period_ms=5, debounce_scans=2, heartbeat_ms=100)]


def test_frames_fed_byte_by_byte_and_after_garbage_come_out_whole_and_in_order() -> None:
    protocol = LinkProtocol("port")
    protocol.connection_made(0.0)
    _events(protocol)
    hello, pong = Hello(0, 2, 14, 13, "fw"), Pong(1, b"x")
    wire = b"\x13\x37garbage\x00" + encode(hello) + encode(pong)
    for i in range(len(wire)):
        protocol.receive_data(wire[i:i + 1], 0.1)
    assert _events(protocol) == [LinkStatus(LinkState.ONLINE, "port"), hello, pong]
    assert protocol.stats.frames == 2 and protocol.stats.framing_errors == 1


def test_a_frame_of_an_unknown_type_is_ignored_and_a_bad_payload_counted() -> None:
    protocol = LinkProtocol("port")
    protocol.connection_made(0.0)
    _events(protocol)
    unknown = Frame(0x55, 0, b"?").encode()
    bad_hello = Frame(MsgType.HELLO, 1, b"\x02").encode()  # too short to be a HELLO
    protocol.receive_data(unknown + bad_hello, 0.1)
    assert _events(protocol) == [LinkStatus(LinkState.ONLINE, "port")]
    assert protocol.malformed == 1


def test_a_silent_board_goes_offline_after_its_limit_and_is_asked_hello_every_half() -> None:
    protocol = LinkProtocol("port", offline_after=2.0)
    protocol.connection_made(10.0)
    protocol.receive_data(encode(Hello(0, 2, 14, 13, "fw")), 10.0)
    _events(protocol)
    assert protocol.tick(11.9) == b"" and protocol.state is LinkState.ONLINE
    asked = protocol.tick(12.0)
    assert _events(protocol) == [LinkStatus(LinkState.OFFLINE, "port", "no frame for 2 s")]
    assert [type(m) for m in _sent(asked)] == [HelloRequest]
    assert protocol.tick(12.5) == b""            # asked less than a second ago
    assert [type(m) for m in _sent(protocol.tick(13.0))] == [HelloRequest]
    protocol.receive_data(encode(Scan(1, b"\x00" * 46)), 13.2)
    assert protocol.state is LinkState.ONLINE


def test_a_lost_port_says_how_and_is_silent_until_it_opens_again() -> None:
    protocol = LinkProtocol("port", offline_after=2.0)
    protocol.connection_made(0.0)
    protocol.connection_lost("port: the device went away")
    assert _events(protocol)[-1] == LinkStatus(LinkState.DISCONNECTED, "port", "port: the device went away")
    assert protocol.tick(100.0) == b""           # no HELLO? into a port that is gone
    protocol.connection_made(100.0)
    assert protocol.state is LinkState.CONNECTING


def test_with_latest_scan_only_a_waiting_scan_is_replaced_but_one_of_another_length_is_kept() -> None:
    protocol = LinkProtocol("port", latest_scan_only=True)
    protocol.connection_made(0.0)
    _events(protocol)
    scans = [Scan(i, bytes([i]) * 46) for i in range(5)]
    short = Scan(9, b"\x00" * 10)
    protocol.receive_data(b"".join(encode(s) for s in scans[:3]) + encode(short)
                          + b"".join(encode(s) for s in scans[3:]), 0.1)
    assert _events(protocol) == [LinkStatus(LinkState.ONLINE, "port"), scans[2], short, scans[4]]
    assert protocol.superseded == 3


def test_past_max_pending_the_oldest_message_goes_but_no_change_of_state() -> None:
    protocol = LinkProtocol("port", max_pending=3)
    protocol.connection_made(0.0)
    scans = [Scan(i, bytes([i]) * 46) for i in range(6)]
    protocol.receive_data(b"".join(encode(s) for s in scans), 0.1)
    assert _events(protocol) == [LinkStatus(LinkState.CONNECTING, "port", "port open, asking HELLO?"),
                                 LinkStatus(LinkState.ONLINE, "port"), *scans[3:]]
    assert protocol.overrun == 3
