"""State-changing requests from another origin are refused (config/middleware.py).

A page on another port of the same host is the same *site* for SameSite cookies, so the
player cookie goes along with its form posts and fetches; the Origin header tells them apart.
"""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.models import Attempt
from tests.games import factories

ORIGIN = "http://testserver"


@pytest.fixture
def daily(db):
    return factories.daily("masterpiece")


def start_path(daily) -> str:
    return f"/api/dailies/{daily.game}/{daily.date.isoformat()}/attempts/"


def playing(client: APIClient, daily) -> int:
    response = client.post(start_path(daily), HTTP_ORIGIN=ORIGIN)
    assert response.status_code == 201, response.content
    return response.json()["id"]


def assert_bad_origin(response) -> None:
    assert response.status_code == 403, response.content
    body = response.json()
    assert body["code"] == "bad_origin"
    assert body["detail"]


@pytest.mark.django_db
def test_another_port_of_the_same_host_cannot_resign_a_players_attempt(daily):
    victim = APIClient()
    attempt_id = playing(victim, daily)

    response = victim.post(
        f"/api/attempts/{attempt_id}/resign/", HTTP_ORIGIN="http://testserver:8081"
    )

    assert_bad_origin(response)
    assert Attempt.objects.get(pk=attempt_id).status == Attempt.Status.PLAYING


@pytest.mark.django_db
def test_another_site_cannot_start_an_attempt(daily):
    response = APIClient().post(start_path(daily), HTTP_ORIGIN="https://evil.example")

    assert_bad_origin(response)
    assert not Attempt.objects.exists()


@pytest.mark.django_db
def test_origin_null_is_refused(daily):
    assert_bad_origin(APIClient().post(start_path(daily), HTTP_ORIGIN="null"))


@pytest.mark.django_db
@pytest.mark.parametrize("site", ["cross-site", "same-site"])
def test_without_origin_a_browsers_cross_site_fetch_is_refused(daily, site):
    assert_bad_origin(APIClient().post(start_path(daily), HTTP_SEC_FETCH_SITE=site))


@pytest.mark.django_db
def test_the_sites_own_pages_may_change_things(daily):
    client = APIClient()
    attempt_id = playing(client, daily)

    response = client.post(
        f"/api/attempts/{attempt_id}/resign/", HTTP_ORIGIN=ORIGIN, HTTP_SEC_FETCH_SITE="same-origin"
    )

    assert response.status_code == 200, response.content


@pytest.mark.django_db
def test_requests_without_origin_pass(daily):
    """Scripts and curl send no Origin: they cannot carry anyone else's cookies."""
    client = APIClient()
    attempt_id = playing(client, daily)

    assert client.post(f"/api/attempts/{attempt_id}/resign/").status_code == 200


@pytest.mark.django_db
def test_trusted_origins_pass(settings, daily):
    settings.CSRF_TRUSTED_ORIGINS = ["https://play.patience.example", "https://*.cdn.example"]

    first = APIClient().post(start_path(daily), HTTP_ORIGIN="https://play.patience.example")
    second = APIClient().post(start_path(daily), HTTP_ORIGIN="https://eu.cdn.example")
    other = APIClient().post(start_path(daily), HTTP_ORIGIN="http://play.patience.example")

    assert first.status_code == 201
    assert second.status_code == 201
    assert_bad_origin(other)


@pytest.mark.django_db
def test_reads_are_never_refused(daily):
    response = APIClient().get("/api/dailies/", HTTP_ORIGIN="https://evil.example")

    assert response.status_code == 200


@pytest.mark.django_db
def test_outside_the_api_the_refusal_is_a_plain_403(client):
    response = client.post("/admin/login/", HTTP_ORIGIN="https://evil.example")

    assert response.status_code == 403
    assert response["Content-Type"].startswith("text/html")
