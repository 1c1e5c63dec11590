"""One person, one row, as far as no sign-up allows: one ranked attempt per daily per player and
per browser (the device cookie): an account and the guest its browser becomes after logging
out do not both rank. Each ranked attempt keeps the address it came from and its network."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games.api.identity import DEVICE_COOKIE
from games.models import Attempt
from tests.games import factories

pytestmark = pytest.mark.django_db


def start(client: APIClient, daily, **headers) -> dict:
    answer = client.post(f"/api/dailies/{daily.game}/{daily.date.isoformat()}/attempts/", **headers)
    assert answer.status_code in (200, 201), answer.content
    return answer.json()


def test_a_browser_that_played_as_an_account_starts_practice_as_a_guest(fake_clock):
    daily = factories.daily("masterpiece")
    User.objects.create_user("alice", password="a long enough password 1")
    browser = APIClient()
    assert (
        browser.post(
            "/api/accounts/login/",
            {"username": "alice", "password": "a long enough password 1"},
            format="json",
        ).status_code
        == 200
    )
    as_alice = start(browser, daily)
    assert browser.post("/api/accounts/logout/").status_code in (200, 204)

    as_guest = start(browser, daily)  # the same browser, a new guest

    assert as_alice["ranked"] is True
    assert as_guest["ranked"] is False and as_guest["id"] != as_alice["id"]
    assert Attempt.objects.filter(daily=daily, ranked=True).count() == 1


def test_two_browsers_rank_two_players_and_each_keeps_its_device_and_address(fake_clock):
    daily = factories.daily("masterpiece")
    first, second = APIClient(), APIClient()

    a = start(first, daily, REMOTE_ADDR="198.51.100.7")
    b = start(second, daily, REMOTE_ADDR="198.51.100.9")

    assert a["ranked"] and b["ranked"]
    rows = {x.pk: x for x in Attempt.objects.filter(daily=daily)}
    assert rows[a["id"]].device and rows[a["id"]].device != rows[b["id"]].device
    assert rows[a["id"]].device != first.cookies[DEVICE_COOKIE].value  # only its hash is kept
    assert (rows[a["id"]].client_address, rows[a["id"]].client_network) == (
        "198.51.100.7",
        "198.51.100.0/24",
    )


def test_a_browser_keeps_its_device_cookie_and_a_forged_one_is_replaced(fake_clock):
    daily = factories.daily("masterpiece")
    browser = APIClient()
    start(browser, daily)
    kept = browser.cookies[DEVICE_COOKIE].value
    start(browser, daily)
    assert browser.cookies[DEVICE_COOKIE].value == kept

    browser.cookies[DEVICE_COOKIE] = "not a device token"
    start(browser, daily)
    assert browser.cookies[DEVICE_COOKIE].value not in ("not a device token", kept)


def test_addresses_are_forgotten_after_thirty_days_but_while_held(fake_clock):
    from games import services
    from games.services.dailies import ADDRESSES_KEPT

    daily = factories.daily("masterpiece")
    kept, held = (
        services.attempt_start(player=factories.player(n), daily=daily, address="192.0.2.4")[0]
        for n in ("kept", "held")
    )
    Attempt.objects.filter(pk=held.pk).update(review=Attempt.Review.HELD)

    assert services.attempts_forget_addresses(fake_clock.at + ADDRESSES_KEPT) == 0
    assert (
        services.attempts_forget_addresses(fake_clock.at + ADDRESSES_KEPT + dt.timedelta(seconds=1))
        == 1
    )
    kept.refresh_from_db()
    held.refresh_from_db()
    assert (kept.client_address, kept.client_network) == (None, "")
    assert held.client_address == "192.0.2.4"
