"""Leagues and seasons (leagues/): the points rule against worked examples, a closed day's points
(held results silent until approved), a league's life (invite, join, rename, remove, leave), the
limits, and the API with its fixed number of queries."""

from __future__ import annotations

import datetime as dt
import io
import threading
import time

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from games import clock, errors
from games import services as games
from games.identity import COOKIE_NAME
from games.models import Attempt, DailyChallenge, Player
from leagues import points, selectors, services
from leagues.models import DailyPoints, League, Membership
from tests.games import factories

pytestmark = pytest.mark.django_db

DAY = dt.date(2026, 3, 9)  # a Monday


def client_of(player: Player | None = None) -> APIClient:
    client = APIClient()
    if player is not None:
        client.cookies[COOKIE_NAME] = games.player_token_issue(player=player)
    return client


def result(daily: DailyChallenge, player: Player, *, won: bool, moves: int, **more) -> Attempt:
    """A ranked result on `daily` as the board counts it (verified when finished)."""
    started = dt.datetime.combine(daily.date, dt.time(12), tzinfo=dt.UTC)
    return Attempt.objects.create(
        player=player,
        game=daily.game,
        daily=daily,
        seed=daily.deal.seed,
        deal_string=daily.deal.deal_string,
        ranked=True,
        status=Attempt.Status.WON if won else Attempt.Status.RESIGNED,
        verified=True,
        move_count=moves,
        next_seq=moves,
        foundation_cards=52 if won else more.pop("cards", 20),
        started_at=started,
        first_move_at=started,
        finished_at=started + dt.timedelta(minutes=5),
        counted_ms=more.pop("ms", 300_000),
        **more,
    )


def closed(daily: DailyChallenge) -> DailyChallenge:
    DailyChallenge.objects.filter(pk=daily.pk).update(
        closed_at=dt.datetime.combine(daily.date + dt.timedelta(days=1), dt.time(0, 10), dt.UTC)
    )
    daily.refresh_from_db()
    return daily


# -- the points rule ---------------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2, 3, 10, 1000])
def test_every_win_scores_more_than_any_loss(players):
    worst_win = min(points.points(won=True, rank=r, players=players) for r in range(1, players + 1))
    best_loss = max(
        points.points(won=False, rank=r, players=players) for r in range(1, players + 1)
    )
    assert worst_win > best_loss
    assert points.points(won=True, rank=1, players=players) == 100


def test_a_worked_day_of_four():
    # Two wins (the shorter first), a resignation with more cards home, one with fewer.
    ranks = [(True, 1), (True, 2), (False, 3), (False, 4)]
    assert [points.points(won=w, rank=r, players=4) for w, r in ranks] == [100, 83, 13, 0]
    # A tie shares the better rank and its points.
    assert points.points(won=True, rank=1, players=4) == 100


def test_a_closed_day_scores_what_its_board_shows_and_held_results_are_silent(alice, bob):
    carol, dan = factories.player("carol"), factories.player("dan")
    daily = factories.daily("masterpiece", DAY)
    result(daily, alice, won=True, moves=80)
    result(daily, bob, won=True, moves=95)
    result(daily, carol, won=False, moves=60, cards=30)
    held = result(daily, dan, won=True, moves=70, review=Attempt.Review.HELD)
    assert services.daily_points_compute(daily_id=daily.pk) == 0  # not closed: nothing yet
    closed(daily)

    assert services.daily_points_compute(daily_id=daily.pk) == 3
    assert services.daily_points_compute(daily_id=daily.pk) == 3  # again: the same rows
    rows = {
        r.player.display_name: (r.rank, r.players, r.won, r.points)
        for r in DailyPoints.objects.select_related("player")
    }
    assert rows == {
        "alice": (1, 3, True, 100),
        "bob": (2, 3, True, 75),
        "carol": (3, 3, False, 0),
    }

    # Approved after review: the day is worked out again, dan first.
    games.attempt_review_approve(attempt=held, by=None)
    services.daily_points_for_attempt(attempt_id=held.pk)
    ranks = dict(DailyPoints.objects.values_list("player__display_name", "rank"))
    assert ranks == {"dan": 1, "alice": 2, "bob": 3, "carol": 4}
    assert DailyPoints.objects.count() == 4


