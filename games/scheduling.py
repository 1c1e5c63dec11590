"""Keeping the coming days supplied with dailies (docs/scheduling.md).

`dailies_ensure` is what the hourly beat task (`tasks.ensure_dailies`), the `schedule_dailies`
command and `make run` call. For each game and each of the next days (UTC) that has no daily,
it takes, in this order:

1. a deal from the pool whose difficulty fits the weekday: approved by an admin and never
   scheduled first, then the scheduler's spares (solved candidates it dealt for another day);
2. a new candidate: a random seed is dealt, solved here within a bounded time, and the first
   one whose difficulty fits is approved by the system (`chosen_by_system`) and scheduled;
3. after `CANDIDATES` new candidates without a fit: for a day at most `SETTLE_DAYS` ahead
   (today or tomorrow), the solved deal of closest difficulty; for a later day, nothing yet
   (`waiting`): the next hourly run deals more candidates for it, so a day gets the difficulty
   its weekday wants unless the fit is not found before it comes close.

It never replaces a daily (an admin's choice wins), never schedules an unsolvable or unknown
deal, nor one dealt for races (`race_candidate_request` deals those, kept apart), and keeps
every candidate it dealt: unsolvable ones rejected, unknown ones as candidates (neither is tried
again), solved ones as spares for other days. Two runs at once are safe: the chosen deal is
locked while it is scheduled, and the unique (game, date) constraint lets only one daily in; the
loser keeps the winner's.
"""

from __future__ import annotations

import datetime as dt
import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet

from games import clock, services
from games.engine.deals import random_seed
from games.engine.solver import candidate_seconds
from games.errors import Conflict
from games.models import DailyChallenge, Deal, GameName

logger = logging.getLogger(__name__)

#: The difficulty levels (1 easy .. 5 hard) that suit each weekday, Monday = 0: easy early in
#: the week, hard at the weekend.
WEEKDAY_DIFFICULTY: dict[int, tuple[int, ...]] = {
    0: (1, 2),  # Monday
    1: (2,),  # Tuesday
    2: (2, 3),  # Wednesday
    3: (3,),  # Thursday
    4: (3, 4),  # Friday
    5: (4, 5),  # Saturday
    6: (4, 5),  # Sunday
}

#: New candidates dealt for one day before settling for the closest difficulty.
CANDIDATES = 12
#: While none of them was solvable, dealing goes on up to this many; past it the day stays
#: empty until the next run (a third of random Munger deals are winnable, most Masterpiece ones).
CANDIDATES_MAX = 40
#: A day this many days ahead, or closer, takes the closest difficulty when no candidate fits;
#: a later one waits for the next runs to deal more.
SETTLE_DAYS = 1
KEPT, REUSED, DEALT, CLOSEST, WAITING, EMPTY = (
    "kept",
    "reused",
    "dealt",
    "closest",
    "waiting",
    "empty",
)

#: Hears a line of progress for people waiting (the `schedule_dailies` command prints them).
Progress = Callable[[str], None]


# -- choosing: pure functions ---------------------------------------------------------------


def difficulty_targets(date: dt.date) -> tuple[int, ...]:
    """The difficulty levels that suit `date`'s weekday.

    >>> difficulty_targets(dt.date(2026, 11, 30))  # a Monday
    (1, 2)
    """
    return WEEKDAY_DIFFICULTY[date.weekday()]


def difficulty_distance(difficulty: int | None, date: dt.date) -> int:
    """How many levels `difficulty` lies from the nearest level that suits `date` (0: it
    fits). A deal without a difficulty is as far as can be."""
    if difficulty is None:
        return 5
    return min(abs(difficulty - target) for target in difficulty_targets(date))


def difficulty_fits(difficulty: int | None, date: dt.date) -> bool:
    return difficulty_distance(difficulty, date) == 0


def deals_ranked(deals: Iterable[Deal], date: dt.date) -> list[Deal]:
    """Deals best first for `date`: closest difficulty, then an admin's approval before the
    scheduler's spares, then the oldest."""
    return sorted(
        deals,
        key=lambda deal: (
            difficulty_distance(deal.difficulty, date),
            deal.curation != Deal.Curation.APPROVED,
            deal.pk or 0,
        ),
    )


