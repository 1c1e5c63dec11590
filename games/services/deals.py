"""Writes of deals: creating them, the solver's runs and results, curation."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from django.db import IntegrityError, transaction
from django.db.models import F, Q

from games import clock, signals
from games.difficulty import LEVELS, METHOD, level_of_stats
from games.engine import MalformedError, game_class, replay
from games.engine.solver import SolveResult, prove_par, solve
from games.errors import Conflict, Malformed
from games.models import Deal, DifficultyCuts, seed_text
from games.selectors import game_check

DEFAULT_SOLVE_SECONDS = 60
MAX_SOLVE_SECONDS = 600

#: A claim older than this is taken to be from a worker that died (beyond the hard limit).
STALE_CLAIM = dt.timedelta(minutes=30)


# -- deals -----------------------------------------------------------------------------------


def deal_create(
    *,
    game: str,
    seed: int | None = None,
    deal_string: str | None = None,
    notes: str = "",
    dealt_by_scheduler: bool = False,
    for_races: bool = False,
) -> Deal:
    """A new candidate deal from a seed or a pasted deal string (exactly one), validated by the
    engine. The same layout twice is refused. `for_races`: a deal of the races' supply
    (`Deal.Curation.RACES`), never to be approved or scheduled."""
    game_check(game)
    if (seed is None) == (deal_string is None):
        raise Malformed("Give either a seed or a deal string.", code="seed_or_deal")
    if for_races and dealt_by_scheduler:
        raise Malformed("A deal for races is not a spare of the scheduler.", code="invalid")
    try:
        cls = game_class(game)
        text = cls.deal_for_seed(seed) if seed is not None else deal_string
        cls.from_deal(text)  # type: ignore[arg-type]
    except MalformedError as exc:
        raise Malformed(f"This is not a {game} deal: {exc}", code="bad_deal") from None
    existing = Deal.objects.filter(game=game, deal_string=text).first()
    if existing is not None:
        raise Conflict(
            f"This deal exists already ({existing}).", code="deal_exists", deal_id=existing.pk
        )
    try:
        with transaction.atomic():
            return Deal.objects.create(
                game=game,
                seed=seed_text(seed),
                deal_string=text,
                notes=notes,
                dealt_by_scheduler=dealt_by_scheduler,
                curation=Deal.Curation.RACES if for_races else Deal.Curation.CANDIDATE,
            )
    except IntegrityError:  # created meanwhile by someone else
        raise Conflict("This deal exists already.", code="deal_exists") from None


def deal_request_solve(*, deal: Deal, time_limit: float | None = None) -> Deal:
    """Ask the background solver for this deal (`deal_solve_requested` after commit). A deal
    being solved is left alone (unless its claim is stale: the worker died), and an approved
    deal keeps its certificate."""
    if deal.curation == Deal.Curation.APPROVED:
        raise Conflict("This deal is approved; its certificate stays.", code="deal_approved")
    working = Q(
        solver_status=Deal.SolverStatus.SOLVING, solve_started_at__gte=clock.now() - STALE_CLAIM
    )
    updated = (
        Deal.objects.filter(pk=deal.pk)
        .exclude(working)
        .exclude(curation=Deal.Curation.APPROVED)
        .update(solver_status=Deal.SolverStatus.PENDING, solve_requested_at=clock.now())
    )
    if updated:
        signals.send_on_commit(signals.deal_solve_requested, deal_id=deal.pk, time_limit=time_limit)
    deal.refresh_from_db()
    return deal


def deal_claim_for_solving(*, deal_id: int, resume: bool = False) -> bool:
    """Claim a pending deal for one solver run with a conditional UPDATE, so that a second
    delivery of the same task finds nothing to claim and does nothing. `resume`: the run is
    the retry of one whose process died, and takes over the claim that run left, however
    fresh."""
    now = clock.now()
    abandoned = Q(solver_status=Deal.SolverStatus.SOLVING)
    if not resume:
        abandoned &= Q(solve_started_at__lt=now - STALE_CLAIM)
    claimed = (
        Deal.objects.filter(pk=deal_id)
        .filter(Q(solver_status=Deal.SolverStatus.PENDING) | abandoned)
        .exclude(curation=Deal.Curation.APPROVED)
        .update(solver_status=Deal.SolverStatus.SOLVING, solve_started_at=now)
    )
    return bool(claimed)


def deal_solve(
    *,
    deal_id: int,
    time_limit: float | None = None,
    par_time: float | None = None,
    resume: bool = False,
) -> str:
    """Claim a pending deal, solve it here and store the result: what the `solve_deal` task,
    the `solve_deal` command and the scheduler run. Returns the stored solver status, or
    "skipped" when the deal was not there to claim (claimed or decided already).

    When a Celery task's soft time limit interrupts the solver, the deal is stored as unknown
    and `SoftTimeLimitExceeded` goes on up, so that a longer job (the scheduler) stops too.
    `resume`: see `deal_claim_for_solving`.
    """
    if not deal_claim_for_solving(deal_id=deal_id, resume=resume):
        return "skipped"
    deal = Deal.objects.get(pk=deal_id)
    seconds = min(time_limit or DEFAULT_SOLVE_SECONDS, MAX_SOLVE_SECONDS)
    try:
        result = solve(deal.game, deal.deal_string, time_limit=seconds, par_time=par_time)
    except SoftTimeLimitExceeded:
        stopped = SolveResult(Deal.SolverStatus.UNKNOWN, stats={"stopped_by": "task time limit"})
        deal_store_solution(deal_id=deal_id, result=stopped)
        raise
    return deal_store_solution(deal_id=deal_id, result=result).solver_status


def deal_store_solution(*, deal_id: int, result: Any) -> Deal:
    """Store a solver result; a certificate is kept only if the replay verifier accepts it."""
    with transaction.atomic():
        deal = Deal.objects.select_for_update().get(pk=deal_id)
        status = result.status
        certificate: list[str] = []
        if status == Deal.SolverStatus.SOLVED:
            verdict = replay(deal.game, deal.deal_string, result.moves)
            if verdict.valid and verdict.won:
                certificate = list(result.moves)
            else:  # never trust a line the verifier refuses
                status = Deal.SolverStatus.UNKNOWN
        deal.solver_status = status
        deal.certificate = certificate
        deal.solver_lines = [certificate] if certificate else []
        deal.par = len(certificate) if certificate else None
        deal.difficulty = (
            level_of_stats(deal.game, result.stats, result.difficulty) if certificate else None
        )
        deal.solver_stats = result.stats
        deal.solved_at = clock.now()
        deal.par_optimal = bool(result.stats.get("par_optimal")) if certificate else None
        deal.par_lower_bound = result.stats.get("par_lower_bound") if certificate else None
        deal.save()
        return deal


#: A par proof asked for that has not run after this long is asked for again: its message was
#: lost with a broker or a worker (the tasks themselves survive a worker's death).
PROOF_PENDING = dt.timedelta(hours=2)


def deal_ask_par_proof(*, deal_id: int) -> bool:
    """Ask the workers to prove a deal's par (the signal `deal_par_requested`, after commit),
    unless it is proven or a proof asked for has yet to run (`PROOF_PENDING`): a deal's proof
    is never queued twice, however often the hourly scheduling run, a new schedule or a
    lowered par asks. Claimed by a conditional UPDATE, so two asks at once send one. Returns
    whether it was asked for."""
    now = clock.now()
    on_its_way = Q(par_proof_asked_at__gt=now - PROOF_PENDING) & (
        Q(par_proved_at__isnull=True) | Q(par_proved_at__lt=F("par_proof_asked_at"))
    )
    asked = (
        Deal.objects.filter(pk=deal_id)
        .exclude(par_optimal=True)
        .exclude(on_its_way)
        .update(par_proof_asked_at=now)
    )
    if asked:
        signals.send_on_commit(signals.deal_par_requested, deal_id=deal_id)
    return bool(asked)


def deal_prove_par(*, deal_id: int, time_limit: float | None = None) -> Deal:
    """Search for the shortest winning line of a solved deal (`solver.prove_par`, from its
    certificate), and keep what it proves: a shorter certified line becomes the certificate
    and the par; `par_optimal` says whether no shorter line exists, `par_lower_bound` the
    floor proven otherwise. For the workers ahead of the day (it may take minutes: the game's
    `PAR_SECONDS` unless `time_limit`); a deal proven already, or whose proof ran since it was
    last asked for (a second message of the same ask), is left as it is."""
    deal = Deal.objects.get(pk=deal_id)
    ran_since_asked = (
        deal.par_proved_at is not None
        and deal.par_proof_asked_at is not None
        and deal.par_proved_at >= deal.par_proof_asked_at
    )
    if deal.par_optimal or not deal.certificate or ran_since_asked:
        return deal
    result = prove_par(deal.game, deal.deal_string, time_limit=time_limit, line=deal.certificate)
    with transaction.atomic():
        deal = Deal.objects.select_for_update().get(pk=deal_id)
        deal.par_proved_at = clock.now()
        if result.status == Deal.SolverStatus.SOLVED and result.par is not None:
            verdict = replay(deal.game, deal.deal_string, result.moves)
            if verdict.valid and verdict.won and result.par <= (deal.par or result.par):
                deal.certificate = list(result.moves)
                if deal.certificate not in (deal.solver_lines or []):
                    deal.solver_lines = [*(deal.solver_lines or []), deal.certificate]
                deal.par = result.par
                deal.par_optimal = result.optimal
                bound = result.lower_bound
                if bound is not None and deal.par_lower_bound is not None:
                    bound = max(bound, deal.par_lower_bound)
                deal.par_lower_bound = bound
            deal.solver_stats = {**deal.solver_stats, "par_proof": result.stats}
        deal.save()
    return deal


def deal_lower_par(*, deal_id: int, line: list[str]) -> Deal | None:
    """A verified winning `line` shorter than a deal's par (a player's win): the par was not a
    floor. The line becomes the certificate and the par, marked not proven, and a new proof is
    asked for. None when the line does not win or is not shorter."""
    with transaction.atomic():
        deal = Deal.objects.select_for_update().get(pk=deal_id)
        if deal.par is None or len(line) >= deal.par:
            return None
        verdict = replay(deal.game, deal.deal_string, line)
        if not (verdict.valid and verdict.won):
            return None
        deal.certificate = list(line)
        deal.par = len(line)
        deal.par_optimal = False
        deal.par_lower_bound = min(deal.par_lower_bound or deal.par, deal.par)
        deal.save(update_fields=["certificate", "par", "par_optimal", "par_lower_bound"])
        deal_ask_par_proof(deal_id=deal.pk)
        return deal


def deal_approve(*, deal: Deal, by: Any = None, system: bool = False) -> Deal:
    races = Deal.objects.filter(pk=deal.pk, curation=Deal.Curation.RACES).exists()
    if races or deal.curation == Deal.Curation.RACES:
        raise Conflict(
            "This deal was dealt for races: players have seen it outside the daily schedule, "
            "so it is never approved for a daily.",
            code="deal_for_races",
        )
    if not deal.is_certified:
        raise Conflict(
            "Only a solved deal with a certificate can be approved.", code="not_certified"
        )
    return _curate(deal, Deal.Curation.APPROVED, by=by, system=system)


def deal_reject(*, deal: Deal, by: Any = None) -> Deal:
    if deal.dailies.exists():
        raise Conflict(
            "This deal is scheduled; unschedule it before rejecting it.", code="deal_scheduled"
        )
    return _curate(deal, Deal.Curation.REJECTED, by=by, system=False)


def _curate(deal: Deal, curation: str, *, by: Any, system: bool) -> Deal:
    deal.curation = curation
    deal.curated_by = by
    deal.curated_at = clock.now()
    deal.chosen_by_system = system
    deal.save(update_fields=["curation", "curated_by", "curated_at", "chosen_by_system"])
    return deal


def deal_set_notes(*, deal: Deal, notes: str) -> Deal:
    """The curators' notes on a deal (free text); nothing else changes."""
    deal.notes = notes.strip()
    deal.save(update_fields=["notes"])
    return deal


def difficulty_cuts_apply(
    *, game: str, cuts: Sequence[float], days: int, method: str = METHOD
) -> DifficultyCuts:
    """Put refitted cut points in force for `game` (games/difficulty.py): stored as the newest
    `DifficultyCuts`, then every solved deal not yet scheduled is rated again with them, so the
    scheduler's pool follows at once. Scheduled dailies keep the difficulty they were shown
    with."""
    cuts = [float(cut) for cut in cuts]
    if len(cuts) != LEVELS - 1 or cuts != sorted(cuts):
        raise Malformed(f"Cut points are {LEVELS - 1} increasing scores.", code="bad_cuts")
    with transaction.atomic():
        row = DifficultyCuts.objects.create(game=game, cuts=cuts, days=days, method=method)
        pool = Deal.objects.select_for_update(of=("self",)).filter(
            game=game, solver_status=Deal.SolverStatus.SOLVED, dailies__isnull=True
        )
        for deal in pool:
            level = level_of_stats(game, deal.solver_stats or {}, deal.difficulty)
            if level != deal.difficulty:
                deal.difficulty = level
                deal.save(update_fields=["difficulty"])
    return row
