"""Throttles per network, and throttles that let play go on when the cache fails
(games/api/throttles.py)."""

from __future__ import annotations

import asyncio
import logging
import time
import uuid

import pytest
from rest_framework.test import APIClient

from games.api import throttles
from infra import ratewindows
from infra.addresses import network_of
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


# -- counting is atomic ----------------------------------------------------------------------


class SlowCache:
    """A cache that takes a moment to answer, as a cache over the network does."""

    def __init__(self, cache):
        self.cache = cache

    def get_many(self, *args, **kwargs):
        time.sleep(0.002)
        return self.cache.get_many(*args, **kwargs)

    def set_many(self, *args, **kwargs):
        time.sleep(0.002)
        return self.cache.set_many(*args, **kwargs)


class GuestsView:
    throttle_scope = "guests"


def parallel_requests(settings, cache, number: int) -> list[bool]:
    """Whether each of `number` requests from one address, released together, was allowed."""
    from concurrent.futures import ThreadPoolExecutor
    from threading import Barrier

    from django.test import RequestFactory

    barrier = Barrier(number)

    def one(_: int) -> bool:
        request = RequestFactory().post("/api/players/", REMOTE_ADDR="192.0.2.77")
        throttle = throttles.ScopeThrottle()
        throttle.cache = cache
        barrier.wait(timeout=10)
        return throttle.allow_request(request, GuestsView())

    with ThreadPoolExecutor(number) as pool:
        return list(pool.map(one, range(number)))


def test_parallel_requests_never_pass_together_on_counts_read_before_the_other_wrote(settings):
    """Forty requests at the same moment against a limit of 10, counted in a cache that takes
    a moment to answer: exactly 10 pass (the local cache is counted under a lock)."""
    from django.core.cache import caches

    rates(settings, guests_ip="10/min", guests_net="1000/min")
    cache = SlowCache(caches.create_connection("default"))

    assert parallel_requests(settings, cache, 40).count(True) == 10


@pytest.mark.redis
def test_parallel_requests_counted_in_redis_never_pass_together(settings):
    """The same crowd counted in Redis (one script per request, atomic in Redis)."""
    rates(settings, guests_ip="10/min", guests_net="1000/min")

    assert parallel_requests(settings, throttles.shared_cache(), 40).count(True) == 10


def test_a_refused_request_waits_at_most_its_window():
    counter = [(f"throttle_{uuid.uuid4().hex}_wait", 2, 60)]

    waits = [throttles.count(counter) for _ in range(3)]

    assert waits[:2] == [0.0, 0.0]
    assert 59 < waits[2] <= 60


@pytest.mark.redis
@pytest.mark.optimisation
async def test_a_socket_message_counts_in_the_windows_of_requests_without_a_thread(monkeypatch):
    """`count_async` (a socket's message, on the event loop) and `count` (a request) count in
    the same Redis windows, and the asynchronous count wakes no thread."""
    windows = ratewindows.windows_of(throttles.shared_cache())
    assert isinstance(windows, ratewindows.RedisWindows) and windows.async_settings is not None

    async def no_thread(*args, **kwargs):
        raise AssertionError("a thread was woken to count")

    monkeypatch.setattr(ratewindows.asyncio, "to_thread", no_thread)
    counter = [(f"throttle_{uuid.uuid4().hex}_shared", 2, 60)]

    waits = [await throttles.count_async(counter), throttles.count(counter)]
    waits.append(await throttles.count_async(counter))

    assert waits[:2] == [0.0, 0.0]
    assert 59 < waits[2] <= 60
    assert 59 < throttles.count(counter) <= 60


