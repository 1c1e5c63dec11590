"""Days that keep coming without a separate process (games/supply.py): the third day of a
server left running has its dailies, prepared by the requests themselves."""

from __future__ import annotations

import datetime as dt

import pytest
from rest_framework.test import APIClient

from games import scheduling, services, supply
from games.models import DailyChallenge
from tests.games.test_scheduling import MASTERPIECE_WINNABLE, MUNGER_WINNABLE, Dealer

DAY_ONE = dt.date(2026, 12, 1)


@pytest.fixture
def dealer(monkeypatch) -> Dealer:
    fake = Dealer()
    for seed in MUNGER_WINNABLE:
        fake.feed("munger", seed)
    for seed in MASTERPIECE_WINNABLE:
        fake.feed("masterpiece", seed)
    monkeypatch.setattr(scheduling, "seed_new", fake.seed_new)
    monkeypatch.setattr(services.deals, "solve", fake.solve)
    return fake


@pytest.fixture
def inline(settings, monkeypatch):
    settings.DAILY_SUPPLY = "inline"
    monkeypatch.setattr(supply, "_last_check", -supply.CHECK_EVERY)


def games_on(date: dt.date) -> set[str]:
    return set(DailyChallenge.objects.filter(date=date).values_list("game", flat=True))


@pytest.mark.django_db
def test_on_the_third_day_the_first_request_prepares_today(travel, dealer, inline, monkeypatch):
    travel(dt.datetime.combine(DAY_ONE, dt.time(12)))
    scheduling.dailies_ensure(days=2, candidates=2)  # what `make run` prepares at its start
    travel(dt.datetime.combine(DAY_ONE + dt.timedelta(days=2), dt.time(0, 0, 5)))
    # Tomorrow is prepared in the background in a real server; here, at once.
    monkeypatch.setattr(supply, "_prepare_in_background", supply._prepare)

    response = APIClient().get("/api/dailies/")

    day_three = DAY_ONE + dt.timedelta(days=2)
    assert response.status_code == 200
    assert {d["game"] for d in response.json()} == {"munger", "masterpiece"}
    assert {d["date"] for d in response.json()} == {day_three.isoformat()}
    assert (
        games_on(day_three)
        == games_on(day_three + dt.timedelta(days=1))
        == {
            "munger",
            "masterpiece",
        }
    )


@pytest.mark.django_db
def test_a_missing_tomorrow_is_prepared_in_the_background_while_requests_go_on(
    travel, dealer, inline, monkeypatch
):
    travel(dt.datetime.combine(DAY_ONE, dt.time(12)))
    scheduling.dailies_ensure(days=1, candidates=2)
    started = []
    monkeypatch.setattr(
        supply.threading, "Thread", lambda target, args, daemon: started.append(args) or _Ran()
    )
    assert supply.dailies_supply() == "preparing"
    assert started == [(DAY_ONE,)]
    supply._lock.release()  # the stand-in thread never ran: give the lock back


class _Ran:
    def start(self) -> None:
        pass


@pytest.mark.django_db
def test_the_check_runs_at_most_once_a_minute(travel, dealer, inline):
    travel(dt.datetime.combine(DAY_ONE, dt.time(12)))
    scheduling.dailies_ensure(days=2, candidates=2)

    assert supply.dailies_supply() == "ok"
    assert supply.dailies_supply() == "skipped"


@pytest.mark.django_db
def test_with_a_broker_the_check_only_queues_the_task(travel, settings, monkeypatch):
    settings.DAILY_SUPPLY = "queue"
    monkeypatch.setattr(supply, "_last_check", -supply.CHECK_EVERY)
    travel(dt.datetime.combine(DAY_ONE, dt.time(12)))
    queued = []
    from games import tasks

    monkeypatch.setattr(tasks.ensure_dailies, "delay", lambda **kw: queued.append(kw))

    assert supply.dailies_supply() == "queued"
    assert queued == [{"days": supply.DAYS}]
    assert not DailyChallenge.objects.exists()


def test_the_default_follows_celery(settings):
    settings.DAILY_SUPPLY = None
    settings.CELERY_TASK_ALWAYS_EAGER = True
    assert supply.mode() == "inline"
    settings.CELERY_TASK_ALWAYS_EAGER = False
    assert supply.mode() == "queue"
