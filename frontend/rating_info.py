"""The ratings as the pages show them (docs/leagues.md, "Ratings"): the player's rating per game
with its history and latest changes on My stats, and a past daily's deal rating beside its
solver difficulty on the archive and the home page. The numbers are `ratings.selectors`'; this
module only puts them in the site's words. Nothing of a daily whose ranked play is open is
shown: the selector answers None for it, as the API refuses it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from frontend.vocabulary import GAME_PAGES, difficulty_info
from games.models import DailyChallenge, Player
from ratings import selectors

#: How many of the latest rating changes My stats lists (every game together, newest first).
LATEST_CHANGES = 10

#: A rating change's result in words, with a mark so that it never relies on colour alone.
RESULT_WORDS = {
    "win": pgettext_lazy("a rating change: the daily was won", "Win"),
    "loss": pgettext_lazy("a rating change: resigned, or left unfinished", "Loss"),
}
RESULT_MARKS = {"win": "✓", "loss": "✗"}


def signed(delta: int) -> str:
    """A change of rating as the pages write it: +12, −8 (a true minus sign), ±0."""
    if delta > 0:
        return f"+{delta}"
    if delta < 0:
        return f"\N{MINUS SIGN}{-delta}"
    return "±0"


def player_ratings_info(player: Player) -> dict[str, Any]:
    """My stats' ratings: `games`, one entry per game with a rating counted (rating, deviation,
    provisional, dailies counted, the rating after each daily for the chart and its table), and
    `changes`, the latest changes of every game, newest first. Both are empty for a player
    whose first ranked daily was not rated yet."""
    games = []
    changes = []
    for entry in selectors.player_ratings(player=player):
        if not entry["history"]:
            continue
        page = GAME_PAGES.get(entry["game"])
        name = page.name if page else entry["game"]
        games.append(
            {
                "game": entry["game"],
                "name": name,
                "rating": entry["rating"],
                "rd": entry["rd"],
                "provisional": entry["provisional"],
                "games": entry["games"],
                "points": [
                    {"date": change["date"].isoformat(), "rating": change["after"]}
                    for change in entry["history"]
                ],
            }
        )
        for change in entry["history"]:
            delta = change["after"] - change["before"]
            changes.append(
                {
                    "date": change["date"],
                    "game": name,
                    "result": change["result"],
                    "word": RESULT_WORDS.get(change["result"], change["result"]),
                    "mark": RESULT_MARKS.get(change["result"], ""),
                    "delta": delta,
                    "delta_text": signed(delta),
                    "direction": "up" if delta > 0 else "down" if delta < 0 else "same",
                    "after": change["after"],
                }
            )
    changes.sort(key=lambda change: change["date"], reverse=True)
    return {
        "games": games,
        "provisional": any(game["provisional"] for game in games),
        "changes": changes[:LATEST_CHANGES],
    }


def rating_charts(info: dict[str, Any]) -> list[dict[str, Any]]:
    """The series of My stats' rating charts (the page's JSON block): per game, its id, title
    and the rating after each daily."""
    return [
        {
            "game": game["game"],
            "title": _("%(game)s rating over time") % {"game": game["name"]},
            "points": game["points"],
        }
        for game in info["games"]
    ]


def deal_rating_info(daily: DailyChallenge | None) -> dict[str, Any] | None:
    """A past daily's deal rating as the archive and the home page show it: the rating, the
    players it counts and the calibrated difficulty in words (None until the game has enough
    rated dailies). None for a daily still played for rank, or not rated yet."""
    if daily is None:
        return None
    return deal_ratings_info([daily]).get(daily.pk)


def deal_ratings_info(dailies: Sequence[DailyChallenge]) -> dict[int, dict[str, Any]]:
    """`deal_rating_info` of many dailies (a month of the archive), by daily id, in a few
    queries."""
    return {
        pk: {
            "rating": rating["rating"],
            "players": rating["players"],
            "calibrated": difficulty_info(rating["calibrated_difficulty"]),
        }
        for pk, rating in selectors.daily_ratings(dailies=dailies).items()
    }
