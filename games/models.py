"""Deals, the daily schedule, players and their attempts (DESIGN.md, issue 4).

Plain models; the rules that change them live in `services.py`, the queries in `selectors.py`.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import (
    MaxValueValidator,
    MinLengthValidator,
    MinValueValidator,
    RegexValidator,
)
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower

from games.engine import GAMES

RULES_VERSION = 1
DEAL_LENGTH = 52 * 3 - 1  # 52 two-character codes and 51 spaces
SEED_MAX = 2**64 - 1


def seed_validator(value: str) -> None:
    """Seeds are stored as their decimal digits: 0 to 2^64 - 1 does not fit a signed 64-bit
    column, and SQLite rounds decimals to 15 digits."""
    if not (isinstance(value, str) and value.isdigit() and value == str(int(value))
            and int(value) <= SEED_MAX):  # fmt: skip
        raise ValidationError(f"A seed is a whole number from 0 to {SEED_MAX}.")


def seed_text(seed: int | None) -> str | None:
    return None if seed is None else str(int(seed))


class GameName(models.TextChoices):
    MUNGER = "munger", "Munger"
    MASTERPIECE = "masterpiece", "Masterpiece"


assert set(GameName.values) == set(GAMES), "every engine game has a name here"


class Deal(models.Model):
    """A layout of one game, with what the solver found and what the admins decided."""

    class SolverStatus(models.TextChoices):
        PENDING = "pending"
        SOLVING = "solving"
        SOLVED = "solved"
        UNSOLVABLE = "unsolvable"
        UNKNOWN = "unknown"

    class Curation(models.TextChoices):
        CANDIDATE = "candidate"
        APPROVED = "approved"
        REJECTED = "rejected"

    game = models.CharField(max_length=16, choices=GameName.choices)
    seed = models.CharField(
        max_length=20, null=True, blank=True, validators=[seed_validator],
        help_text="The seed the deal came from (docs/deals.md); empty for a pasted deal.",
    )  # fmt: skip
    deal = models.CharField(max_length=DEAL_LENGTH, help_text="The deal string (RULES.md).")
    rules_version = models.PositiveSmallIntegerField(default=RULES_VERSION)

    solver_status = models.CharField(
        max_length=12, choices=SolverStatus.choices, default=SolverStatus.PENDING
    )
    certificate = models.JSONField(
        default=list, blank=True, help_text="A winning line the replay verifier accepted."
    )
    par = models.PositiveSmallIntegerField(null=True, blank=True)
    difficulty = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(5)]
    )
    solver_stats = models.JSONField(default=dict, blank=True)
    solve_requested_at = models.DateTimeField(null=True, blank=True)
    solve_started_at = models.DateTimeField(null=True, blank=True)
    solved_at = models.DateTimeField(null=True, blank=True)

    curation = models.CharField(max_length=10, choices=Curation.choices, default=Curation.CANDIDATE)
    curated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="curated_deals",
    )  # fmt: skip
    curated_at = models.DateTimeField(null=True, blank=True)
    chosen_by_system = models.BooleanField(
        default=False, help_text="Approved by the scheduler, not by an admin."
    )
    notes = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "deal"], name="deal_unique_per_game"),
            models.CheckConstraint(
                condition=~Q(curation="approved")
                | (Q(solver_status="solved") & Q(par__isnull=False)),
                name="deal_approved_only_when_certified",
            ),  # fmt: skip
        ]
        indexes = [models.Index(fields=["game", "curation", "solver_status"])]

    def __str__(self) -> str:
        origin = f"seed {self.seed}" if self.seed is not None else f"#{self.pk}"
        return f"{self.get_game_display()} {origin}"

    @property
    def is_schedulable(self) -> bool:
        return (
            self.curation == self.Curation.APPROVED
            and self.solver_status == self.SolverStatus.SOLVED
            and bool(self.certificate)
        )


class DailyChallenge(models.Model):
    """The deal everyone plays for one game on one UTC date."""

    game = models.CharField(max_length=16, choices=GameName.choices)
    date = models.DateField()
    deal = models.ForeignKey(Deal, on_delete=models.PROTECT, related_name="dailies")
    published = models.BooleanField(default=True)
    scheduled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="scheduled_dailies", help_text="Empty when the scheduler chose it.",
    )  # fmt: skip
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-date", "game"]
        constraints = [
            models.UniqueConstraint(fields=["game", "date"], name="daily_unique_per_game_and_date")
        ]

    def __str__(self) -> str:
        return f"{self.get_game_display()} {self.date.isoformat()}"


DISPLAY_NAME_MIN, DISPLAY_NAME_MAX = 2, 24
display_name_validator = RegexValidator(
    r"^[\w][\w .'-]*[\w.]$|^\w$",
    "Use letters, digits, spaces and . ' - _ only, starting with a letter or digit.",
)


class Player(models.Model):
    """Someone who plays: a guest known by a signed cookie, optionally linked to an account."""

    display_name = models.CharField(
        max_length=DISPLAY_NAME_MAX,
        validators=[MinLengthValidator(DISPLAY_NAME_MIN), display_name_validator],
    )
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="player",
    )  # fmt: skip
    created_at = models.DateTimeField(auto_now_add=True)
    last_seen_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(Lower("display_name"), name="player_display_name_unique_ci")
        ]

    def __str__(self) -> str:
        return self.display_name


class Attempt(models.Model):
    """One player's play of one deal: a ranked daily, or practice."""

    class Status(models.TextChoices):
        PLAYING = "playing"
        WON = "won"
        STUCK = "stuck"
        ABANDONED = "abandoned"

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="attempts")
    game = models.CharField(max_length=16, choices=GameName.choices)
    challenge = models.ForeignKey(
        DailyChallenge, null=True, blank=True, on_delete=models.PROTECT, related_name="attempts"
    )
    seed = models.CharField(max_length=20, null=True, blank=True, validators=[seed_validator])
    deal = models.CharField(max_length=DEAL_LENGTH, help_text="The deal played, as dealt.")
    ranked = models.BooleanField(default=False)

    moves = models.JSONField(default=list, blank=True, help_text="The history, RULES.md tokens.")
    next_seq = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    started_at = models.DateTimeField()
    first_move_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    move_count = models.PositiveIntegerField(default=0)
    foundation_cards = models.PositiveSmallIntegerField(default=0)

    verified = models.BooleanField(default=False)
    verified_at = models.DateTimeField(null=True, blank=True)
    disqualified = models.BooleanField(default=False)
    disqualified_reason = models.TextField(blank=True)
    disqualified_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="disqualified_attempts",
    )  # fmt: skip
    disqualified_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-started_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["player", "challenge"],
                condition=Q(ranked=True),
                name="attempt_one_ranked_per_player_and_daily",
            ),  # fmt: skip
            models.CheckConstraint(
                condition=~Q(ranked=True) | Q(challenge__isnull=False),
                name="attempt_ranked_only_on_a_daily",
            ),
            models.CheckConstraint(
                condition=Q(move_count=models.F("next_seq")), name="attempt_seq_counts_moves"
            ),
        ]
        indexes = [
            models.Index(fields=["challenge", "ranked", "status"]),
            models.Index(fields=["player", "status"]),
        ]

    def __str__(self) -> str:
        what = str(self.challenge) if self.challenge_id else f"practice {self.game}"
        return f"{self.player} — {what} ({self.status})"

    @property
    def is_finished(self) -> bool:
        return self.status != self.Status.PLAYING
