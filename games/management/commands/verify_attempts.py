"""`manage.py verify_attempts [--game G] [--since DATE]`: re-verify every ranked result.

Each finished ranked attempt is replayed from its deal through `services.attempt_verify`
(which saves the verdict). Prints each attempt that fails, with the reason, then
"checked N, failed K"; exits with status 1 if any failed, for cron and CI.
"""

from __future__ import annotations

import argparse
import datetime as dt
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import clock, services
from games.engine import MalformedError, replay
from games.models import Attempt, GameName

BATCH = 500


def failure_reason(attempt: Attempt) -> str:
    """Why the stored result disagrees with the replay of the stored history."""
    try:
        result = replay(attempt.game, attempt.deal_string, attempt.moves)
    except MalformedError as exc:
        return f"the stored deal is not a {attempt.game} deal: {exc}"
    except Exception as exc:  # a history too broken to replay at all (not a list of tokens)
        return f"the history cannot be replayed: {type(exc).__name__}: {exc}"
    if not result.valid and result.error is not None:
        error = result.error
        return f"move {error.index} ({error.move}) is {error.kind}: {error.reason}"
    problems = []
    if result.moves != attempt.move_count:
        problems.append(f"{attempt.move_count} moves stored, {result.moves} replayed")
    if result.foundation_cards != attempt.foundation_cards:
        problems.append(
            f"{attempt.foundation_cards} cards on the foundations stored, "
            f"{result.foundation_cards} replayed"
        )
    if result.won != (attempt.status == Attempt.Status.WON):
        replayed = "wins" if result.won else "does not win"
        problems.append(f"stored as {attempt.status}, the replay {replayed}")
    return "; ".join(problems) or "the replay disagrees with the stored result"


def iso_date(text: str) -> dt.date:
    day = clock.date_from_text(text)
    if day is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date (YYYY-MM-DD)")
    return day


class Command(BaseCommand):
    help = "Re-verify every finished ranked attempt by replaying its stored history."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", choices=GameName.values)
        parser.add_argument(
            "--since",
            type=iso_date,
            metavar="DATE",
            help="only dailies on or after this UTC date (YYYY-MM-DD)",
        )

    def handle(self, *args: Any, game: str | None, since: dt.date | None, **options: Any) -> None:
        attempts = Attempt.objects.filter(ranked=True).exclude(status=Attempt.Status.PLAYING)
        if game:
            attempts = attempts.filter(game=game)
        if since:
            attempts = attempts.filter(daily__date__gte=since)
        # Ids first, then batches: the loop saves each verdict into the table it reads.
        ids = list(attempts.order_by("pk").values_list("pk", flat=True))
        failed = 0
        for start in range(0, len(ids), BATCH):
            batch = Attempt.objects.filter(pk__in=ids[start : start + BATCH])
            for attempt in batch.select_related("player", "daily").order_by("pk"):
                try:
                    ok = services.attempt_verify(attempt=attempt)
                except Exception:  # a history too broken to replay; the reason says why
                    ok = False
                if not ok:
                    failed += 1
                    self.stdout.write(
                        f"attempt {attempt.pk} ({attempt.player}, {attempt.daily}, "
                        f"{attempt.status}): {failure_reason(attempt)}"
                    )
        self.stdout.write(f"checked {len(ids)}, failed {failed}")
        if failed:
            raise CommandError(f"{failed} ranked result(s) failed verification.", returncode=1)
