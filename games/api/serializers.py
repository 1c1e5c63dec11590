"""Input serializers (parse and validate request bodies) and output serializers (render what
services and selectors answer) of the games API.

Input is strict: unknown fields are refused, numbers must be JSON numbers and strings JSON
strings, so a client's mistake is a clear 400 instead of a silent guess.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from django.contrib.auth import password_validation
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games import clock
from games.errors import Malformed
from games.models import SEED_MAX, Attempt, GameName
from games.services import MOVE_TOKEN_MAX, PlayAnswer

# -- strict input ----------------------------------------------------------------------------


class StrictIntegerField(serializers.IntegerField):
    """A JSON integer: `"3"`, `3.0` and `true` are refused."""

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictCharField(serializers.CharField):
    """A JSON string, taken as it is (no trimming): numbers are refused."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("trim_whitespace", False)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictSerializer(serializers.Serializer):
    """Refuses fields it does not know."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError(
                    {_printable(name): ["This field is not expected."] for name in unknown[:10]}
                )
        return super().to_internal_value(data)

    @classmethod
    def parse(cls, data: Any) -> dict[str, Any]:
        """The validated body, or a ValidationError (400 "invalid")."""
        serializer = cls(data=data)
        serializer.is_valid(raise_exception=True)
        return dict(serializer.validated_data)


def _printable(name: str) -> str:
    """A client's field name, short and encodable (JSON may carry lone surrogates)."""
    return name[:40].encode("utf-8", "replace").decode("utf-8")


DATE_FORMAT = re.compile(r"\d{4}-\d{2}-\d{2}")


def parse_date(text: str) -> dt.date:
    """A `YYYY-MM-DD` date from a URL, or 400 `bad_date`."""
    try:
        if DATE_FORMAT.fullmatch(text):
            return dt.date.fromisoformat(text)
    except ValueError:
        pass
    raise Malformed(f"{text[:20]!r} is not a date: use YYYY-MM-DD.", code="bad_date")


class MoveInputSerializer(StrictSerializer):
    seq = StrictIntegerField(
        min_value=0, help_text="The move's index in the history: the `seq` of the last state."
    )
    move = StrictCharField(
        max_length=MOVE_TOKEN_MAX, help_text="One move in RULES.md notation, e.g. T3>T5, R>F, U."
    )


class PracticeInputSerializer(StrictSerializer):
    game = serializers.ChoiceField(choices=GameName.choices)
    seed = StrictIntegerField(
        min_value=0, max_value=SEED_MAX, required=False,
        help_text="The deal's seed (docs/deals.md); a random one when left out.",
    )  # fmt: skip


class PlayerUpdateSerializer(StrictSerializer):
    display_name = StrictCharField(
        max_length=64, help_text="2 to 24 letters, digits, spaces and . ' - _; unique."
    )


class LoginInputSerializer(StrictSerializer):
    username = StrictCharField(max_length=150)
    password = StrictCharField(max_length=256, style={"input_type": "password"})


class RegisterInputSerializer(LoginInputSerializer):
    username = StrictCharField(max_length=150, validators=[UnicodeUsernameValidator()])

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        from django.contrib.auth import get_user_model

        user = get_user_model()(username=attrs["username"])
        try:
            password_validation.validate_password(attrs["password"], user=user)
        except DjangoValidationError as exc:
            raise serializers.ValidationError({"password": list(exc.messages)}) from None
        return attrs


# -- output ----------------------------------------------------------------------------------


def _par(attempt: Attempt) -> int | None:
    """A daily's par, once the attempt is over or the day is (never for a random practice)."""
    daily = attempt.challenge
    if daily is None or not (attempt.is_finished or daily.date < clock.today()):
        return None
    return daily.deal.par


def _elapsed(attempt: Attempt) -> float:
    """Seconds from the deal first shown to the finish (or now), by the server's clock."""
    end = attempt.finished_at or clock.now()
    return round(max(0.0, (end - attempt.started_at).total_seconds()), 3)


class AttemptSummarySerializer(serializers.Serializer):
    """One attempt in a list: its result, without the position."""

    id = serializers.IntegerField()
    game = serializers.CharField()
    date = serializers.SerializerMethodField(help_text="The daily's date; null for a random seed.")
    ranked = serializers.BooleanField()
    status = serializers.ChoiceField(choices=Attempt.Status.choices)
    moves_played = serializers.IntegerField(source="move_count")
    foundation_cards = serializers.IntegerField()
    started_at = serializers.DateTimeField()
    first_move_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    elapsed_seconds = serializers.SerializerMethodField()
    verified = serializers.BooleanField()

    @extend_schema_field(serializers.DateField(allow_null=True))
    def get_date(self, attempt: Attempt) -> dt.date | None:
        return attempt.challenge.date if attempt.challenge_id else None

    @extend_schema_field(OpenApiTypes.DOUBLE)
    def get_elapsed_seconds(self, attempt: Attempt) -> float:
        return _elapsed(attempt)


