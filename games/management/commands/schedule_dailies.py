"""`manage.py schedule_dailies [--days N]`: make sure the coming days have their dailies.

Runs `scheduling.dailies_ensure` here and now (what the hourly beat task runs) and prints, for
each day and game, what it chose or kept. Exits with status 1 if a day was left empty.
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import scheduling
from games.scheduling import DayOutcome


def outcome_line(outcome: DayOutcome) -> str:
    """One line per day and game, e.g.
    `2026-11-30 Mon munger      dealt   deal 7 (seed 4398952029444353705), difficulty 2, par 92
    - fits 1-2; 3 candidates dealt`."""
    date = outcome.date
    head = f"{date.isoformat()} {date:%a} {outcome.game:<11} {outcome.action:<7}"
    targets = scheduling.difficulty_targets(date)
    wanted = f"{targets[0]}-{targets[-1]}" if len(targets) > 1 else str(targets[0])
    if outcome.action == scheduling.WAITING:
        return (
            f"{head} no deal of difficulty {wanted} among {outcome.dealt} candidates yet; the "
            "next run deals more (the spares wait for other days)"
        )
    if outcome.deal is None:
        return f"{head} no solvable deal among {outcome.dealt} candidates; the next run retries"
    deal = outcome.deal
    origin = f"seed {deal.seed}" if deal.seed is not None else "pasted"
    fit = "fits" if scheduling.difficulty_fits(deal.difficulty, date) else "wanted"
    notes = [f"{fit} {wanted}"]
    if outcome.action == scheduling.KEPT:
        notes.append(
            "approved by the scheduler" if deal.chosen_by_system else "approved by an admin"
        )
    if outcome.dealt:
        notes.append(f"{outcome.dealt} candidate{'s' if outcome.dealt != 1 else ''} dealt")
    if outcome.action == scheduling.CLOSEST:
        notes.append("a compromise: no candidate fit before the day came close")
    if not outcome.published:
        notes.append("unpublished")
    return (
        f"{head} deal {deal.pk} ({origin}), difficulty {deal.difficulty}, par {deal.par}"
        f" - {'; '.join(notes)}"
    )


class Command(BaseCommand):
    help = "Make sure each game has a certified daily on each of the next N days (UTC)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--days", type=int, default=7, metavar="N", help="days from today, UTC (default 7)"
        )
        parser.add_argument(
            "--candidates",
            type=int,
            default=scheduling.CANDIDATES,
            metavar="K",
            help="new candidates dealt for a day before taking the closest difficulty "
            f"(default {scheduling.CANDIDATES})",
        )

    def handle(self, *args: Any, days: int, candidates: int, **options: Any) -> None:
        if days < 1 or candidates < 1:
            raise CommandError("--days and --candidates take a number from 1.")
        began = time.perf_counter()
        outcomes = []
        self.stdout.write(
            f"Making sure each game has a daily on the next {days} day(s): a day without one "
            f"gets a deal from the pool, or new deals are dealt and solved (up to {candidates} "
            "per day before taking the closest difficulty)."
        )

        def progress(line: str) -> None:
            self.stdout.write(f"  {line}")
            self.stdout.flush()

        for outcome in scheduling.dailies_ensure(
            days=days, candidates=candidates, progress=progress
        ):
            outcomes.append(outcome)
            self.stdout.write(outcome_line(outcome))
        counts = Counter(outcome.action for outcome in outcomes)
        summary = ", ".join(
            f"{action} {counts[action]}"
            for action in (
                scheduling.KEPT,
                scheduling.REUSED,
                scheduling.DEALT,
                scheduling.CLOSEST,
                scheduling.WAITING,
                scheduling.EMPTY,
            )
            if counts[action]
        )
        took = time.perf_counter() - began
        self.stdout.write(f"{len(outcomes)} dailies ensured in {took:.1f} s: {summary}")
        if counts[scheduling.EMPTY]:
            raise CommandError(f"{counts[scheduling.EMPTY]} day(s) left without a daily.")
