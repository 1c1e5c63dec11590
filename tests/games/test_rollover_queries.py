"""The queries of each request a player makes at the daily rollover (benchmarks/load.py): a new
guest, the dailies list, the start of a daily, a move, the resignation. Each request's count
is pinned, so that a query added to the busiest minute of the day is a decision, not an
accident. The counts are the statements Django sends (BEGIN and COMMIT included), with what
the listeners do after commit (the board index reads nothing the signals carry)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from tests.games import factories

#: Per request: its queries, and what they are.
EXPECTED = {
    # The guest's insert in a transaction of its own (a generated name may clash: it is tried
    # again), then its cookie token; a new guest has no stats or attempts to read.
    "guest": 4,
    # The cookie's player; today's dailies; their counts; the player's attempts at them.
    "dailies": 4,
    # The cookie's player; the daily; then, in one transaction, the player's attempt at it
    # (locked), whether the device played it, the ranked attempts from its address and network
    # (on PostgreSQL after a lock of the daily's network, one more), the insert in a savepoint.
    "start": 10,
    # The cookie's player; the attempt, read unlocked; the move appended by one guarded write.
    "move": 3,
    # The same three: the cookie's player; the attempt; the end written by one guarded write.
    "resign": 3,
}


@pytest.mark.optimisation
@pytest.mark.django_db(transaction=True)
def test_each_request_of_the_rollover_makes_its_queries_and_no_more():
    masterpiece = factories.daily("masterpiece")
    factories.daily("munger")
    someone_else = APIClient()  # the board is not empty
    state = someone_else.post(
        f"/api/dailies/masterpiece/{masterpiece.date.isoformat()}/attempts/"
    ).json()
    someone_else.post(
        f"/api/attempts/{state['id']}/moves/",
        {"seq": 0, "move": masterpiece.deal.certificate[0]},
    )
    client = APIClient()
    counted: dict[str, list[int]] = {}

    def request(kind: str, method: str, path: str, body: dict | None = None) -> dict:
        with CaptureQueriesContext(connection) as queries:
            answer = getattr(client, method)(path, body)
        assert answer.status_code < 300, answer.content
        counted.setdefault(kind, []).append(len(queries))
        return answer.json()

    request("guest", "post", "/api/players/", {})
    listing = request("dailies", "get", "/api/dailies/")
    assert {row["game"] for row in listing} == {"masterpiece", "munger"}
    state = request(
        "start", "post", f"/api/dailies/masterpiece/{masterpiece.date.isoformat()}/attempts/"
    )
    for seq, token in enumerate(masterpiece.deal.certificate[:3]):
        request("move", "post", f"/api/attempts/{state['id']}/moves/", {"seq": seq, "move": token})
    request("resign", "post", f"/api/attempts/{state['id']}/resign/")

    expected = {**EXPECTED, "start": EXPECTED["start"] + (connection.vendor == "postgresql")}
    assert counted == {kind: [count] * len(counted[kind]) for kind, count in expected.items()}
