"""Rating a closed day (`ratings_close_daily`), a result changed after its day was rated
(`rating_follow_result`: counted late, or taken back), what counts, and the signals and tasks
that start them."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import User

from config.celery import app as celery_app
from games import services
from games.models import Attempt, DailyChallenge, Deal
from ratings import glicko2, selectors
from ratings.models import DealRating, PlayerRating, RatedDaily, RatingChange
from ratings.services import _results, deal_seed, rating_follow_result, ratings_close_daily
from tests.games import factories
from tests.ratings.conftest import ranked

pytestmark = pytest.mark.django_db


def rating_of(player, game="masterpiece") -> PlayerRating:
    return PlayerRating.objects.get(player=player, game=game)


def snapshot() -> list[tuple]:
    """Every rating row as it stands."""
    return [
        *PlayerRating.objects.order_by("pk").values_list("rating", "rd", "volatility", "games"),
        *DealRating.objects.order_by("pk").values_list("rating", "rd", "volatility", "players"),
        *RatingChange.objects.order_by("pk").values_list("player_id", "rating_after"),
    ]


# -- a day -----------------------------------------------------------------------------------


def test_a_worked_day_three_players_one_deal(past_daily, alice, bob, carol, close):
    """docs/leagues.md's example. The deal (difficulty 3: 1500, RD 350) meets a newcomer who
    wins (alice), bob (1600, RD 80, who played the day before) who resigns, and carol (1400,
    RD 150, last counted three days before: two idle days widen her RD to 150.72) who left
    her game unfinished. The deal is rated first against the three, then each player against
    the deal's new rating."""
    day = past_daily.date
    PlayerRating.objects.create(
        player=bob,
        game="masterpiece",
        rating=1600,
        rd=80,
        games=20,
        last_date=day - dt.timedelta(1),
    )
    PlayerRating.objects.create(
        player=carol,
        game="masterpiece",
        rating=1400,
        rd=150,
        games=9,
        last_date=day - dt.timedelta(3),
    )
    ranked(past_daily, alice, Attempt.Status.WON)
    ranked(past_daily, bob, Attempt.Status.RESIGNED)
    ranked(past_daily, carol, Attempt.Status.PLAYING)
    close(past_daily)

    assert ratings_close_daily(daily_id=past_daily.pk) == 3

    deal = DealRating.objects.get(deal=past_daily.deal)
    assert (deal.seed_rating, deal.players) == (1500, 3)
    assert (deal.rating, deal.rd) == (
        pytest.approx(1640.27, abs=0.01),
        pytest.approx(198.50, abs=0.01),
    )
    expected = {
        alice: (1740.70, 272.72, 1, "win"),
        bob: (1586.23, 79.18, 21, "loss"),
        carol: (1376.02, 144.19, 10, "loss"),
    }
    for player, (rating, rd, games, result) in expected.items():
        row = rating_of(player)
        assert row.rating == pytest.approx(rating, abs=0.01), player
        assert row.rd == pytest.approx(rd, abs=0.01), player
        assert (row.games, row.last_date) == (games, day)
        change = RatingChange.objects.get(player=player, daily=past_daily)
        assert (change.result, change.date, change.late) == (result, day, False)
        assert change.rating_after == row.rating and change.rd_after == row.rd
    assert RatingChange.objects.get(player=carol).rd_before == 150  # as stored, before idle days
    assert RatedDaily.objects.get(daily=past_daily).players == 3


def test_a_day_is_rated_once(past_daily, alice, bob, close):
    ranked(past_daily, alice)
    ranked(past_daily, bob, Attempt.Status.RESIGNED)
    close(past_daily)
    assert ratings_close_daily(daily_id=past_daily.pk) == 2
    before = snapshot()

    assert ratings_close_daily(daily_id=past_daily.pk) is None
    assert snapshot() == before
    assert RatingChange.objects.count() == 2


def test_a_day_not_closed_is_not_rated(past_daily, alice):
    ranked(past_daily, alice)

    assert ratings_close_daily(daily_id=past_daily.pk) is None
    assert ratings_close_daily(daily_id=10**9) is None
    assert not RatedDaily.objects.exists() and not PlayerRating.objects.exists()


def test_only_ranked_results_on_the_board_count(past_daily, alice, bob, carol, close):
    """A disqualified result never counts, nor one held for review, an attempt opened without
    a move, practice, or a finished result whose replay did not verify."""
    dave, erin = factories.player("dave"), factories.player("erin")
    ranked(past_daily, alice, disqualified=True)
    ranked(past_daily, bob, review=Attempt.Review.HELD)
    ranked(past_daily, carol, Attempt.Status.PLAYING, moves=0)
    ranked(past_daily, dave, verified=False)
    Attempt.objects.create(
        player=erin,
        game="masterpiece",
        daily=past_daily,
        deal_string=past_daily.deal.deal_string,
        ranked=False,
        status=Attempt.Status.WON,
        verified=True,
        move_count=80,
        next_seq=80,
        started_at=past_daily.created_at,
    )
    close(past_daily)

    assert ratings_close_daily(daily_id=past_daily.pk) == 0
    assert not PlayerRating.objects.exists() and not RatingChange.objects.exists()
    assert DealRating.objects.get(deal=past_daily.deal).players == 0


