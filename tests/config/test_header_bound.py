"""A request's head is bounded by the app's own server (config/serving.py `HeadBoundProtocol`).

Against real servers in subprocesses (marked `slow`): `python -m config.serving` as it is, and
servers started the same two ways (uvicorn, and gunicorn with `config.serving.Worker`) whose
head deadline is cut to `QUICK_SECONDS`, so that waiting for it takes a second, not ten:

- a head over `MAX_HEADER_BYTES` (1 MB; one byte over; a WebSocket handshake's) is answered
  431 with `Connection: close` and the connection closed; a head of exactly the bound is
  served, its body not counted; a pipelined head over the bound is not served;
- an endless header is cut within its first 64 KiB, and forty of them cost the server's
  process no memory; an endless trailer section (after a chunked body) closes the connection;
- a head unfinished at the deadline is answered 408 and closed (a byte at a time too), a
  connection that sends nothing is closed; a kept-alive connection idles past the deadline
  between requests, and its next head is bounded again;
- a WebSocket handshake is still served.

Each fails with the settings before `HeadBoundProtocol` (uvicorn's httptools protocol as it
is). The tests of uvicorn's internals (`HttpToolsProtocol`, the version docs/internals.md names)
are fast and run in this process.
"""

from __future__ import annotations

import contextlib
import http.client
import importlib.metadata
import inspect
import re
import select
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as ws_connect

from config.serving import MAX_HEADER_BYTES, SERVER_OPTIONS, HeadBoundProtocol, Worker
from tests.support import (
    PYTHON,
    ROOT,
    Server,
    server_env,
    wait_for_port,
    wait_until,
)

#: This file's clients connect from an address of their own.
CLIENT = "127.0.0.43"
#: The head's deadline of the quick servers.
QUICK_SECONDS = 1.0
LIVE = "/healthz/live/"
CHUNK = 64 * 1024
CLOSE = "Connection: close\r\n"


# -- servers ---------------------------------------------------------------------------------


def env_for(tmp: Path) -> dict[str, str]:
    """Production settings on a SQLite file of the test's own (the liveness answer needs none)."""
    return server_env(database="", SQLITE_PATH=str(tmp / "db.sqlite3"))


class QuickServer(Server):
    """`Server`'s process started one of the two ways, with `HeadBoundProtocol.header_seconds`
    set to `seconds` before it serves (gunicorn's workers inherit it from the master)."""

    def __init__(self, env: dict[str, str], log: Path, *, way: str, seconds: float) -> None:
        super().__init__(env, log)
        self.way, self.seconds = way, seconds

    def command(self) -> list[str]:
        quicken = (
            "import config.serving as serving; "
            f"serving.HeadBoundProtocol.header_seconds = {self.seconds!r}; "
        )
        if self.way == "uvicorn":
            code = quicken + "serving.main()"
            return [PYTHON, "-c", code, "--port", str(self.port), "--log-level", "warning"]
        code = quicken + "from gunicorn.app.wsgiapp import run; run()"
        return [PYTHON, "-c", code, "config.server:application", "-k", "config.serving.Worker"] + [
            "--bind",
            f"127.0.0.1:{self.port}",
            "--workers",
            "1",
            "--log-level",
            "warning",
        ]

    def start(self, timeout: float = 60.0) -> QuickServer:
        with self.log_path.open("ab") as out:
            self.process = subprocess.Popen(
                self.command(), cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT
            )
        wait_for_port(self.port, timeout=timeout, process=self.process)
        wait_until(lambda: status_of(self.port, LIVE) == 200, timeout=timeout, what="an answer")
        return self


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """`python -m config.serving`, exactly as the project serves."""
    tmp = tmp_path_factory.mktemp("server")
    started = Server(env_for(tmp), tmp / "server.log").start()
    yield started
    started.stop()