def test_the_day_closing_works_its_points_out(alice, travel):
    daily = factories.daily("masterpiece", DAY)
    result(daily, alice, won=True, moves=80)
    travel(dt.datetime(2026, 3, 10, 0, 10))
    games.daily_close(daily_id=daily.pk)  # the signal's receiver runs after commit
    # pytest-django's transaction never commits: the receiver is called as the commit would.
    from leagues import receivers

    receivers.on_daily_closed(sender=None, daily_id=daily.pk)
    assert list(DailyPoints.objects.values_list("points", flat=True)) == [100]


# -- a league's life ---------------------------------------------------------------------------


def test_a_league_is_made_joined_by_its_invite_and_renamed_by_its_owner(alice, bob):
    league = services.league_create(player=alice, name="  The   Sunday club ")
    assert league.name == "The Sunday club" and league.owner == alice
    joined, new = services.league_join(code=league.invite_code, player=bob)
    again, second = services.league_join(code=league.invite_code, player=bob)
    assert joined == again == league and new and not second
    assert Membership.objects.filter(league=league).count() == 2

    with pytest.raises(errors.Forbidden):
        services.league_rename(league_id=league.pk, player=bob, name="Mine now")
    services.league_rename(league_id=league.pk, player=alice, name="Club")
    assert League.objects.get(pk=league.pk).name == "Club"

    old = league.invite_code
    fresh = services.league_new_invite(league_id=league.pk, player=alice).invite_code
    assert fresh != old
    carol = factories.player("carol")
    with pytest.raises(errors.NotFound):
        services.league_join(code=old, player=carol)
    services.league_join(code=fresh, player=carol)


def test_an_owner_removes_a_member_and_leaving_hands_the_league_on(alice, bob):
    carol = factories.player("carol")
    league = services.league_create(player=alice, name="Club")
    services.league_join(code=league.invite_code, player=bob)
    services.league_join(code=league.invite_code, player=carol)

    services.league_remove_member(league_id=league.pk, player=alice, member_id=carol.pk)
    assert not Membership.objects.filter(league=league, player=carol).exists()
    with pytest.raises(errors.Conflict):
        services.league_remove_member(league_id=league.pk, player=alice, member_id=alice.pk)

    services.league_leave(league_id=league.pk, player=alice)
    assert League.objects.get(pk=league.pk).owner == bob
    services.league_leave(league_id=league.pk, player=bob)
    assert not League.objects.filter(pk=league.pk).exists()


def test_a_bad_name_is_refused_and_changes_nothing(alice):
    for name in ["", " x ", "-" * 5, "a" * 41, "tab\u0007bell"]:
        with pytest.raises(errors.Malformed):
            services.league_create(player=alice, name=name)
    assert not League.objects.exists()


def test_the_limits(alice, bob, settings):
    settings.LEAGUE_MEMBERS_MAX = 2
    settings.LEAGUES_PER_PLAYER = 2
    settings.LEAGUE_CREATIONS_PER_ADDRESS = 2
    league = services.league_create(player=alice, name="One", address="127.1.0.1")
    services.league_join(code=league.invite_code, player=bob)
    with pytest.raises(errors.Conflict) as full:
        services.league_join(code=league.invite_code, player=factories.player("carol"))
    assert full.value.code == "league_full"

    services.league_create(player=alice, name="Two", address="127.1.0.1")
    with pytest.raises(errors.Conflict) as mine:
        services.league_create(player=alice, name="Three", address="127.1.0.2")
    assert mine.value.code == "leagues_full"
    with pytest.raises(errors.Conflict) as address:
        services.league_create(player=bob, name="Three", address="127.1.0.1")
    assert address.value.code == "league_creations_address"
    assert League.objects.count() == 2


# -- the API -----------------------------------------------------------------------------------


