"""Throttles hold under parallel requests (games/api/throttles.py counts atomically).

A crowd of requests released at the same moment against a live server: counters read by one
request before another wrote them let 88 guests through a limit of 30, and 253 ranked starts
through 120. Each request here names its client address through `X-Forwarded-For` behind one
trusted proxy (`NUM_PROXIES=1`), as the edge would append it.

- On SQLite with the local-memory cache (the embedded default: one process, its threads);
- on PostgreSQL with Redis (the counters shared by every process of a deployment).
"""

from __future__ import annotations

import datetime as dt
import secrets
import subprocess
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.faults.live import Client, Server, dailies_ready
from tests.support import PYTHON, ROOT, clean_env

pytestmark = pytest.mark.slow

CROWD = 60


def crowd(
    server: Server, path: str, *, address: str, clients: list[Client] | None = None
) -> list[int]:
    """The statuses of CROWD POSTs to `path` (by `clients`, else each a new client) from
    `address`, released together."""
    clients = clients or [server.client() for _ in range(CROWD)]
    barrier = threading.Barrier(len(clients))

    def one(client: Client) -> int:
        barrier.wait(timeout=30)
        status, _, _ = client.request(
            "POST", path, {}, headers={"X-Forwarded-For": address}, timeout=60
        )
        return status

    with ThreadPoolExecutor(len(clients)) as pool:
        return list(pool.map(one, clients))


@pytest.mark.long
def test_guests_made_in_parallel_stay_within_the_limit_on_sqlite(tmp_path):
    env = clean_env(
        DEBUG="false",
        HTTPS="false",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        STATIC_MANIFEST="false",
        SECRET_KEY=secrets.token_urlsafe(64),
        SQLITE_PATH=str(tmp_path / "db.sqlite3"),
        PYTHONPATH=str(ROOT),
        NUM_PROXIES="1",
        THROTTLE_GUESTS_IP="20/min",
        THROTTLE_GUESTS_NET="1000/min",
    )
    migrated = subprocess.run(
        [PYTHON, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert migrated.returncode == 0, migrated.stderr
    server = Server(env, tmp_path / "server.log").start()
    try:
        statuses = crowd(server, "/api/players/", address="203.0.113.10")
    finally:
        server.stop()

    assert sorted(statuses) == [201] * 20 + [429] * (CROWD - 20), server.log()[-3000:]


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_guests_and_starts_in_parallel_stay_within_their_limits_on_postgres_and_redis(
    start_server, settings
):
    from games.models import Attempt, Player
    from tests.games import factories

    daily = dailies_ready("munger")
    yesterday = factories.daily("munger", daily.date - dt.timedelta(days=1))
    server = start_server(
        redis=settings.REDIS_URL,
        NUM_PROXIES="1",
        THROTTLE_GUESTS_IP="20/min",
        THROTTLE_STARTS_IP="25/min",
        RANKED_STARTS_PER_ADDRESS="10",
    )
    today_path = f"/api/dailies/munger/{daily.date.isoformat()}/attempts/"

    guests = crowd(server, "/api/players/", address="203.0.113.10")
    # New guests starting today's daily: 20 guests may be made, 10 of them may play ranked
    # (the others are refused the daily until its day is over: 409 daily_address_full).
    ranked = crowd(server, today_path, address="203.0.113.20")
    # Players with a cookie each (made from addresses of their own) start a past day's daily
    # from one address: the starts' limit per address.
    players = []
    for n in range(CROWD):
        player = server.client()
        status, _, _ = player.request(
            "POST", "/api/players/", {}, headers={"X-Forwarded-For": f"10.{n}.0.1"}
        )
        assert status == 201
        players.append(player)
    practice = crowd(
        server,
        f"/api/dailies/munger/{yesterday.date.isoformat()}/attempts/",
        address="203.0.113.30",
        clients=players,
    )

    assert sorted(guests) == [201] * 20 + [429] * (CROWD - 20)
    assert sorted(ranked) == [201] * 10 + [409] * 10 + [429] * (CROWD - 20)
    assert sorted(practice) == [201] * 25 + [429] * (CROWD - 25)
    assert Attempt.objects.filter(daily=daily, ranked=True).count() == 10
    assert not Attempt.objects.filter(daily=daily, ranked=False).exists()
    assert Attempt.objects.filter(daily=yesterday).count() == 25
    # The 20 guests of the first crowd, the 20 the second could make, the 60 players.
    assert Player.objects.count() == 100