@pytest.fixture(scope="module", params=["uvicorn", "gunicorn"])
def quick(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[QuickServer]:
    """The two ways of serving, each with a head's deadline of `QUICK_SECONDS`."""
    tmp = tmp_path_factory.mktemp(f"quick-{request.param}")
    started = QuickServer(
        env_for(tmp), tmp / "server.log", way=request.param, seconds=QUICK_SECONDS
    ).start()
    yield started
    started.stop()


# -- a client on raw sockets -----------------------------------------------------------------


def open_socket(port: int, timeout: float = 10) -> socket.socket:
    return socket.create_connection(
        ("127.0.0.1", port), timeout=timeout, source_address=(CLIENT, 0)
    )


def head(path: str = LIVE, *, pad: int = 0, extra: str = "", method: str = "GET") -> bytes:
    """A request's head, with a header `X-Pad` of `pad` bytes when `pad`."""
    padding = [f"X-Pad: {'a' * pad}"] if pad else []
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", *padding]
    return ("\r\n".join(lines) + "\r\n" + extra + "\r\n").encode()


def until_closed(sock: socket.socket, timeout: float = 10) -> bytes:
    """All the server sends until it closes the connection (reset included); fails if it is
    still open after `timeout` seconds."""
    sock.settimeout(timeout)
    received = b""
    while True:
        try:
            data = sock.recv(65536)
        except TimeoutError:
            raise AssertionError(
                f"still open after {timeout:g} s; received {received[:200]!r}"
            ) from None
        except ConnectionResetError:
            return received
        if not data:
            return received
        received += data


def send_and_read(port: int, data: bytes, timeout: float = 10) -> bytes:
    with open_socket(port, timeout) as sock:
        # Refused before it was all sent: the answer is waiting all the same.
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            sock.sendall(data)
        return until_closed(sock, timeout)


def statuses(answer: bytes) -> list[int]:
    """The status of each answer (one starts where the body of the one before ends)."""
    return [int(code) for code in re.findall(rb"HTTP/1\.1 (\d{3}) ", answer)]


def header_of(answer: bytes, name: str) -> str | None:
    found = re.search(rb"^" + name.encode() + rb": *([^\r]*)\r$", answer, re.M | re.I)
    return found.group(1).decode() if found else None


def status_of(port: int, path: str) -> int | None:
    connection = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=5, source_address=(CLIENT, 0)
    )
    try:
        connection.request("GET", path)
        return connection.getresponse().status
    except OSError:
        return None
    finally:
        connection.close()


def memory_kib(pid: int) -> dict[str, int]:
    """VmRSS and VmHWM (its peak) of a process, in KiB."""
    status = Path(f"/proc/{pid}/status").read_text()
    found = {name: re.search(rf"^{name}:\s+(\d+) kB", status, re.M) for name in ("VmRSS", "VmHWM")}
    return {name: int(match.group(1)) for name, match in found.items() if match}


# -- the bound in bytes ----------------------------------------------------------------------


@pytest.mark.slow
def test_a_one_megabyte_header_is_answered_431_and_the_connection_closed(quick):
    answer = send_and_read(quick.port, head(pad=1_000_000))

    assert statuses(answer) == [431], answer[:300]
    assert header_of(answer, "connection") == "close"
    assert answer.endswith(b"Request Header Fields Too Large")


@pytest.mark.slow
def test_a_head_of_exactly_the_bound_is_served_and_one_byte_more_is_not(server):
    padding = 1 + MAX_HEADER_BYTES - len(head(pad=1, extra=CLOSE))
    exact, over = head(pad=padding, extra=CLOSE), head(pad=padding + 1, extra=CLOSE)
    body = b"x" * 40_000  # more than the bound, less than the body limit of "/" (64 KiB)
    declared = f"Content-Type: text/plain\r\nContent-Length: {len(body)}\r\n{CLOSE}"
    padding = 1 + MAX_HEADER_BYTES - len(head("/", pad=1, extra=declared, method="POST"))
    posted = head("/", pad=padding, extra=declared, method="POST")
    sizes = [len(exact), len(over), len(posted)]
    assert sizes == [MAX_HEADER_BYTES, MAX_HEADER_BYTES + 1, MAX_HEADER_BYTES]

    served = send_and_read(server.port, exact)
    refused = send_and_read(server.port, over)
    with_body = send_and_read(server.port, posted + body)  # in the same chunks as its head

    assert statuses(served) == [200], served[:300]
    assert served.endswith(b'{"status": "ok"}')
    assert statuses(refused) == [431], refused[:300]
    assert header_of(refused, "connection") == "close"
    # The body is not counted: the app answers (Django refuses the POST without its CSRF token).
    assert statuses(with_body) == [403], with_body[:300]


