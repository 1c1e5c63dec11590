"""Browser tests: a real server in a subprocess, and Debian's Chromium driven by Playwright.

The live server
    `live_server_url` (session) starts `python -m config.serving` (uvicorn) on a free port of
    127.0.0.1, the way production serves the app (HTTP and WebSockets, ASGI), with production
    settings: DEBUG=false, HTTPS=false (plain HTTP on loopback), ALLOWED_HOSTS=127.0.0.1,localhost,
    a strong random SECRET_KEY made for this run, STATIC_MANIFEST=false (static files straight
    from the apps' folders, no collectstatic), and REDIS_URL passed through when set, so the
    channel layer is the real one. It trusts one proxy's X-Forwarded-For (NUM_PROXIES=1): each
    browser context sends an address and network of its own (`PeopleBrowser`). The throttles on
    creating guests, accounts and starts are raised all the same: a test plays more deals a
    minute than a person would.

    Its database is a dedicated SQLite file in a temporary folder, made by `manage.py migrate`
    before the server starts, and deleted at the end. Why not pytest-django's test database: on
    SQLite that one is in memory, which another process cannot open, and on PostgreSQL the
    other tests' transactions would hide their rows from the server or leave the server's rows
    behind for them. A file of its own works the same on every machine, needs no service, and
    no test in this process ever writes to it: the tests only act through the browser and HTTP,
    and prepare data with `server_manage` / `make_dailies`, which run management code in a
    subprocess with the server's own environment (so its own database).

    The server is stopped at the end of the session: SIGTERM, then SIGKILL after a timeout.

The browser
    `browser` (session) is one headless Chromium from /usr/bin/chromium (never a browser
    downloaded by Playwright); `e2e_page` is a new context and page per test. Tests that use
    them are marked `e2e` and `slow`, and are skipped, with the reason, only when Chromium is
    not installed. They wait for states, never for a fixed time (tests/e2e/browser.py).

Screenshots
    `screenshot(page, name)` writes docs/screenshots/<name> only when PATIENCE_SCREENSHOTS=1
    (`make screenshots`), so that a test run leaves the tree clean.

Order
    Playwright's sync API leaves an event loop running in the main thread, and Django then
    refuses synchronous database calls there. So `pytest_collection_modifyitems` moves every
    e2e test after all the others (async tests included), and DJANGO_ALLOW_ASYNC_UNSAFE is set
    when the first e2e test starts.
"""

from __future__ import annotations

import itertools
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.browser import settle

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path(os.environ.get("PLAYWRIGHT_CHROMIUM_EXECUTABLE", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SCREENSHOTS = ROOT / "docs" / "screenshots"
SERVER_START_TIMEOUT = 60  # seconds
SERVER_STOP_TIMEOUT = 10  # seconds
COMMAND_TIMEOUT = 120  # seconds, for one management command against the server's database

NO_CHROMIUM = f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)"


# -- order -----------------------------------------------------------------------------------


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Browser tests last, in a stable order otherwise. Among them, those that launch a browser
    of their own (not the session's `browser`) go first, so that two Playwright instances never
    run at once (the sync API cannot start inside another one's event loop)."""
    others = [item for item in items if not item.get_closest_marker("e2e")]
    e2e = [item for item in items if item.get_closest_marker("e2e")]
    own_browser = [item for item in e2e if "browser" not in getattr(item, "fixturenames", ())]
    session_browser = [item for item in e2e if "browser" in getattr(item, "fixturenames", ())]
    items[:] = others + own_browser + session_browser


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("e2e"):
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"


# -- the live server -----------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _server_env(database: Path, port: int) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE", "DJANGO_SETTINGS_MODULE"}
    }
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "SQLITE_PATH": str(database),
            "DEBUG": "false",
            "HTTPS": "false",
            "STATIC_MANIFEST": "false",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "CSRF_TRUSTED_ORIGINS": f"http://127.0.0.1:{port},http://localhost:{port}",
            "SECRET_KEY": secrets.token_urlsafe(64),
            # Each browser context says its address (`PeopleBrowser`), as an edge would.
            "NUM_PROXIES": "1",
            "PYTHONPATH": str(ROOT),
            "PYTHONUNBUFFERED": "1",
        }
    )
    if os.environ.get("REDIS_URL"):
        env["REDIS_URL"] = os.environ["REDIS_URL"]
        # Names of its own in the shared Redis: its database's ids repeat those of the other
        # workers' servers, and an attempt's socket group is named by its id.
        env["REDIS_KEY_PREFIX"] = f"test-e2e-{uuid.uuid4().hex[:12]}"
    # Creating guests and accounts, starting games and ranked starts of a daily are throttled
    # per address: a test plays more deals a minute than a person would (and the sockets and
    # the tests' own requests share 127.0.0.1, with Redis across runs too).
    for scope in (
        "GUESTS_IP",
        "GUESTS_NET",
        "STARTS_IP",
        "STARTS_NET",
        "ACCOUNTS_IP",
        "ACCOUNTS_NET",
        "RANKED_IP",
        "RANKED_NET",
    ):
        env.setdefault(f"THROTTLE_{scope}", "1000/min")
    for limit in (
        "RANKED_STARTS_PER_ADDRESS",
        "RANKED_STARTS_PER_NETWORK",
        "RANKED_STARTS_PER_NETWORK56",
        "LEAGUE_CREATIONS_PER_ADDRESS",
    ):
        env.setdefault(limit, "100000")
    # Hints search within a wall-clock budget: room enough on a loaded machine.
    env.setdefault("HINT_MS_MASTERPIECE", "30000")
    env.setdefault("HINT_MS_MUNGER", "30000")
    return env


