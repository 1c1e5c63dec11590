"""The move-by-move analysis of a finished game: asked for by its player, worked out once by the
solver in the background (`analysis_run`, on the `solve` queue after the dailies' proofs), kept
in `Analysis` and read from there (`selectors.analysis_answer`).

When a game may be analysed is one rule (`analysis_check`): the solver knows every card, so
never while its deal is still played for rank, nor for a racer while the race on its deal runs.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction

from games import clock, signals
from games.engine.solver.analysis import Report, analyse
from games.engine.solver.distance import EXACT_DISTANCE
from games.errors import Conflict
from games.models import Analysis, Attempt, Deal, Player
from games.selectors import attempt_get

logger = logging.getLogger(__name__)

#: Refusals that apps above `games` add in their `ready()`: each is called with an attempt
#: otherwise open to analysis and may refuse with a ServiceError (a race refuses its racers
#: while it runs).
analysis_refusals: list[Callable[[Attempt], None]] = []


def analysis_check(attempt: Attempt) -> None:
    """Refuse (409) the analysis of an attempt still played (`analysis_unfinished`; a ranked
    game left unfinished is analysed once its day is over), of a daily whose ranked play is
    open (`analysis_not_yet`, with `opens_at`), and whatever `analysis_refusals` refuses
    (`Attempt.analysis_open` is the same rule without the refusals)."""
    if not attempt.is_finished and not attempt.day_over():
        raise Conflict(
            "The analysis is for a finished game: win or resign first.",
            code="analysis_unfinished",
        )
    opens = attempt.analysis_opens_at()
    if opens is not None:
        until = opens.strftime("%Y-%m-%d %H:%M UTC")
        raise Conflict(
            f"This daily is still played for rank: its analysis opens at {until}.",
            code="analysis_not_yet",
            opens_at=opens.isoformat().replace("+00:00", "Z"),
        )
    for refuse in analysis_refusals:
        refuse(attempt)


def attempt_analysis(*, attempt_id: int, player: Player, ask: bool) -> Analysis | None:
    """The player's attempt's analysis as it stands (404 as for reading the attempt; 409 as
    `analysis_check` says). With `ask`, one is asked for when none is kept (or a failed one is
    asked for again): the row is made and `analysis_requested` sent after commit. Without
    `ask`, None when none was asked for."""
    attempt = attempt_get(attempt_id=attempt_id, player=player)
    analysis_check(attempt)
    kept = Analysis.objects.filter(attempt=attempt).first()
    if kept is not None:
        kept.attempt = attempt  # as loaded: the answer reads it
    if kept is not None and kept.moves != len(attempt.moves):
        kept.delete()  # the game moved on since (not expected of a finished game): again
        kept = None
    if not ask or (kept is not None and kept.status != Analysis.Status.FAILED):
        return kept
    now = clock.now()
    try:
        with transaction.atomic():
            if kept is None:
                kept = Analysis.objects.create(
                    attempt=attempt, requested_at=now, moves=len(attempt.moves)
                )
            else:
                kept.status, kept.requested_at, kept.report = Analysis.Status.QUEUED, now, None
                kept.save(update_fields=["status", "requested_at", "report"])
            signals.send_on_commit(signals.analysis_requested, attempt_id=attempt.pk)
    except IntegrityError:  # a second request made it first
        kept = Analysis.objects.get(attempt=attempt)
    return kept


def _par(attempt: Attempt) -> tuple[int | None, bool]:
    """The deal's par and whether it is proven shortest: the daily's, or that of the deal a
    practice or a race was dealt from when the project knows it."""
    deal = (
        attempt.daily.deal
        if attempt.daily is not None
        else Deal.objects.filter(game=attempt.game, deal_string=attempt.deal_string).first()
    )
    if deal is None or deal.par is None:
        return None, False
    return deal.par, bool(deal.par_optimal)


def compact(report: Report, par: int | None, par_proven: bool) -> dict[str, Any]:
    """What is kept of a solver's report: the figures, never the views (the answer builds
    those from the attempt's moves when it is read)."""
    if par is None and report.points[0].status == EXACT_DISTANCE:
        par, par_proven = report.points[0].distance, True  # the search settled the deal
    return {
        "points": [[p.status, p.distance, p.lower, p.upper, p.best] for p in report.points],
        "won": report.won,
        "lost_at": report.lost_at,
        "winning_move": report.winning_move,
        "stretches": [
            {
                "first": s.first,
                "last": s.last,
                "wasted": s.wasted,
                "exact": s.exact,
                "line": s.line,
            }
            for s in report.stretches
        ],
        "par": par,
        "par_proven": par_proven,
        "settled": report.settled,
        "seconds": report.seconds,
        "budget_seconds": float(settings.ANALYSIS_SECONDS),
        "position_seconds": float(settings.ANALYSIS_POSITION_SECONDS),
    }


def analysis_run(*, attempt_id: int) -> Analysis | None:
    """Work out a queued analysis (the task's body): the solver's report within
    `ANALYSIS_SECONDS` (at most `ANALYSIS_POSITION_SECONDS` a position), kept on the row.
    Idempotent: an analysis done, or gone, is left as it is; one whose worker died is run
    again. The search runs outside any transaction."""
    analysis = (
        Analysis.objects.select_related("attempt__daily__deal")
        .filter(attempt_id=attempt_id)
        .first()
    )
    if analysis is None or analysis.status == Analysis.Status.DONE:
        return analysis
    attempt = analysis.attempt
    Analysis.objects.filter(pk=analysis.pk).update(
        status=Analysis.Status.RUNNING, started_at=clock.now()
    )
    par, proven = _par(attempt)
    try:
        report = analyse(
            attempt.game,
            attempt.deal_string,
            attempt.moves,
            par=par if proven else None,
            time_limit=float(settings.ANALYSIS_SECONDS),
            position_limit=float(settings.ANALYSIS_POSITION_SECONDS),
        )
    except Exception:
        logger.exception("the analysis of attempt %s failed", attempt_id)
        Analysis.objects.filter(pk=analysis.pk).update(
            status=Analysis.Status.FAILED, finished_at=clock.now()
        )
        raise
    Analysis.objects.filter(pk=analysis.pk).update(
        status=Analysis.Status.DONE,
        report=compact(report, par, proven),
        seconds=report.seconds,
        finished_at=clock.now(),
    )
    analysis.refresh_from_db()
    return analysis