@pytest.mark.slow
def test_an_endless_header_is_cut_within_its_first_chunk(server):
    with open_socket(server.port) as sock:
        sock.sendall(head()[: -len(b"\r\n")] + b"X-Endless: " + b"a" * CHUNK)
        # Nothing more is sent: the answer comes for what was read of this one chunk.
        readable, _, _ = select.select([sock], [], [], 10)
        assert readable, "no answer to 64 KiB of an unfinished head"
        answer = until_closed(sock)

    assert statuses(answer) == [431], answer[:300]
    assert header_of(answer, "connection") == "close"


class EndlessHeader(threading.Thread):
    """Streams one header in 64 KiB chunks, up to `limit` bytes, as fast as the connection
    takes them; stops at the first error (the server closed). Then waits for `go` to read."""

    def __init__(self, port: int, limit: int, go: threading.Event) -> None:
        super().__init__(daemon=True)
        self.port, self.limit, self.go = port, limit, go
        self.sent = 0
        self.streamed = threading.Event()
        self.answer: bytes | None = None
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            with open_socket(self.port, timeout=30) as sock:
                sock.sendall(head()[: -len(b"\r\n")] + b"X-Endless: ")
                chunk = b"a" * CHUNK
                try:
                    while self.sent < self.limit:
                        sock.sendall(chunk)
                        self.sent += len(chunk)
                except (BrokenPipeError, ConnectionResetError):
                    pass
                self.streamed.set()
                self.go.wait(60)
                self.answer = until_closed(sock, timeout=5)
        except BaseException as error:  # reported by the test
            self.error = error
        finally:
            self.streamed.set()


@pytest.mark.slow
def test_forty_endless_headers_cost_the_server_no_memory(server):
    assert server.process is not None
    assert status_of(server.port, LIVE) == 200  # warm
    before = memory_kib(server.process.pid)
    go = threading.Event()
    streams = [EndlessHeader(server.port, limit=4 * 1024 * 1024, go=go) for _ in range(40)]
    for stream in streams:
        stream.start()
    for stream in streams:
        assert stream.streamed.wait(60)
    # Every client has sent all it could and still holds its connection.
    during = memory_kib(server.process.pid)
    go.set()
    for stream in streams:
        stream.join(30)

    grown = {name: during[name] - before[name] for name in before}
    assert max(grown.values()) < 8 * 1024, (grown, before, during)  # KiB
    assert [stream.error for stream in streams] == [None] * 40
    assert [statuses(stream.answer or b"") for stream in streams] == [[431]] * 40


@pytest.mark.slow
def test_a_pipelined_head_over_the_bound_is_not_served(server):
    """A head that starts in the chunk that ends the request before it is counted from the next
    chunk only: the names and values the parser collected are checked once it is complete."""
    pipelined = head() + head(pad=MAX_HEADER_BYTES + 1024)

    answer = send_and_read(server.port, pipelined)

    # The first is answered (and the connection closes after it: nothing can be said in the
    # middle of its answer), or it was answered before and the second is refused with 431.
    assert statuses(answer) in ([200], [200, 431]), answer[:600]
    assert header_of(answer, "connection") == "close"


