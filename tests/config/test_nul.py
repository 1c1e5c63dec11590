"""Text holding NUL (U+0000) is refused with 400 `malformed` wherever a client can put it: a
path, a query, a cookie, a body (config/middleware.py `NulRefusalMiddleware`, infra/textinput.py).
On PostgreSQL such text had reached a query and answered 500."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from games.models import Player
from infra.textinput import json_holds_nul
from tests.games import factories

pytestmark = pytest.mark.django_db


def refused(response) -> None:
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == "malformed" and "NUL" in body["detail"], body


@pytest.mark.postgres
def test_a_nul_in_a_stats_path_is_a_400_on_postgresql():
    factories.player("Alice")
    client = Client()
    refused(client.get("/api/players/Al%00ice/stats/"))
    assert client.get("/api/players/Alice/stats/").status_code == 200


@pytest.mark.parametrize(
    "path",
    [
        "/api/leaderboards/all-time/?game=%00",
        "/api/players/me/stats/?game=munger%00",
        "/api/dailies/munger/2026-01-01%00/",
        "/api/leaderboards/all-time/?x%00=1",
    ],
)
def test_a_nul_in_a_path_or_a_query_is_refused(path):
    refused(Client().get(path))


def test_a_nul_in_a_json_body_is_refused_and_changes_nothing():
    client = Client()
    refused(
        client.post(
            "/api/players/",
            json.dumps({"display_name": "Al\u0000ice"}),
            content_type="application/json",
        )
    )
    refused(
        client.post(
            "/api/accounts/login/",
            json.dumps({"username": "admin\u0000", "password": "x"}),
            content_type="application/json",
        )
    )
    assert not Player.objects.exists()


def test_a_nul_in_a_form_body_or_a_cookie_is_refused():
    refused(
        Client().post(
            "/api/accounts/login/",
            "username=admin%00&password=x",
            content_type="application/x-www-form-urlencoded",
        )
    )
    client = Client()
    client.cookies["sessionid"] = "abcdefgh\x00"
    refused(client.get("/api/dailies/"))


def test_a_page_answers_a_short_page_not_json():
    response = Client().get("/%00/")
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")


def test_a_literal_backslash_u0000_is_ordinary_text():
    assert json_holds_nul(b'{"a": "\\u0000"}')
    assert json_holds_nul(b'{"a\\u0000": 1}')
    assert not json_holds_nul(b'{"a": "\\\\u0000"}')  # a backslash, then "u0000"
    assert not json_holds_nul(b'{"a": "plain"}')
