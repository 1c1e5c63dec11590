"""Too many wrong passwords lock the account for a while (django-axes, config/auth.py)."""

from __future__ import annotations

import uuid

import pytest
from axes.models import AccessAttempt
from django.contrib.auth.models import User
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

    assert [r.status_code for r in wrong[:4]] == [400] * 4
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
    assert login("alice", "wrong again").status_code == 400