def chunked(path: str, trailers: bytes) -> bytes:
    """A POST of `{}` in two chunks, then `trailers` after the last chunk."""
    return (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        "Transfer-Encoding: chunked\r\n\r\n1\r\n{\r\n1\r\n}\r\n0\r\n"
    ).encode() + trailers


@pytest.mark.slow
@pytest.mark.parametrize("path", [LIVE, "/api/practice/"], ids=["answered", "body-awaited"])
def test_a_trailer_section_is_bounded_like_a_head(server, path):
    """Header fields after a chunked body's last chunk are kept by the parser as a head's are.
    A request answered before its trailers (the liveness answer refuses a POST) or one whose
    answer waits for its body: either way the connection closes within the first chunk."""
    small = send_and_read(server.port, chunked(LIVE, b"X-Sum: 1\r\n\r\n") + head(extra=CLOSE))
    assert statuses(small) == [405, 200], small[:600]  # a small one is read, the next served

    with open_socket(server.port) as sock:
        sock.sendall(chunked(path, b"X-Endless: " + b"a" * CHUNK))
        answer = until_closed(sock, timeout=5)  # the body's own deadline is 10 s

    assert statuses(answer) in ([], [405]), answer[:300]


# -- the deadline ----------------------------------------------------------------------------


@pytest.mark.slow
def test_an_unfinished_head_is_answered_408_and_closed_at_the_deadline(quick):
    with open_socket(quick.port) as sock:
        sock.sendall(head()[:20])
        began = time.monotonic()
        answer = until_closed(sock, timeout=10)
        took = time.monotonic() - began

    assert statuses(answer) == [408], answer[:300]
    assert header_of(answer, "connection") == "close"
    assert took > QUICK_SECONDS * 0.8


@pytest.mark.slow
def test_a_connection_that_sends_nothing_is_closed_at_the_deadline(quick):
    with open_socket(quick.port) as sock:
        began = time.monotonic()
        answer = until_closed(sock, timeout=10)
        took = time.monotonic() - began

    assert answer == b""  # closed without a word: it asked nothing
    assert took > QUICK_SECONDS * 0.8


@pytest.mark.slow
def test_a_head_sent_a_byte_at_a_time_is_cut_at_the_deadline(quick):
    data = head(pad=1000)
    stop = threading.Event()
    sent = []

    def drip(sock: socket.socket) -> None:
        for byte in data:
            if stop.wait(0.1):
                return
            try:
                sock.sendall(bytes([byte]))
            except OSError:
                return
            sent.append(byte)

    with open_socket(quick.port) as sock:
        dripper = threading.Thread(target=drip, args=(sock,), daemon=True)
        dripper.start()
        try:
            answer = until_closed(sock, timeout=10)
        finally:
            stop.set()
            dripper.join(5)

    assert statuses(answer) == [408], answer[:300]
    assert len(sent) < len(data), "the whole head was sent: the deadline did not cut it"


@pytest.mark.slow
def test_a_kept_alive_connection_idles_past_the_deadline_and_its_next_head_is_bounded(
    quick,
):
    connection = http.client.HTTPConnection(
        "127.0.0.1", quick.port, timeout=10, source_address=(CLIENT, 0)
    )
    try:
        connection.request("GET", LIVE)
        first = connection.getresponse()
        assert (first.status, first.read()) == (200, b'{"status": "ok"}')
        assert connection.sock is not None
        sock = connection.sock
        # Idle between requests for longer than a head may take: KEEP_ALIVE_SECONDS governs.
        time.sleep(QUICK_SECONDS * 2.5)
        connection.request("GET", LIVE)
        second = connection.getresponse()
        assert (second.status, second.read()) == (200, b'{"status": "ok"}')
        assert connection.sock is sock  # the same connection, kept

        sock.sendall(head()[:20])  # the third head never ends
        answer = until_closed(sock, timeout=10)
    finally:
        connection.close()

    assert statuses(answer) == [408], answer[:300]


# -- WebSocket handshakes --------------------------------------------------------------------