def test_an_unfinished_ranked_game_loses_to_the_deal(past_daily, alice, bob, close):
    ranked(past_daily, alice, Attempt.Status.PLAYING, moves=40)
    ranked(past_daily, bob, Attempt.Status.WON)
    close(past_daily)
    ratings_close_daily(daily_id=past_daily.pk)

    assert RatingChange.objects.get(player=alice).result == "loss"
    assert rating_of(alice).rating < 1500 < rating_of(bob).rating


def test_a_players_best_row_counts_once():
    assert _results([(1, False), (1, True), (2, False), (2, False), (3, True)]) == {
        1: True,
        2: False,
        3: True,
    }


def test_idle_days_make_the_day_move_a_rating_more(past_daily, alice, bob, close):
    day = past_daily.date
    for player, last in ((alice, day - dt.timedelta(1)), (bob, day - dt.timedelta(60))):
        PlayerRating.objects.create(
            player=player, game="masterpiece", rating=1500, rd=60, games=50, last_date=last
        )
        ranked(past_daily, player)
    close(past_daily)
    ratings_close_daily(daily_id=past_daily.pk)

    assert rating_of(bob).rating - 1500 > rating_of(alice).rating - 1500 > 0


def test_a_deals_first_rating_follows_the_solvers_difficulty():
    assert [deal_seed(level) for level in (1, 2, 3, 4, 5, None)] == [
        1200,
        1350,
        1500,
        1650,
        1800,
        1500,
    ]


def test_a_harder_deal_costs_a_loss_less(alice, bob, close, past_daily):
    """The same loss against a deal seeded at difficulty 5 and one at 1 (one player each)."""
    easy = factories.daily("masterpiece", past_daily.date - dt.timedelta(days=1))
    easy.deal.difficulty = 1
    easy.deal.save(update_fields=["difficulty"])
    past_daily.deal.difficulty = 5
    past_daily.deal.save(update_fields=["difficulty"])
    ranked(past_daily, alice, Attempt.Status.RESIGNED)
    ranked(easy, bob, Attempt.Status.RESIGNED)
    for daily in (easy, past_daily):
        close(daily)
        ratings_close_daily(daily_id=daily.pk)

    assert DealRating.objects.get(deal=past_daily.deal).seed_rating == 1800
    assert 1500 > rating_of(alice).rating > rating_of(bob).rating


# -- provisional -----------------------------------------------------------------------------


def test_a_rating_is_provisional_until_its_rd_is_under_110(alice):
    row = PlayerRating(player=alice, game="munger", rd=110)
    assert row.provisional
    row.rd = 109.9
    assert not row.provisional


def test_about_ten_days_of_play_settle_a_newcomer():
    """The threshold against what play does: a newcomer playing a well-rated deal every day
    (half won) is provisional after 9 days and settled by the 11th."""
    rating = glicko2.Rating()
    days = 0
    while rating.rd >= 110:
        rating = glicko2.rate(rating, [glicko2.Game(1500, 60, days % 2)])
        days += 1
    assert 9 < days <= 11


# -- a result approved after the day was rated -----------------------------------------------


@pytest.fixture
def admin_user(db) -> User:
    return User.objects.create_superuser("referee", password="x")


def test_a_held_result_counts_once_when_approved(
    past_daily, alice, bob, close, admin_user, django_capture_on_commit_callbacks
):
    held = ranked(past_daily, alice, review=Attempt.Review.HELD)
    ranked(past_daily, bob, Attempt.Status.RESIGNED)
    close(past_daily)
    assert ratings_close_daily(daily_id=past_daily.pk) == 1
    assert not PlayerRating.objects.filter(player=alice).exists()
    deal = DealRating.objects.get(deal=past_daily.deal)

    with django_capture_on_commit_callbacks(execute=True):
        services.attempt_review_approve(attempt=held, by=admin_user)

    change = RatingChange.objects.get(player=alice)
    assert (change.result, change.late, change.rating_before) == ("win", True, 1500)
    assert rating_of(alice).rating == change.rating_after > 1500
    after = DealRating.objects.get(deal=past_daily.deal)
    assert after.players == 2 and after.rating < deal.rating
    before = snapshot()
    assert rating_follow_result(attempt_id=held.pk) is None
    assert ratings_close_daily(daily_id=past_daily.pk) is None
    assert snapshot() == before


