"""Ranked attempts at one daily from one household (an address; an IPv6 /64), from its network
and from an IPv6 /56 are limited, and the limit is counted in the database: it holds while
Redis is down and when starts come at once. Past it a new guest is refused the daily (409
`daily_address_full`), never given a game on the same deal; a player with an account is not
refused, and counts."""

from __future__ import annotations

import threading

import pytest
from django.conf import settings as project_settings
from django.contrib.auth.models import User
from django.db import connection
from rest_framework.test import APIClient

from games.models import Attempt
from tests.config.test_redis_down import redis_cache, redis_port  # noqa: F401 (fixtures)
from tests.games import factories

FULL = "daily_address_full"


@pytest.fixture
def daily(db):
    return factories.daily("munger")


def limits(settings, *, address: int, network: int, network56: int = 1000) -> None:
    settings.RANKED_STARTS_PER_ADDRESS = address
    settings.RANKED_STARTS_PER_NETWORK = network
    settings.RANKED_STARTS_PER_NETWORK56 = network56
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "guests_ip": "1000/min",
            "guests_net": "1000/min",
            "starts_ip": "1000/min",
            "starts_net": "1000/min",
            "accounts_ip": "1000/min",
            "accounts_net": "1000/min",
        },
    }


def starter(daily):
    """`start(client, address)`: (status, whether ranked), or (409, the refusal's code)."""
    path = f"/api/dailies/{daily.game}/{daily.date.isoformat()}/attempts/"

    def start(client: APIClient, address: str) -> tuple[int, bool | str]:
        answer = client.post(path, REMOTE_ADDR=address)
        body = answer.json()
        return answer.status_code, body["ranked"] if answer.status_code < 300 else body["code"]

    return start


def test_the_defaults_are_a_households_and_the_networks_a_few_households():
    assert project_settings.RANKED_STARTS_PER_ADDRESS == 4
    assert project_settings.RANKED_STARTS_PER_NETWORK == 12
    assert project_settings.RANKED_STARTS_PER_NETWORK56 == 12


@pytest.mark.django_db
def test_ranked_starts_of_one_daily_are_limited_per_address_and_network(settings, daily):
    limits(settings, address=3, network=5)
    start = starter(daily)

    household = [APIClient() for _ in range(4)]
    at_home = [start(p, "198.51.100.40") for p in household]
    asked_again = start(household[3], "198.51.100.40")
    resumed = start(household[0], "198.51.100.40")
    next_door = [start(APIClient(), "198.51.100.41") for _ in range(3)]
    elsewhere = start(APIClient(), "198.51.101.1")
    other_daily = starter(factories.daily("masterpiece"))(APIClient(), "198.51.100.40")

    # A household of three plays ranked; the fourth new player there is refused the daily,
    # as often as they ask: never a game on the same deal.
    assert at_home == [(201, True)] * 3 + [(409, FULL)]
    assert asked_again == (409, FULL)
    assert resumed == (200, True)  # their own attempt is never counted again
    # The network's five places: the refused start at home did not use one up.
    assert next_door == [(201, True), (201, True), (409, FULL)]
    assert elsewhere == (201, True)
    assert other_daily == (201, True)  # each daily has places of its own
    assert Attempt.objects.filter(daily=daily, ranked=True).count() == 6
    assert not Attempt.objects.filter(daily=daily, ranked=False).exists()


@pytest.mark.django_db
def test_an_ipv6_household_is_its_64_and_a_56_has_places_of_its_own(settings, daily):
    """An IPv6 home's devices each take addresses of their own in its /64 and change them, and
    a provider gives one customer a /56 of /64s: counting by address or by /64 alone lets one
    person keep the best of many rows."""
    limits(settings, address=2, network=10, network56=3)
    start = starter(daily)

    one_64 = [start(APIClient(), f"2001:db8:0:1::{n}") for n in (1, 2, 3)]
    other_64s = [start(APIClient(), f"2001:db8:0:{n}::1") for n in (2, 3)]
    another_56 = start(APIClient(), "2001:db8:0:100::1")

    assert one_64 == [(201, True), (201, True), (409, FULL)]
    assert other_64s == [(201, True), (409, FULL)]  # the /56 holds three
    assert another_56 == (201, True)
    kept = Attempt.objects.filter(daily=daily, ranked=True).order_by("pk").first()
    assert kept is not None
    assert (kept.client_network, kept.client_network56) == (
        "2001:db8:0:1::/64",
        "2001:db8::/56",
    )


