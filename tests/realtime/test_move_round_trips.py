"""What one move costs in waits on the services: round trips to PostgreSQL and to Redis, counted
at the client libraries (psycopg's cursors and transactions, redis-py's sends), for a socket
move at the start of a game and in the middle of a long one, and for a REST move.

A round trip is one statement, or one BEGIN or COMMIT psycopg sends on its own; for Redis, one
command or one pipeline sent. The counts do not depend on the machine, so they are asserted
here; what a move costs in time is measured in benchmarks/play.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import psycopg
import pytest
import redis.asyncio.connection
import redis.connection
from channels.db import database_sync_to_async
from psycopg.pq import TransactionStatus
from rest_framework.test import APIClient

from games import clock, services
from games.identity import COOKIE_NAME
from games.models import DailyChallenge
from tests.games import factories
from tests.realtime.conftest import close_all, receive, socket

#: Redis round trips of a lone player's socket move: the moves' rate count (shared by every
#: socket and request of the player and address), on the move's path, and the board's index,
#: sent after it by the process's sender. (The attempt's only tab sends nothing to other tabs,
#: and reads no registry of them.) In a busy process the index's updates share round trips.
REDIS_A_LONE_MOVE = 2

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.optimisation,
]


@pytest.fixture
async def sender():
    """This test's event loop runs the sender of the boards' index, as a server's does."""
    from leaderboards import index

    index.sender.start()
    yield
    await index.sender.stop()


@dataclass
class Trips:
    database: list[str] = field(default_factory=list)
    redis: list[str] = field(default_factory=list)
    counting: bool = False

    def clear(self) -> None:
        self.database.clear()
        self.redis.clear()


@pytest.fixture
def trips(monkeypatch) -> Trips:
    counted = Trips()
    execute = psycopg.Cursor.execute
    commit = psycopg.Connection.commit
    rollback = psycopg.Connection.rollback
    send = redis.connection.AbstractConnection.send_packed_command
    send_async = redis.asyncio.connection.AbstractConnection.send_packed_command

    def counting_execute(self, query, params=None, **kwargs):
        if counted.counting:
            connection = self.connection
            if not connection.autocommit and connection.info.transaction_status == (
                TransactionStatus.IDLE
            ):
                counted.database.append("BEGIN")
            text = query if isinstance(query, str) else getattr(query, "decode", str)(query)
            counted.database.append(str(text)[:80])
        return execute(self, query, params, **kwargs)

    def counting_end(end, word):
        def ended(self):
            if counted.counting and self.info.transaction_status != TransactionStatus.IDLE:
                counted.database.append(word)
            return end(self)

        return ended

    def note(command) -> None:
        text = repr(command)
        # A new connection's greeting (HELLO, CLIENT SETINFO ...) is paid once per connection.
        if counted.counting and not any(word in text for word in ("HELLO", "CLIENT")):
            counted.redis.append(text[:80])

    def counting_send(self, command, *args, **kwargs):
        note(command)
        return send(self, command, *args, **kwargs)

    async def counting_send_async(self, command, *args, **kwargs):
        note(command)
        return await send_async(self, command, *args, **kwargs)

    monkeypatch.setattr(psycopg.Cursor, "execute", counting_execute)
    monkeypatch.setattr(psycopg.Connection, "commit", counting_end(commit, "COMMIT"))
    monkeypatch.setattr(psycopg.Connection, "rollback", counting_end(rollback, "ROLLBACK"))
    monkeypatch.setattr(redis.connection.AbstractConnection, "send_packed_command", counting_send)
    monkeypatch.setattr(
        redis.asyncio.connection.AbstractConnection, "send_packed_command", counting_send_async
    )
    return counted


@database_sync_to_async
def a_ranked_game(name: str, played: int) -> tuple[int, str, list[str]]:
    """A ranked attempt at today's Munger daily with the first `played` moves of its deal's
    line stored; the attempt's id, its player's cookie token and the moves still to play."""
    daily = DailyChallenge.objects.filter(game="munger", date=clock.today()).first()
    daily = daily or factories.daily("munger")
    player = factories.player(name)
    token = services.player_token_issue(player=player)
    attempt, _ = services.attempt_start(player=player, daily=daily)
    line = list(daily.deal.certificate)
    for seq, move in enumerate(line[:played]):
        services.attempt_play(attempt_id=attempt.pk, player=player, seq=seq, move=move)
    return attempt.pk, token, line[played:]