def test_a_result_approved_while_its_day_is_rated_counts_once(
    past_daily, alice, bob, close, monkeypatch
):
    """Approved between the day's read of its results and its players' rows: the day rates
    what it read, and the approval's late count adds the result after it."""
    from ratings import services as ratings_services

    PlayerRating.objects.create(player=bob, game="masterpiece", rating=1550, rd=100, games=12)
    held = ranked(past_daily, bob, review=Attempt.Review.HELD)
    ranked(past_daily, alice)
    close(past_daily)
    rows = ratings_services._player_rows

    def approved_meanwhile(*args):
        Attempt.objects.filter(pk=held.pk).update(review=Attempt.Review.APPROVED)
        return rows(*args)

    monkeypatch.setattr(ratings_services, "_player_rows", approved_meanwhile)
    assert ratings_close_daily(daily_id=past_daily.pk) == 1
    monkeypatch.setattr(ratings_services, "_player_rows", rows)

    assert rating_follow_result(attempt_id=held.pk) == "counted"
    assert rating_follow_result(attempt_id=held.pk) is None
    assert RatingChange.objects.get(player=bob).late is True
    assert DealRating.objects.get(deal=past_daily.deal).players == 2


def test_a_held_result_changes_nothing_until_approved(past_daily, alice, close):
    held = ranked(past_daily, alice, review=Attempt.Review.HELD)
    close(past_daily)
    ratings_close_daily(daily_id=past_daily.pk)
    before = snapshot()

    assert rating_follow_result(attempt_id=held.pk) is None
    assert snapshot() == before


def test_a_result_approved_before_the_day_is_rated_counts_with_the_day(
    past_daily, alice, close, admin_user, django_capture_on_commit_callbacks
):
    held = ranked(past_daily, alice, review=Attempt.Review.HELD)
    with django_capture_on_commit_callbacks(execute=True):
        services.attempt_review_approve(attempt=held, by=admin_user)
    assert not RatingChange.objects.exists()  # its day is not closed yet
    close(past_daily)
    assert rating_follow_result(attempt_id=held.pk) is None  # closed, not yet rated

    assert ratings_close_daily(daily_id=past_daily.pk) == 1
    assert RatingChange.objects.get(player=alice).late is False


def test_a_held_result_disqualified_never_counts(
    past_daily, alice, close, admin_user, django_capture_on_commit_callbacks
):
    held = ranked(past_daily, alice, review=Attempt.Review.HELD)
    close(past_daily)
    ratings_close_daily(daily_id=past_daily.pk)

    with django_capture_on_commit_callbacks(execute=True):
        services.attempt_review_disqualify(attempt=held, by=admin_user, reason="A bot.")

    assert rating_follow_result(attempt_id=held.pk) is None
    assert not RatingChange.objects.exists() and not PlayerRating.objects.exists()


def test_a_counted_result_disqualified_later_is_taken_back_once(
    past_daily, alice, bob, close, admin_user, django_capture_on_commit_callbacks
):
    """A win counted with its day, then disqualified: the rating moves back by what the day
    gave, the day leaves the history and the games counted, once."""
    PlayerRating.objects.create(
        player=alice, game="masterpiece", rating=1600, rd=90, games=30, last_date=None
    )
    win = ranked(past_daily, alice)
    ranked(past_daily, bob, Attempt.Status.RESIGNED)
    close(past_daily)
    ratings_close_daily(daily_id=past_daily.pk)
    gained = rating_of(alice).rating - 1600
    assert gained > 0

    with django_capture_on_commit_callbacks(execute=True):
        services.attempt_disqualify(attempt=win, by=admin_user, reason="A bot.")

    row = rating_of(alice)
    assert row.rating == pytest.approx(1600) and row.games == 30
    assert RatingChange.objects.get(player=alice).taken_back_at is not None
    (masterpiece,) = [
        r for r in selectors.player_ratings(player=alice) if r["game"] == "masterpiece"
    ]
    assert masterpiece["history"] == []
    assert DealRating.objects.get(deal=past_daily.deal).players == 1
    before = snapshot()
    assert rating_follow_result(attempt_id=win.pk) is None
    assert snapshot() == before


# -- the signal and the task -----------------------------------------------------------------


def test_closing_a_day_rates_it_after_commit(
    past_daily, alice, bob, django_capture_on_commit_callbacks
):
    ranked(past_daily, alice)
    ranked(past_daily, bob, Attempt.Status.RESIGNED)

    with django_capture_on_commit_callbacks(execute=True):
        assert services.daily_close(daily_id=past_daily.pk) == 0

    assert RatedDaily.objects.get(daily=past_daily).players == 2
    assert RatingChange.objects.count() == 2
    with django_capture_on_commit_callbacks(execute=True) as sent:
        assert services.daily_close(daily_id=past_daily.pk) is None  # closed already
    assert sent == []