def test_a_league_page_shows_today_and_the_seasons_to_its_members(alice, bob, travel):
    travel(dt.datetime(2026, 3, 11, 12, 0))  # a Wednesday
    monday = closed(factories.daily("masterpiece", DAY))
    result(monday, alice, won=True, moves=80)
    result(monday, bob, won=False, moves=50)
    services.daily_points_compute(daily_id=monday.pk)
    today = factories.daily("munger", dt.date(2026, 3, 11))
    result(today, bob, won=True, moves=120)

    client = client_of(alice)
    made = client.post("/api/leagues/", {"name": "Club"}, format="json")
    assert made.status_code == 201, made.content
    code = made.json()["invite_code"]
    assert client_of(bob).get(f"/api/leagues/join/{code}/").json()["members"] == 1
    assert client_of(bob).post(f"/api/leagues/join/{code}/").status_code == 201

    page = client.get(f"/api/leagues/{made.json()['id']}/")

    assert page.status_code == 200
    body = page.json()
    assert [m["player"] for m in body["members"]] == ["alice", "bob"]
    assert body["you_own"] is True
    week = body["standings"]["week"]
    assert week["season"] == "2026-W11"
    assert [(r["player"], r["points"]) for r in week["rows"]] == [("alice", 100), ("bob", 0)]
    assert body["standings"]["all_time"]["rows"][0]["player"] == "alice"
    (munger,) = [d for d in body["today"] if d["game"] == "munger"]
    assert [(r["player"], r["status"]) for r in munger["results"]] == [("bob", "won")]
    assert (
        client_of(factories.player("carol")).get(f"/api/leagues/{body['id']}/").status_code == 404
    )


@pytest.mark.slow
def test_a_league_page_costs_the_same_queries_whatever_its_members(alice, travel, settings):
    travel(dt.datetime(2026, 3, 11, 12, 0))
    daily = closed(factories.daily("masterpiece", DAY))
    today = factories.daily("munger", dt.date(2026, 3, 11))
    league = services.league_create(player=alice, name="Club")
    result(today, alice, won=True, moves=100)
    client = client_of(alice)
    client.get(f"/api/leagues/{league.pk}/")  # the first read of the day notes the visit

    def cost() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(f"/api/leagues/{league.pk}/").status_code == 200
        return len(queries)

    few = cost()
    for n in range(settings.LEAGUE_MEMBERS_MAX - 1):  # a full league: 200 members
        member = factories.player(f"member{n}")
        services.league_join(code=league.invite_code, player=member)
        result(daily, member, won=n % 2 == 0, moves=80 + n)
        result(today, member, won=n % 3 == 0, moves=90 + n)
    services.daily_points_compute(daily_id=daily.pk)
    assert cost() == few


def test_a_past_season_stays_readable(alice, bob, travel):
    daily = closed(factories.daily("masterpiece", DAY))
    result(daily, alice, won=True, moves=80)
    result(daily, bob, won=True, moves=90)
    services.daily_points_compute(daily_id=daily.pk)
    travel(dt.datetime(2026, 5, 1, 12, 0))

    week = client_of().get("/api/seasons/week/?date=2026-03-12").json()
    month = client_of().get("/api/seasons/month/?date=2026-03-01&game=masterpiece").json()

    assert week["season"] == "2026-W11" and week["closed"] is True
    assert [(r["rank"], r["player"], r["points"]) for r in week["rows"]] == [
        (1, "alice", 100),
        (2, "bob", 50),
    ]
    assert month["first"] == "2026-03-01" and month["last"] == "2026-03-31"
    assert client_of().get("/api/seasons/month/?game=munger&date=2026-03-01").json()["rows"] == []
    assert client_of().get("/api/seasons/year/").status_code == 404
    assert client_of().get("/api/seasons/week/?date=nope").status_code == 400
    assert selectors.season_name("week", clock.today()).startswith("2026-W")


def test_the_backfill_scores_closed_days_once(alice, bob):
    from django.core.management import call_command

    first = closed(factories.daily("masterpiece", DAY))
    second = closed(factories.daily("munger", DAY + dt.timedelta(days=1)))
    factories.daily("masterpiece", DAY + dt.timedelta(days=2))  # not closed: not scored
    result(first, alice, won=True, moves=80)
    result(second, alice, won=False, moves=30)
    result(second, bob, won=True, moves=120)
    out = io.StringIO()

    call_command("season_backfill", stdout=out)
    call_command("season_backfill", stdout=out)

    assert out.getvalue().splitlines() == ["2 dailies, 3 rows", "0 dailies, 0 rows"]
    assert sorted(DailyPoints.objects.values_list("player__display_name", "points")) == [
        ("alice", 0),
        ("alice", 100),
        ("bob", 100),
    ]


