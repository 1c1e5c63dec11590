"""The leaderboards API: boards (top N, pages, around you, your row, ties), the day's
histogram, the all-time board, statistics, errors, and that no GET creates a player."""

from __future__ import annotations

import datetime as dt

import pytest
from rest_framework.test import APIClient

from games import services
from games.identity import COOKIE_NAME
from games.models import Attempt, Player
from tests.games import factories
from tests.leaderboards.helpers import NOON, result

TODAY = NOON.date()


def client_of(player: Player | None = None) -> APIClient:
    client = APIClient()
    if player is not None:
        client.cookies[COOKIE_NAME] = services.player_token_issue(player=player)
    return client


def board_url(daily, suffix: str = "") -> str:
    return f"/api/leaderboards/{daily.game}/{daily.date.isoformat()}/{suffix}"


def assert_error(response, status: int, code: str) -> None:
    assert response.status_code == status, response.content
    body = response.json()
    assert body["code"] == code and body["detail"], body


@pytest.fixture
def crowd(no_redis, today_daily):
    """Twelve results; alice is 7th, tied with bob."""
    alice = factories.player("alice")
    for n in range(6):
        result(today_daily, f"w{n}", moves=60 + n)
    result(today_daily, "bob", moves=70, finished_at=NOON - dt.timedelta(hours=2))
    result(today_daily, "alice", moves=70, player=alice)
    for n in range(4):
        result(today_daily, f"p{n}", status=Attempt.Status.PLAYING, moves=5, cards=20 - n)
    return alice


def test_the_top_of_the_board(crowd, today_daily) -> None:
    response = client_of().get(board_url(today_daily) + "?limit=3")
    assert response.status_code == 200
    body = response.json()
    assert (body["game"], body["date"], body["total"], body["you"]) == (
        "masterpiece",
        TODAY.isoformat(),
        12,
        None,
    )
    assert [(r["rank"], r["player"], r["you"]) for r in body["rows"]] == [
        (1, "w0", False),
        (2, "w1", False),
        (3, "w2", False),
    ]
    assert set(body["rows"][0]) == {
        "rank",
        "player",
        "status",
        "left",
        "moves",
        "undos",
        "seconds",
        "foundation_cards",
        "finished_at",
        "you",
    }
    assert len(client_of().get(board_url(today_daily)).json()["rows"]) == 12


def test_pages_ties_and_your_row(crowd, today_daily) -> None:
    body = client_of(crowd).get(board_url(today_daily) + "?limit=2&offset=6").json()
    assert [(r["rank"], r["player"], r["you"]) for r in body["rows"]] == [
        (7, "bob", False),
        (7, "alice", True),
    ]
    assert body["you"]["rank"] == 7 and body["you"]["you"] is True
    top = client_of(crowd).get(board_url(today_daily) + "?limit=1").json()
    assert top["you"]["player"] == "alice" and top["rows"][0]["you"] is False


def test_around_me(crowd, today_daily) -> None:
    body = client_of(crowd).get(board_url(today_daily) + "?around=me").json()
    players = [r["player"] for r in body["rows"]]
    assert players == ["w2", "w3", "w4", "w5", "bob", "alice", "p0", "p1", "p2", "p3"]
    assert [r["player"] for r in body["rows"] if r["you"]] == ["alice"]
    # Without a row on the board: the top page.
    bob_free = client_of(factories.player("carol")).get(board_url(today_daily) + "?around=me")
    assert bob_free.json()["rows"][0]["player"] == "w0"
    assert bob_free.json()["you"] is None


@pytest.mark.parametrize(
    "query", ["limit=0", "limit=101", "limit=x", "offset=-1", "around=you", "limit=1.5"]
)
def test_bad_queries_are_400(no_redis, today_daily, query) -> None:
    assert_error(client_of().get(board_url(today_daily) + "?" + query), 400, "invalid")