@pytest.mark.django_db
def test_accounts_are_not_refused_by_the_address_and_count_there(settings, daily):
    """A classroom behind one address signs in: each account plays ranked (one attempt per
    account and per browser still), and their rows count against the address's guests."""
    limits(settings, address=2, network=100)
    start = starter(daily)
    school = "192.0.2.50"

    guests = [start(APIClient(), school) for _ in range(2)]
    pupils = []
    for n in range(3):
        User.objects.create_user(f"pupil{n}", password="a long enough password 1")
        pupil = APIClient()
        logged_in = pupil.post(
            "/api/accounts/login/",
            {"username": f"pupil{n}", "password": "a long enough password 1"},
            format="json",
            REMOTE_ADDR=school,
        )
        assert logged_in.status_code == 200
        pupils.append(pupil)
    signed_in = [start(pupil, school) for pupil in pupils]
    guest_after = start(APIClient(), school)

    assert guests == [(201, True)] * 2
    assert signed_in == [(201, True)] * 3
    assert guest_after == (409, FULL)
    ranked = Attempt.objects.filter(daily=daily, ranked=True, client_address=school)
    assert ranked.count() == 5
    assert ranked.filter(player__user__isnull=False).count() == 3


@pytest.mark.django_db
def test_the_refusal_says_accounts_are_the_way_and_shows_no_card(settings, daily):
    limits(settings, address=1, network=100)
    start = starter(daily)
    start(APIClient(), "203.0.113.70")

    answer = APIClient().post(
        f"/api/dailies/{daily.game}/{daily.date.isoformat()}/attempts/", REMOTE_ADDR="203.0.113.70"
    )

    body = answer.json()
    assert answer.status_code == 409 and body["code"] == FULL
    assert "log in to an account" in body["detail"] and "its own row" in body["detail"]
    assert body["ranked_until"] == daily.ranked_until.isoformat().replace("+00:00", "Z")
    assert set(body) == {"code", "detail", "ranked_until"}  # no position, no card


@pytest.mark.slow
@pytest.mark.django_db
@pytest.mark.usefixtures("redis_cache")
def test_the_limit_holds_while_redis_is_down(settings, daily):
    # The cache is a Redis of this test's own that is not running: every rate lets requests
    # through (play matters more), but a board's protection does not depend on it.
    limits(settings, address=4, network=10)
    start = starter(daily)

    starts = [start(APIClient(), "203.0.113.9") for _ in range(7)]

    assert starts == [(201, True)] * 4 + [(409, FULL)] * 3


def at_once(start, addresses: list[str]) -> list[tuple[int, bool | str]]:
    """Starts from new clients at `addresses`, released together."""
    clients = [APIClient() for _ in addresses]
    barrier = threading.Barrier(len(clients))
    answers: list[tuple[int, bool | str]] = []

    def go(client: APIClient, address: str) -> None:
        barrier.wait()
        try:
            answers.append(start(client, address))
        finally:
            connection.close()

    threads = [
        threading.Thread(target=go, args=pair) for pair in zip(clients, addresses, strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_starts_at_once_from_one_address_pass_the_limit_exactly(settings, daily):
    limits(settings, address=3, network=100)

    answers = at_once(starter(daily), ["203.0.113.10"] * 10)

    assert sorted(answers, key=str) == sorted([(201, True)] * 3 + [(409, FULL)] * 7, key=str)
    assert Attempt.objects.filter(daily=daily, ranked=True).count() == 3


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_starts_at_once_from_the_64s_of_one_56_pass_its_limit_exactly(settings, daily):
    """Each start takes the lock of its /56, not of its /64: starts from ten /64s of one /56
    queue for one count."""
    limits(settings, address=100, network=100, network56=4)

    answers = at_once(starter(daily), [f"2001:db8:0:{n:x}::1" for n in range(10)])

    assert sorted(answers, key=str) == sorted([(201, True)] * 4 + [(409, FULL)] * 6, key=str)
    assert Attempt.objects.filter(daily=daily, ranked=True).count() == 4
