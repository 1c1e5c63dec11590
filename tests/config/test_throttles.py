"""Throttles per network, and throttles that let play go on when the cache fails
(games/api/throttles.py)."""

from __future__ import annotations

import logging
import uuid

import pytest
from rest_framework.test import APIClient

from games.addresses import network_of
from games.api import throttles
from tests.games import factories


@pytest.fixture(autouse=True)
def fresh_throttles(monkeypatch):
    monkeypatch.setattr(
        throttles.ScopeThrottle, "cache_format", f"throttle_{uuid.uuid4().hex}_%(scope)s_%(ident)s"
    )
    monkeypatch.setattr(throttles, "_degraded_warned_at", None)


@pytest.fixture
def daily(db):
    return factories.daily("masterpiece")


def rates(settings, **changed: str) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], **changed},
    }


def start(daily, address: str):
    return APIClient().post(
        f"/api/dailies/{daily.game}/{daily.date.isoformat()}/attempts/", REMOTE_ADDR=address
    )


@pytest.mark.parametrize(
    ("address", "network"),
    [
        ("203.0.113.77", "203.0.113.0/24"),
        ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
        ("::ffff:203.0.113.9", "203.0.113.0/24"),
        ("not an address", "not an address"),
    ],
)
def test_the_network_of_an_address(address, network):
    assert network_of(address) == network


@pytest.mark.django_db
def test_starts_are_throttled_per_network_whatever_the_address(settings, daily):
    rates(settings, starts_net="2/min", starts_ip="100/min", starts_player="100/min")

    first = start(daily, "198.51.100.1")
    second = start(daily, "198.51.100.2")
    third = start(daily, "198.51.100.3")
    elsewhere = start(daily, "198.51.101.1")

    assert (first.status_code, second.status_code, elsewhere.status_code) == (201, 201, 201)
    assert third.status_code == 429
    assert third.json()["code"] == "throttled"


class CountingCache:
    """The test's cache, counting the calls that reach it."""

    def __init__(self, cache):
        self.cache, self.calls = cache, []

    def __getattr__(self, name):
        method = getattr(self.cache, name)

        def counted(*args, **kwargs):
            self.calls.append((name, args))
            return method(*args, **kwargs)

        return counted


@pytest.mark.django_db
def test_every_kind_of_a_request_is_counted_with_one_read_and_one_write(
    settings, daily, monkeypatch
):
    from django.core.cache import cache

    rates(settings, starts_player="100/min", starts_ip="100/min", starts_net="100/min")
    counting = CountingCache(cache)
    monkeypatch.setattr(throttles.ScopeThrottle, "cache", counting)
    client = APIClient()
    client.post(f"/api/dailies/{daily.game}/{daily.date.isoformat()}/attempts/")  # a player now
    counting.calls.clear()

    answer = client.post(f"/api/dailies/{daily.game}/{daily.date.isoformat()}/attempts/")

    assert answer.status_code == 200  # the attempt already started
    assert [name for name, _ in counting.calls] == ["get_many", "set_many"]
    read, written = counting.calls[0][1][0], counting.calls[1][1][0]
    assert len(read) == 3  # the player, the address and the network
    assert set(written) == set(read)


@pytest.mark.django_db
def test_a_refusal_waits_for_the_slowest_kind_and_the_others_still_count(settings, daily):
    rates(settings, starts_player="100/min", starts_ip="1/hour", starts_net="2/min")
    first = start(daily, "198.51.100.7")
    refused = start(daily, "198.51.100.7")  # over the address's rate, not the network's
    neighbour = start(daily, "198.51.100.8")  # the network counted the refused request

    assert first.status_code == 201
    assert refused.status_code == 429
    assert 3590 <= int(refused["Retry-After"]) <= 3600
    assert neighbour.status_code == 429
    assert int(neighbour["Retry-After"]) <= 60


def test_the_throttles_share_one_cache_object_until_the_caches_change(settings):
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(4) as pool:
        seen = set(pool.map(lambda _: id(throttles.shared_cache()), range(8)))
    assert len(seen) == 1
    before = throttles.shared_cache()

    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "another",
        }
    }

    after = throttles.shared_cache()
    assert after is not before
    assert after._cache is not getattr(before, "_cache", None)


class BrokenCache:
    def get_many(self, *args, **kwargs):
        raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    get = set = set_many = get_many


@pytest.mark.django_db
def test_throttles_fail_open_when_the_cache_fails_and_say_so_once_a_minute(
    settings, daily, monkeypatch, caplog
):
    rates(settings, starts_player="1/min", starts_ip="1/min", starts_net="1/min")
    monkeypatch.setattr(throttles.ScopeThrottle, "cache", BrokenCache())

    with caplog.at_level(logging.WARNING, logger="games.api.throttles"):
        answers = [start(daily, "192.0.2.1").status_code for _ in range(3)]

    assert answers == [201, 201, 201]
    warnings = [r for r in caplog.records if "throttles degraded" in r.getMessage()]
    assert len(warnings) == 1
    assert "cache unavailable" in warnings[0].getMessage()


@pytest.mark.django_db
def test_throttles_count_again_when_the_cache_is_back(settings, daily, monkeypatch):
    rates(settings, starts_ip="1/min")
    with monkeypatch.context() as broken:
        broken.setattr(throttles.ScopeThrottle, "cache", BrokenCache())
        assert start(daily, "192.0.2.2").status_code == 201

    assert start(daily, "192.0.2.2").status_code == 201
    assert start(daily, "192.0.2.2").status_code == 429


@pytest.mark.django_db
def test_a_database_failure_in_a_throttle_is_not_taken_for_the_cache(
    settings, daily, monkeypatch, caplog
):
    from django.db import OperationalError

    rates(settings, starts_player="10/min")

    def no_database(request):
        raise OperationalError("couldn't get a connection after 5.00 sec")

    monkeypatch.setattr(throttles.identity, "current_player", no_database)

    with caplog.at_level(logging.WARNING, logger="games.api.throttles"):
        answer = start(daily, "192.0.2.9")

    assert answer.status_code == 503
    assert answer.json()["code"] == "database_unavailable"
    assert "throttles degraded" not in caplog.text
