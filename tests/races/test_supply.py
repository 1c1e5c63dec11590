"""The races' own supply of deals (races/services.py `race_deals_ensure`, races/tasks.py): a
race never takes a spare of the scheduler, takes a deal dealt for races first, and such a deal
never becomes a daily; the supply is topped up to `RACE_DEALS` a few solves at a time, through
the games' `solve_deal` task, and never makes the request that asked for it wait.

Candidates are dealt from seeds the tests feed (fast ones: decided in milliseconds) and solved
for real, with a short par search.
"""

from __future__ import annotations

import datetime as dt
import importlib
import threading
import time
from collections import deque

import pytest

from games import clock, scheduling, services
from games import tasks as game_tasks
from games.engine.solver import candidate_seconds
from games.errors import Conflict
from games.models import DailyChallenge, Deal
from games.services import STALE_CLAIM
from races import selectors, tasks
from races import services as races
from races.models import Race
from tests.games import factories
from tests.races.conftest import client_of, started

pytestmark = pytest.mark.django_db(transaction=True)

#: Masterpiece seeds the solver decides in milliseconds, none of them a factory's.
WINNABLE = [10, 22, 33, 37, 40]
UNWINNABLE = [5, 6, 7]


def race_deal(game: str = "masterpiece", seed: int | None = None) -> Deal:
    """A certified deal of the races' supply."""
    made = factories.certified_deal(game, seed, approve=False)
    Deal.objects.filter(pk=made.pk).update(curation=Deal.Curation.RACES)
    made.refresh_from_db()
    return made


def spare(game: str = "masterpiece") -> Deal:
    """A certified spare of the scheduler: a candidate it dealt and solved for another day."""
    made = factories.certified_deal(game, approve=False)
    Deal.objects.filter(pk=made.pk).update(dealt_by_scheduler=True)
    made.refresh_from_db()
    return made


def pool(game: str = "masterpiece") -> set[int]:
    """The deals the scheduler may put on a coming day (its spares and approved deals)."""
    return set(scheduling._pool(game).values_list("pk", flat=True))


class SolveTask:
    """Stands for the games' `solve_deal` task where the signal sends it: records each solve
    asked for and, with `run`, runs it here (the task itself, inline), as a worker would."""

    def __init__(self, run: bool) -> None:
        self.run = run
        self.asked: list[tuple[int, float | None]] = []
        self.task = game_tasks.solve_deal

    def delay(self, deal_id: int, time_limit: float | None = None) -> None:
        self.asked.append((deal_id, time_limit))
        if self.run:
            self.task.apply(args=(deal_id, time_limit)).get()


@pytest.fixture
def seeds(monkeypatch) -> deque[int]:
    """The seeds the next candidates are dealt from, in order; the solver runs for real with
    a short par search."""
    fed: deque[int] = deque()

    def seed_new(game: str) -> int:
        assert fed, f"more {game} candidates were dealt than seeds were fed"
        return fed.popleft()

    real = services.deals.solve

    def solve(game, deal_string, **budget):
        return real(game, deal_string, **{**budget, "par_time": 0.02})

    monkeypatch.setattr(scheduling, "seed_new", seed_new)
    monkeypatch.setattr(services.deals, "solve", solve)
    return fed


@pytest.fixture
def solved_by_the_task(monkeypatch) -> SolveTask:
    fake = SolveTask(run=True)
    monkeypatch.setattr(game_tasks, "solve_deal", fake)
    return fake


@pytest.fixture
def queued_for_the_task(monkeypatch) -> SolveTask:
    fake = SolveTask(run=False)
    monkeypatch.setattr(game_tasks, "solve_deal", fake)
    return fake


# -- what a race takes ---------------------------------------------------------------------------


def test_races_take_no_spare_of_the_scheduler(alice, bob, past_daily, monkeypatch):
    spares = [spare() for _ in range(3)]
    factories.certified_deal("masterpiece")  # approved by an admin, never scheduled
    before = pool()
    assert len(before) == 4

    made = [races.race_make(player=alice, game="masterpiece") for _ in range(5)]
    race = started(monkeypatch, past_daily, alice, bob)
    with pytest.raises(Conflict) as rematch:  # its one past daily is used: never a spare
        races.race_rematch(code=race.code, player=alice)

    assert {r.deal_id for r in made} == {past_daily.deal_id}
    assert rematch.value.code == "no_deal"
    assert pool() == before
    for deal in spares:
        deal.refresh_from_db()
        assert deal.dealt_by_scheduler and deal.curation == Deal.Curation.CANDIDATE
        assert not deal.races.exists()


def test_with_only_spares_a_race_is_refused_not_given_one(alice, today_daily):
    spare()
    with pytest.raises(Conflict) as caught:
        races.race_make(player=alice, game="masterpiece")
    assert caught.value.code == "no_deal"
    assert not Race.objects.exists()