def seed_new(game: str) -> int:
    """A random seed for a new candidate of `game` (the tests feed seeds of their choice per
    game instead)."""
    return random_seed()


# -- what a run did -------------------------------------------------------------------------


@dataclass
class DayOutcome:
    """What `dailies_ensure` did for one game on one date.

    `action` is one of: kept (the day had a daily: an admin's, or an earlier or concurrent
    run's), reused (a deal from the pool fit), dealt (a new candidate fit), closest (no fit,
    and the day is close: the closest difficulty), waiting (no fit yet, and the day is further
    ahead than `SETTLE_DAYS`: the next run deals more), empty (nothing solvable was found; the
    next run tries again).
    """

    game: str
    date: dt.date
    action: str
    deal: Deal | None = None
    dealt: int = 0  # new candidates dealt for this day
    published: bool = True

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "date": self.date.isoformat(),
            "action": self.action,
            "deal_id": self.deal.pk if self.deal else None,
            "difficulty": self.deal.difficulty if self.deal else None,
            "dealt": self.dealt,
        }


# -- the service ----------------------------------------------------------------------------


def dailies_ensure(
    *,
    days: int = 7,
    today: dt.date | None = None,
    candidates: int = CANDIDATES,
    progress: Progress | None = None,
) -> list[DayOutcome]:
    """Make sure each game has a daily, with an approved and certified deal, on each of the
    `days` UTC dates from `today` (the server's today by default). Days that have one keep it.
    Returns an outcome per date and game, in that order."""
    start = today or clock.today()
    outcomes = []
    for offset in range(days):
        date = start + dt.timedelta(days=offset)
        for game in GameName.values:
            outcome = daily_ensure(
                game=game, date=date, candidates=candidates, progress=progress, today=start
            )
            logger.info(
                "%s %s: %s %s", date, game, outcome.action, outcome.deal.pk if outcome.deal else "-"
            )
            outcomes.append(outcome)
    pars_ask(start=start, end=start + dt.timedelta(days=days))
    return outcomes


def pars_ask(*, start: dt.date, end: dt.date) -> int:
    """Ask for the proof of every par of the dailies from `start` to before `end` that is not
    proven and was never tried, unless one is on its way (`services.deal_ask_par_proof`: a
    proof lost with its message is asked for again after `PROOF_PENDING`). Returns how many
    were asked for."""
    deals = Deal.objects.filter(
        dailies__date__gte=start, dailies__date__lt=end, par_proved_at__isnull=True
    ).exclude(par_optimal=True)
    return sum(
        services.deal_ask_par_proof(deal_id=deal_id)
        for deal_id in deals.values_list("pk", flat=True).distinct()
    )


def daily_ensure(
    *,
    game: str,
    date: dt.date,
    candidates: int = CANDIDATES,
    progress: Progress | None = None,
    today: dt.date | None = None,
) -> DayOutcome:
    """One game and one date of `dailies_ensure`. `progress`, if given, hears a line per new
    candidate dealt and solved (what the first start of `make run` shows)."""
    kept = _kept(game, date)
    if kept is not None:
        return kept

    for deal in deals_ranked(_pool(game), date):
        if not difficulty_fits(deal.difficulty, date):
            break  # ranked by distance: none of the rest fits either
        outcome = _take(deal, game=game, date=date, action=REUSED)
        if outcome is not None:
            return outcome

    dealt = solved = 0
    while dealt < candidates or (solved == 0 and dealt < CANDIDATES_MAX):
        kept = _kept(game, date, dealt=dealt)  # filled meanwhile by an admin or another run
        if kept is not None:
            return kept
        dealt += 1
        candidate = _candidate_deal(game)
        if candidate is None:
            continue
        began = time.perf_counter()
        ok = _candidate_solve(candidate)
        if progress is not None:
            verdict = f"difficulty {candidate.difficulty}" if ok else candidate.solver_status
            progress(
                f"{date.isoformat()} {game}: candidate {dealt} (seed {candidate.seed}) "
                f"{verdict} in {time.perf_counter() - began:.1f} s"
            )
        if not ok:
            continue
        solved += 1
        if difficulty_fits(candidate.difficulty, date):
            outcome = _take(candidate, game=game, date=date, action=DEALT, dealt=dealt)
            if outcome is not None:
                return outcome

    if solved and (date - (today or clock.today())).days > SETTLE_DAYS:
        return DayOutcome(game, date, WAITING, dealt=dealt)
    for deal in deals_ranked(_pool(game), date):
        outcome = _take(deal, game=game, date=date, action=CLOSEST, dealt=dealt)
        if outcome is not None:
            return outcome
    logger.error("no solvable %s deal among %d candidates for %s", game, dealt, date)
    return DayOutcome(game, date, EMPTY, dealt=dealt)