def test_with_the_jobs_off_closing_a_day_rates_nothing(
    past_daily, alice, settings, django_capture_on_commit_callbacks
):
    settings.RATINGS_JOBS = "off"
    ranked(past_daily, alice)

    with django_capture_on_commit_callbacks(execute=True):
        services.daily_close(daily_id=past_daily.pk)

    assert not RatedDaily.objects.exists()


def test_queued_the_task_rates_the_day(
    past_daily, alice, settings, django_capture_on_commit_callbacks
):
    settings.RATINGS_JOBS = "queue"
    ranked(past_daily, alice)
    saved = celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates
    celery_app.conf.task_always_eager = celery_app.conf.task_eager_propagates = True
    try:
        with django_capture_on_commit_callbacks(execute=True):
            services.daily_close(daily_id=past_daily.pk)
    finally:
        celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates = saved

    assert RatedDaily.objects.get(daily=past_daily).players == 1


# -- calibrated difficulty -------------------------------------------------------------------


def rated_deals(count: int, past_daily: DailyChallenge) -> list[DealRating]:
    """`count` rated dailies of masterpiece, their deals rated 1000, 1010, ..."""
    out = []
    for n in range(count):
        daily = (
            past_daily
            if n == 0
            else factories.daily(
                "masterpiece", past_daily.date - dt.timedelta(days=n), deal=_another_deal(n)
            )
        )
        RatedDaily.objects.create(
            daily=daily, game="masterpiece", rated_at=daily.created_at, players=5
        )
        out.append(
            DealRating.objects.create(
                deal=daily.deal,
                game="masterpiece",
                rating=1000 + 10 * n,
                rd=80,
                seed_rating=1500,
                players=5,
            )
        )
    return out


def _another_deal(n: int) -> Deal:
    """A deal that may be scheduled (its rows are all a rating reads)."""
    return Deal.objects.create(
        game="masterpiece",
        deal_string=f"not-a-deal-{n}",
        solver_status=Deal.SolverStatus.SOLVED,
        par=90,
        certificate=["x"],
        curation=Deal.Curation.APPROVED,
    )


def test_no_calibrated_difficulty_before_30_rated_dailies(past_daily):
    deals = rated_deals(29, past_daily)

    assert selectors.calibrated_difficulty(game="masterpiece", rating=deals[0].rating) is None


def test_the_calibrated_difficulty_is_the_quintile_of_the_deals_rating(past_daily):
    deals = rated_deals(30, past_daily)

    levels = [selectors.calibrated_difficulty(game="masterpiece", rating=d.rating) for d in deals]
    assert levels[0] == 1 and levels[-1] == 5
    assert levels == sorted(levels) and [levels.count(k) for k in range(1, 6)] == [6] * 5
    assert selectors.calibrated_difficulty(game="munger", rating=1500) is None


# -- speed -----------------------------------------------------------------------------------


@pytest.mark.optimisation
def test_a_days_statements_do_not_grow_with_its_players(past_daily, close):
    """A day's rating writes its players in bulk (`ratings.services._store`): as many
    statements for 40 players as for 2, none per player."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    other = factories.daily("masterpiece", past_daily.date - dt.timedelta(days=1))
    counts = []
    for daily, players in ((past_daily, 2), (other, 40)):
        for n in range(players):
            ranked(
                daily,
                factories.player(f"p{daily.pk}x{n}"),
                Attempt.Status.WON if n % 2 else "resigned",
            )
        close(daily)
        with CaptureQueriesContext(connection) as queries:
            assert ratings_close_daily(daily_id=daily.pk) == players
        counts.append(len(queries))

    assert counts[0] == counts[1]


def test_the_backfill_rates_closed_days_oldest_first_once(alice, bob, close):
    import io

    from django.core.management import call_command

    from games import clock

    today = clock.today()
    later = factories.daily("munger", today - dt.timedelta(days=3))
    earlier = factories.daily("munger", today - dt.timedelta(days=5))
    factories.daily("munger", today - dt.timedelta(days=1))  # not closed: not rated
    for daily in (earlier, later):
        ranked(daily, alice)
        ranked(daily, bob, Attempt.Status.RESIGNED)
        close(daily)
    out = io.StringIO()

    call_command("ratings_backfill", stdout=out)
    call_command("ratings_backfill", stdout=out)

    assert out.getvalue().splitlines() == ["2 dailies, 4 players", "0 dailies, 0 players"]
    first, second = RatingChange.objects.filter(player=alice).order_by("pk")
    assert (first.date, second.date) == (earlier.date, later.date)
    assert second.rating_before == first.rating_after
    assert PlayerRating.objects.get(player=alice, game="munger").games == 2