def test_races_take_the_deals_of_their_supply_first_each_once(alice, past_daily):
    first, second = race_deal(), race_deal()
    solving = services.deal_create(game="masterpiece", seed=UNWINNABLE[0], for_races=True)
    spare()

    one = races.race_make(player=alice, game="masterpiece")
    two = races.race_make(player=alice, game="masterpiece")
    three = races.race_make(player=alice, game="masterpiece")

    assert (one.deal_id, one.daily_id) == (first.pk, None)
    assert (two.deal_id, two.daily_id) == (second.pk, None)
    assert three.deal_id == past_daily.deal_id  # the supply is spent: a past daily's
    assert not selectors.race_deals_ready(game="masterpiece").exists()
    assert solving.pk not in {one.deal_id, two.deal_id, three.deal_id}  # never uncertified


@pytest.mark.postgres
def test_two_races_made_at_once_take_two_deals_of_the_supply(alice, bob, monkeypatch):
    """Each thread has a connection of its own (PostgreSQL): both choose their deal before
    either commits, the first one's locked (`skip_locked`: the second takes the next)."""
    from django.db import connections

    first, second = race_deal(), race_deal()
    both_chose = threading.Barrier(2)
    real = races._new_race

    def after_choosing(**race):
        both_chose.wait(timeout=10)
        return real(**race)

    monkeypatch.setattr(races, "_new_race", after_choosing)
    made: list[object] = []

    def make(player) -> None:
        try:
            made.append(races.race_make(player=player, game="masterpiece"))
        except Exception as exc:  # pragma: no cover - reported by the assertion below
            made.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=make, args=(p,)) for p in (alice, bob)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    assert all(isinstance(race, Race) for race in made), made
    assert sorted(race.deal_id for race in made) == [first.pk, second.pk]


def test_a_rematch_takes_a_deal_of_the_supply(alice, bob, past_daily, monkeypatch):
    race = started(monkeypatch, past_daily, alice, bob)
    fresh = race_deal()
    rematch, _ = races.race_rematch(code=race.code, player=bob)
    assert (rematch.deal_id, rematch.daily_id) == (fresh.pk, None)


def test_a_deal_for_races_never_becomes_a_daily(seeds):
    kept = race_deal()
    Deal.objects.filter(pk=kept.pk).update(
        difficulty=scheduling.difficulty_targets(clock.today())[0]
    )
    kept.refresh_from_db()

    with pytest.raises(Conflict) as approve:
        services.deal_approve(deal=kept)
    with pytest.raises(Conflict) as schedule:
        services.daily_schedule(game="masterpiece", date=clock.today(), deal=kept)
    # The scheduler deals a candidate of its own rather than take it, fitting as it is.
    seeds.append(WINNABLE[0])
    outcome = scheduling.daily_ensure(game="masterpiece", date=clock.today(), candidates=1)

    assert approve.value.code == "deal_for_races"
    assert schedule.value.code == "not_schedulable"
    assert kept.pk not in pool()
    assert outcome.deal is not None and outcome.deal.pk != kept.pk
    kept.refresh_from_db()
    assert kept.curation == Deal.Curation.RACES and not kept.dailies.exists()
    assert DailyChallenge.objects.get(date=clock.today()).deal_id == outcome.deal.pk


def test_spares_races_took_before_join_the_races_deals(db):
    migration = importlib.import_module("games.migrations.0017_deal_curation_races")
    taken, scheduled, untouched = spare(), spare(), spare()
    for deal in (taken, scheduled):
        Deal.objects.filter(pk=deal.pk).update(
            dealt_by_scheduler=False, notes=f"kept\n{migration.TAKEN_NOTE}"
        )
    services.deal_approve(deal=Deal.objects.get(pk=scheduled.pk))
    factories.daily("masterpiece", deal=Deal.objects.get(pk=scheduled.pk))

    from django.apps import apps

    migration.taken_spares_to_races(apps, None)

    curations = dict(Deal.objects.values_list("pk", "curation"))
    assert curations[taken.pk] == Deal.Curation.RACES
    assert curations[scheduled.pk] == Deal.Curation.APPROVED
    assert curations[untouched.pk] == Deal.Curation.CANDIDATE


# -- none ready ------------------------------------------------------------------------------------


def test_no_race_deal_and_no_past_daily_is_409_no_deal_saying_to_try_again(
    alice, today_daily, settings
):
    answer = client_of(alice).post("/api/races/", {"game": "masterpiece"}, format="json")
    assert answer.status_code == 409
    body = answer.json()
    assert body["code"] == "no_deal"
    assert "being dealt" in body["detail"] and "try again" in body["detail"]

    settings.RACE_DEALS = 0  # no supply kept: nothing is on its way, and the words say so
    body = client_of(alice).post("/api/races/", {"game": "masterpiece"}, format="json").json()
    assert body["code"] == "no_deal" and "try again" not in body["detail"]


def test_a_race_taking_a_deal_or_finding_none_asks_for_a_top_up(alice, today_daily, monkeypatch):
    asked: list[str] = []
    monkeypatch.setattr(tasks, "race_deals_top_up", asked.append)

    with pytest.raises(Conflict):
        races.race_make(player=alice, game="masterpiece")
    assert asked == ["masterpiece"]  # none ready: asked at once, though the race is refused

    race_deal()
    races.race_make(player=alice, game="masterpiece")
    assert asked == ["masterpiece", "masterpiece"]  # one taken: asked after commit


