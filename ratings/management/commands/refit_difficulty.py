"""`manage.py refit_difficulty [--game G] [--min-days N] [--apply]`: refit the cut points
between difficulty levels 1..5 from the days players confirmed (ratings/difficulty.py, method in
docs/scheduling.md): from the deals' ratings once enough days were rated, else from the days'
win rates.

For each game: the method and how many days the fit rests on, then the cut points in force
beside the proposed ones. With fewer days than the minimum (30 by default), nothing is proposed.
Only `--apply` puts the proposed cuts in force (`services.difficulty_cuts_apply`), which also
rates the unscheduled solved deals again.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games import services
from games.difficulty import LEVELS, MIN_DAYS, MIN_PLAYERS
from games.models import GameName
from ratings.difficulty import refit


def _cell(value: float | None) -> str:
    return "-" if value is None else f"{value:.4f}"


class Command(BaseCommand):
    help = "Refit the difficulty cut points from observed days; write them only with --apply."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", choices=GameName.values, help="One game (default: both).")
        parser.add_argument(
            "--min-days",
            type=int,
            default=MIN_DAYS,
            help=f"Observed days needed for a refit (default {MIN_DAYS}).",
        )
        parser.add_argument("--apply", action="store_true", help="Put the proposed cuts in force.")

    def handle(self, *args: Any, **options: Any) -> None:
        games = [options["game"]] if options["game"] else list(GameName.values)
        self.stdout.write(f"days count with at least {MIN_PLAYERS} ranked players")
        for game in games:
            found = refit(game, min_days=options["min_days"])
            if found.proposed is None:
                self.stdout.write(
                    f"{game}: {found.days} observed days, fewer than {options['min_days']}: "
                    "no refit"
                )
                continue
            self.stdout.write(f"{game}: {found.days} days, method: {found.method}")
            self.stdout.write("  cut    current  proposed")
            for k in range(LEVELS - 1):
                self.stdout.write(
                    f"  {k + 1}|{k + 2}    {_cell(found.current[k])}   {_cell(found.proposed[k])}"
                )
            if options["apply"]:
                services.difficulty_cuts_apply(
                    game=game, cuts=found.proposed, days=found.days, method=found.method
                )
                self.stdout.write(f"{game}: applied")
            else:
                self.stdout.write(f"{game}: not written (--apply puts them in force)")
