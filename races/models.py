"""A race: some friends play the same certified deal side by side, each on a server-checked
attempt of their own (docs/api.md, "Races").

A race is found by its code (`/challenge/<code>/`). Its racers join in its lobby, get ready,
and once it starts each plays an attempt of their own, practice as far as the boards are
concerned (`Attempt.ranked` false: a race never ranks on a daily's board); `Racer.attempt`
links the attempt to its race (`attempt.racer`). `Race.version` grows by one with every change
of the race (the lobby, the start, an attempt, a finish, a leave, the rematch), in the
transaction that makes it: the versions of the race's whole-view events. A racer's moves change
only their own row: `Racer.version` grows by one with each write of their progress, the version
of their progress events (docs/realtime.md, "Versions, order and what may be lost").
"""

from __future__ import annotations

import datetime as dt

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q

from games.models import Attempt, DailyChallenge, Deal, GameName, Player

RACERS_MIN, RACERS_MAX = 2, 8
#: How long a race's link lets people in, from its making.
LIFETIME = dt.timedelta(days=7)
#: What a racer is doing: no attempt yet, then their attempt's status.
RACER_STATUSES = ["waiting", "playing", "won", "resigned"]
#: Seconds from the start to the moment everyone may play.
COUNTDOWN_SECONDS = 5


class Race(models.Model):
    class Status(models.TextChoices):
        LOBBY = "lobby"
        RACING = "racing"  # the countdown, then play (see `starts_at`)
        OVER = "over"  # every racer has finished

    code = models.CharField(max_length=16, unique=True)
    game = models.CharField(max_length=16, choices=GameName.choices)
    deal = models.ForeignKey(Deal, on_delete=models.PROTECT, related_name="races")
    daily = models.ForeignKey(
        DailyChallenge,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="races",
        help_text="The past daily whose deal is raced; empty for a fresh deal.",
    )
    maker = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="races_made")
    capacity = models.PositiveSmallIntegerField(
        validators=[MinValueValidator(RACERS_MIN), MaxValueValidator(RACERS_MAX)]
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.LOBBY)
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    started_at = models.DateTimeField(null=True, blank=True)
    starts_at = models.DateTimeField(
        null=True, blank=True, help_text="The end of the countdown: play begins."
    )
    finished_at = models.DateTimeField(null=True, blank=True)
    version = models.PositiveIntegerField(default=0)
    rematch_of = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch"
    )

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(capacity__gte=RACERS_MIN) & Q(capacity__lte=RACERS_MAX),
                name="race_capacity_2_to_8",
            )
        ]

    def __str__(self) -> str:
        return f"race {self.code} ({self.get_game_display()}, {self.status})"


class Racer(models.Model):
    race = models.ForeignKey(Race, on_delete=models.CASCADE, related_name="racers")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="racers")
    joined_at = models.DateTimeField()
    ready = models.BooleanField(default=False)
    gone = models.BooleanField(default=False, help_text="Left the race; may come back.")
    attempt = models.OneToOneField(
        Attempt, null=True, blank=True, on_delete=models.SET_NULL, related_name="racer"
    )
    foundations = models.JSONField(
        default=list,
        blank=True,
        help_text="The racer's foundations as last played: [{suit, top, count}].",
    )
    moves = models.PositiveIntegerField(
        default=0,
        help_text="How many of the attempt's moves `foundations` is after: an older move's "
        "progress, come late, is not written over it.",
    )
    version = models.PositiveIntegerField(
        default=0,
        help_text="The racer's own version: one more with every write of their progress (the "
        "version of their progress events).",
    )
    held_reasons = models.JSONField(
        default=list,
        blank=True,
        help_text="The fair-play checks the finished result tripped (games/fairplay.py): a "
        "held result stays out of the race's results.",
    )

    class Meta:
        ordering = ["joined_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["race", "player"], name="racer_once_per_race")
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.race.code}"
