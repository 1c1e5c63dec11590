"""The ratings API: your ratings with their history, and a past daily's deal rating (nothing of a
daily whose ranked play is open)."""

from __future__ import annotations

import datetime as dt

import pytest
from rest_framework.test import APIClient

from games import clock, services
from games.identity import COOKIE_NAME
from games.models import Attempt, Player
from ratings.models import DealRating, RatedDaily
from ratings.services import ratings_close_daily
from tests.games import factories
from tests.ratings.conftest import ranked

pytestmark = pytest.mark.django_db


def client_of(player: Player | None = None) -> APIClient:
    client = APIClient()
    if player is not None:
        client.cookies[COOKIE_NAME] = services.player_token_issue(player=player)
    return client


def assert_error(response, status: int, code: str) -> None:
    assert response.status_code == status, response.content
    body = response.json()
    assert body["code"] == code and body["detail"], body


def rating_url(daily) -> str:
    return f"/api/dailies/{daily.game}/{daily.date.isoformat()}/rating/"


def test_your_ratings_per_game_with_their_history(past_daily, alice, bob, close):
    ranked(past_daily, alice)
    ranked(past_daily, bob, Attempt.Status.RESIGNED)
    close(past_daily)
    ratings_close_daily(daily_id=past_daily.pk)

    body = client_of(alice).get("/api/players/me/ratings/").json()

    assert body["player"] == "alice"
    masterpiece, munger = sorted(body["ratings"], key=lambda r: r["game"])
    assert masterpiece["game"] == "masterpiece" and masterpiece["games"] == 1
    assert masterpiece["rating"] > 1500 and masterpiece["provisional"] is True
    assert masterpiece["history"] == [
        {
            "date": past_daily.date.isoformat(),
            "before": 1500,
            "after": masterpiece["rating"],
            "result": "win",
        }
    ]
    assert munger == {
        "game": "munger",
        "rating": 1500,
        "rd": 350,
        "provisional": True,
        "games": 0,
        "history": [],
    }
    lost = client_of(bob).get("/api/players/me/ratings/").json()["ratings"]
    assert [r["history"][0]["result"] for r in lost if r["history"]] == ["loss"]


def test_a_settled_rating_is_not_provisional(alice):
    from ratings.models import PlayerRating

    PlayerRating.objects.create(player=alice, game="munger", rating=1712.4, rd=64.6, games=40)

    (munger,) = [
        r
        for r in client_of(alice).get("/api/players/me/ratings/").json()["ratings"]
        if r["game"] == "munger"
    ]
    assert (munger["rating"], munger["rd"], munger["provisional"]) == (1712, 65, False)


def test_your_ratings_need_a_player(db):
    assert_error(client_of().get("/api/players/me/ratings/"), 404, "no_player")


def test_a_past_dailys_deal_rating(past_daily, alice, bob, close):
    ranked(past_daily, alice)
    ranked(past_daily, bob, Attempt.Status.RESIGNED)
    close(past_daily)
    ratings_close_daily(daily_id=past_daily.pk)
    deal = DealRating.objects.get(deal=past_daily.deal)

    response = client_of().get(rating_url(past_daily))

    assert response.status_code == 200
    assert response.json() == {
        "game": "masterpiece",
        "date": past_daily.date.isoformat(),
        "rating": round(deal.rating),
        "rd": round(deal.rd),
        "players": 2,
        "calibrated_difficulty": None,
    }


def test_a_past_daily_not_rated_yet_is_404(past_daily):
    assert_error(client_of().get(rating_url(past_daily)), 404, "daily_not_rated")


def test_nothing_of_a_daily_whose_ranked_play_is_open(alice, travel):
    """Even were its deal rated (a deal played on another day), today's daily tells nothing,
    nor during the grace after midnight."""
    today = factories.daily("masterpiece")
    RatedDaily.objects.create(daily=today, game="masterpiece", rated_at=clock.now(), players=1)
    DealRating.objects.create(
        deal=today.deal, game="masterpiece", rating=1600, rd=90, seed_rating=1500, players=1
    )
    midnight = dt.datetime.combine(today.date + dt.timedelta(days=1), dt.time(), dt.UTC)

    for moment in (midnight - dt.timedelta(hours=1), midnight + dt.timedelta(minutes=4)):
        travel(moment)
        assert_error(client_of(alice).get(rating_url(today)), 404, "daily_not_rated")
    travel(midnight + dt.timedelta(minutes=6))
    assert client_of(alice).get(rating_url(today)).status_code == 200


def test_a_daily_rating_of_no_daily_is_404(db):
    assert_error(client_of().get("/api/dailies/chess/2026-01-01/rating/"), 404, "unknown_game")
    assert_error(client_of().get("/api/dailies/munger/2020-01-01/rating/"), 404, "daily_not_found")
    assert_error(client_of().get("/api/dailies/munger/yesterday/rating/"), 400, "bad_date")


def test_a_boards_rows_get_their_players_ratings(past_daily, alice, bob, carol):
    from ratings.models import PlayerRating

    PlayerRating.objects.create(player=alice, game="masterpiece", rating=1712.4, rd=64.6)
    PlayerRating.objects.create(player=bob, game="munger", rating=1900, rd=50)  # another game
    ranked(past_daily, alice)
    ranked(past_daily, bob)
    Attempt.objects.filter(pk=ranked(past_daily, carol).pk).update(ranked=False)  # practice
    url = f"/api/leaderboards/masterpiece/{past_daily.date}/ratings/"

    body = client_of().get(url, {"player": ["alice", "bob", "carol", "nobody"]}).json()

    assert body == {
        "ratings": [
            {"player": "alice", "rating": 1712, "provisional": False},
            {"player": "bob", "rating": 1500, "provisional": True},
        ]
    }
    for bad in [[""], ["x" * 65], ["a"] * 101]:
        assert_error(client_of().get(url, {"player": bad}), 400, "invalid")
    assert_error(client_of().get(url), 400, "invalid")
    assert not Player.objects.exclude(pk__in=[alice.pk, bob.pk, carol.pk]).exists()
