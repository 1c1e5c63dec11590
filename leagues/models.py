"""Leagues of friends, their members, and the points each closed daily gave each player (the
seasons' standings are sums of these: `selectors`)."""

from __future__ import annotations

from django.db import models

from games.models import DailyChallenge, Player


class League(models.Model):
    """A group of players who see each other's dailies, week, month and all time. Anyone with
    the invite link may join; a new link (`leagues.services.league_new_invite`) retires the
    old."""

    name = models.CharField(max_length=40)
    owner = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="leagues_owned")
    invite_code = models.CharField(max_length=16, unique=True)
    created_at = models.DateTimeField()
    created_address = models.GenericIPAddressField(
        null=True, blank=True, help_text="Where it was made from (the creations per address)."
    )

    def __str__(self) -> str:
        return str(self.name)


class Membership(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="memberships")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="memberships")
    joined_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["league", "player"], name="one_membership_each")
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.league}"


class DailyPoints(models.Model):
    """What one closed daily gave one player (`leagues.points`): their result's rank among the
    day's board, how many ranked, and the points. Worked out once the day closes, and again
    when a result of it changes (an approval after review): a day is replaced whole."""

    daily = models.ForeignKey(DailyChallenge, on_delete=models.CASCADE, related_name="points")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="daily_points")
    date = models.DateField(help_text="The daily's date (the seasons sum by it).")
    game = models.CharField(max_length=16)
    won = models.BooleanField()
    rank = models.PositiveIntegerField()
    players = models.PositiveIntegerField()
    points = models.PositiveSmallIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["daily", "player"], name="one_score_a_daily")
        ]
        indexes = [models.Index(fields=["date", "player"], name="points_by_date")]

    def __str__(self) -> str:
        return f"{self.player} {self.date} {self.game}: {self.points}"