@extend_schema_field(OpenApiTypes.OBJECT)
class PlayerViewField(serializers.DictField):
    """The position as the player may see it (the engine's player view)."""


class AttemptStateSerializer(serializers.Serializer):
    """An attempt as the player's screen needs it: the position, the legal moves, the counts."""

    id = serializers.IntegerField(source="attempt.id")
    game = serializers.CharField(source="attempt.game")
    date = serializers.SerializerMethodField(help_text="The daily's date; null for a random seed.")
    ranked = serializers.BooleanField(source="attempt.ranked")
    status = serializers.ChoiceField(source="attempt.status", choices=Attempt.Status.choices)
    seq = serializers.IntegerField(
        source="attempt.next_seq", help_text="The seq the next move must carry."
    )
    moves_played = serializers.IntegerField(
        source="attempt.move_count", help_text="Moves made, undos included."
    )
    foundation_cards = serializers.IntegerField(source="attempt.foundation_cards")
    can_undo = serializers.BooleanField()
    legal = serializers.SerializerMethodField(
        help_text="The moves allowed now, sorted (U, undo, is never listed)."
    )
    view = PlayerViewField(
        help_text=(
            "The position as the player sees it. Munger's face-down cards and stock appear as "
            "backs and counts only: their codes are never sent before they are turned up."
        )
    )
    started_at = serializers.DateTimeField(source="attempt.started_at")
    first_move_at = serializers.DateTimeField(source="attempt.first_move_at", allow_null=True)
    finished_at = serializers.DateTimeField(source="attempt.finished_at", allow_null=True)
    elapsed_seconds = serializers.SerializerMethodField(
        help_text="Server-measured seconds from the start to the finish (or now)."
    )
    verified = serializers.BooleanField(
        source="attempt.verified", help_text="The finished result replayed from the deal."
    )
    par = serializers.SerializerMethodField(
        help_text="The solver's move count, once the attempt or the day is over; else null."
    )

    @extend_schema_field(serializers.DateField(allow_null=True))
    def get_date(self, answer: PlayAnswer) -> dt.date | None:
        return answer.attempt.challenge.date if answer.attempt.challenge_id else None

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_legal(self, answer: PlayAnswer) -> list[str]:
        return sorted(answer.legal)

    @extend_schema_field(OpenApiTypes.DOUBLE)
    def get_elapsed_seconds(self, answer: PlayAnswer) -> float:
        return _elapsed(answer.attempt)

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_par(self, answer: PlayAnswer) -> int | None:
        return _par(answer.attempt)


class MoveAnswerSerializer(AttemptStateSerializer):
    revealed = serializers.ListField(
        child=serializers.CharField(), help_text="The cards this move turned face up."
    )
    replayed = serializers.BooleanField(
        help_text="True when this seq had been played before: the answer is the one first given "
        "(view, legal, revealed after that move) and nothing was stored."
    )


class YourAttemptSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Attempt.Status.choices)
    ranked = serializers.BooleanField()


class DailySerializer(serializers.Serializer):
    game = serializers.ChoiceField(choices=GameName.choices)
    date = serializers.DateField()
    difficulty = serializers.IntegerField(allow_null=True, help_text="1 (easy) to 5 (hard).")
    players = serializers.IntegerField(help_text="Ranked attempts so far.")
    winners = serializers.IntegerField(help_text="Verified wins so far.")
    par = serializers.IntegerField(
        allow_null=True, help_text="The solver's move count, once you finished or the day is over."
    )
    your_attempt = YourAttemptSerializer(
        allow_null=True, help_text="Your ranked attempt (else your latest practice), if any."
    )


class PlayerStatsSerializer(serializers.Serializer):
    dailies_played = serializers.IntegerField()
    dailies_won = serializers.IntegerField()


class PlayerSerializer(serializers.Serializer):
    display_name = serializers.CharField()
    username = serializers.CharField(
        allow_null=True, help_text="The linked account's username; null for a guest."
    )
    stats = PlayerStatsSerializer()
    recent_attempts = AttemptSummarySerializer(many=True)


class ErrorSerializer(serializers.Serializer):
    """Every error: a stable code and a sentence; some codes add the fields below."""

    code = serializers.CharField(help_text="Stable, e.g. wrong_seq, illegal_move, throttled.")
    detail = serializers.CharField(help_text="What went wrong, for people.")
    expected_seq = serializers.IntegerField(
        required=False, help_text="wrong_seq, seq_taken, attempt_finished: the seq expected."
    )
    legal = serializers.ListField(
        child=serializers.CharField(), required=False,
        help_text="illegal_move: the moves allowed now.",
    )  # fmt: skip
    retry_after = serializers.IntegerField(
        required=False, help_text="throttled: seconds to wait (also the Retry-After header)."
    )
    fields = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()), required=False,
        help_text="invalid: the messages per field of the body.",
    )  # fmt: skip
