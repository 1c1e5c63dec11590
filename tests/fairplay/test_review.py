"""Deciding on a held result: approve (ranked again) or disqualify (with a reason the player
sees), each recorded as a `ReviewDecision`, the board following through `attempt_changed`
after commit; and what the player sees of it through the API."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from benchmarks.fairplay import instant_bot
from games import services, signals
from games.errors import Conflict, Malformed
from games.identity import COOKIE_NAME
from games.models import Attempt, ReviewDecision
from tests.games import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_user(db) -> User:
    return User.objects.create_superuser("referee", password="x")


@pytest.fixture
def held(dailies, play) -> Attempt:
    daily = dailies("masterpiece")
    attempt = play(daily, instant_bot(random.Random(1), daily.deal.certificate))
    assert attempt.review == Attempt.Review.HELD
    return attempt


@pytest.fixture
def changes() -> list[dict]:
    """What `attempt_changed` carried, in order."""
    sent: list[dict] = []

    def listen(sender, signal, **ids):
        sent.append(ids)

    signals.attempt_changed.connect(listen, dispatch_uid="fairplay-test")
    yield sent
    signals.attempt_changed.disconnect(dispatch_uid="fairplay-test")


def board(attempt: Attempt) -> set[int]:
    return set(Attempt.objects.filter(daily=attempt.daily).on_board().values_list("pk", flat=True))


def api_of(attempt: Attempt) -> APIClient:
    client = APIClient()
    client.cookies[COOKIE_NAME] = services.player_token_issue(player=attempt.player)
    return client


def test_approving_puts_the_result_on_the_board_after_commit(
    held, admin_user, changes, django_capture_on_commit_callbacks
) -> None:
    assert held.pk not in board(held)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.attempt_review_approve(attempt=held, by=admin_user, note="Known speed player.")
        assert changes == []  # nothing is sent before the commit
    for callback in callbacks:
        callback()
    assert changes == [{"attempt_id": held.pk, "daily_id": held.daily_id}]
    held.refresh_from_db()
    assert held.review == Attempt.Review.APPROVED and not held.disqualified
    assert held.pk in board(held)
    assert not Attempt.objects.held().exists()
    [decision] = held.decisions.all()
    assert decision.decision == ReviewDecision.Decision.APPROVED
    assert (decision.reason, decision.decided_by) == ("Known speed player.", admin_user)


def test_disqualifying_keeps_it_off_the_board_with_the_reason(
    held, admin_user, changes, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        services.attempt_review_disqualify(attempt=held, by=admin_user, reason="  A bot.  ")
    assert changes == [{"attempt_id": held.pk, "daily_id": held.daily_id}]
    held.refresh_from_db()
    assert held.disqualified and held.disqualified_reason == "A bot."
    assert held.disqualified_by == admin_user and held.review == Attempt.Review.NONE
    assert held.pk not in board(held) and not Attempt.objects.held().exists()
    [decision] = held.decisions.all()
    assert (decision.decision, decision.reason) == (ReviewDecision.Decision.DISQUALIFIED, "A bot.")
    assert decision.decided_at == held.disqualified_at


def test_disqualifying_needs_a_reason_and_changes_nothing_without_one(held, admin_user) -> None:
    with pytest.raises(Malformed):
        services.attempt_review_disqualify(attempt=held, by=admin_user, reason="  ")
    held.refresh_from_db()
    assert held.review == Attempt.Review.HELD and not held.disqualified
    assert not ReviewDecision.objects.exists()


def test_only_a_held_result_is_decided_once(held, admin_user, dailies, play) -> None:
    services.attempt_review_approve(attempt=held, by=admin_user)
    with pytest.raises(Conflict):
        services.attempt_review_approve(attempt=held, by=admin_user)
    with pytest.raises(Conflict):
        services.attempt_review_disqualify(attempt=held, by=admin_user, reason="late")
    assert ReviewDecision.objects.count() == 1


def test_the_player_sees_under_review_then_the_decision(held, admin_user) -> None:
    client = api_of(held)
    state = client.get(f"/api/attempts/{held.pk}/").json()
    assert (state["review"], state["disqualified_reason"]) == ("held", "")
    [summary] = client.get("/api/players/me/attempts/").json()["results"]
    assert (summary["review"], summary["disqualified_reason"]) == ("held", "")

    services.attempt_review_disqualify(attempt=held, by=admin_user, reason="Moves of a solver.")
    state = client.get(f"/api/attempts/{held.pk}/").json()
    assert (state["review"], state["disqualified_reason"]) == ("", "Moves of a solver.")
    [summary] = client.get("/api/players/me/attempts/").json()["results"]
    assert (summary["review"], summary["disqualified_reason"]) == ("", "Moves of a solver.")


def test_the_player_sees_approved(held, admin_user) -> None:
    services.attempt_review_approve(attempt=held, by=admin_user)
    state = api_of(held).get(f"/api/attempts/{held.pk}/").json()
    assert (state["review"], state["disqualified_reason"]) == ("approved", "")


def test_a_result_never_held_shows_no_review(db) -> None:
    daily = factories.daily("masterpiece")
    attempt, _ = services.attempt_start(player=factories.player("carol"), daily=daily)
    state = api_of(attempt).get(f"/api/attempts/{attempt.pk}/").json()
    assert (state["review"], state["disqualified_reason"]) == ("", "")