def _wait_until_up(url: str, process: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + SERVER_START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the live server exited at start:\n{log.read_text()[-4000:]}")
        try:
            with urllib.request.urlopen(f"{url}/rules/munger/", timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.25)
    raise RuntimeError(f"the live server did not answer in time:\n{log.read_text()[-4000:]}")


class LiveServer:
    """The running server: its URL and a way to run code against its database."""

    def __init__(self, url: str, env: dict[str, str]) -> None:
        self.url = url
        self.env = env

    def manage(self, *args: str) -> str:
        """`manage.py ARGS` against the server's database; its standard output."""
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=COMMAND_TIMEOUT,
        )
        if done.returncode != 0:
            raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{done.stderr[-4000:]}")
        return done.stdout

    def python(self, code: str) -> Any:
        """Run `code` (Django set up) against the server's database; it may `print(json)`,
        and the last line printed is returned decoded."""
        out = self.manage("shell", "--no-startup", "-c", code).strip().splitlines()
        return json.loads(out[-1]) if out else None


@pytest.fixture(scope="session")
def e2e_server() -> Iterator[LiveServer]:
    folder = Path(tempfile.mkdtemp(prefix="patience-e2e-"))
    database = folder / "e2e.sqlite3"
    log = folder / "server.log"
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    env = _server_env(database, port)
    server = LiveServer(url, env)
    server.manage("migrate", "--noinput", "--verbosity", "0")
    with log.open("w") as out:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "config.serving",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        _wait_until_up(url, process, log)
        yield server
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=SERVER_STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=SERVER_STOP_TIMEOUT)
        for path in folder.iterdir():
            path.unlink()
        folder.rmdir()


@pytest.fixture(scope="session")
def live_server_url(e2e_server: LiveServer) -> str:
    return e2e_server.url


MAKE_DAILIES = """
import json
from games import clock
from games.models import DailyChallenge
from tests.games import factories
made = {}
for game in ("munger", "masterpiece"):
    daily = DailyChallenge.objects.filter(game=game, date=clock.today()).first()
    if daily is None:
        daily = factories.daily(game)
    made[game] = {
        "date": daily.date.isoformat(),
        "deal": daily.deal.deal_string,
        "certificate": list(daily.deal.certificate),
    }
print(json.dumps(made))
"""

MAKE_PAST_DAILIES = """
import datetime as dt, json
from games import clock
from games.models import DailyChallenge, Deal
from tests.games import factories
day = clock.today() - dt.timedelta(days=%(back)d)
for game in ("munger", "masterpiece"):
    if not DailyChallenge.objects.filter(game=game, date=day).exists():
        factories.daily(game, day)
print(json.dumps(day.isoformat()))
"""


@pytest.fixture(scope="session")
def make_dailies(e2e_server: LiveServer) -> Callable[..., dict[str, Any]]:
    """`make_dailies()`: today's certified daily of both games in the live server's database
    (made once, then found), as {game: {"date", "deal", "certificate"}}.
    `make_dailies(back=n)` makes the dailies of n days ago and returns {"date": ...}."""

    def make(back: int = 0) -> dict[str, Any]:
        if back:
            return {"date": e2e_server.python(MAKE_PAST_DAILIES % {"back": back})}
        return e2e_server.python(MAKE_DAILIES)

    return make


@pytest.fixture(scope="session")
def server_python(e2e_server: LiveServer) -> Callable[[str], Any]:
    """Run Django code against the live server's database (see `LiveServer.python`)."""
    return e2e_server.python


# -- the browser ---------------------------------------------------------------------------


class PeopleBrowser:
    """The browser, each of whose contexts is a person of their own: it comes from an address
    and a network (/24) of its own, 127.N.M.1, sent as X-Forwarded-For, which the live server
    trusts from one proxy (`NUM_PROXIES=1`) as production trusts its edge. The throttles and
    limits per address and network then meet each person as they would on the internet. (The
    header is the context's: its pages' and its API requests'. A WebSocket's handshake is not
    relied on to carry it, and counts as the proxy's own address, 127.0.0.1.)"""

    def __init__(self, browser: Any) -> None:
        self._browser = browser
        self._people = itertools.count(1)

    def address(self) -> str:
        n = next(self._people)
        return f"127.{1 + n // 256}.{n % 256}.1"

    def new_context(self, **options: Any) -> Any:
        headers = dict(options.pop("extra_http_headers", None) or {})
        headers["X-Forwarded-For"] = self.address()
        return self._browser.new_context(extra_http_headers=headers, **options)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip(NO_CHROMIUM)
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield PeopleBrowser(launched)
        finally:
            launched.close()


@pytest.fixture
def e2e_page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        yield page
    finally:
        context.close()


#: Screenshots are written to docs/screenshots/ only when asked (`make screenshots` sets it):
#: a test run leaves the tree as it found it.
TAKE_SCREENSHOTS = os.environ.get("PATIENCE_SCREENSHOTS") == "1"


@pytest.fixture
def screenshot() -> Callable[..., Path | None]:
    """`screenshot(page, "home.png")` saves a picture of the page to docs/screenshots/ once its
    cards are still (full page unless `full_page=False`), when screenshots are asked for; it
    does nothing otherwise."""

    def save(page: Any, name: str, *, full_page: bool = True) -> Path | None:
        if not TAKE_SCREENSHOTS:
            return None
        settle(page)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / name
        page.screenshot(path=str(path), full_page=full_page)
        return path

    return save