async def socket_moves(trips: Trips, attempt_id: int, token: str, moves: list[str], first: int):
    tab = socket(f"/ws/play/{attempt_id}/", token)
    try:
        connected, _ = await tab.connect()
        assert connected
        assert (await receive(tab))["state"]["seq"] == first
        trips.clear()
        trips.counting = True
        for seq, move in enumerate(moves, start=first):
            await tab.send_json_to({"type": "move", "seq": seq, "move": move})
            answer = await receive(tab)
            assert answer["type"] == "state" and answer["state"]["seq"] == seq + 1, answer
        trips.counting = False
    finally:
        trips.counting = False
        await close_all(tab)


async def test_a_socket_move_in_the_middle_of_a_long_game_waits_once_on_each_service(trips, sender):
    attempt_id, token, rest = await a_ranked_game("middle", played=60)
    moves = rest[:20]

    await socket_moves(trips, attempt_id, token, moves, first=60)

    per_move_database = len(trips.database) / len(moves)
    per_move_redis = len(trips.redis) / len(moves)
    assert per_move_database <= 1, trips.database[:12]
    assert per_move_redis <= REDIS_A_LONE_MOVE, trips.redis[:12]


async def test_the_first_socket_move_waits_once_on_the_database(trips, sender):
    attempt_id, token, rest = await a_ranked_game("first", played=0)

    await socket_moves(trips, attempt_id, token, rest[:1], first=0)

    assert len(trips.database) <= 1, trips.database
    assert len(trips.redis) <= REDIS_A_LONE_MOVE, trips.redis


async def test_in_a_busy_process_a_socket_move_waits_on_redis_about_once(trips, sender):
    """Ten players moving at once: each move counts its rate on its way (one round trip), and
    the board's index gets the updates of the moment together."""
    games = [await a_ranked_game(f"busy {i}", played=10) for i in range(10)]
    tabs = [socket(f"/ws/play/{attempt_id}/", token) for attempt_id, token, _ in games]
    rounds = 8
    try:
        for tab in tabs:
            assert (await tab.connect())[0]
            assert (await receive(tab))["state"]["seq"] == 10
        trips.clear()
        trips.counting = True
        for step in range(rounds):
            for tab, (_, _, rest) in zip(tabs, games, strict=True):
                await tab.send_json_to({"type": "move", "seq": 10 + step, "move": rest[step]})
            for tab in tabs:
                assert (await receive(tab))["state"]["seq"] == 11 + step
        trips.counting = False
    finally:
        trips.counting = False
        await close_all(*tabs)

    moves = rounds * len(tabs)
    assert len(trips.database) <= moves, trips.database[:12]
    # One rate count a move, and the index's updates of the moment together: 88 round trips
    # for 80 moves alone, up to 106 while the whole suite runs beside it (a busy machine
    # flushes fewer moves at a time). Without the batching each move would make two (2.0).
    assert len(trips.redis) / moves <= 1.5, trips.redis[:20]


@database_sync_to_async
def rest_moves(trips: Trips, attempt_id: int, token: str, moves: list[str], first: int) -> None:
    client = APIClient(REMOTE_ADDR="127.0.4.1")
    client.cookies[COOKIE_NAME] = token
    client.get(f"/api/attempts/{attempt_id}/")
    trips.clear()
    trips.counting = True
    try:
        for seq, move in enumerate(moves, start=first):
            answer = client.post(f"/api/attempts/{attempt_id}/moves/", {"seq": seq, "move": move})
            assert answer.status_code == 200, answer.content
    finally:
        trips.counting = False


async def test_a_rest_move_reads_once_and_writes_once(trips):
    attempt_id, token, rest = await a_ranked_game("rest", played=60)
    moves = rest[:10]

    await rest_moves(trips, attempt_id, token, moves, first=60)

    of_the_attempt = [s for s in trips.database if '"games_attempt"' in s.split(" WHERE")[0]]
    assert len(of_the_attempt) == 2 * len(moves), trips.database[:8]
    assert not {"BEGIN", "COMMIT"} & set(trips.database)
    assert len(trips.database) <= 3 * len(moves), trips.database[:8]  # and who the cookie names


async def test_a_socket_resignation_waits_once_on_the_database(trips, sender):
    """The end is written by one guarded statement from the socket's copy: no read, no lock,
    no transaction of its own."""
    attempt_id, token, rest = await a_ranked_game("resigns", played=30)
    tab = socket(f"/ws/play/{attempt_id}/", token)
    try:
        connected, _ = await tab.connect()
        assert connected
        assert (await receive(tab))["state"]["seq"] == 30
        trips.clear()
        trips.counting = True
        await tab.send_json_to({"type": "resign"})
        answer = await receive(tab)
        trips.counting = False
    finally:
        trips.counting = False
        await close_all(tab)

    assert answer["type"] == "state" and answer["state"]["status"] == "resigned", answer
    assert len(trips.database) <= 1, trips.database
