"""Writes of the daily schedule (which deal runs on which day) and of a day's end."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction

from games import clock, fairplay, signals
from games.engine.solver.distance import distance
from games.errors import Conflict, Malformed
from games.models import RANKED_GRACE, Attempt, DailyChallenge, Deal
from games.selectors import daily_observed, game_check
from games.services.deals import deal_ask_par_proof

# -- the daily schedule ----------------------------------------------------------------------


def daily_schedule(
    *, game: str, date: dt.date, deal: Deal, by: Any = None, replace: bool = True
) -> DailyChallenge:
    """Put `deal` on `date` for `game`, replacing the deal planned there if nobody has played
    it yet. Only approved deals with a certificate can be scheduled. With `replace=False` a day
    that has a daily keeps it and that daily is returned (the scheduler never overrides)."""
    game_check(game)
    if deal.game != game:
        raise Malformed(f"{deal} is not a {game} deal.", code="wrong_game")
    if not deal.is_schedulable:
        raise Conflict(
            "Only an approved deal with a certificate can be scheduled.", code="not_schedulable"
        )
    if date < clock.today():
        raise Conflict("That day is over; its daily cannot change.", code="day_over")
    with transaction.atomic():
        daily = DailyChallenge.objects.select_for_update().filter(game=game, date=date).first()
        if daily is None:
            daily = DailyChallenge.objects.create(game=game, date=date, deal=deal, scheduled_by=by)
            signals.send_on_commit(signals.daily_scheduled, daily_id=daily.pk)
            _ask_for_par_proof(deal)
            return daily
        if daily.deal_id == deal.pk or not replace:
            return daily
        if daily.attempts.exists():
            raise Conflict(
                "People have played this daily already; it cannot change.", code="daily_played"
            )
        daily.deal = deal
        daily.scheduled_by = by
        daily.save(update_fields=["deal", "scheduled_by", "updated_at"])
        signals.send_on_commit(signals.daily_scheduled, daily_id=daily.pk)
        _ask_for_par_proof(deal)
        return daily


def _ask_for_par_proof(deal: Deal) -> None:
    """A scheduled deal's par is proven in the workers ahead of the day (games/tasks.py)."""
    if not deal.par_optimal:
        deal_ask_par_proof(deal_id=deal.pk)


def daily_unschedule(*, daily: DailyChallenge) -> None:
    with transaction.atomic():
        daily = DailyChallenge.objects.select_for_update().get(pk=daily.pk)
        if daily.attempts.exists():
            raise Conflict(
                "People have played this daily already; it cannot be removed.",
                code="daily_played",
            )
        daily.delete()


# -- the end of a day ------------------------------------------------------------------------


def dailies_due_for_closing(now: dt.datetime | None = None) -> list[int]:
    """The dailies whose ranked play has ended (`DailyChallenge.ranked_until`) and whose day's
    end has not been handled yet."""
    now = now or clock.now()
    # ranked_until = the day after `date`, 00:00 UTC, plus RANKED_GRACE.
    last_ended = (now - RANKED_GRACE).date() - dt.timedelta(days=1)
    return list(
        DailyChallenge.objects.filter(closed_at__isnull=True, date__lte=last_ended)
        .order_by("date", "game")
        .values_list("pk", flat=True)
    )


#: The day's end bounds what each of this many unfinished ranked attempts still needed (those
#: highest on the board: where a bot parks a line short of the end), with this many seconds of
#: search each, so that fair play's `accuracy` can judge them.
PARKED_SEARCHED = 100
PARKED_SECONDS = 2.0


