"""The scheduler keeps the coming days supplied with dailies (games/scheduling.py).

The solver runs for real on every candidate (its certificates are replayed before they are
stored); only the seeds are fed and, to make the weekday fit testable, the difficulty the solver
rates each fed deal is set by the test. Dealing is fast: known seeds that decide in milliseconds.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import threading
from collections import defaultdict, deque

import pytest
from django.db import IntegrityError, connection

from games import clock, scheduling, services
from games.engine.solver import SolveResult, deal, solve
from games.models import DailyChallenge, Deal
from games.scheduling import CLOSEST, DEALT, EMPTY, KEPT, REUSED
from tests.games import factories

MONDAY = dt.date(2026, 11, 30)
SUNDAY = dt.date(2026, 12, 6)
NOON = dt.time(12, tzinfo=dt.UTC)

#: Fast seeds: winnable ones decide in well under a second, unwinnable ones too.
MUNGER_WINNABLE = [11, 13, 33, 9, 22, 23, 31, 32, 52]
MUNGER_UNWINNABLE = [2, 3, 4, 8, 12]
MASTERPIECE_WINNABLE = [1, 8, 9, 10, 12, 14, 22, 33, 37, 40]
MASTERPIECE_UNWINNABLE = [5, 6, 7, 18, 19]


class Dealer:
    """Feeds the scheduler's candidate seeds per game, and rates each fed deal as the test says
    (None: leave the solver's verdict; "unknown": as if the solver ran out of time)."""

    def __init__(self) -> None:
        self.queue: dict[str, deque[int]] = defaultdict(deque)
        self.rating: dict[tuple[str, str], int | str | None] = {}
        self.dealt: list[tuple[str, int]] = []
        self.solved: list[tuple[str, str]] = []

    def feed(self, game: str, *seeds: int | tuple[int, int | str]) -> None:
        for item in seeds:
            seed, rating = item if isinstance(item, tuple) else (item, None)
            self.queue[game].append(seed)
            self.rating[game, deal(game, seed)] = rating

    def seed_new(self, game: str) -> int:
        assert self.queue[game], f"the scheduler dealt more {game} candidates than were fed"
        seed = self.queue[game].popleft()
        self.dealt.append((game, seed))
        return seed

    def solve(self, game: str, deal_string: str, **budget) -> SolveResult:
        self.solved.append((game, deal_string))
        rating = self.rating.get((game, deal_string))
        if rating == "unknown":
            return SolveResult("unknown", stats={"stopped_by": "time"})
        result = solve(game, deal_string, time_limit=budget["time_limit"], par_time=0.02)
        if result.status == "solved" and isinstance(rating, int):
            result = dataclasses.replace(result, difficulty=rating)
        return result


@pytest.fixture
def dealer(monkeypatch) -> Dealer:
    fake = Dealer()
    monkeypatch.setattr(scheduling, "seed_new", fake.seed_new)
    monkeypatch.setattr(services.deals, "solve", fake.solve)
    return fake


def pool_deal(game: str, seed: int, difficulty: int, *, approve: bool = True) -> Deal:
    """A certified deal rated `difficulty`: approved by an admin, or a scheduler's spare."""
    made = factories.certified_deal(game, seed, approve=False)
    Deal.objects.filter(pk=made.pk).update(difficulty=difficulty)
    if approve:
        made.refresh_from_db()
        return services.deal_approve(deal=made)
    Deal.objects.filter(pk=made.pk).update(dealt_by_scheduler=True)
    made.refresh_from_db()
    return made


def day(date: dt.date) -> dt.datetime:
    return dt.datetime.combine(date, NOON)


# -- choosing ---------------------------------------------------------------------------------


def test_weekdays_go_from_easy_on_monday_to_hard_at_the_weekend():
    week = [scheduling.difficulty_targets(MONDAY + dt.timedelta(days=n)) for n in range(7)]

    assert week == [(1, 2), (2,), (2, 3), (3,), (3, 4), (4, 5), (4, 5)]
    assert [min(levels) for levels in week] == sorted(min(levels) for levels in week)
    assert all(1 <= level <= 5 for levels in week for level in levels)


@pytest.mark.parametrize(
    ("difficulty", "date", "distance"),
    [
        (1, MONDAY, 0),
        (2, MONDAY, 0),
        (3, MONDAY, 1),
        (5, MONDAY, 3),
        (2, MONDAY + dt.timedelta(days=1), 0),
        (1, MONDAY + dt.timedelta(days=1), 1),
        (3, MONDAY + dt.timedelta(days=1), 1),
        (5, SUNDAY, 0),
        (3, SUNDAY, 1),
        (None, SUNDAY, 5),
    ],
)
def test_difficulty_distance_to_the_weekday(difficulty, date, distance):
    assert scheduling.difficulty_distance(difficulty, date) == distance
    assert scheduling.difficulty_fits(difficulty, date) is (distance == 0)


def test_ranking_puts_the_closest_first_then_an_admins_approval_then_the_oldest():
    def made(pk, difficulty, curation="candidate", status="solved", par=90):
        return Deal(
            pk=pk,
            game="munger",
            difficulty=difficulty,
            curation=curation,
            solver_status=status,
            par=par,
        )

    spare_fit = made(1, 2)
    approved_fit = made(2, 1, curation="approved")
    approved_far = made(3, 4, curation="approved")
    spare_near = made(4, 3)

    # Which deals may be taken at all is `Deal.objects.certified()` (the pool's query).
    ranked = scheduling.deals_ranked([spare_near, approved_far, spare_fit, approved_fit], MONDAY)

    assert ranked == [approved_fit, spare_fit, spare_near, approved_far]


# -- one day ----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_an_admins_daily_is_never_replaced(travel, dealer):
    travel(day(MONDAY))
    admin_deal = pool_deal("masterpiece", 1, difficulty=5)  # does not fit a Monday
    admin_daily = services.daily_schedule(game="masterpiece", date=MONDAY, deal=admin_deal, by=None)
    pool_deal("masterpiece", 8, difficulty=1)  # fits, but the day is taken

    outcome = scheduling.daily_ensure(game="masterpiece", date=MONDAY)

    assert (outcome.action, outcome.deal) == (KEPT, admin_deal)
    assert DailyChallenge.objects.get(game="masterpiece", date=MONDAY).deal == admin_deal
    assert DailyChallenge.objects.get().updated_at == admin_daily.updated_at
    assert dealer.dealt == []


@pytest.mark.django_db
def test_an_unpublished_daily_is_kept_too(travel, dealer):
    travel(day(MONDAY))
    hidden = factories.daily("munger", MONDAY)
    DailyChallenge.objects.filter(pk=hidden.pk).update(published=False)

    outcome = scheduling.daily_ensure(game="munger", date=MONDAY)

    assert (outcome.action, outcome.deal, outcome.published) == (KEPT, hidden.deal, False)
    assert not DailyChallenge.objects.get(pk=hidden.pk).published


@pytest.mark.django_db
def test_an_approved_deal_that_fits_the_weekday_is_reused(travel, dealer):
    travel(day(MONDAY))
    too_hard = pool_deal("munger", 11, difficulty=4)
    fits = pool_deal("munger", 13, difficulty=2)

    outcome = scheduling.daily_ensure(game="munger", date=MONDAY)

    assert (outcome.action, outcome.deal, outcome.dealt) == (REUSED, fits, 0)
    daily = DailyChallenge.objects.get(game="munger", date=MONDAY)
    assert daily.deal == fits and daily.published and daily.scheduled_by is None
    fits.refresh_from_db()
    assert fits.curation == "approved" and not fits.chosen_by_system  # the admin's approval
    assert not too_hard.dailies.exists()
    assert dealer.dealt == []


@pytest.mark.django_db
def test_an_admins_approved_deal_goes_before_a_spare_and_a_spare_before_dealing(travel, dealer):
    travel(day(MONDAY))
    spare = pool_deal("masterpiece", 8, difficulty=1, approve=False)
    approved = pool_deal("masterpiece", 9, difficulty=2)

    first = scheduling.daily_ensure(game="masterpiece", date=MONDAY)
    second = scheduling.daily_ensure(game="masterpiece", date=MONDAY + dt.timedelta(days=7))

    assert (first.action, first.deal) == (REUSED, approved)
    assert (second.action, second.deal) == (REUSED, spare)
    spare.refresh_from_db()
    assert spare.curation == "approved" and spare.chosen_by_system
    assert dealer.dealt == []


@pytest.mark.django_db
def test_candidates_are_dealt_until_one_fits_and_the_others_are_kept(travel, dealer):
    travel(day(MONDAY))
    dealer.feed("munger", 2, (11, 5), (13, "unknown"), (33, 1), (9, 2))

    outcome = scheduling.daily_ensure(game="munger", date=MONDAY)

    assert (outcome.action, outcome.dealt) == (DEALT, 4)
    chosen = outcome.deal
    assert chosen.seed == "33" and chosen.difficulty == 1 and chosen.certificate
    assert chosen.curation == "approved" and chosen.chosen_by_system
    assert chosen.curated_by is None and chosen.dealt_by_scheduler
    assert DailyChallenge.objects.get(game="munger", date=MONDAY).deal == chosen
    by_seed = {int(d.seed): d for d in Deal.objects.filter(game="munger")}
    assert set(by_seed) == {2, 11, 13, 33}  # nothing deleted, nothing dealt past the fit
    assert (by_seed[2].solver_status, by_seed[2].curation) == ("unsolvable", "rejected")
    assert (by_seed[11].solver_status, by_seed[11].curation) == ("solved", "candidate")
    assert (by_seed[13].solver_status, by_seed[13].curation) == ("unknown", "candidate")


@pytest.mark.django_db
def test_without_a_fit_the_closest_solved_difficulty_is_taken(travel, dealer):
    travel(day(MONDAY))
    dealer.feed("masterpiece", (1, 5), 5, (8, 3), (9, 4), (10, 1))

    outcome = scheduling.daily_ensure(game="masterpiece", date=MONDAY, candidates=4)

    assert (outcome.action, outcome.dealt) == (CLOSEST, 4)
    assert outcome.deal.seed == "8" and outcome.deal.difficulty == 3
    assert outcome.deal.chosen_by_system
    assert list(dealer.queue["masterpiece"]) == [10]  # it stopped after 4 candidates


@pytest.mark.django_db
def test_an_unknown_or_unsolvable_deal_is_never_taken(travel, dealer):
    travel(day(MONDAY))
    dealer.feed("munger", (11, "unknown"), 2, (13, "unknown"), 3, (33, 5))

    outcome = scheduling.daily_ensure(game="munger", date=MONDAY, candidates=2)

    # None of the first two was solvable: dealing went on until one was.
    assert (outcome.action, outcome.dealt, outcome.deal.seed) == (CLOSEST, 5, "33")
    assert outcome.deal.solver_status == "solved"


@pytest.mark.django_db
def test_a_day_stays_empty_when_nothing_solvable_turns_up(travel, dealer, monkeypatch):
    travel(day(MONDAY))
    monkeypatch.setattr(scheduling, "CANDIDATES_MAX", 3)
    dealer.feed("munger", 2, 3, (11, "unknown"))

    outcome = scheduling.daily_ensure(game="munger", date=MONDAY, candidates=2)

    assert (outcome.action, outcome.deal, outcome.dealt) == (EMPTY, None, 3)
    assert not DailyChallenge.objects.exists()
    assert Deal.objects.count() == 3


@pytest.mark.django_db
def test_a_seed_dealt_before_is_not_tried_again(travel, dealer):
    travel(day(MONDAY))
    factories.certified_deal("masterpiece", 1, approve=False)  # an admin's candidate
    dealer.feed("masterpiece", (1, 1), (8, 2))

    outcome = scheduling.daily_ensure(game="masterpiece", date=MONDAY)

    assert (outcome.action, outcome.deal.seed, outcome.dealt) == (DEALT, "8", 2)
    assert dealer.solved == [("masterpiece", deal("masterpiece", 8))]
    # An admin's own candidate waits for the admin: it is not part of the scheduler's pool.
    assert Deal.objects.get(seed=1).curation == "candidate"


@pytest.mark.django_db
def test_a_day_filled_while_candidates_are_solved_is_kept(travel, dealer, monkeypatch):
    travel(day(MONDAY))
    admin_deal = pool_deal("masterpiece", 1, difficulty=5)
    dealer.feed("masterpiece", (8, 5), (9, 1))

    def solve_while_an_admin_schedules(game, deal_string, **budget):
        if not DailyChallenge.objects.exists():
            services.daily_schedule(game="masterpiece", date=MONDAY, deal=admin_deal)
        return dealer.solve(game, deal_string, **budget)

    monkeypatch.setattr(services.deals, "solve", solve_while_an_admin_schedules)

    outcome = scheduling.daily_ensure(game="masterpiece", date=MONDAY)

    assert (outcome.action, outcome.deal, outcome.dealt) == (KEPT, admin_deal, 1)
    assert Deal.objects.get(seed=8).curation == "candidate"  # a spare, not approved


@pytest.mark.django_db
@pytest.mark.parametrize("how", ["found under lock", "unique constraint"])
def test_losing_the_race_for_a_day_keeps_the_winner_and_rolls_back_the_approval(
    travel, monkeypatch, how
):
    travel(day(MONDAY))
    winner = factories.daily("munger", MONDAY).deal
    spare = pool_deal("munger", 13, difficulty=1, approve=False)
    if how == "unique constraint":  # the other run's row appeared after our look

        def schedule_too_late(**kwargs):
            raise IntegrityError("duplicate key value violates daily_unique_per_game_and_date")

        monkeypatch.setattr(services, "daily_schedule", schedule_too_late)

    outcome = scheduling._take(spare, game="munger", date=MONDAY, action=REUSED)

    assert (outcome.action, outcome.deal) == (KEPT, winner)
    spare.refresh_from_db()
    assert spare.curation == "candidate" and not spare.chosen_by_system
    assert not spare.dailies.exists()


@pytest.mark.django_db
def test_a_deal_scheduled_elsewhere_meanwhile_is_not_taken(travel):
    travel(day(MONDAY))
    taken = factories.daily("munger", MONDAY + dt.timedelta(days=3)).deal

    outcome = scheduling._take(taken, game="munger", date=MONDAY, action=REUSED)

    assert outcome is None
    assert not DailyChallenge.objects.filter(date=MONDAY).exists()


# -- a week -----------------------------------------------------------------------------------


def feed_a_week(dealer: Dealer) -> None:
    """Enough for Monday to Sunday: misses, spares that fit a later day, and fits."""
    dealer.feed(
        "munger", 2, (11, 5), 3, (13, 1), (33, 2), (9, 3), (22, 3), (23, 4), (31, 4), (32, 5), 4
    )
    dealer.feed("masterpiece", 5, (1, 4), (8, 1), (9, 2), 6, (10, 3), (12, 3), (14, 4), (22, 5), 7)


def schedule_now() -> dict[tuple[str, dt.date], tuple[int, dt.datetime]]:
    return {(d.game, d.date): (d.deal_id, d.updated_at) for d in DailyChallenge.objects.all()}


@pytest.mark.django_db
def test_a_fresh_database_gets_a_full_week_for_both_games(travel, dealer):
    travel(day(MONDAY))
    feed_a_week(dealer)

    outcomes = scheduling.dailies_ensure(days=7)

    week = [MONDAY + dt.timedelta(days=n) for n in range(7)]
    assert [(o.date, o.game) for o in outcomes] == [
        (date, game) for date in week for game in ("munger", "masterpiece")
    ]
    assert schedule_now().keys() == {
        (game, date) for date in week for game in ("munger", "masterpiece")
    }
    for outcome in outcomes:
        daily = DailyChallenge.objects.get(game=outcome.game, date=outcome.date)
        assert daily.published and daily.deal == outcome.deal
        assert daily.deal.is_schedulable and daily.deal.chosen_by_system
        assert scheduling.difficulty_fits(daily.deal.difficulty, daily.date)
    actions = {(o.game, o.date.strftime("%a")): o.action for o in outcomes}
    # Saturday's Munger and Friday's Masterpiece reuse spares dealt on Monday.
    assert actions["munger", "Sat"] == actions["masterpiece", "Fri"] == REUSED
    assert {
        a for k, a in actions.items() if k not in {("munger", "Sat"), ("masterpiece", "Fri")}
    } == {DEALT}
    assert set(
        Deal.objects.filter(solver_status="unsolvable").values_list("curation", flat=True)
    ) == {"rejected"}
    assert len({o.deal.pk for o in outcomes}) == 14


@pytest.mark.django_db
def test_a_second_run_changes_nothing(travel, dealer):
    travel(day(MONDAY))
    feed_a_week(dealer)
    scheduling.dailies_ensure(days=7)
    before, deals = schedule_now(), Deal.objects.count()
    dealt = len(dealer.dealt)

    outcomes = scheduling.dailies_ensure(days=7)

    assert {o.action for o in outcomes} == {KEPT}
    assert schedule_now() == before
    assert Deal.objects.count() == deals and len(dealer.dealt) == dealt


@pytest.mark.django_db
def test_the_window_moves_with_the_utc_day(travel, dealer):
    sunday, monday, tuesday = SUNDAY, SUNDAY + dt.timedelta(days=1), SUNDAY + dt.timedelta(days=2)
    spares = {}
    for game, seeds in (("munger", (11, 13, 33)), ("masterpiece", (1, 8, 9))):
        for seed, difficulty in zip(seeds, (4, 1, 2), strict=True):  # Sun 4-5, Mon 1-2, Tue 2
            spares[game, difficulty] = pool_deal(game, seed, difficulty=difficulty, approve=False)

    travel(dt.datetime(2026, 12, 6, 23, 59, 59, tzinfo=dt.UTC))
    late = scheduling.dailies_ensure(days=2)
    travel(dt.datetime(2026, 12, 7, 0, 0, 0, tzinfo=dt.UTC))
    early = scheduling.dailies_ensure(days=2)

    assert clock.today() == monday
    assert [(o.date, o.action) for o in late] == [(sunday, REUSED)] * 2 + [(monday, REUSED)] * 2
    assert [(o.date, o.action) for o in early] == [(monday, KEPT)] * 2 + [(tuesday, REUSED)] * 2
    assert {date for _, date in schedule_now()} == {sunday, monday, tuesday}
    for game in ("munger", "masterpiece"):
        for date, difficulty in ((sunday, 4), (monday, 1), (tuesday, 2)):
            daily = DailyChallenge.objects.get(game=game, date=date)
            assert daily.deal == spares[game, difficulty]
    assert dealer.dealt == []


# -- two runs at once (PostgreSQL: each thread has its own connection) -----------------------


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_runs_at_once_schedule_one_daily_per_day(travel):
    from django.db import connections

    travel(day(MONDAY))
    for seed, difficulty in ((1, 1), (8, 2), (9, 1)):
        pool_deal("masterpiece", seed, difficulty=difficulty, approve=False)
    start = threading.Barrier(2)
    results: list[object] = []

    def run() -> None:
        try:
            start.wait(timeout=10)
            results.append(scheduling.daily_ensure(game="masterpiece", date=MONDAY))
        except Exception as exc:  # pragma: no cover - reported by the assertion below
            results.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert connection.vendor == "postgresql"
    assert all(isinstance(r, scheduling.DayOutcome) for r in results), results
    daily = DailyChallenge.objects.get(game="masterpiece", date=MONDAY)
    assert {r.deal.pk for r in results} == {daily.deal_id}
    assert sorted(r.action for r in results) == [KEPT, REUSED]
    approved = Deal.objects.filter(curation="approved")
    assert list(approved.values_list("pk", flat=True)) == [daily.deal_id]


@pytest.mark.django_db
def test_a_day_further_ahead_waits_for_a_fit_instead_of_settling(travel, dealer):
    """Thursday wants 3. Seen from Monday, four candidates without a fit leave it waiting (they
    stay spares) and the next run deals more; the closest is taken only once the day is close."""
    travel(day(MONDAY))
    thursday = MONDAY + dt.timedelta(days=3)
    dealer.feed("masterpiece", (1, 5), (5, 1), (8, 4), (9, 2), (10, 2), (12, 5), (14, 3))

    first = scheduling.daily_ensure(game="masterpiece", date=thursday, candidates=4, today=MONDAY)
    assert (first.action, first.deal, first.dealt) == ("waiting", None, 4)
    assert not DailyChallenge.objects.filter(date=thursday).exists()

    second = scheduling.daily_ensure(game="masterpiece", date=thursday, candidates=4, today=MONDAY)
    assert (second.action, second.deal.seed, second.deal.difficulty) == (DEALT, "14", 3)


@pytest.mark.django_db
def test_a_close_day_settles_for_the_closest_and_says_it_is_a_compromise(travel, dealer):
    from games.management.commands.schedule_dailies import outcome_line

    travel(day(MONDAY))
    tuesday = MONDAY + dt.timedelta(days=1)
    dealer.feed("masterpiece", (1, 5), (5, 1), (8, 4))

    outcome = scheduling.daily_ensure(game="masterpiece", date=tuesday, candidates=3, today=MONDAY)

    assert outcome.action == CLOSEST
    assert "wanted 2" in outcome_line(outcome) and "a compromise" in outcome_line(outcome)