# -- topping up ----------------------------------------------------------------------------------


def test_the_top_up_deals_and_certifies_up_to_the_target_and_no_further(
    settings, seeds, solved_by_the_task
):
    settings.RACE_DEALS = 3
    seeds.extend([WINNABLE[0], UNWINNABLE[0], WINNABLE[1], WINNABLE[2], WINNABLE[3]])
    run = tasks.ensure_race_deals.apply

    assert run(kwargs={"game": "masterpiece"}).get() == {"masterpiece": 2}
    assert selectors.race_deals_ready(game="masterpiece").count() == 1  # one was unwinnable
    assert run(kwargs={"game": "masterpiece"}).get() == {"masterpiece": 2}
    assert selectors.race_deals_ready(game="masterpiece").count() == 3
    dealt = Deal.objects.count()
    assert run(kwargs={"game": "masterpiece"}).get() == {"masterpiece": 0}  # full: nothing

    assert Deal.objects.count() == dealt == 4 and list(seeds) == [WINNABLE[3]]
    ready = list(selectors.race_deals_ready(game="masterpiece"))
    for deal in ready:
        assert deal.is_certified and deal.certificate and deal.par
        assert deal.curation == Deal.Curation.RACES and not deal.dealt_by_scheduler
    assert not pool() and not DailyChallenge.objects.exists()
    # Every one was solved by the solve task, with a candidate's budget.
    assert [limit for _, limit in solved_by_the_task.asked] == [
        candidate_seconds("masterpiece")
    ] * 4
    lost = Deal.objects.get(seed=str(UNWINNABLE[0]))
    assert (lost.solver_status, lost.curation) == ("unsolvable", Deal.Curation.RACES)


def test_the_top_up_asks_a_few_solves_at_a_time_and_asks_a_lost_one_again(
    settings, seeds, queued_for_the_task, monkeypatch
):
    settings.RACE_DEALS = 8
    seeds.extend(WINNABLE)

    assert races.race_deals_ensure(game="masterpiece") == races.TOP_UP_BATCH == 2
    assert races.race_deals_ensure(game="masterpiece") == 0  # two under way: the queue waits
    first = [deal_id for deal_id, _ in queued_for_the_task.asked]
    assert Deal.objects.filter(pk__in=first, solver_status="pending").count() == 2

    later = clock.now() + STALE_CLAIM + dt.timedelta(minutes=1)
    monkeypatch.setattr(clock, "now", lambda: later)  # their messages were lost
    assert races.race_deals_ensure(game="masterpiece") == 2
    assert [deal_id for deal_id, _ in queued_for_the_task.asked[2:]] == first  # asked again
    assert Deal.objects.count() == 2

    game_tasks.solve_deal.task.apply(args=(first[0], 2.0)).get()  # one comes back solved
    assert races.race_deals_ensure(game="masterpiece") == 1  # one under way, one more asked
    assert Deal.objects.count() == 3


def test_the_task_tops_up_every_game_and_none_past_a_target_of_zero(settings):
    settings.RACE_DEALS = 0
    assert tasks.ensure_race_deals.apply().get() == {"munger": 0, "masterpiece": 0}
    assert not Deal.objects.exists()


def test_the_top_up_is_queued_with_a_worker_and_off_in_the_tests(settings, monkeypatch):
    sent: list[dict] = []
    monkeypatch.setattr(tasks.ensure_race_deals, "delay", lambda **kw: sent.append(kw))
    settings.SOLVER_JOBS = "queue"
    assert tasks.race_deals_top_up("munger") == "queued" and sent == [{"game": "munger"}]
    settings.SOLVER_JOBS = "off"
    assert tasks.race_deals_top_up("munger") == "off" and len(sent) == 1


def test_without_a_worker_the_top_up_runs_in_a_thread_and_the_request_never_waits(
    alice, past_daily, settings, monkeypatch
):
    """Eager Celery (`make run`): the solves of a top-up run where they are asked, so the
    top-up runs in a thread of its own, one per game at a time."""
    settings.SOLVER_JOBS = "background"
    release, done = threading.Event(), threading.Event()
    rounds: list[str] = []

    def slow_round(*, game: str) -> int:  # a round of solves that takes as long as the test says
        rounds.append(game)
        release.wait(10)
        done.set()
        return 0

    monkeypatch.setattr(races, "race_deals_ensure", slow_round)

    began = time.perf_counter()
    race = races.race_make(player=alice, game="masterpiece")  # no supply: a past daily's deal
    waited = time.perf_counter() - began

    assert race.deal_id == past_daily.deal_id
    assert waited < 1.0 and not done.is_set()  # made while the top-up still runs
    assert tasks.race_deals_top_up("masterpiece") == "busy"
    release.set()
    assert done.wait(5)
    for _ in range(100):  # the thread lets go of its lock as it ends
        if tasks._topping_up["masterpiece"].acquire(blocking=False):
            tasks._topping_up["masterpiece"].release()
            break
        time.sleep(0.01)
    assert rounds == ["masterpiece"]
