"""Writes of the fair-play review: the off-path perfection check of a top win, and an admin's
approval or disqualification of a held result."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from games import clock, fairplay, signals
from games.errors import Conflict
from games.models import (
    Attempt,
    ReviewDecision,
)
from games.services.attempts import attempt_disqualify


def attempt_ask_perfection(*, attempt_id: int) -> None:
    """Ask for the perfection check of a ranked win (`attempt_check_perfection`, in the
    workers): the leaderboards ask it for a win that would enter its day's top 100."""
    signals.send_on_commit(signals.perfection_check_requested, attempt_id=attempt_id)


def _perfection_due(attempt: Attempt) -> bool:
    """A verified ranked win of a daily, measured never, that no admin has decided."""
    return (
        attempt.ranked
        and attempt.daily_id is not None
        and attempt.status == Attempt.Status.WON
        and attempt.verified
        and not attempt.disqualified
        and attempt.review != Attempt.Review.APPROVED
        and attempt.perfection is None
    )


def _held_for(attempt: Attempt, rule: str) -> bool:
    return any(reason.get("rule") == rule for reason in attempt.held_reasons or [])


def attempt_check_perfection(*, attempt_id: int, time_limit: float | None = None) -> Attempt:
    """Measure the solver's distance after each move of a ranked win (`fairplay.perfection`,
    up to `time_limit` seconds, by default `fairplay.PERFECTION_SECONDS`) and store it on the
    attempt: the evidence a reviewer reads, move by move. The rule `accuracy` judged the win
    from its par when it finished; the measure can only tighten its bound, and holds the win
    when that now trips the rule (the reason added to any it had). The measure runs outside
    any transaction (it takes a worker up to a minute); the result is written only if the
    attempt still wants it. Done once per attempt."""
    attempt = Attempt.objects.select_related("daily__deal").get(pk=attempt_id)
    if not _perfection_due(attempt):
        return attempt
    deal = attempt.daily.deal
    measured = fairplay.perfection(
        attempt.game,
        deal.deal_string,
        attempt.moves,
        par=deal.par if deal.par_optimal else None,
        time_limit=fairplay.PERFECTION_SECONDS if time_limit is None else time_limit,
    )
    with transaction.atomic():
        attempt = (
            Attempt.objects.select_for_update(of=("self",))
            .select_related("daily__deal")
            .get(pk=attempt_id)
        )
        if not _perfection_due(attempt):
            return attempt
        attempt.perfection = measured or {"decided": 0}
        reasons = [
            reason
            for reason in fairplay.check_attempt(attempt)
            if reason["rule"] == "accuracy" and not _held_for(attempt, "accuracy")
        ]
        fields = ["perfection"]
        if reasons:
            attempt.review = Attempt.Review.HELD
            attempt.held_reasons = [*attempt.held_reasons, *reasons]
            fields += ["review", "held_reasons"]
        attempt.save(update_fields=fields)
    if reasons:
        signals.send_on_commit(
            signals.attempt_changed, attempt_id=attempt.pk, daily_id=attempt.daily_id
        )
    return attempt


def _held_locked(attempt: Attempt) -> Attempt:
    """The attempt, locked for this transaction, if it is held for review; else `Conflict`."""
    locked = Attempt.objects.select_for_update().get(pk=attempt.pk)
    if locked.review != Attempt.Review.HELD or locked.disqualified:
        raise Conflict("This result is not held for review (decided already?).", code="not_held")
    return locked


def attempt_review_approve(*, attempt: Attempt, by: Any, note: str = "") -> Attempt:
    """An admin approves a result held by the fair-play checks (games/fairplay.py): ranked
    again, the decision recorded."""
    with transaction.atomic():
        attempt = _held_locked(attempt)
        attempt.review = Attempt.Review.APPROVED
        attempt.save(update_fields=["review"])
        ReviewDecision.objects.create(
            attempt=attempt,
            decision=ReviewDecision.Decision.APPROVED,
            reason=note.strip(),
            decided_by=by,
            decided_at=clock.now(),
        )
    signals.send_on_commit(
        signals.attempt_changed, attempt_id=attempt.pk, daily_id=attempt.daily_id
    )
    return attempt


def attempt_review_disqualify(*, attempt: Attempt, by: Any, reason: str) -> Attempt:
    """An admin disqualifies a result held by the fair-play checks, with a reason the player
    sees (`attempt_disqualify`), the decision recorded; the review is over."""
    with transaction.atomic():
        attempt = _held_locked(attempt)
        attempt_disqualify(attempt=attempt, by=by, reason=reason)
        attempt.review = Attempt.Review.NONE
        attempt.save(update_fields=["review"])
        ReviewDecision.objects.create(
            attempt=attempt,
            decision=ReviewDecision.Decision.DISQUALIFIED,
            reason=attempt.disqualified_reason,
            decided_by=by,
            decided_at=attempt.disqualified_at,
        )
    return attempt