def test_unknown_and_future_dailies_are_404(no_redis, today_daily) -> None:
    client = client_of()
    tomorrow = (TODAY + dt.timedelta(days=1)).isoformat()
    factories.daily("masterpiece", TODAY + dt.timedelta(days=1))
    assert_error(client.get(f"/api/leaderboards/masterpiece/{tomorrow}/"), 404, "daily_not_found")
    assert_error(
        client.get(f"/api/leaderboards/masterpiece/{tomorrow}/distribution/"),
        404,
        "daily_not_found",
    )
    assert_error(client.get("/api/leaderboards/munger/2026-12-01/"), 404, "daily_not_found")
    assert_error(client.get("/api/leaderboards/bridge/2026-12-01/"), 404, "unknown_game")
    assert_error(client.get("/api/leaderboards/munger/2026-13-01/"), 400, "bad_date")


def test_the_day_distribution(no_redis, today_daily) -> None:
    alice = factories.player("alice")
    for moves in (61, 75):
        result(today_daily, moves=moves)
    result(today_daily, "alice", player=alice, status=Attempt.Status.PLAYING)
    body = client_of(alice).get(board_url(today_daily, "distribution/")).json()
    assert body == {
        "game": "masterpiece",
        "date": TODAY.isoformat(),
        "buckets": [
            {"from": 60, "to": 69, "count": 1},
            {"from": 70, "to": 79, "count": 1},
        ],
        "wins": 2,
        "par": None,
    }


def test_my_stats_and_a_players_stats(no_redis, today_daily) -> None:
    alice = factories.player("alice")
    result(today_daily, "alice", player=alice, moves=today_daily.deal.par + 4)
    body = client_of(alice).get("/api/players/me/stats/").json()
    assert (body["player"], body["game"], body["played"], body["won"]) == ("alice", None, 1, 1)
    assert (body["win_rate"], body["current_streak"], body["avg_moves_over_par"]) == (1.0, 1, 4.0)
    assert len(body["weekly_wins"]) == 12 and body["weekly_wins"][-1]["wins"] == 1
    munger = client_of(alice).get("/api/players/me/stats/?game=munger").json()
    assert (munger["game"], munger["played"], munger["win_rate"]) == ("munger", 0, None)
    assert client_of().get("/api/players/ALICE/stats/").json()["won"] == 1
    assert_error(client_of().get("/api/players/nobody/stats/"), 404, "player_not_found")
    assert_error(client_of(alice).get("/api/players/me/stats/?game=chess"), 400, "invalid")


def test_the_all_time_board(no_redis, today_daily) -> None:
    result(today_daily, "alice", moves=90)
    result(today_daily, "bob", status=Attempt.Status.RESIGNED)
    body = client_of().get("/api/leaderboards/all-time/").json()
    assert body["game"] is None
    assert [(r["rank"], r["player"], r["wins"], r["current_streak"]) for r in body["rows"]] == [
        (1, "alice", 1, 1)
    ]
    assert client_of().get("/api/leaderboards/all-time/?game=munger").json()["rows"] == []
    assert_error(client_of().get("/api/leaderboards/all-time/?game=x"), 400, "invalid")


def test_no_get_creates_a_player(no_redis, today_daily) -> None:
    result(today_daily, "alice")
    before = Player.objects.count()
    client = client_of()
    for url in (
        board_url(today_daily),
        board_url(today_daily) + "?around=me",
        board_url(today_daily, "distribution/"),
        "/api/leaderboards/all-time/",
        "/api/players/alice/stats/",
    ):
        response = client.get(url)
        assert response.status_code == 200, (url, response.content)
        assert COOKIE_NAME not in response.cookies
    assert_error(client.get("/api/players/me/stats/"), 404, "no_player")
    assert Player.objects.count() == before


def test_the_endpoints_are_in_the_schema(no_redis, db) -> None:
    response = client_of().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    paths = response.json()["paths"]
    for path in (
        "/api/leaderboards/{game}/{date}/",
        "/api/leaderboards/{game}/{date}/distribution/",
        "/api/leaderboards/all-time/",
        "/api/players/me/stats/",
        "/api/players/{display_name}/stats/",
    ):
        assert "get" in paths[path], path