@pytest.mark.redis
async def test_a_burst_of_socket_messages_past_the_pools_connections_is_all_counted(caplog):
    """More messages at once than the event loop's client has connections wait for one: each is
    counted, none let through uncounted as if Redis were down."""
    burst = ratewindows.ASYNC_CONNECTIONS * 2
    counter = [(f"throttle_{uuid.uuid4().hex}_burst", burst, 60)]

    with caplog.at_level(logging.WARNING):
        waits = await asyncio.gather(*(throttles.count_async(counter) for _ in range(burst)))

    assert waits == [0.0] * burst
    assert not [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert 59 < throttles.count(counter) <= 60  # all of them in the window: the next is refused


async def test_a_socket_message_is_counted_in_place_in_the_processs_memory():
    from django.core.cache.backends.locmem import LocMemCache

    cache = LocMemCache(f"throttles-{uuid.uuid4().hex}", {})
    counter = [(f"throttle_{uuid.uuid4().hex}_wait", 2, 60)]

    waits = [await throttles.count_async(counter, cache=cache) for _ in range(3)]

    assert waits[:2] == [0.0, 0.0]
    assert 59 < waits[2] <= 60
    assert 59 < throttles.count(counter, cache=cache) <= 60  # the same windows


async def test_a_socket_message_is_let_through_when_redis_does_not_answer(caplog):
    from django_redis.cache import RedisCache

    from tests.config.support import free_port

    options = {"SOCKET_CONNECT_TIMEOUT": 0.25, "SOCKET_TIMEOUT": 0.5}
    cache = RedisCache(f"redis://127.0.0.1:{free_port()}/0", {"OPTIONS": options})  # nobody
    counter = [(f"throttle_{uuid.uuid4().hex}_down", 1, 60)]
    assert ratewindows.windows_of(cache).async_settings is not None

    with caplog.at_level(logging.WARNING, logger="games.api.throttles"):
        waits = [await throttles.count_async(counter, cache=cache) for _ in range(2)]

    assert waits == [0.0, 0.0]
    assert any("throttles degraded" in r.getMessage() for r in caplog.records)


@pytest.mark.optimisation
def test_a_request_costs_one_round_trip_to_redis_whatever_its_kinds(settings, daily, monkeypatch):
    """With Redis, every counter of a request is counted by one script call; without, the
    local cache is read and written once each, under the lock."""
    from django.core.cache import cache

    rates(settings, starts_player="100/min", starts_ip="100/min", starts_net="100/min")
    counting = CountingCache(cache)
    monkeypatch.setattr(throttles.ScopeThrottle, "cache", counting)
    windows = ratewindows.windows_of(counting)
    calls = []
    if settings.REDIS_URL:
        windows = ratewindows.RedisWindows(cache)
        monkeypatch.setattr(throttles, "windows_of", lambda _: windows)
        script = windows.script
        monkeypatch.setattr(
            windows, "script", lambda **kwargs: calls.append(kwargs) or script(**kwargs)
        )
    client = APIClient()
    client.post(f"/api/dailies/{daily.game}/{daily.date.isoformat()}/attempts/")  # a player now
    calls.clear()
    counting.calls.clear()

    answer = client.post(f"/api/dailies/{daily.game}/{daily.date.isoformat()}/attempts/")

    assert answer.status_code == 200  # the attempt already started
    if settings.REDIS_URL:
        assert len(calls) == 1
        assert len(calls[0]["keys"]) == 3  # the player, the address and the network
        assert counting.calls == []
    else:
        assert [name for name, _ in counting.calls] == ["get_many", "set_many"]
        assert len(counting.calls[0][1][0]) == 3


# -- guests and ranked starts (one person, one row) --------------------------------------------


@pytest.mark.django_db
def test_starting_a_game_as_a_new_guest_counts_as_making_a_guest(settings, daily):
    rates(settings, guests_ip="3/min", starts_ip="100/min", starts_player="100/min")
    path = f"/api/dailies/{daily.game}/{daily.date.isoformat()}/attempts/"
    practice = {"game": "munger", "seed": 7}

    new_guests = [APIClient().post(path, REMOTE_ADDR="192.0.2.30").status_code for _ in range(3)]
    fourth = APIClient().post(path, REMOTE_ADDR="192.0.2.30")
    by_practice = APIClient().post("/api/practice/", practice, REMOTE_ADDR="192.0.2.30")
    elsewhere = APIClient().post(path, REMOTE_ADDR="198.51.100.30")

    assert new_guests == [201, 201, 201]
    assert fourth.status_code == 429 and fourth.json()["code"] == "throttled"
    assert by_practice.status_code == 429
    assert elsewhere.status_code == 201


@pytest.mark.django_db
def test_a_player_who_has_a_cookie_starts_without_the_guests_throttle(settings, daily):
    rates(settings, guests_ip="1/min", starts_ip="100/min", starts_player="100/min")
    player = APIClient()
    assert player.post("/api/players/", REMOTE_ADDR="192.0.2.31").status_code == 201

    started = player.post(
        f"/api/dailies/{daily.game}/{daily.date.isoformat()}/attempts/", REMOTE_ADDR="192.0.2.31"
    )

    assert started.status_code == 201


def test_a_classroom_behind_one_address_plays_at_a_brisk_pace_with_the_default_rates():
    # Fifty players behind one address (a school's or an office's NAT, a carrier's), each
    # moving one and a half times a second for a minute: none is refused. One script there
    # alone still meets its own player's rate.
    from django.core.cache import caches

    cache = caches["default"]
    refused = 0
    for tick in range(120):  # half seconds
        now = 1_000_000.0 + tick / 2
        for player in range(50):
            if tick % 4 == 3:
                continue  # three moves in every two seconds
            idents = throttles.client_idents(player + 1, "198.51.100.77")
            refused += (
                throttles.count(throttles.counters_for("moves", idents), cache=cache, now=now) > 0
            )
    assert refused == 0
    one = throttles.counters_for("moves", throttles.client_idents(999, "198.51.100.78"))
    waits = [throttles.count(one, cache=cache, now=2_000_000.0 + i / 100) for i in range(700)]
    assert waits[:600] == [0.0] * 600 and all(wait > 0 for wait in waits[600:])
