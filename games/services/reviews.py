"""Writes of the fair-play review: an admin approves or disqualifies a held result."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from games import clock, signals
from games.errors import Conflict
from games.models import (
    Attempt,
    ReviewDecision,
)
from games.services.attempts import attempt_disqualify


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
