"""Too many wrong passwords lock the account for a while (django-axes, config/auth.py)."""

from __future__ import annotations

import uuid

import pytest
from axes.models import AccessAttempt
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from games.api import throttles

GOOD = "correct horse battery"


@pytest.fixture(autouse=True)
def fast_passwords_and_fresh_throttles(settings, monkeypatch):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    monkeypatch.setattr(
        throttles.ScopeThrottle, "cache_format", f"throttle_{uuid.uuid4().hex}_%(scope)s_%(ident)s"
    )


@pytest.fixture
def accounts(db):
    User.objects.create_user(username="alice", password=GOOD)
    User.objects.create_user(username="bob", password=GOOD)


def login(username: str, password: str):
    return APIClient().post(
        "/api/accounts/login/", {"username": username, "password": password}, format="json"
    )


@pytest.mark.django_db
def test_five_wrong_passwords_lock_the_account_even_for_the_right_one(accounts):
    wrong = [login("alice", f"wrong {n}") for n in range(5)]

    right = login("alice", GOOD)

    assert [r.status_code for r in wrong[:4]] == [401] * 4
    assert {r.json()["code"] for r in wrong[:4]} == {"bad_credentials"}
    assert right.status_code == 429
    body = right.json()
    assert body["code"] == "locked_out"
    assert body["detail"]
    assert body["retry_after"] == 15 * 60
    assert right["Retry-After"] == str(15 * 60)
    assert "sessionid" not in right.cookies


@pytest.mark.django_db
def test_another_account_is_unaffected(accounts):
    for n in range(6):
        login("alice", f"wrong {n}")

    response = login("bob", GOOD)

    assert response.status_code == 200
    assert response.json()["username"] == "bob"


@pytest.mark.django_db
def test_the_lock_ends_after_the_cool_off(accounts):
    for n in range(5):
        login("alice", f"wrong {n}")
    assert login("alice", GOOD).status_code == 429

    AccessAttempt.objects.update(attempt_time="2000-01-01T00:00:00Z")

    assert login("alice", GOOD).status_code == 200


@pytest.mark.django_db
def test_a_correct_login_is_not_counted_as_a_failure(accounts):
    for n in range(4):
        login("alice", f"wrong {n}")

    assert login("alice", GOOD).status_code == 200
    assert login("alice", "wrong again").status_code == 401


# -- the lock is the pair (account, client address), not the account -------------------------


def login_from(address: str, username: str, password: str, **headers: str):
    return APIClient().post(
        "/api/accounts/login/",
        {"username": username, "password": password},
        format="json",
        REMOTE_ADDR=address,
        **headers,
    )


@pytest.mark.django_db
def test_an_attackers_wrong_passwords_never_lock_the_owner_out(accounts, admin_user):
    for username in ("alice", "admin"):
        for n in range(6):
            login_from("198.51.100.66", username, f"wrong {n}")

    owner = login_from("203.0.113.5", "alice", GOOD)
    admin = Client().post(
        "/admin/login/?next=/admin/",
        {"username": "admin", "password": "password"},
        REMOTE_ADDR="203.0.113.9",
    )
    attacker = login_from("198.51.100.66", "alice", GOOD)

    assert owner.status_code == 200
    assert owner.json()["username"] == "alice"
    assert admin.status_code == 302  # logged in, sent on to the admin
    assert attacker.status_code == 429  # the attacker's own address stays locked out
    assert attacker.json()["code"] == "locked_out"


@pytest.mark.django_db
def test_a_lockout_records_the_address_the_app_trusts_and_ignores_a_forged_header(
    settings, accounts
):
    forged = {"HTTP_X_FORWARDED_FOR": "192.0.2.200"}
    for n in range(5):
        login_from("198.51.100.10", "alice", f"wrong {n}", **forged)

    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    # Behind one proxy (10.0.0.2), the client is the last hop it appended; the first is forged.
    for n in range(5):
        login_from("10.0.0.2", "bob", f"wrong {n}", HTTP_X_FORWARDED_FOR="192.0.2.7, 203.0.113.44")

    recorded = dict(AccessAttempt.objects.values_list("username", "ip_address"))
    assert recorded == {"alice": "198.51.100.10", "bob": "203.0.113.44"}
    # Another client behind the same proxy is another pair: not locked out.
    neighbour = login_from("10.0.0.2", "bob", GOOD, HTTP_X_FORWARDED_FOR="203.0.113.45")
    assert neighbour.status_code == 200