def _kept(game: str, date: dt.date, *, dealt: int = 0) -> DayOutcome | None:
    daily = DailyChallenge.objects.select_related("deal").filter(game=game, date=date).first()
    if daily is None:
        return None
    return DayOutcome(game, date, KEPT, daily.deal, dealt=dealt, published=daily.published)


def _pool(game: str) -> QuerySet[Deal]:
    """Solved deals of `game` never scheduled: approved ones, and the scheduler's spares; never
    a deal dealt for races (`Deal.Curation.RACES`: players have seen it)."""
    return (
        Deal.objects.certified()
        .filter(game=game)
        .filter(Q(curation=Deal.Curation.APPROVED) | Q(dealt_by_scheduler=True))
        .exclude(curation=Deal.Curation.RACES)
        .filter(dailies__isnull=True)
        .defer("certificate", "solver_stats")
    )


def _candidate_deal(game: str) -> Deal | None:
    try:
        return services.deal_create(game=game, seed=seed_new(game), dealt_by_scheduler=True)
    except Conflict:  # dealt before: that deal is not tried again
        return None


def race_candidate_request(game: str) -> Deal | None:
    """A new candidate for the races' supply (races/services.py, `race_deals_ensure`): a random
    seed dealt as the scheduler deals its own (`seed_new`), but as a deal for races
    (`Deal.Curation.RACES`: never approved, never a daily, never one of the scheduler's spares),
    and its solve asked of the `solve_deal` task after commit (`services.deal_request_solve`,
    on the `solve` queue), with a candidate's budget (`candidate_seconds`). None when the seed
    was dealt before (that deal is not tried again)."""
    try:
        deal = services.deal_create(game=game, seed=seed_new(game), for_races=True)
    except Conflict:
        return None
    return services.deal_request_solve(deal=deal, time_limit=candidate_seconds(game))


def _candidate_solve(deal: Deal) -> bool:
    """Solve a new candidate here and now; reject it if it cannot be won. True if solved."""
    status = services.deal_solve(deal_id=deal.pk, time_limit=candidate_seconds(deal.game))
    deal.refresh_from_db()
    if status == Deal.SolverStatus.UNSOLVABLE:
        services.deal_reject(deal=deal)
    return status == Deal.SolverStatus.SOLVED and deal.is_certified


class _DayFilled(Exception):
    """The day got a daily between our look and our write: roll back the approval."""


def _take(
    deal: Deal, *, game: str, date: dt.date, action: str, dealt: int = 0
) -> DayOutcome | None:
    """Approve (if need be) and schedule `deal` on `date`, under a lock on the deal. Returns
    None if the deal was scheduled elsewhere meanwhile (try another), the outcome otherwise;
    a day filled meanwhile is kept as it is."""
    try:
        with transaction.atomic():
            deal = Deal.objects.select_for_update().get(pk=deal.pk)
            if not deal.is_certified or deal.dailies.exists():
                return None
            if deal.curation != Deal.Curation.APPROVED:
                deal = services.deal_approve(deal=deal, system=True)
            daily = services.daily_schedule(game=game, date=date, deal=deal, replace=False)
            if daily.deal_id != deal.pk:
                raise _DayFilled
    except (IntegrityError, _DayFilled):  # the unique (game, date) constraint, or seen above
        kept = _kept(game, date, dealt=dealt)
        if kept is None:
            raise
        return kept
    return DayOutcome(game, date, action, deal, dealt=dealt)
