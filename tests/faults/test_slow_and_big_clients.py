"""Clients that cost the server more than they send (a live server, as deployed without its proxy).

- Bodies sent a byte at a time: before, each held one of the process's request slots for as
  long as it liked, and a few of them left nobody else served. Now a body is read whole before
  the request takes a slot, within REQUEST_BODY_SECONDS, else 408.
- WebSocket messages: no compression is offered (a small compressed frame could decompress to
  megabytes at the server's expense), and a message over the server's limit closes the
  connection (1009) instead of being read and decoded.
"""

from __future__ import annotations

import socket
import threading
import time

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from config.serving import WS_MAX_BYTES
from tests.faults.live import dailies_ready, ws_headers

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


class Trickler(threading.Thread):
    """POSTs a 40-byte body one byte every `pause` seconds; keeps what the server answered."""

    def __init__(self, port: int, pause: float) -> None:
        super().__init__(daemon=True)
        self.port, self.pause = port, pause
        self.answer = b""
        self.stop = threading.Event()

    def run(self) -> None:
        with socket.create_connection(("127.0.0.1", self.port), timeout=30) as sock:
            sock.sendall(
                b"POST /api/practice/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: application/json\r\nContent-Length: 40\r\n\r\n"
            )
            sock.settimeout(self.pause)
            for _ in range(40):
                if self.stop.is_set():
                    return
                try:
                    sock.sendall(b" ")
                    self.answer += sock.recv(4096)
                except TimeoutError:
                    continue
                except OSError:
                    break
                if self.answer:
                    break


def test_slow_bodies_do_not_hold_the_request_slots(start_server):
    dailies_ready("munger")
    server = start_server(HTTP_CONCURRENCY="2", REQUEST_BODY_SECONDS="3")
    trickles = [Trickler(server.port, pause=1.0) for _ in range(8)]
    for trickle in trickles:
        trickle.start()
    time.sleep(0.5)  # let them all send their headers

    took = []
    for _ in range(4):
        began = time.monotonic()
        status, _ = server.client().get("/api/dailies/")
        took.append(time.monotonic() - began)
        assert status == 200
    for trickle in trickles:
        trickle.join(timeout=15)
        trickle.stop.set()

    # Eight slow bodies against two slots: every normal request was still served at once.
    assert max(took) < 2.5, took
    answers = [t.answer.split(b"\r\n", 1)[0] for t in trickles]
    assert answers == [b"HTTP/1.1 408 Request Timeout"] * 8, answers


def test_websocket_frames_are_uncompressed_and_small(start_server):
    daily = dailies_ready("munger")
    server = start_server()
    path = server.ws_url(f"/ws/daily/munger/{daily.date.isoformat()}/")

    with connect(path, additional_headers=ws_headers(server, None)) as watcher:
        assert "permessage-deflate" not in (
            watcher.response.headers.get("Sec-WebSocket-Extensions") or ""
        )
        watcher.recv(timeout=10)  # the snapshot
        watcher.send('{"type": "ping", "pad": "' + "x" * (WS_MAX_BYTES + 1) + '"}')
        with pytest.raises(ConnectionClosed) as closed:
            watcher.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009

    with connect(path, additional_headers=ws_headers(server, None)) as another:
        another.recv(timeout=10)
        another.send('{"type": "ping"}')
        assert '"pong"' in another.recv(timeout=10)
