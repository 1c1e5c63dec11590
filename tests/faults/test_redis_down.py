"""Redis stops in the middle of play, then comes back (a live uvicorn on the test database).

The server uses a redis-server of this test's own (channel layer, throttle cache, the
leaderboard index, the live store). While it is down: moves go on, the board comes from
PostgreSQL with the right ranks, /healthz/ says "degraded" (200: play works). Once it is back
on the same port (empty, as after a crash without persistence): watchers get a snapshot, live
updates flow again and the leaderboard index is rebuilt by the next board read.
"""

from __future__ import annotations

import contextlib
import json
import re
import time

import pytest
import redis as redis_py
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from games.models import Attempt
from leaderboards import board
from tests.faults.live import (
    Client,
    RedisServer,
    Server,
    dailies_ready,
    wait_until,
    ws_headers,
)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]

#: A move must answer well within this while Redis is down (short Redis timeouts).
MOVE_SECONDS = 3.0


def start(client: Client, daily) -> dict:
    status, state = client.post(f"/api/dailies/{daily.game}/{daily.date.isoformat()}/attempts/")
    assert status == 201, state
    return state


def play(client: Client, state: dict, count: int) -> dict:
    """`count` moves (the first legal card move each time), each answered 200 in time."""
    for _ in range(count):
        began = time.monotonic()
        status, answer = client.post(
            f"/api/attempts/{state['id']}/moves/", {"seq": state["seq"], "move": state["legal"][0]}
        )
        assert status == 200, answer
        assert time.monotonic() - began < MOVE_SECONDS
        state = answer
    return state


def expected_ranks(daily) -> dict[str, int]:
    """Player name -> rank, computed from the database alone (rows name no attempt)."""
    ranked = board.ranked(list(board.board_queryset(daily.pk)))
    return {a.player.display_name: rank for rank, _, a in ranked}


def name_of(state: dict) -> str:
    return Attempt.objects.select_related("player").get(pk=state["id"]).player.display_name


def board_ranks(client: Client, daily) -> dict[int, int]:
    status, body = client.get(f"/api/leaderboards/{daily.game}/{daily.date.isoformat()}/")
    assert status == 200, body
    assert body["total"] == len(body["rows"])
    return {row["player"]: row["rank"] for row in body["rows"]}


def messages(ws, wait: float = 1.5) -> list[dict]:
    """Every message that arrives within `wait` seconds of silence."""
    got = []
    while True:
        try:
            got.append(json.loads(ws.recv(timeout=wait)))
        except TimeoutError:
            return got


def watch(server: Server, daily):
    return connect(
        server.ws_url(f"/ws/daily/{daily.game}/{daily.date.isoformat()}/"),
        additional_headers=ws_headers(server, None),
        open_timeout=10,
    )


def watch_like_a_browser(server: Server, daily, failures: list[str], tries: int = 5):
    """Open a daily socket as board.js does: a socket closed at once (4503: the live side not
    reachable yet) is tried again, up to `tries` times; each refusal is noted in `failures`.
    Returns the socket and its first message."""
    for _ in range(tries):
        ws = watch(server, daily)
        try:
            return ws, json.loads(ws.recv(timeout=5))
        except ConnectionClosed as exc:
            failures.append(f"closed with {exc.rcvd.code if exc.rcvd else None}")
            ws.close()
            time.sleep(0.2)
    raise AssertionError(f"no daily socket after {tries} tries: {failures}")


