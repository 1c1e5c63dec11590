"""Ranked attempts at one daily from one address and from its network are limited, and the
limit is counted in the database: it holds while Redis is down and when starts come at once."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from rest_framework.test import APIClient

from games.models import Attempt
from tests.config.test_redis_down import redis_cache, redis_port  # noqa: F401 (fixtures)
from tests.games import factories


@pytest.fixture
def daily(db):
    return factories.daily("munger")


def limits(settings, *, address: int, network: int) -> None:
    settings.RANKED_STARTS_PER_ADDRESS = address
    settings.RANKED_STARTS_PER_NETWORK = network
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "guests_ip": "1000/min",
            "guests_net": "1000/min",
            "starts_ip": "1000/min",
            "starts_net": "1000/min",
        },
    }


def starter(daily):
    path = f"/api/dailies/{daily.game}/{daily.date.isoformat()}/attempts/"

    def start(client: APIClient, address: str) -> tuple[int, bool]:
        answer = client.post(path, REMOTE_ADDR=address)
        return answer.status_code, answer.json()["ranked"]

    return start


@pytest.mark.django_db
def test_ranked_starts_of_one_daily_are_limited_per_address_and_network(settings, daily):
    limits(settings, address=3, network=5)
    start = starter(daily)

    household = [APIClient() for _ in range(4)]
    at_home = [start(p, "198.51.100.40") for p in household]
    resumed = start(household[0], "198.51.100.40")
    next_door = [start(APIClient(), "198.51.100.41") for _ in range(3)]
    elsewhere = start(APIClient(), "198.51.101.1")
    other_daily = starter(factories.daily("masterpiece"))(APIClient(), "198.51.100.40")

    # A household of three plays ranked; the fourth new player there plays practice.
    assert at_home == [(201, True)] * 3 + [(201, False)]
    assert resumed == (200, True)  # their own attempt is never counted again
    # The network's five places: the refused start at home did not use one up.
    assert next_door == [(201, True), (201, True), (201, False)]
    assert elsewhere == (201, True)
    assert other_daily == (201, True)  # each daily has places of its own
    assert Attempt.objects.filter(daily=daily, ranked=True).count() == 6


@pytest.mark.slow
@pytest.mark.django_db
@pytest.mark.usefixtures("redis_cache")
def test_the_limit_holds_while_redis_is_down(settings, daily):
    # The cache is a Redis of this test's own that is not running: every rate lets requests
    # through (play matters more), but a board's protection does not depend on it.
    limits(settings, address=4, network=10)
    start = starter(daily)

    starts = [start(APIClient(), "203.0.113.9") for _ in range(7)]

    assert starts == [(201, True)] * 4 + [(201, False)] * 3


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_starts_at_once_from_one_address_pass_the_limit_exactly(settings, daily):
    limits(settings, address=3, network=100)
    start = starter(daily)
    clients = [APIClient() for _ in range(10)]
    barrier = threading.Barrier(len(clients))
    answers: list[tuple[int, bool]] = []

    def go(client: APIClient) -> None:
        barrier.wait()
        try:
            answers.append(start(client, "203.0.113.10"))
        finally:
            connection.close()

    threads = [threading.Thread(target=go, args=(client,)) for client in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(answers) == [(201, False)] * 7 + [(201, True)] * 3
    assert Attempt.objects.filter(daily=daily, ranked=True).count() == 3
