"""Pars that are floors: the exact search proves them ahead of the day, they say whether they
are proven (admin and API), and a verified win under one shows it was not a floor: the result
waits for review and the par is lowered to that win's line and proven again."""

from __future__ import annotations

import datetime as dt

import pytest
from django.dispatch import receiver

from games import clock, scheduling, services, signals
from games.models import Attempt, Deal
from tests.games import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def par_requests():
    """The deal ids whose par proof was asked for (after commit)."""
    asked: list[int] = []

    @receiver(signals.deal_par_requested, weak=False, dispatch_uid="test.par_requests")
    def heard(sender, deal_id, **kwargs):
        asked.append(deal_id)

    yield asked
    signals.deal_par_requested.disconnect(dispatch_uid="test.par_requests")


def test_a_solve_stores_whether_its_par_is_proven():
    deal = factories.certified_deal("masterpiece")

    assert deal.par == len(deal.certificate)
    assert deal.par_optimal in (True, False)
    assert deal.par_lower_bound is not None and deal.par_lower_bound <= deal.par
    if deal.par_optimal:
        assert deal.par_lower_bound == deal.par


def test_the_exact_search_proves_a_masterpiece_par_and_never_raises_it():
    deal = factories.certified_deal("masterpiece")
    shortest = len(deal.certificate)
    Deal.objects.filter(pk=deal.pk).update(par=shortest + 4, par_optimal=False)

    proven = services.deal_prove_par(deal_id=deal.pk, time_limit=60)

    assert proven.par_optimal is True
    assert proven.par <= shortest and proven.par == len(proven.certificate)
    assert proven.par_lower_bound == proven.par and proven.par_proved_at is not None
    # The solve's line and the proof's (when it found another) are both the solver's lines.
    assert proven.solver_lines[0] == deal.certificate
    assert proven.certificate in proven.solver_lines and len(proven.solver_lines) <= 2
    again = services.deal_prove_par(deal_id=deal.pk)  # proven: left alone
    assert again.par_proved_at == proven.par_proved_at


def test_scheduling_a_deal_asks_for_its_proof(par_requests, django_capture_on_commit_callbacks):
    deal = factories.certified_deal("munger")
    Deal.objects.filter(pk=deal.pk).update(par_optimal=False)
    deal.refresh_from_db()

    with django_capture_on_commit_callbacks(execute=True):
        services.daily_schedule(game="munger", date=clock.today() + dt.timedelta(days=2), deal=deal)

    assert deal.pk in par_requests


def test_a_win_under_the_par_is_held_and_lowers_the_par(
    alice, par_requests, django_capture_on_commit_callbacks
):
    today_daily = factories.daily("masterpiece")
    deal = today_daily.deal
    line = list(deal.certificate)
    Deal.objects.filter(pk=deal.pk).update(par=len(line) + 3, par_optimal=True)
    today_daily.deal.refresh_from_db()
    attempt, _ = services.attempt_start(player=alice, daily=today_daily)

    with django_capture_on_commit_callbacks(execute=True):
        for seq, token in enumerate(line):
            state = services.attempt_play(attempt_id=attempt.pk, player=alice, seq=seq, move=token)

    assert state.attempt.status == Attempt.Status.WON
    attempt.refresh_from_db()
    assert attempt.review == Attempt.Review.HELD
    assert "under_par" in [r["rule"] for r in attempt.held_reasons]  # (played instantly too)
    deal.refresh_from_db()
    assert (deal.par, deal.par_optimal, deal.certificate) == (len(line), False, line)
    assert deal.pk in par_requests


def test_a_deals_proof_is_never_queued_twice(par_requests, django_capture_on_commit_callbacks):
    """The hourly scheduling run asked again for every par not yet proven, while the first ask
    waited on the solve queue: 16 queued proofs grew to 201. An ask is claimed on the deal."""
    deal = factories.certified_deal("munger")
    Deal.objects.filter(pk=deal.pk).update(par_optimal=False)
    later = factories.certified_deal("munger")
    Deal.objects.filter(pk=later.pk).update(par_optimal=False)
    for day, one in ((1, deal), (2, later)):
        factories.daily("munger", clock.today() + dt.timedelta(days=day), deal=one)
    days = (clock.today(), clock.today() + dt.timedelta(days=7))

    with django_capture_on_commit_callbacks(execute=True):
        assert scheduling.pars_ask(start=days[0], end=days[1]) == 2
        assert scheduling.pars_ask(start=days[0], end=days[1]) == 0  # on their way
        assert services.deal_ask_par_proof(deal_id=deal.pk) is False
    assert sorted(par_requests) == sorted([deal.pk, later.pk])


def test_a_proof_is_asked_again_once_it_ran_or_when_its_message_was_lost(
    par_requests, django_capture_on_commit_callbacks, monkeypatch
):
    deal = factories.certified_deal("masterpiece")
    Deal.objects.filter(pk=deal.pk).update(par=len(deal.certificate) + 4, par_optimal=False)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.deal_ask_par_proof(deal_id=deal.pk)
    searches: list[int] = []
    real = services.deals.prove_par
    monkeypatch.setattr(
        services.deals, "prove_par", lambda *a, **k: searches.append(1) or real(*a, **k)
    )

    services.deal_prove_par(deal_id=deal.pk, time_limit=1)
    services.deal_prove_par(deal_id=deal.pk, time_limit=1)  # a second message of the same ask
    assert len(searches) == 1

    Deal.objects.filter(pk=deal.pk).update(par_optimal=False)  # say the search ran out
    with django_capture_on_commit_callbacks(execute=True):
        assert services.deal_ask_par_proof(deal_id=deal.pk)  # it ran: asked again
        assert not services.deal_ask_par_proof(deal_id=deal.pk)
    stale = clock.now() - services.PROOF_PENDING - dt.timedelta(seconds=1)
    Deal.objects.filter(pk=deal.pk).update(par_proof_asked_at=stale)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.deal_ask_par_proof(deal_id=deal.pk)  # never ran: its message was lost
    assert par_requests == [deal.pk] * 3
