"""The edge (deploy/nginx/patience.conf.template) run for real, for what monitoring asks of it:
`/metrics` never passes, however it is spelled and whatever token comes with it; every request
reaches the app with an `X-Request-ID`, the client's own or nginx's. nginx as tests/faults/
test_edge.py runs it, in front of a stand-in for the app that notes what reaches it."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.faults.test_edge import Edge

pytestmark = pytest.mark.slow


class Upstream:
    """An HTTP server on a free port that answers 200 and notes each request's path and
    X-Request-ID."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, str | None]] = []
        seen = self.seen

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                seen.append((self.path, self.headers.get("X-Request-ID")))
                self.send_response(200)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def edge(tmp_path) -> Iterator[tuple[Edge, Upstream]]:
    upstream = Upstream()
    front = Edge(tmp_path).start(upstream.port)
    try:
        yield front, upstream
    finally:
        front.stop()
        upstream.stop()


@pytest.mark.parametrize(
    "path", ["/metrics", "/metrics/", "/metrics?x=1", "//metrics", "/%6Detrics", "/./metrics"]
)
def test_the_metrics_never_pass_the_edge(edge, path):
    front, upstream = edge
    status, _, _ = front.https(
        "GET", path, {"Host": "127.0.0.1", "Authorization": "Bearer " + "t" * 40}
    )
    assert status == 404
    assert upstream.seen == []
    # Anything else does.
    assert front.https("GET", "/metric", {"Host": "127.0.0.1"})[0] == 200
    assert [path for path, _ in upstream.seen] == ["/metric"]


def test_every_request_reaches_the_app_with_an_id(edge):
    front, upstream = edge
    front.https("GET", "/", {"Host": "127.0.0.1"})
    front.https("GET", "/", {"Host": "127.0.0.1"})
    front.https("GET", "/", {"Host": "127.0.0.1", "X-Request-ID": "from-the-client.1"})

    [(_, first), (_, second), (_, given)] = upstream.seen
    assert first and re.fullmatch(r"[0-9a-f]{32}", first)  # nginx's $request_id
    assert second and re.fullmatch(r"[0-9a-f]{32}", second) and second != first
    assert given == "from-the-client.1"  # the app checks it (config/requestid.py)
