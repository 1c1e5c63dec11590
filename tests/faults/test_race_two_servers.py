"""One race served by two server processes through Redis: racers play on one, a watcher on the
other sees every change in version order; a watcher of a server that was killed and started
again gets the race as it is, from the database (realtime/race.py)."""

from __future__ import annotations

import datetime as dt
import json
import uuid

import pytest
from websockets.sync.client import connect

from games import clock
from tests.faults.live import Client, wait_until, ws_headers
from tests.games import factories

pytestmark = [
    pytest.mark.slow,
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]


def events_until(socket, moves: int) -> list[dict]:
    """The events up to the one that shows the first racer at `moves` moves."""
    seen = [json.loads(socket.recv(timeout=10))]
    while seen[-1]["race"]["racers"][0]["moves"] < moves:
        seen.append(json.loads(socket.recv(timeout=10)))
    return seen


def test_a_race_played_on_one_server_is_watched_live_on_another(start_server, settings):
    daily = factories.daily("masterpiece", clock.today() - dt.timedelta(days=2))
    line = daily.deal.certificate
    prefix = f"test-race-{uuid.uuid4().hex[:8]}"  # one channel layer for both
    one = start_server(redis=settings.REDIS_URL, REDIS_KEY_PREFIX=prefix)
    two = start_server(redis=settings.REDIS_URL, REDIS_KEY_PREFIX=prefix)
    alice, bob = Client(one.url), Client(two.url)
    status, race = alice.post("/api/races/", {"game": "masterpiece", "date": str(daily.date)})
    assert status == 201, race
    code = race["code"]
    assert bob.post(f"/api/races/{code}/join/")[0] == 201
    with connect(
        two.ws_url(f"/ws/race/{code}/"), additional_headers=ws_headers(two, None), open_timeout=10
    ) as watcher:
        snapshot = json.loads(watcher.recv(timeout=10))
        assert snapshot["type"] == "snapshot" and snapshot["race"]["version"] == 2
        assert alice.post(f"/api/races/{code}/start/")[0] == 200
        attempt = wait_until(
            lambda: (lambda a: a[1] if a[0] == 201 else None)(
                alice.post(f"/api/races/{code}/attempt/")
            ),
            timeout=15,
            what="the countdown's end",
        )
        for seq, token in enumerate(line[:5]):
            assert (
                alice.post(f"/api/attempts/{attempt['id']}/moves/", {"seq": seq, "move": token})[0]
                == 200
            )
        # The start, the attempt, then the moves (those that waited together for the race's
        # updater make one version): every version once, in order.
        seen = events_until(watcher, 5)
        versions = [e["race"]["version"] for e in seen]
        assert versions == list(range(3, 3 + len(versions))) and len(versions) >= 3
    two.kill()
    two.start()
    with connect(
        two.ws_url(f"/ws/race/{code}/"), additional_headers=ws_headers(two, None), open_timeout=10
    ) as watcher:
        again = json.loads(watcher.recv(timeout=10))
        # Nothing seen is lost; the updater may have sent one more version of the same moves.
        assert again["race"]["version"] >= versions[-1]
        assert again["race"]["racers"][0]["moves"] == 5
