"""One person, one row, as far as no sign-up allows: one ranked attempt per daily per player and
per browser (the device cookie): an account and the guest its browser becomes after logging
out do not both rank. Each ranked attempt keeps the address it came from and its network."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games.api.identity import DEVICE_COOKIE
from games.identity import COOKIE_NAME
from games.models import Attempt
from tests.games import factories

pytestmark = pytest.mark.django_db


def start(client: APIClient, daily, **headers) -> dict:
    answer = client.post(f"/api/dailies/{daily.game}/{daily.date.isoformat()}/attempts/", **headers)
    assert answer.status_code in (200, 201), answer.content
    return answer.json()


@pytest.mark.parametrize("game", ["munger", "masterpiece"])
def test_a_browser_that_played_as_an_account_is_refused_the_daily_as_a_guest(fake_clock, game):
    """The tester's hole: the same browser as a new guest played today's deal in practice and
    learnt its hidden cards. Now every new guest of the browser gets the same refusal, and no
    game on the deal; the account's ranked game stays as it was."""
    daily = factories.daily(game)
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
    path = f"/api/dailies/{daily.game}/{daily.date.isoformat()}/attempts/"

    as_guest = browser.post(path)  # the same browser, a new guest
    browser.cookies.pop(COOKIE_NAME, None)  # and another new guest of it
    as_another_guest = browser.post(path)

    assert as_alice["ranked"] is True
    for refused in (as_guest, as_another_guest):
        assert refused.status_code == 409, refused.content
        assert refused.json()["code"] == "daily_played_here"
        assert "from this browser" in refused.json()["detail"]
    assert list(Attempt.objects.filter(daily=daily).values_list("pk", flat=True)) == [
        as_alice["id"]
    ]


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
