"""`manage.py solve_deal DEAL_ID [--time-limit S]`: solve one pending deal here and now.

It runs the `solve_deal` Celery task in this process (the worker's code path: claim, solve,
store the certificate only if the replay verifier accepts it) and prints the result. A deal that
is not pending (being solved, or decided already) is skipped, as the task would skip it.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import Deal
from games.services import DEFAULT_SOLVE_SECONDS
from games.tasks import solve_deal


class Command(BaseCommand):
    help = "Solve a pending deal inline, through the solve_deal task, and print the result."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("deal_id", type=int)
        parser.add_argument(
            "--time-limit",
            type=float,
            default=DEFAULT_SOLVE_SECONDS,
            metavar="S",
            help=f"seconds the solver may think (default {DEFAULT_SOLVE_SECONDS})",
        )

    def handle(self, *args: Any, deal_id: int, time_limit: float, **options: Any) -> None:
        deal = Deal.objects.filter(pk=deal_id).first()
        if deal is None:
            raise CommandError(f"There is no deal {deal_id}.")
        self.stdout.write(f"Solving deal {deal.pk} ({deal}) for up to {time_limit:g} s ...")
        status = solve_deal.apply(args=(deal.pk, time_limit), throw=True).get()
        deal.refresh_from_db()
        if status == "skipped":
            self.stdout.write(
                f"deal {deal.pk}: skipped, it is {deal.solver_status} ({deal.curation}); only "
                "a pending deal is solved (ask for a solve in the admin first)"
            )
            return
        seconds = deal.solver_stats.get("seconds")
        took = f" in {seconds:g} s" if seconds is not None else ""
        if deal.solver_status == Deal.SolverStatus.SOLVED:
            verdict = f"solved{took}: par {deal.par}, difficulty {deal.difficulty}"
        elif deal.solver_status == Deal.SolverStatus.UNKNOWN:
            stopped = deal.solver_stats.get("stopped_by", "no verified certificate")
            verdict = f"unknown{took} (stopped by {stopped})"
        else:
            verdict = f"{deal.solver_status}{took}"
        self.stdout.write(self.style.SUCCESS(f"deal {deal.pk}: {verdict}"))
