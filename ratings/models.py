"""Ratings of players and of the dailies' deals (docs/leagues.md, "Ratings"): Glicko-2
(ratings/glicko2.py), one rating period per UTC day, the deal as each player's opponent."""

from __future__ import annotations

from django.db import models

from games.models import DailyChallenge, Deal, GameName, Player
from ratings import glicko2

#: A rating is provisional while its deviation is at least this (Lichess's threshold): until
#: then its 95% interval is wider than +-216 points, about ten days of play from a newcomer.
PROVISIONAL_RD = 110.0


class PlayerRating(models.Model):
    """A player's rating in one game, moved by each of its dailies the player played ranked."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    game = models.CharField(max_length=16, choices=GameName.choices)
    rating = models.FloatField(default=glicko2.INITIAL_RATING)
    rd = models.FloatField(default=glicko2.INITIAL_RD, help_text="The rating deviation.")
    volatility = models.FloatField(default=glicko2.INITIAL_VOLATILITY)
    games = models.PositiveIntegerField(default=0, help_text="Dailies counted.")
    last_date = models.DateField(
        null=True, blank=True, help_text="The date of the last daily counted."
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "game"], name="rating_one_per_player_game")
        ]

    def __str__(self) -> str:
        return f"{self.player_id} {self.game} {self.rating:.0f}"

    @property
    def provisional(self) -> bool:
        return bool(self.rd >= PROVISIONAL_RD)


class DealRating(models.Model):
    """A deal's rating, from the players of its daily: a win beats the deal, a loss loses to
    it. Seeded from the solver's difficulty (`ratings.services.DIFFICULTY_SEED`)."""

    deal = models.OneToOneField(Deal, on_delete=models.CASCADE, related_name="rating")
    game = models.CharField(max_length=16, choices=GameName.choices)
    rating = models.FloatField()
    rd = models.FloatField(help_text="The rating deviation.")
    volatility = models.FloatField(default=glicko2.INITIAL_VOLATILITY)
    seed_rating = models.FloatField(help_text="The rating it started from.")
    players = models.PositiveIntegerField(default=0, help_text="Players counted.")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [models.Index(fields=["game", "players"])]

    def __str__(self) -> str:
        return f"deal {self.deal_id} {self.rating:.0f}"


class RatedDaily(models.Model):
    """The claim of a daily's rating (`ratings.services.ratings_close_daily`): made in the
    transaction that rates the day, so a day is rated once."""

    daily = models.OneToOneField(DailyChallenge, on_delete=models.CASCADE, related_name="rated")
    game = models.CharField(max_length=16, choices=GameName.choices)
    rated_at = models.DateTimeField()
    players = models.PositiveIntegerField(default=0, help_text="Players counted at the close.")

    def __str__(self) -> str:
        return f"daily {self.daily_id} rated ({self.players} players)"


class RatingChange(models.Model):
    """What one daily did to one player's rating: for charts, and so a result counts once."""

    class Result(models.TextChoices):
        WIN = "win"
        LOSS = "loss"

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_changes")
    daily = models.ForeignKey(
        DailyChallenge, on_delete=models.CASCADE, related_name="rating_changes"
    )
    game = models.CharField(max_length=16, choices=GameName.choices)
    date = models.DateField()
    result = models.CharField(max_length=4, choices=Result.choices)
    rating_before = models.FloatField()
    rating_after = models.FloatField()
    rd_before = models.FloatField()
    rd_after = models.FloatField()
    late = models.BooleanField(
        default=False, help_text="Counted after its day was rated (approved after review)."
    )
    taken_back_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When it was taken back: its result was disqualified after it counted.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "daily"], name="rating_change_once")
        ]
        indexes = [models.Index(fields=["player", "game", "date"])]

    def __str__(self) -> str:
        return f"{self.player_id} {self.date} {self.rating_before:.0f}->{self.rating_after:.0f}"
