"""One race served by two server processes through Redis: racers play on one, a watcher on the
other sees every change of the race and every racer's progress in version order; a watcher of a
server that was killed and started again gets the race as it is, from the database
(realtime/race.py)."""

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


def messages_until(socket, moves: int) -> list[dict]:
    """The messages up to the one that shows the first racer at `moves` moves (a whole view
    or that racer's progress)."""
    seen = [json.loads(socket.recv(timeout=10))]
    while first_racer(seen[-1])["moves"] < moves:
        seen.append(json.loads(socket.recv(timeout=10)))
    return seen


def first_racer(message: dict) -> dict:
    return message["race"]["racers"][0] if "race" in message else message["racer"]


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
        # The start and the attempt (the race's versions), then the moves (alice's own
        # versions; those that waited together for the race's updater make one): every version
        # of each line once, in order.
        seen = messages_until(watcher, 5)
        views = [m["race"]["version"] for m in seen if m["type"] == "event"]
        mine = [m["racer"]["version"] for m in seen if m["type"] == "progress"]
        assert views == [3, 4] and mine == list(range(1, 1 + len(mine))) and mine
    two.kill()
    two.start()
    with connect(
        two.ws_url(f"/ws/race/{code}/"), additional_headers=ws_headers(two, None), open_timeout=10
    ) as watcher:
        again = json.loads(watcher.recv(timeout=10))
        # Nothing seen is lost; the updater may have written one more version of the same moves.
        assert again["race"]["version"] == views[-1]
        assert again["race"]["racers"][0]["version"] >= mine[-1]
        assert again["race"]["racers"][0]["moves"] == 5
