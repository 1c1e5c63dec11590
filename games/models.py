"""Deals, the daily schedule, players and their attempts.

Plain models; the rules that change them live in `services.py`, the queries in `selectors.py`.
Each cross-cutting rule has one home here, used everywhere else: what a schedulable deal is
(`DealQuerySet.schedulable`), which attempts count on a board and which are wins
(`AttemptQuerySet.on_board`, `.wins`), when a daily's par may be shown (`DailyChallenge.par_shown`)
the server-measured time of an attempt (`Attempt.play_seconds`, each pause capped at
`Attempt.MAX_PAUSE_MS`: `counted_ms`) and the time a board shows (`Attempt.board_seconds`).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass
from typing import Any

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

from games import clock, names
from games.engine import GAMES, deals
from infra.prepared import PreparedRead, PreparedUpdate

RULES_VERSION = 1
DEAL_LENGTH = 52 * 3 - 1  # 52 two-character codes and 51 spaces
SEED_MAX = deals.SEED_MAX


def seed_validator(value: str) -> None:
    """Seeds are stored as their decimal digits: 0 to 2^64 - 1 does not fit a signed 64-bit
    column, and SQLite rounds decimals to 15 digits."""
    if not (
        isinstance(value, str)
        and value.isdigit()
        and value == str(int(value))
        and int(value) <= SEED_MAX
    ):
        raise ValidationError(f"A seed is a whole number from 0 to {SEED_MAX}.")


def seed_text(seed: int | None) -> str | None:
    return None if seed is None else str(int(seed))


#: The games, straight from the engine's registry: a new game needs no edit here.
GameName = models.TextChoices(
    "GameName", [(name.upper(), (name, cls.title)) for name, cls in GAMES.items()]
)


class DealQuerySet(models.QuerySet):
    def certified(self) -> DealQuerySet:
        """Solved with a certificate and not rejected: may be approved and scheduled, or
        raced when it was dealt for races (`Curation.RACES`: never approved)."""
        return self.filter(solver_status=Deal.SolverStatus.SOLVED, par__isnull=False).exclude(
            curation=Deal.Curation.REJECTED
        )

    def schedulable(self) -> DealQuerySet:
        """Approved with a certificate: may run as a daily (the database checks it too)."""
        return self.filter(
            curation=Deal.Curation.APPROVED, solver_status=Deal.SolverStatus.SOLVED
        ).exclude(certificate=[])


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
        #: Dealt for races (races/services.py, the races' supply): shown to players outside
        #: the daily schedule, so never approved and never a daily (`services.deal_approve`).
        RACES = "races", "Dealt for races"

    game = models.CharField(max_length=16, choices=GameName.choices)
    seed = models.CharField(
        max_length=20,
        null=True,
        blank=True,
        validators=[seed_validator],
        help_text="The seed the deal came from (docs/deals.md); empty for a pasted deal.",
    )
    deal_string = models.CharField(
        max_length=DEAL_LENGTH, help_text="The deal string (docs/rules.md, deal strings)."
    )
    rules_version = models.PositiveSmallIntegerField(default=RULES_VERSION)

    solver_status = models.CharField(
        max_length=12, choices=SolverStatus.choices, default=SolverStatus.PENDING
    )
    certificate = models.JSONField(
        default=list, blank=True, help_text="A winning line the replay verifier accepted."
    )
    par = models.PositiveSmallIntegerField(null=True, blank=True)
    solver_lines = models.JSONField(
        null=True,
        blank=True,
        help_text="Every winning line this project's solver gave for the deal (the solve's, "
        "a proof's shorter one), for fair play's solver_line rule; a player's line that lowered "
        "the par is not one of them.",
    )
    # Nullable with no default, so that adding them alters the table in place on SQLite (a
    # rebuilt table would lose the triggers on it).
    par_optimal = models.BooleanField(
        null=True,
        blank=True,
        help_text="The par is proven shortest: no winning line has fewer moves (empty: unknown).",
    )
    par_lower_bound = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="A proven floor: no winning line is shorter (the par itself once proven).",
    )
    par_proved_at = models.DateTimeField(
        null=True, blank=True, help_text="When the exact search for the par last ran."
    )
    par_proof_asked_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the exact search for the par was last asked for: one on its way is "
        "never asked for again (services.deal_ask_par_proof).",
    )
    difficulty = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(5)]
    )
    solver_stats = models.JSONField(default=dict, blank=True)
    solve_requested_at = models.DateTimeField(null=True, blank=True)
    solve_started_at = models.DateTimeField(null=True, blank=True)
    solved_at = models.DateTimeField(null=True, blank=True)

    curation = models.CharField(max_length=10, choices=Curation.choices, default=Curation.CANDIDATE)
    curated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="curated_deals",
    )
    curated_at = models.DateTimeField(null=True, blank=True)
    chosen_by_system = models.BooleanField(
        default=False, help_text="Approved by the scheduler, not by an admin."
    )
    dealt_by_scheduler = models.BooleanField(
        default=False,
        help_text="A candidate the scheduler dealt; solved ones are its spares for other days.",
    )
    notes = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = DealQuerySet.as_manager()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "deal_string"], name="deal_unique_per_game"),
            models.CheckConstraint(
                condition=~Q(curation="approved")
                | (Q(solver_status="solved") & Q(par__isnull=False)),
                name="deal_approved_only_when_certified",
            ),
        ]
        indexes = [models.Index(fields=["game", "curation", "solver_status"])]

    def __str__(self) -> str:
        origin = f"seed {self.seed}" if self.seed is not None else f"#{self.pk}"
        return f"{self.get_game_display()} {origin}"

    @property
    def is_certified(self) -> bool:
        """The row form of `DealQuerySet.certified`."""
        return Deal.objects.filter(pk=self.pk).certified().exists() if self.pk else False

    @property
    def is_schedulable(self) -> bool:
        """The row form of `DealQuerySet.schedulable`."""
        return Deal.objects.filter(pk=self.pk).schedulable().exists() if self.pk else False


class DailyChallenge(models.Model):
    """The deal everyone plays for one game on one UTC date."""

    game = models.CharField(max_length=16, choices=GameName.choices)
    date = models.DateField()
    deal = models.ForeignKey(Deal, on_delete=models.PROTECT, related_name="dailies")
    published = models.BooleanField(default=True)
    scheduled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="scheduled_dailies",
        help_text="Empty when the scheduler chose it.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    closed_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the checks of the day's end ran, after its ranked play ended "
        "(services.daily_close).",
    )
    # Nullable with no default, so that adding it alters the table in place on SQLite too (a
    # rebuild of the table would break the triggers that name it).
    observed = models.JSONField(
        null=True,
        blank=True,
        help_text="How the day went, recorded at its end (selectors.daily_observed): players, "
        "winners, win_rate, median_moves_over_par, median_seconds (of the wins); empty before.",
    )

    class Meta:
        ordering = ["-date", "game"]
        constraints = [
            models.UniqueConstraint(fields=["game", "date"], name="daily_unique_per_game_and_date")
        ]

    def __str__(self) -> str:
        return f"{self.get_game_display()} {self.date.isoformat()}"

    def par_shown(self, *, finished: bool) -> bool:
        """A daily's par is shown once the player has finished their attempt or the day is
        over, so it never guides a ranked game in progress."""
        return finished or self.date < clock.today()

    @property
    def ranked_until(self) -> dt.datetime:
        """When ranked play of this daily ends: the end of its UTC day, plus `RANKED_GRACE`
        for a game still being played at midnight. After it, no ranked attempt of the daily
        moves, and what gives its line away may be shown (the solver's line, hints)."""
        end_of_day = dt.datetime.combine(self.date + dt.timedelta(days=1), dt.time(), dt.UTC)
        return end_of_day + RANKED_GRACE

    def ranked_play_open(self, now: dt.datetime | None = None) -> bool:
        """Whether a ranked attempt of this daily may still move (`ranked_until`)."""
        return (now or clock.now()) < self.ranked_until


#: How long after the end of its day (00:00 UTC) a daily's ranked attempts may still move:
#: a game begun at 23:50 may end a few minutes into the next day, never later.
RANKED_GRACE = dt.timedelta(minutes=5)

DISPLAY_NAME_MIN, DISPLAY_NAME_MAX = 2, 24
display_name_validator = RegexValidator(
    r"^[\w][\w .'-]*[\w.]$|^\w$",
    "Use letters, digits, spaces and . ' - _ only, starting with a letter or digit.",
)


class Player(models.Model):
    """Someone who plays: a guest known by a cookie token, optionally linked to an account."""

    display_name = models.CharField(
        max_length=DISPLAY_NAME_MAX,
        validators=[MinLengthValidator(DISPLAY_NAME_MIN), display_name_validator],
    )
    name_key = models.CharField(
        max_length=4 * DISPLAY_NAME_MAX,
        unique=True,
        help_text="The name folded for comparison (games/names.py): two names that look alike "
        "have the same key, so only one of them can exist.",
    )
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    last_seen_at = models.DateTimeField(
        null=True, blank=True, help_text="The last request that named this player."
    )

    def __str__(self) -> str:
        return self.display_name

    def save(self, *args: Any, **kwargs: Any) -> None:
        # The key always follows the name, however the row is saved.
        self.name_key = names.name_key(self.display_name)
        fields = kwargs.get("update_fields")
        if fields is not None and "display_name" in fields:
            kwargs["update_fields"] = {*fields, "name_key"}
        super().save(*args, **kwargs)


class PlayerToken(models.Model):
    """What a player cookie holds: a random token, stored hashed, that the server can revoke
    (logging out revokes it; linking a guest to an account revokes the guest's)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="tokens")
    key_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"token of {self.player} ({'revoked' if self.revoked_at else 'active'})"

    @staticmethod
    def hash(raw: str) -> str:
        """What is stored of a raw token."""
        return hashlib.sha256(raw.encode()).hexdigest()


#: The ids a primary key column can hold (64-bit).
BIGINT_MIN, BIGINT_MAX = -(2**63), 2**63 - 1


class AttemptQuerySet(models.QuerySet):
    def shown(self, pk: int) -> Attempt | None:
        """The attempt `pk` with its daily and the daily's deal, as a state is shown from it
        (None: no such attempt): `_SHOWN_READ`, its SQL built once."""
        if not BIGINT_MIN <= pk <= BIGINT_MAX:
            return None
        return _SHOWN_READ.first(int(pk), using=self.db)

    def on_board(self) -> AttemptQuerySet:
        """The attempts a daily's board counts (`ON_BOARD`)."""
        return self.filter(ON_BOARD)

    def held(self) -> AttemptQuerySet:
        """Finished ranked results held for an admin's review (games/fairplay.py)."""
        return self.filter(review=Attempt.Review.HELD, disqualified=False)

    def wins(self) -> AttemptQuerySet:
        """Verified wins (`WIN`; combine with `on_board` for the ranked ones)."""
        return self.filter(WIN)

    def started(self) -> AttemptQuerySet:
        """Attempts with at least one move: what "players" counts (opening a deal is not
        playing it)."""
        return self.filter(move_count__gt=0)


class Attempt(models.Model):
    """One player's play of one deal: a ranked daily, or practice.

    Only a win or a resignation ends an attempt. A position with no card move left does not:
    the player may still undo (it counts as a move) or resign.
    """

    class Status(models.TextChoices):
        PLAYING = "playing"
        WON = "won"
        RESIGNED = "resigned"

    class Review(models.TextChoices):
        NONE = "", "not held"
        HELD = "held", "held for review"
        APPROVED = "approved", "approved after review"

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="attempts")
    game = models.CharField(max_length=16, choices=GameName.choices)
    daily = models.ForeignKey(
        DailyChallenge, null=True, blank=True, on_delete=models.PROTECT, related_name="attempts"
    )
    seed = models.CharField(max_length=20, null=True, blank=True, validators=[seed_validator])
    deal_string = models.CharField(max_length=DEAL_LENGTH, help_text="The deal played, as dealt.")
    ranked = models.BooleanField(default=False)

    moves = models.JSONField(
        default=list, blank=True, help_text="The history: move tokens (docs/rules.md)."
    )
    move_times = models.JSONField(
        default=list,
        blank=True,
        help_text="Per move, the server's milliseconds since the start (replay ignores them).",
    )
    counted_ms = models.PositiveBigIntegerField(
        null=True,
        blank=True,
        help_text="The clock up to the last move: the sum of the gaps between moves (the first "
        "from the start), each counted up to Attempt.MAX_PAUSE_MS (empty: no move yet).",
    )
    undo_count = models.PositiveIntegerField(
        null=True, blank=True, help_text="How many of the moves are undos (empty: no move yet)."
    )
    next_seq = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    started_at = models.DateTimeField()
    first_move_at = models.DateTimeField(null=True, blank=True)
    last_move_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    move_count = models.PositiveIntegerField(default=0)
    foundation_cards = models.PositiveSmallIntegerField(default=0)

    verified = models.BooleanField(default=False)
    verified_at = models.DateTimeField(null=True, blank=True)
    disqualified = models.BooleanField(default=False)
    disqualified_reason = models.TextField(blank=True)
    disqualified_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="disqualified_attempts",
    )
    disqualified_at = models.DateTimeField(null=True, blank=True)
    review = models.CharField(max_length=10, choices=Review.choices, default="", blank=True)
    held_reasons = models.JSONField(
        default=list,
        blank=True,
        help_text="The fair-play checks the result tripped: [{rule, detail}] (games/fairplay.py).",
    )
    perfection = models.JSONField(
        null=True,
        blank=True,
        help_text="How closely a ranked win followed shortest play, by the solver's distance "
        "after each move (fairplay.perfection); measured off the request path for wins that "
        "would enter their day's top 100, empty before.",
    )
    device = models.CharField(
        max_length=64,
        blank=True,
        help_text="The hash of the device cookie of the browser that started it (one ranked "
        "attempt per daily per device); empty when unknown.",
    )
    client_address = models.GenericIPAddressField(
        null=True, blank=True, help_text="The address it was started from, as the app trusts it."
    )
    client_network = models.CharField(
        max_length=64, blank=True, help_text="That address's /24 (IPv4) or /64 (IPv6) network."
    )
    # Added in place (ALTER TABLE ... ADD COLUMN with a database default, migration 0019), as
    # `hints` below.
    client_network56 = models.CharField(
        max_length=64,
        blank=True,
        default="",
        help_text="An IPv6 address's /56: what a provider gives one customer, whose router hands "
        "out /64s from it (infra/addresses.py); empty for IPv4.",
    )
    # Added in place (ALTER TABLE ... ADD COLUMN with a database default, migration 0011): a
    # rebuild of the table on SQLite would break the triggers that name it.
    hints = models.PositiveIntegerField(
        default=0, help_text="Hints given (games/services/hints.py): practice only."
    )
    continued_from = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="continuations",
        help_text="The ranked attempt whose day ended while it was played, that this practice "
        "goes on from (its moves copied).",
    )

    objects = AttemptQuerySet.as_manager()

    class Meta:
        ordering = ["-started_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["player", "daily"],
                condition=Q(ranked=True),
                name="attempt_one_ranked_per_player_and_daily",
            ),
            models.UniqueConstraint(
                fields=["device", "daily"],
                condition=Q(ranked=True) & ~Q(device=""),
                name="attempt_one_ranked_per_device_and_daily",
            ),
            models.CheckConstraint(
                condition=~Q(ranked=True) | Q(daily__isnull=False),
                name="attempt_ranked_only_on_a_daily",
            ),
            models.CheckConstraint(
                condition=Q(move_count=models.F("next_seq")), name="attempt_seq_counts_moves"
            ),
        ]
        indexes = [
            models.Index(fields=["daily", "ranked", "status"]),
            models.Index(fields=["player", "status"]),
            # The ranked attempts of a daily from one network, counted at each ranked start
            # (games/services/attempts.py).
            models.Index(
                fields=["daily", "client_network"],
                condition=Q(ranked=True),
                name="attempt_ranked_by_network",
            ),
            # The same from one IPv6 /56.
            models.Index(
                fields=["daily", "client_network56"],
                condition=Q(ranked=True),
                name="attempt_ranked_by_network56",
            ),
        ]

    def __str__(self) -> str:
        what = str(self.daily) if self.daily_id else f"practice {self.game}"
        return f"{self.player} — {what} ({self.status})"

    @property
    def is_finished(self) -> bool:
        return self.status != self.Status.PLAYING

    @property
    def review_told(self) -> str:
        """The fair-play review as its player is told it (docs/fair-play.md): nothing while
        the game is played (a hold of an unfinished game is provisional, and a bot must not
        use it as an oracle), nor once disqualified (the reason says it all); else `review`."""
        if self.disqualified or self.status == self.Status.PLAYING:
            return ""
        return str(self.review)

    #: What play changes of an attempt (a move, a finish, a resignation: the history and what
    #: it counts, the end and its verdict, a fair-play hold): what `store` writes.
    PLAY_FIELDS = (
        "moves",
        "move_times",
        "counted_ms",
        "undo_count",
        "next_seq",
        "move_count",
        "first_move_at",
        "last_move_at",
        "foundation_cards",
        "status",
        "finished_at",
        "verified",
        "verified_at",
        "review",
        "held_reasons",
    )

    def store(self, guard: dict[str, Any]) -> bool:
        """Write this attempt's `PLAY_FIELDS`, as `save(update_fields=...)` does, in one
        statement, only where the row still holds `guard` (`guard()` taken before the attempt
        changed): a finish or a resignation ends with it. False, and nothing written, when
        another tab, a request or an admin changed the attempt first (`_PLAY_WRITE`)."""
        return _PLAY_WRITE.save(self, guard=guard)

    #: What a move's write expects the row still to hold, as the move's position was read: the
    #: history's length, and what anything else that writes an attempt changes (an end, an
    #: admin's review or disqualification).
    GUARD_FIELDS = ("next_seq", "status", "review", "disqualified")

    def guard(self) -> dict[str, Any]:
        """This attempt's `GUARD_FIELDS` as they stand now: taken before a move changes them."""
        return {name: getattr(self, name) for name in self.GUARD_FIELDS}

    def store_move(self, guard: dict[str, Any]) -> bool:
        """Append this attempt's last move (and its time) to its row and write its other
        `PLAY_FIELDS`, in one statement, only where the row still holds `guard` (`guard()`
        taken before the move was made): False, and nothing written, when another tab, a
        request or an admin changed it first. No lock is taken: the statement is the check, so
        a move costs one round trip to the database (`_MOVE_APPEND`, its SQL built once)."""
        return _MOVE_APPEND.save(self, guard=guard)

    @property
    def is_on_board(self) -> bool:
        """`ON_BOARD` read from this attempt as loaded (no query)."""
        return q_holds(ON_BOARD, self)

    #: The longest pause the clock counts: a gap between two moves (or between the deal shown
    #: and the first move, or the last move and a resignation) counts up to this long, so time
    #: away from the game (a closed browser, a phone call) never adds more than this.
    MAX_PAUSE_MS = 60_000

    def play_seconds(self, now: dt.datetime | None = None) -> float:
        """The server-measured time that ranks a result: the gaps from the deal shown
        (`started_at`) to each move, move to move, and from the last move to the finish (or to
        `now` while playing), each counted up to `MAX_PAUSE_MS`."""
        return round(self.counted_until(self.finished_at or now or clock.now()) / 1000, 3)

    def counted_until(self, end: dt.datetime) -> int:
        """`play_seconds` in milliseconds, to the instant `end`."""
        counted = self.counted_ms
        if counted is None:
            counted = counted_ms(self.move_times) if self.move_count else 0
        return counted + min(self.MAX_PAUSE_MS, self._pause_ms(end))

    def _pause_ms(self, end: dt.datetime) -> int:
        """Milliseconds from the last move (from the deal shown before one) to `end`."""
        last = self.last_move_at if self.move_count and self.last_move_at else self.started_at
        return max(0, (end - last) // dt.timedelta(milliseconds=1))

    def clock_left_seconds(self, now: dt.datetime | None = None) -> float:
        """How much longer the clock runs from `now` without a move (0 once the pause is capped,
        or the attempt is over)."""
        if self.is_finished:
            return 0.0
        pause = self._pause_ms(now or clock.now())
        return round(max(0, self.MAX_PAUSE_MS - pause) / 1000, 3)

    @property
    def undos(self) -> int:
        """How many of the moves are undos."""
        return self.undo_count if self.undo_count is not None else self.moves.count("U")

    def day_over(self, now: dt.datetime | None = None) -> bool:
        """A ranked attempt still being played after its daily's ranked play ended: it moves
        no more (its board row stays as it was); the player may go on from the same position
        in practice (`services.attempt_continue_as_practice`)."""
        if not self.ranked or self.is_finished or self.daily is None:
            return False
        return not self.daily.ranked_play_open(now)

    def hints_open(self, now: dt.datetime | None = None) -> bool:
        """Whether hints may be given (services.attempt_hint): an unfinished practice attempt,
        on a random deal or on a daily whose ranked play is over (`ranked_until`). Never a
        ranked attempt, nor practice on a daily still played for rank."""
        if self.ranked or self.is_finished:
            return False
        return self.daily is None or not self.daily.ranked_play_open(now)

    def analysis_opens_at(self, now: dt.datetime | None = None) -> dt.datetime | None:
        """When the move-by-move analysis of this attempt opens, if its daily is still played
        for rank (`ranked_until`); None when no day holds it back. The solver knows every card
        (Munger's face-down ones too), so nothing of a running daily is analysed, practice on
        it included."""
        if self.daily is not None and self.daily.ranked_play_open(now):
            return self.daily.ranked_until
        return None

    def analysis_open(self, now: dt.datetime | None = None) -> bool:
        """Whether the analysis may be asked for (`services.analysis_check`, which also asks
        the refusals of other apps: a race on the deal that still runs): a finished game, or a
        ranked one whose day ended while it was played, once no day holds it back."""
        return (self.is_finished or self.day_over(now)) and self.analysis_opens_at(now) is None

    def analysis_access(self) -> dict[str, Any]:
        """Whether the analysis may be asked for, as the API and the pages say it:
        `{"available", "opens_at"}` (`opens_at`: ISO text, when a daily still played for rank
        lets it open). No query (the daily loaded), no serializer: a state is rendered on every
        move."""
        if not self.is_finished and not self.day_over():
            return {"available": False, "opens_at": None}
        opens = self.analysis_opens_at()
        if opens is None:
            return {"available": True, "opens_at": None}
        return {"available": False, "opens_at": opens.isoformat().replace("+00:00", "Z")}

    def board_seconds(self) -> float:
        """The time a board shows and ranks: `play_seconds` to the finish, or, while the
        attempt is played, to its last move (so that a board does not change while nobody
        moves); 0 before the first move."""
        if self.finished_at is None:
            return self.play_seconds(now=self.last_move_at) if self.move_count else 0.0
        return self.play_seconds()

    def standing(self) -> Standing:
        """What boards read of this attempt as it is now (after a commit: as committed)."""
        return Standing(
            attempt_id=self.pk,
            daily_id=self.daily_id,
            on_board=self.is_on_board,
            won=self.status == self.Status.WON,
            move_count=self.move_count,
            foundation_cards=self.foundation_cards,
            seconds=self.board_seconds(),
            finished_at=self.finished_at,
        )


def counted_ms(move_times: list[int]) -> int:
    """The clock to the last move of `move_times` (each the server's milliseconds since the
    deal was shown): the sum of the gaps, the first from 0, each counted up to
    `Attempt.MAX_PAUSE_MS`.

    >>> counted_ms([5_000, 65_000, 3_600_000])
    125000
    """
    total, previous = 0, 0
    for moment in move_times:
        total += min(Attempt.MAX_PAUSE_MS, max(0, moment - previous))
        previous = moment
    return total


@dataclass(frozen=True)
class Standing:
    """An attempt's place on its board, as plain values: what the play signals carry
    (games/signals.py), so that a listener never holds a model instance of the sender's."""

    attempt_id: int
    daily_id: int | None
    on_board: bool
    won: bool
    move_count: int
    foundation_cards: int
    seconds: float
    finished_at: dt.datetime | None


#: The one statement of what a daily's board counts: ranked, not disqualified, not held for
#: review, with at least one move (opening a deal is not playing it), and either still being
#: played (every move was checked) or finished with a verified result.
#: `AttemptQuerySet.on_board` filters with it; `Attempt.is_on_board` reads it in Python.
ON_BOARD = (
    Q(ranked=True, disqualified=False, move_count__gt=0)
    & ~Q(review=Attempt.Review.HELD)
    & (Q(status=Attempt.Status.PLAYING) | Q(verified=True))
)

#: A verified win. On a board (`ON_BOARD & WIN`): a ranked win, what boards and stats count.
WIN = Q(status=Attempt.Status.WON, verified=True)


def q_through(q: Q, relation: str) -> Q:
    """`q`, a rule stated on attempts, read through `relation` from another model (for a
    filtered aggregate): `Count("attempts", filter=q_through(ON_BOARD & WIN, "attempts"))`."""
    moved = Q()
    moved.connector, moved.negated = q.connector, q.negated
    for child in q.children:
        if isinstance(child, Q):
            moved.children.append(q_through(child, relation))
        else:
            lookup, value = child
            moved.children.append((f"{relation}__{lookup}", value))
    return moved


def q_holds(q: Q, obj: models.Model) -> bool:
    """Whether `obj`, as loaded, meets `q`, read in Python rather than by the database. Only
    exact and `__gt` lookups on the model's own fields, joined by AND and OR and negated (what
    the rules stated as a `Q` here use); anything else is a ValueError rather than a wrong
    answer."""
    if q.connector not in (Q.AND, Q.OR):
        raise ValueError(f"q_holds reads AND and OR only, not {q.connector}")
    results = []
    for child in q.children:
        if isinstance(child, Q):
            results.append(q_holds(child, obj))
            continue
        lookup, value = child
        name, _, kind = lookup.partition("__")
        if kind == "gt":
            results.append(getattr(obj, name) > value)
        elif kind:
            raise ValueError(f"q_holds reads exact and __gt lookups only, not {lookup!r}")
        else:
            results.append(getattr(obj, name) == value)
    held = all(results) if q.connector == Q.AND else any(results)
    return held != q.negated


class HeldAttempt(Attempt):
    """Ranked results held for fair-play review: the admin's review queue (games/admin/review.py)
    is its page. A proxy: no table of its own."""

    class Meta:
        proxy = True
        verbose_name = "held result"
        verbose_name_plural = "held results (fair-play review)"


class ReviewDecision(models.Model):
    """An admin's decision on a held result: approved (ranked) or disqualified (with a reason
    the player sees). Kept as a record, one row per decision."""

    class Decision(models.TextChoices):
        APPROVED = "approved"
        DISQUALIFIED = "disqualified"

    attempt = models.ForeignKey(Attempt, on_delete=models.CASCADE, related_name="decisions")
    decision = models.CharField(max_length=12, choices=Decision.choices)
    reason = models.TextField(blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    decided_at = models.DateTimeField()

    class Meta:
        ordering = ["-decided_at"]

    def __str__(self) -> str:
        return f"{self.attempt}: {self.decision}"


class Analysis(models.Model):
    """The move-by-move analysis of an attempt (`services.attempt_analysis`): asked for by its
    player once the game may be analysed, worked out once in the background by the solver
    (`games.engine.solver.analysis`) and kept: a second request answers from this row. `report`
    holds what the page draws (`selectors.analysis_report`); `seconds` the solver's time."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    attempt = models.OneToOneField(Attempt, on_delete=models.CASCADE, related_name="analysis")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    requested_at = models.DateTimeField()
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    moves = models.PositiveIntegerField(
        help_text="The attempt's moves when it was analysed (a game continued later is analysed "
        "again)."
    )
    report = models.JSONField(null=True, blank=True)
    seconds = models.FloatField(null=True, blank=True, help_text="The solver's seconds.")

    class Meta:
        verbose_name_plural = "analyses"

    def __str__(self) -> str:
        return f"analysis of {self.attempt_id}: {self.status}"


#: The read of every state shown and of every move not kept by a socket (no lock: a move's
#: write is guarded).
_SHOWN_READ: PreparedRead[Attempt] = PreparedRead(
    lambda pk: Attempt.objects.select_related("daily__deal").filter(pk=pk), slots=(-4244,)
)

#: The write of a move: the history appended to, the rest of the play fields written, where
#: the row is still as the move found it (`Attempt.store_move`).
_APPENDED = ("moves", "move_times")
_MOVE_APPEND: PreparedUpdate[Attempt] = PreparedUpdate(
    Attempt,
    append=_APPENDED,
    fields=tuple(f for f in Attempt.PLAY_FIELDS if f not in _APPENDED),
    guard=Attempt.GUARD_FIELDS,
)

#: The write of a finish or a resignation: the attempt's fields that play changes, where the
#: row is still as the end found it (`Attempt.store`).
_PLAY_WRITE: PreparedUpdate[Attempt] = PreparedUpdate(
    Attempt, fields=Attempt.PLAY_FIELDS, guard=Attempt.GUARD_FIELDS
)


class DifficultyCuts(models.Model):
    """Cut points between difficulty levels 1..5 of the solver's score, refitted from days
    players confirmed (`manage.py refit_difficulty --apply`, games/difficulty.py). The newest
    row of a game is in force; without one, the solver's own (`DIFFICULTY_CUTS` on the game's
    solver rules class)."""

    game = models.CharField(max_length=16, choices=GameName.choices)
    cuts = models.JSONField(help_text="Four increasing scores: at or above the k-th, level k+1.")
    days = models.PositiveIntegerField(help_text="Observed days the fit used.")
    method = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "-created_at", "-id"]
        verbose_name_plural = "difficulty cuts"

    def __str__(self) -> str:
        return f"{self.get_game_display()} cuts {self.cuts} ({self.days} days)"
