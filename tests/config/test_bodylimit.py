"""Oversized bodies are refused before Django reads them (config/bodylimit.py)."""

from __future__ import annotations

import asyncio
import json

import pytest

from config.bodylimit import BodySizeLimitMiddleware

API_LIMIT = 16 * 1024
CHUNK = 4096


class Recorder:
    """A stand-in for the Django app: it reads the whole body and answers 200."""

    def __init__(self) -> None:
        self.called = False
        self.body = b""

    async def __call__(self, scope, receive, send) -> None:
        self.called = True
        while True:
            message = await receive()
            self.body += message.get("body", b"")
            if not message.get("more_body"):
                break
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})


class Client:
    """Sends a body in chunks; counts how many the app side asked for."""

    def __init__(self, chunks: int | None, chunk: bytes = b"x" * CHUNK) -> None:
        self.remaining = chunks  # None: never ends
        self.chunk = chunk
        self.received = 0
        self.sent: list[dict] = []

    async def receive(self) -> dict:
        self.received += 1
        if self.remaining is not None:
            self.remaining -= 1
        more = self.remaining is None or self.remaining > 0
        return {"type": "http.request", "body": self.chunk, "more_body": more}

    async def send(self, message: dict) -> None:
        self.sent.append(message)

    @property
    def status(self) -> int:
        return self.sent[0]["status"]

    @property
    def body(self) -> bytes:
        return b"".join(m.get("body", b"") for m in self.sent[1:])


def http_scope(path: str, content_length: int | None = None) -> dict:
    headers = [(b"host", b"localhost"), (b"content-type", b"application/json")]
    if content_length is not None:
        headers.append((b"content-length", str(content_length).encode()))
    return {"type": "http", "method": "POST", "path": path, "headers": headers}


async def test_a_declared_300_mb_body_is_refused_without_reading_any_of_it():
    app, client = Recorder(), Client(chunks=None)

    await BodySizeLimitMiddleware(app)(
        http_scope("/api/practice/", 300 * 1024 * 1024), client.receive, client.send
    )

    assert client.status == 413
    assert json.loads(client.body)["code"] == "too_large"
    assert client.received == 0
    assert not app.called


@pytest.mark.parametrize(
    ("path", "limit"),
    [("/api/practice/", API_LIMIT), ("/admin/login/", 1024 * 1024), ("/", 64 * 1024)],
)
async def test_each_part_of_the_site_has_its_limit(path, limit):
    over, at = Client(chunks=None), Client(chunks=1, chunk=b"x" * limit)

    await BodySizeLimitMiddleware(Recorder())(http_scope(path, limit + 1), over.receive, over.send)
    await BodySizeLimitMiddleware(Recorder())(http_scope(path, limit), at.receive, at.send)

    assert over.status == 413
    assert at.status == 200
    if not path.startswith("/api/"):
        assert over.sent[0]["headers"][0] == (b"content-type", b"text/plain; charset=utf-8")


async def test_a_chunked_body_is_refused_as_soon_as_it_passes_the_limit():
    app, client = Recorder(), Client(chunks=None)  # an endless chunked upload

    await BodySizeLimitMiddleware(app)(http_scope("/api/practice/"), client.receive, client.send)

    assert client.status == 413
    assert json.loads(client.body)["code"] == "too_large"
    assert client.received <= API_LIMIT // CHUNK + 1
    assert not app.called


async def test_a_chunked_body_within_the_limit_reaches_the_app_whole():
    app, client = Recorder(), Client(chunks=3)

    await BodySizeLimitMiddleware(app)(http_scope("/api/practice/"), client.receive, client.send)

    assert client.status == 200
    assert app.body == b"x" * (3 * CHUNK)


async def test_the_limit_is_the_settings(settings):
    settings.API_MAX_BODY_BYTES = 100
    client = Client(chunks=None)

    await BodySizeLimitMiddleware(Recorder())(
        http_scope("/api/practice/", 101), client.receive, client.send
    )

    assert client.status == 413


async def test_websockets_pass_through():
    seen = []

    async def app(scope, receive, send):
        seen.append(scope["type"])

    await BodySizeLimitMiddleware(app)({"type": "websocket", "path": "/ws/"}, None, None)

    assert seen == ["websocket"]


class Trickle(Client):
    """A body of `chunks` single bytes, one every `pause` seconds."""

    def __init__(self, chunks: int, pause: float) -> None:
        super().__init__(chunks=chunks, chunk=b"x")
        self.pause = pause

    async def receive(self) -> dict:
        await asyncio.sleep(self.pause)
        return await super().receive()


async def test_a_body_that_does_not_arrive_in_time_is_refused_before_the_app(settings):
    settings.REQUEST_BODY_SECONDS = 0.3
    app, client = Recorder(), Trickle(chunks=100, pause=0.05)

    await BodySizeLimitMiddleware(app)(
        http_scope("/api/practice/", 100), client.receive, client.send
    )

    assert client.status == 408
    assert json.loads(client.body)["code"] == "request_timeout"
    assert (b"connection", b"close") in client.sent[0]["headers"]
    assert not app.called


async def test_a_declared_body_is_read_whole_before_the_app_sees_the_request(settings):
    """The app (and the request slot it takes) meets a body only once it has all arrived."""
    settings.REQUEST_BODY_SECONDS = 5
    client = Trickle(chunks=5, pause=0.02)
    seen_when_called = []

    async def app(scope, receive, send):
        seen_when_called.append(client.received)
        await Recorder()(scope, receive, send)

    await BodySizeLimitMiddleware(app)(http_scope("/api/practice/", 5), client.receive, client.send)

    assert seen_when_called == [5]
    assert client.status == 200
