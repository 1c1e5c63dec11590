"""The player cookie: who plays, without sign-up (games/api/identity.py)."""

from __future__ import annotations

import time

import pytest
from django.contrib.auth.models import User
from django.http import HttpResponse
from django.test import RequestFactory
from rest_framework.test import APIClient

from games.api import identity
from games.models import Attempt, Player
from tests.games import factories


def signed(value: str, salt: str = identity.COOKIE_SALT) -> str:
    """A cookie value as the server signs it."""
    response = HttpResponse()
    response.set_signed_cookie(identity.COOKIE_NAME, value, salt=salt)
    return response.cookies[identity.COOKIE_NAME].value


def unsigned(cookie: str) -> str:
    request = RequestFactory().get("/")
    request.COOKIES[identity.COOKIE_NAME] = cookie
    return request.get_signed_cookie(identity.COOKIE_NAME, salt=identity.COOKIE_SALT)


def browser(cookie: str | None = None) -> APIClient:
    client = APIClient()
    if cookie is not None:
        client.cookies[identity.COOKIE_NAME] = cookie
    return client


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.mark.django_db
def test_the_first_request_that_needs_a_player_creates_a_guest_and_sets_the_cookie(settings):
    response = browser().get("/api/players/me/")

    guest = Player.objects.get()
    morsel = response.cookies[identity.COOKIE_NAME]
    assert response.json()["display_name"] == guest.display_name
    assert unsigned(morsel.value) == str(guest.pk)
    assert morsel["httponly"] is True
    assert morsel["samesite"] == "Lax"
    assert morsel["secure"] is True  # DEBUG is off
    assert int(morsel["max-age"]) == identity.COOKIE_MAX_AGE >= 2 * 365 * 24 * 3600


@pytest.mark.django_db
def test_the_cookie_is_not_secure_in_development(settings):
    settings.DEBUG = True

    response = browser().get("/api/players/me/")

    assert response.cookies[identity.COOKIE_NAME]["secure"] == ""


@pytest.mark.django_db
def test_the_same_cookie_is_the_same_player_and_is_renewed(alice):
    response = browser(signed(str(alice.pk))).get("/api/players/me/")

    assert response.json()["display_name"] == "alice"
    assert Player.objects.count() == 1
    assert identity.COOKIE_NAME in response.cookies


@pytest.mark.django_db
@pytest.mark.parametrize(
    "cookie",
    [
        "tampered",
        "1",
        "{pk}",
        "{signed_pk}x",
        "{other_salt}",
        "{signed_text}",
        "{signed_missing}",
    ],
)
def test_a_cookie_that_does_not_name_a_player_is_ignored(alice, cookie):
    cookie = cookie.format(
        pk=alice.pk, signed_pk=signed(str(alice.pk)), other_salt=signed(str(alice.pk), "x"),
        signed_text=signed("alice"), signed_missing=signed("999999"),
    )  # fmt: skip

    response = browser(cookie).get("/api/players/me/")

    assert response.json()["display_name"].startswith("Guest ")
    assert Player.objects.count() == 2
    assert identity.COOKIE_NAME in response.cookies


@pytest.mark.django_db
def test_a_cookie_older_than_two_years_is_ignored(alice, monkeypatch):
    with monkeypatch.context() as past:
        past.setattr(time, "time", lambda: 1_000_000_000.0)
        old = signed(str(alice.pk))

    response = browser(old).get("/api/players/me/")

    assert response.json()["display_name"].startswith("Guest ")


@pytest.mark.django_db
def test_reads_create_no_player_even_with_a_bad_cookie():
    factories.daily("masterpiece")

    for path in ["/api/dailies/", "/api/players/me/attempts/"]:
        response = browser("tampered").get(path)
        assert response.status_code == 200
        assert identity.COOKIE_NAME not in response.cookies

    assert not Player.objects.exists()


@pytest.mark.django_db
def test_a_logged_in_user_plays_as_the_accounts_player_whatever_the_cookie(alice, bob):
    user = User.objects.create_user(username="alice", password="pw")
    alice.user = user
    alice.save()
    client = browser(signed(str(bob.pk)))
    client.force_login(user)

    response = client.get("/api/players/me/")

    assert response.json()["display_name"] == "alice"
    assert response.cookies[identity.COOKIE_NAME].value.startswith(f"{alice.pk}:")


@pytest.mark.django_db
def test_logging_in_leaves_a_guest_of_another_account_alone(bob):
    User.objects.create_user(username="alice", password="correct horse b")
    bob.user = User.objects.create_user(username="bob", password="pw")
    bob.save()
    daily = factories.daily("masterpiece")
    bobs = Attempt.objects.create(player=bob, game="masterpiece", challenge=daily,
                                  deal=daily.deal.deal, ranked=True,
                                  started_at=daily.created_at)  # fmt: skip
    client = browser(signed(str(bob.pk)))  # bob logged out without forgetting the cookie

    response = client.post("/api/accounts/login/", {"username": "alice",
                                                     "password": "correct horse b"})  # fmt: skip

    assert response.status_code == 200
    assert response.json()["username"] == "alice"
    assert response.json()["display_name"] != "bob"
    bobs.refresh_from_db()
    assert bobs.player == bob
    bob.refresh_from_db()
    assert bob.user.username == "bob"


@pytest.mark.django_db
def test_logging_in_without_a_cookie_uses_the_accounts_player(alice):
    alice.user = User.objects.create_user(username="alice", password="correct horse b")
    alice.save()

    response = browser().post("/api/accounts/login/", {"username": "alice",
                                                        "password": "correct horse b"})  # fmt: skip

    assert response.json()["display_name"] == "alice"
    assert Player.objects.count() == 1
    assert response.cookies[identity.COOKIE_NAME].value.startswith(f"{alice.pk}:")


@pytest.mark.django_db
def test_a_guest_logging_out_keeps_their_player(alice):
    client = browser(signed(str(alice.pk)))

    response = client.post("/api/accounts/logout/")

    assert response.status_code == 204
    assert identity.COOKIE_NAME not in response.cookies
    assert client.get("/api/players/me/").json()["display_name"] == "alice"