@pytest.mark.optimisation
def test_a_days_points_cost_the_same_queries_whatever_its_players():
    daily = closed(factories.daily("masterpiece", DAY))

    def cost() -> int:
        with CaptureQueriesContext(connection) as queries:
            services.daily_points_compute(daily_id=daily.pk)
        return len(queries)

    result(daily, factories.player("first"), won=True, moves=80)
    few = cost()
    for n in range(40):
        result(daily, factories.player(f"p{n}"), won=n % 2 == 0, moves=70 + n)
    assert cost() == few


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_leagues_made_at_once_from_one_address_pass_its_limit_exactly(settings, monkeypatch):
    settings.LEAGUE_CREATIONS_PER_ADDRESS = 3
    code = services._code

    def slow_code() -> str:  # between the count and the insert: every maker counts at once
        time.sleep(0.2)
        return code()

    monkeypatch.setattr(services, "_code", slow_code)
    makers = [factories.player(f"maker{n}") for n in range(10)]
    barrier = threading.Barrier(len(makers))
    answers: list[str] = []

    def make(player: Player) -> None:
        barrier.wait()
        try:
            services.league_create(player=player, name="Club", address="203.0.113.7")
            answers.append("made")
        except errors.Conflict as refusal:
            answers.append(refusal.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=make, args=(player,)) for player in makers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(answers) == ["league_creations_address"] * 7 + ["made"] * 3
    assert League.objects.count() == 3


def test_the_week_outlook_says_what_todays_results_would_add(alice, bob, travel):
    travel(dt.datetime(2026, 3, 11, 12, 0))  # a Wednesday
    carol, dave = factories.player("carol"), factories.player("dave")
    monday = closed(factories.daily("masterpiece", DAY))
    result(monday, alice, won=True, moves=80)
    result(monday, carol, won=True, moves=90)
    result(monday, bob, won=False, moves=50)
    services.daily_points_compute(daily_id=monday.pk)  # alice 100, carol 75, bob 0
    munger = factories.daily("munger", dt.date(2026, 3, 11))
    masterpiece = factories.daily("masterpiece", dt.date(2026, 3, 11))
    result(munger, alice, won=True, moves=100)
    result(munger, bob, won=True, moves=120)
    result(masterpiece, alice, won=True, moves=70, review=Attempt.Review.HELD)
    league = services.league_create(player=alice, name="Club", address="127.0.0.1")
    services.league_join(player=bob, code=league.invite_code)

    mine = client_of(alice).get("/api/players/me/week/")

    assert mine.status_code == 200, mine.content
    body = mine.json()
    assert (body["season"], body["first"], body["last"]) == ("2026-W11", "2026-03-09", "2026-03-15")
    assert (body["points"], body["rank"], body["players"]) == (100, 1, 3)
    today = {r["game"]: r for r in body["today"]}
    assert today["munger"] | {"date": None} == {
        "game": "munger",
        "date": None,
        "status": "won",
        "rank": 1,
        "players": 2,
        "points": 100,
    }
    assert (today["masterpiece"]["status"], today["masterpiece"]["points"]) == ("held", None)
    assert (body["points_with_today"], body["rank_with_today"]) == (200, 1)

    bobs = selectors.week_outlook(player=bob)
    assert (bobs["points"], bobs["rank"], bobs["points_with_today"]) == (0, 3, 50)
    assert bobs["rank_with_today"] == 3  # carol's 75 of the closed days is still ahead
    assert bobs["leagues"] == [
        {"id": league.pk, "name": "Club", "members": 2, "rank": 2, "rank_with_today": 2}
    ]

    daves = selectors.week_outlook(player=dave)
    assert (daves["points"], daves["rank"], daves["rank_with_today"]) == (0, None, None)
    assert {r["status"] for r in daves["today"]} == {"not_played"} and daves["leagues"] == []
    assert APIClient().get("/api/players/me/week/").status_code == 404