def test_redis_stops_mid_play_and_comes_back(start_server):
    own = RedisServer().start()
    try:
        daily = dailies_ready("munger")
        server = start_server(redis=own.url)
        alice, bob = server.client(), server.client()
        a, b = start(alice, daily), start(bob, daily)

        # Before: a watcher sees updates; the index exists in Redis after a board read.
        with watch(server, daily) as watcher:
            first = json.loads(watcher.recv(timeout=5))
            assert first["type"] == "snapshot"
            a, b = play(alice, a, 3), play(bob, b, 1)
            seen = messages(watcher)
            assert seen and seen[-1]["type"] == "update"
            last_version = seen[-1]["version"]
        assert board_ranks(alice, daily) == expected_ranks(daily)
        lb_keys = redis_py.Redis.from_url(own.url)
        assert lb_keys.keys(f"{server.env['REDIS_KEY_PREFIX']}:lb:{daily.pk}:*")

        # Redis dies.
        own.stop()
        a, b = play(alice, a, 4), play(bob, b, 6)
        assert board_ranks(bob, daily) == expected_ranks(daily)
        # Still in service (play works), and it says what is missing.
        status, health = wait_until(
            lambda: (answer := alice.get("/healthz/"))[1]["status"] != "ok" and answer,
            timeout=10,
            what="healthz to notice",
        )
        assert status == 200, health
        assert health["status"] == "degraded" and health["checks"]["redis"] == "down"
        assert health["checks"]["database"] == "ok"
        a = play(alice, a, 1)

        # Redis is back on the same port, empty.
        own = RedisServer(own.port).start()
        wait_until(
            lambda: alice.get("/healthz/")[1]["status"] == "ok", timeout=30, what="healthz ok"
        )

        # A new watcher gets a snapshot with the board as the database has it.
        refused: list[str] = []
        fresh, snapshot = watch_like_a_browser(server, daily, refused)
        back, back_first = watch_like_a_browser(server, daily, refused)
        print("handshakes refused after the restart:", refused)
        with fresh, back:
            assert snapshot["type"] == "snapshot"
            assert {r["player"]: r["rank"] for r in snapshot["board"]["top"]} == (
                expected_ranks(daily)
            )
            # The watcher of before reconnects with the last version it saw: a snapshot (its
            # first message) or the missed events bring it up to date.
            again = [back_first]
            back.send(json.dumps({"type": "resync", "version": last_version}))
            again += messages(back, wait=1.0)
            assert again[0]["type"] == "snapshot" or [e["type"] for e in again] == ["update"] * len(
                again
            )
            latest = [e for e in again if "board" in e][-1]
            assert {r["player"]: r["rank"] for r in latest["board"]["top"]} == (
                expected_ranks(daily)
            )
            # Live updates flow again, to both.
            messages(fresh, wait=0.5)
            a = play(alice, a, 1)
            for ws in (fresh, back):
                updates = [e for e in messages(ws) if e["type"] == "update"]
                assert updates, "no live update after Redis came back"
                moves = {row["player"]: row["moves"] for row in updates[-1]["board"]["top"]}
                assert moves[name_of(a)] == a["seq"]

        # The leaderboard index is rebuilt in the new Redis by a board read (the index waits a
        # few seconds after an error before it tries Redis again).
        def rebuilt() -> bool:
            assert board_ranks(bob, daily) == expected_ranks(daily)
            return bool(lb_keys.exists(f"{server.env['REDIS_KEY_PREFIX']}:lb:{daily.pk}:meta"))

        wait_until(rebuilt, timeout=20, step=0.5, what="the leaderboard index rebuilt")
        assert lb_keys.zcard(f"{server.env['REDIS_KEY_PREFIX']}:lb:{daily.pk}:board") == 2
    finally:
        own.stop()


def test_a_redis_outage_is_logged_when_it_begins_and_ends_not_per_error(start_server):
    """Players over REST and both sockets while Redis is down: the log says "unreachable" once
    and "reachable again" once, with the count of what it held back, and no traceback; without
    this, each failed cache call, socket and channel-layer read wrote its own lines (thousands
    a minute)."""
    own = RedisServer().start()
    try:
        daily = dailies_ready("munger")
        server = start_server(redis=own.url)
        players = [server.client() for _ in range(3)]
        states = [start(player, daily) for player in players]
        sockets = contextlib.ExitStack()
        for _ in range(3):
            sockets.enter_context(watch(server, daily)).recv(timeout=5)  # the snapshot
        for player, state in zip(players, states, strict=True):
            sockets.enter_context(
                connect(
                    server.ws_url(f"/ws/play/{state['id']}/"),
                    additional_headers=ws_headers(server, player.token),
                    open_timeout=10,
                )
            ).recv(timeout=5)  # the state
        before = len(server.log().splitlines())

        own.stop()
        for _ in range(4):
            states = [play(p, s, 1) for p, s in zip(players, states, strict=True)]
            for player in players:
                board_ranks(player, daily)
            refused: list[str] = []
            with contextlib.suppress(AssertionError):
                watch_like_a_browser(server, daily, refused, tries=2)[0].close()
        wait_until(lambda: "Redis unreachable" in server.log(), timeout=10, what="the outage")
        own = RedisServer(own.port).start()
        wait_until(lambda: "Redis reachable again" in server.log(), timeout=30, what="the recovery")
        sockets.close()

        outage = server.log().splitlines()[before:]
        print("\n".join(outage))
        assert sum("Redis unreachable" in line for line in outage) == 1
        assert sum("Redis reachable again" in line for line in outage) == 1
        held = int(re.search(r"\((\d+) errors held back", "\n".join(outage)).group(1))
        assert held > 10  # what used to be written line by line
        assert not any("Traceback" in line for line in outage)
        assert len(outage) < 10
    finally:
        own.stop()