def parked_remaining(daily: DailyChallenge) -> dict[int, int]:
    """For the unfinished ranked attempts of `daily` highest on its board (by cards on the
    foundations, at least `fairplay.MIN_MOVES_PERFECTION` moves), a winning line's length from
    where each stands, where a short search finds one: attempt id -> moves. Off any
    transaction: it takes seconds."""
    found: dict[int, int] = {}
    parked = (
        Attempt.objects.filter(
            daily=daily,
            ranked=True,
            status=Attempt.Status.PLAYING,
            move_count__gte=fairplay.MIN_MOVES_PERFECTION,
        )
        .order_by("-foundation_cards", "move_count", "pk")
        .only("pk", "game", "deal_string", "moves")[:PARKED_SEARCHED]
    )
    for attempt in parked:
        left = distance(attempt.game, attempt.deal_string, attempt.moves, time_limit=PARKED_SECONDS)
        if left.upper is not None:
            found[attempt.pk] = left.upper
    return found


def daily_close(*, daily_id: int) -> int | None:
    """The end of a daily's day, once its ranked play is over: every ranked attempt left
    unfinished is checked once more on its final history (games/fairplay.py), those highest on
    the board with what a search found they still needed (`parked_remaining`, kept in
    `Attempt.perfection`), and held when it trips a check; then how the day went is recorded
    (`DailyChallenge.observed`, beside the solver's predicted difficulty). Claimed by a
    conditional UPDATE, so a second run does nothing (None). Returns how many attempts it
    held."""
    now = clock.now()
    remaining: dict[int, int] = {}
    daily = DailyChallenge.objects.filter(pk=daily_id, closed_at__isnull=True).first()
    if daily is not None and not daily.ranked_play_open(now):
        remaining = parked_remaining(daily)
    with transaction.atomic():
        claimed = DailyChallenge.objects.filter(pk=daily_id, closed_at__isnull=True).update(
            closed_at=now
        )
        if not claimed:
            return None
        daily = DailyChallenge.objects.select_related("deal").get(pk=daily_id)
        if daily.ranked_play_open(now):
            raise Conflict("This daily's ranked play has not ended yet.", code="day_not_over")
        held = 0
        unfinished = (
            Attempt.objects.select_for_update(of=("self",))
            .filter(daily=daily, ranked=True, status=Attempt.Status.PLAYING)
            .order_by("pk")
        )
        for attempt in unfinished:
            attempt.daily = daily
            was = attempt.review
            fields = ["review", "held_reasons"]
            if attempt.pk in remaining:
                attempt.perfection = {
                    **(attempt.perfection or {}),
                    "remaining": remaining[attempt.pk],
                }
                fields.append("perfection")
            if fairplay.hold_if_implausible(attempt) and was != Attempt.Review.HELD:
                attempt.save(update_fields=fields)
                signals.send_on_commit(
                    signals.attempt_changed, attempt_id=attempt.pk, daily_id=daily.pk
                )
                held += 1
        daily.observed = daily_observed(daily=daily)
        daily.save(update_fields=["observed"])
        signals.send_on_commit(signals.daily_closed, daily_id=daily.pk)
        return held


#: How long an attempt keeps the address it was started from (for the review of held results).
ADDRESSES_KEPT = dt.timedelta(days=30)


def attempts_forget_addresses(now: dt.datetime | None = None) -> int:
    """Clear the address and networks of attempts started more than `ADDRESSES_KEPT` ago, but
    of those still held for review. Returns how many were cleared."""
    before = (now or clock.now()) - ADDRESSES_KEPT
    return (
        Attempt.objects.filter(started_at__lt=before)
        .exclude(client_address__isnull=True, client_network="", client_network56="")
        .exclude(review=Attempt.Review.HELD, disqualified=False)
        .update(client_address=None, client_network="", client_network56="")
    )


def dailies_close_due() -> dict[int, int]:
    """`daily_close` for every daily due (the beat's job, and the embedded server's), then the
    addresses past their time are forgotten: daily id -> attempts held, for the dailies this
    run closed."""
    closed = {}
    for daily_id in dailies_due_for_closing():
        held = daily_close(daily_id=daily_id)
        if held is not None:
            closed[daily_id] = held
    if closed:
        attempts_forget_addresses()
    return closed