@pytest.mark.slow
def test_a_websocket_handshake_is_served_and_its_head_bounded(server):
    path = "/ws/no-such-socket/"
    padding = {f"X-Pad-{n}": "a" * 4000 for n in range(3)}  # 12 KiB of headers, lines < 8 KiB
    with (
        open_socket(server.port) as sock,
        ws_connect(
            server.ws_url(path), sock=sock, additional_headers=padding, open_timeout=10
        ) as ws,
    ):
        assert ws.response.status_code == 101
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404  # the app's route

    upgrade = head(
        path,
        pad=MAX_HEADER_BYTES,
        extra="Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n",
    )
    answer = send_and_read(server.port, upgrade)

    assert statuses(answer) == [431], answer[:300]
    assert header_of(answer, "connection") == "close"


# -- uvicorn's internals (docs/internals.md) ---------------------------------------------------

#: The methods of uvicorn's HttpToolsProtocol that HeadBoundProtocol extends, with the
#: parameters it calls them with.
EXTENDED = {
    "__init__": ["self", "config", "server_state", "app_state", "_loop"],
    "connection_made": ["self", "transport"],
    "connection_lost": ["self", "exc"],
    "data_received": ["self", "data"],
    "on_message_begin": ["self"],
    "on_headers_complete": ["self"],
    "on_body": ["self", "body"],
    "on_message_complete": ["self"],
}


def test_uvicorn_is_the_version_the_internals_table_names():
    register = (ROOT / "docs/internals.md").read_text()
    assert any("HeadBoundProtocol" in line for line in register.splitlines())
    named = re.search(r"uvicorn (\d+\.\d+\.\d+)", register)
    assert named is not None
    pinned = re.search(
        r"^uvicorn\[standard\]==(\S+)$", (ROOT / "requirements.txt").read_text(), re.M
    )

    # A new uvicorn: read httptools_impl.py again, then update the row and this pin.
    assert importlib.metadata.version("uvicorn") == named.group(1)
    assert pinned is not None and pinned.group(1) == named.group(1)


def test_the_extended_methods_are_uvicorns_with_the_parameters_relied_on():
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol, RequestResponseCycle
    from uvicorn.server import ServerState

    for name, parameters in EXTENDED.items():
        assert name in vars(HttpToolsProtocol), name
        assert list(inspect.signature(getattr(HttpToolsProtocol, name)).parameters) == parameters
        assert name in vars(HeadBoundProtocol), name
    # httptools calls these because HeadBoundProtocol has them; uvicorn's own would be replaced.
    for name in ("on_chunk_header", "on_chunk_complete"):
        assert not hasattr(HttpToolsProtocol, name), name
        assert name in vars(HeadBoundProtocol), name
    # What the refusals read: the server's Date and Server headers, the answer under way.
    assert ServerState().default_headers == []
    source = inspect.getsource(HttpToolsProtocol)
    for state in ("url", "headers", "cycle", "flow", "parser", "loop", "transport", "server_state"):
        assert f"self.{state} = " in source, state
    assert "self.url += url" in source  # the URL is collected whole before on_headers_complete
    assert "self.headers.append((name, value))" in source
    # An answer under way: `keep_alive` off closes the connection once it is complete.
    cycle = inspect.getsource(RequestResponseCycle)
    assert "self.response_complete = True" in cycle
    assert "if not self.keep_alive:\n                    self.transport.close()" in cycle


def test_both_ways_of_serving_use_the_protocol():
    from uvicorn.config import Config

    async def app(scope, receive, send) -> None:  # pragma: no cover - never called
        pass

    assert SERVER_OPTIONS["http"] is HeadBoundProtocol
    assert Worker.CONFIG_KWARGS["http"] is HeadBoundProtocol
    config = Config(app, **SERVER_OPTIONS)
    config.load()
    assert config.http_protocol_class is HeadBoundProtocol
    assert "h11_max_incomplete_event_size" not in SERVER_OPTIONS  # h11 never runs
