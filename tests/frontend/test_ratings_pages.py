"""The ratings on the pages (docs/leagues.md, "Ratings"): My stats shows each game's rating, its
chart with the table of the same numbers and the latest changes, or a sentence before the first
rated daily; the archive and the home page show a past daily's deal rating beside its solver
difficulty, and nothing of a daily still played for rank. In the site's three languages."""

from __future__ import annotations

import datetime as dt
import json
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from frontend.rating_info import signed
from games import clock, services
from games.identity import COOKIE_NAME
from games.models import Attempt, DailyChallenge, Player
from ratings import selectors as rating_selectors
from ratings.services import ratings_close_daily
from tests.games import factories
from tests.ratings.conftest import ranked

#: English words of the ratings' parts of the pages, which a translated page must not show.
ENGLISH = [
    "Latest rating changes",
    "rating over time",
    "Deal rating",
    "calibrated by players",
    "You have no rating yet",
    ">provisional<",
    "Yesterday’s deal",
]
TRANSLATED = {
    "fr": ["Derniers changements de cote", "au fil du temps", "provisoire"],
    "ru": ["Последние изменения рейтинга", "рейтинг со временем", "предварительный"],
}


def as_player(client, player: Player) -> None:
    client.cookies[COOKIE_NAME] = services.player_token_issue(player=player)


def rate(daily: DailyChallenge, results: dict[Player, str]) -> None:
    """The day closed with these results, then rated as the task does."""
    for player, status in results.items():
        ranked(daily, player, status)
    DailyChallenge.objects.filter(pk=daily.pk).update(closed_at=clock.now())
    ratings_close_daily(daily_id=daily.pk)


@pytest.fixture
def rated(db) -> dict[str, object]:
    """alice won masterpiece three days ago and resigned it two days ago; bob lost both. The
    munger daily of yesterday is rated; today's dailies are played."""
    alice, bob = factories.player("alice"), factories.player("bob")
    today = clock.today()
    older = factories.daily("masterpiece", today - dt.timedelta(days=3))
    old = factories.daily("masterpiece", today - dt.timedelta(days=2))
    yesterday = factories.daily("munger", today - dt.timedelta(days=1))
    running = {game: factories.daily(game) for game in ("munger", "masterpiece")}
    rate(older, {alice: Attempt.Status.WON, bob: Attempt.Status.RESIGNED})
    rate(old, {alice: Attempt.Status.RESIGNED, bob: Attempt.Status.PLAYING})
    rate(yesterday, {alice: Attempt.Status.WON})
    for daily in running.values():
        ranked(daily, bob, Attempt.Status.WON)
    return {"alice": alice, "bob": bob, "yesterday": yesterday, "running": running}


def test_a_change_is_written_with_its_sign():
    assert [signed(12), signed(-8), signed(0)] == ["+12", "−8", "±0"]


# -- my stats -------------------------------------------------------------------------------------


def test_my_stats_show_each_rated_games_rating_chart_and_changes(client, rated):
    alice = rated["alice"]
    as_player(client, alice)
    mine = {entry["game"]: entry for entry in rating_selectors.player_ratings(player=alice)}

    response = client.get("/me/")

    html = response.content.decode()
    assert response.status_code == 200
    for game in ("masterpiece", "munger"):
        assert f'id="chart-rating-{game}"' in html
        assert f'<span data-testid="rating">{mine[game]["rating"]}</span>' in html
    assert 'data-testid="provisional"' in html  # a handful of dailies: not settled yet
    # The chart's data and its table hold the rating after each daily.
    charts = json.loads(re.search(r'id="chart-data"[^>]*>(.*?)</script>', html).group(1))
    series = {entry["game"]: entry for entry in charts["ratings"]}
    history = mine["masterpiece"]["history"]
    assert [point["rating"] for point in series["masterpiece"]["points"]] == [
        change["after"] for change in history
    ]
    assert series["masterpiece"]["title"] == "Masterpiece rating over time"
    for change in history:
        assert (
            f'<td>{change["date"].isoformat()}</td><td class="num">{change["after"]}</td>' in html
        )
    # The latest changes, newest first, with their sign, date and result.
    changes = response.context["ratings"]["changes"]
    assert [change["date"] for change in changes] == sorted(
        (change["date"] for change in changes), reverse=True
    )
    won, lost = history[0], history[1]
    assert won["after"] > won["before"] and lost["after"] < lost["before"]
    cells = re.findall(r'data-testid="rating-change">([^<]+)<', html)
    assert f"+{won['after'] - won['before']}" in cells
    assert f"−{lost['before'] - lost['after']}" in cells
    assert "Win</span>" in html and "Loss</span>" in html
    assert "You have no rating yet" not in html


def test_my_stats_before_the_first_rated_daily_say_when_ratings_start(client, dailies_today):
    carol = factories.player("carol")
    ranked(dailies_today["munger"], carol, Attempt.Status.WON)  # played, its day not over
    as_player(client, carol)

    html = client.get("/me/").content.decode()

    assert "You have no rating yet: ratings start after your first ranked daily closes." in html
    assert "chart-rating-" not in html
    assert 'data-testid="rating-changes"' not in html
    assert '"ratings": []' in html


@pytest.mark.parametrize("language", ["fr", "ru"])
def test_my_stats_ratings_are_translated(client, rated, language):
    as_player(client, rated["alice"])

    html = client.get("/me/", HTTP_ACCEPT_LANGUAGE=language).content.decode()

    for words in TRANSLATED[language]:
        assert words in html
    for words in ENGLISH:
        assert words not in html
    assert "%(" not in html and "{{" not in html


@pytest.mark.parametrize("language", ["fr", "ru"])
def test_the_no_rating_sentence_is_translated(client, db, language):
    carol = factories.player("carol")
    as_player(client, carol)

    html = client.get("/me/", HTTP_ACCEPT_LANGUAGE=language).content.decode()

    assert 'data-testid="no-rating"' in html
    assert "You have no rating yet" not in html


# -- archive and home -----------------------------------------------------------------------------


def deal_ratings(html: str) -> list[str]:
    return re.findall(r'data-testid="deal-rating">(.*?)</span>', html)


def test_the_archive_shows_each_rated_past_deals_rating_and_not_a_running_one(client, rated):
    yesterday = rated["yesterday"]
    expected = rating_selectors.daily_rating(daily=yesterday)

    html = client.get("/archive/").content.decode()

    assert f"Deal rating: {expected['rating']}" in html
    assert "calibrated by players" not in html  # too few rated dailies yet
    # Two masterpiece days and yesterday's munger: rated; today's two dailies: nothing.
    today = clock.today()
    month_days = [
        d for d in (today - dt.timedelta(days=n) for n in (1, 2, 3)) if d.month == today.month
    ]
    assert len(deal_ratings(html)) == len(month_days)
    for running in rated["running"].values():
        assert rating_selectors.daily_rating(daily=running) is None


@pytest.fixture
def calibrated(rated, monkeypatch):
    """Two rated dailies of each game are enough for a calibrated difficulty here (30 in
    play): a second munger daily, four days ago, which bob lost."""
    monkeypatch.setattr(rating_selectors, "CALIBRATION_MIN_DAILIES", 2)
    daily = factories.daily("munger", clock.today() - dt.timedelta(days=4))
    rate(daily, {rated["bob"]: Attempt.Status.RESIGNED})
    return rated


def test_the_calibrated_difficulty_is_shown_once_it_exists(client, calibrated):
    rated = calibrated
    level = rating_selectors.daily_rating(daily=rated["yesterday"])["calibrated_difficulty"]
    assert level is not None

    archive = client.get("/archive/").content.decode()
    home = client.get("/").content.decode()

    assert "calibrated by players: " in archive and f"({level} of 5)" in archive
    assert "calibrated by players: " in home


def test_home_shows_yesterdays_deal_rating_beside_its_difficulty(client, rated):
    expected = rating_selectors.daily_rating(daily=rated["yesterday"])

    html = client.get("/").content.decode()

    card = re.search(r'data-game="munger".*?</li>', html, re.S).group(0)
    assert 'data-testid="yesterday-rating"' in card
    assert f"Deal rating: {expected['rating']}" in card
    # Yesterday's masterpiece had no daily; today's deals are played for rank: nothing.
    other = re.search(r'data-game="masterpiece".*?</li>', html, re.S).group(0)
    assert "Deal rating" not in other


def test_home_shows_no_rating_of_an_unrated_day(client, dailies_today):
    html = client.get("/").content.decode()

    assert "Deal rating" not in html and "yesterday-rating" not in html


@pytest.mark.parametrize("language", ["fr", "ru"])
def test_the_deal_ratings_are_translated(client, calibrated, language):
    for path in ("/archive/", "/"):
        html = client.get(path, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert "Deal rating" not in html and "calibrated by players" not in html
        assert {"fr": "Cote de la donne", "ru": "Рейтинг расклада"}[language] in html
        assert {"fr": "calibrée par les joueurs", "ru": "по оценке игроков"}[language] in html
        assert "%(" not in html


@pytest.fixture
def dailies_today(db):
    return {game: factories.daily(game) for game in ("munger", "masterpiece")}


@pytest.mark.optimisation
def test_the_archives_deal_ratings_cost_the_same_queries_whatever_the_rated_days(
    client, db, monkeypatch
):
    """A month of rated dailies is read in a few queries, not a few per daily."""
    monkeypatch.setattr(rating_selectors, "CALIBRATION_MIN_DAILIES", 1)
    month = dt.date(2026, 3, 1)
    players = [factories.player(f"p{n}") for n in range(2)]

    def rated_day(day: int, game: str) -> None:
        rate(factories.daily(game, month.replace(day=day)), {players[day % 2]: Attempt.Status.WON})

    def cost() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get("/archive/?month=2026-03").status_code == 200
        return len(queries)

    rated_day(2, "munger")
    rated_day(2, "masterpiece")
    few = cost()
    for day in range(3, 9):
        rated_day(day, "munger")
    assert len(rating_selectors.daily_ratings(dailies=list(DailyChallenge.objects.all()))) == 8
    assert cost() == few
