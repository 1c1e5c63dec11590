"""Input serializers (parse and validate request bodies) and output serializers (render what
services and selectors answer) of the games API.

Input is strict: unknown fields are refused, numbers must be JSON numbers and strings JSON
strings, so a client's mistake is a clear 400 instead of a silent guess.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from django.contrib.auth import password_validation
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import fields as drf_fields
from rest_framework import serializers

from games import selectors
from games.engine import GAMES
from games.models import DISPLAY_NAME_MAX, DISPLAY_NAME_MIN, SEED_MAX, Attempt, GameName
from games.services import MOVE_TOKEN_MAX, MOVE_TOKEN_MIN, hints
from games.state import AttemptState

# -- strict input ----------------------------------------------------------------------------

#: Django's MinimumLengthValidator's default (config/settings.py AUTH_PASSWORD_VALIDATORS).
PASSWORD_MIN_LENGTH = 8


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
        """The validated body, or a ValidationError (400 "invalid"), as `is_valid` gives them.
        One bound instance of each class validates every body (validation keeps nothing on
        it): binding a serializer's fields, a deep copy of the declared ones, cost more than
        validating a move's two."""
        validator = cls.__dict__.get("_validator")
        if validator is None:
            validator = cls()
            validator.fields  # noqa: B018  (bound once, before any thread shares it)
            cls._validator = validator
        return dict(validator.run_validation(data))


def _printable(name: str) -> str:
    """A client's field name, short and encodable (JSON may carry lone surrogates)."""
    return name[:40].encode("utf-8", "replace").decode("utf-8")


def _move_pattern() -> str:
    """The tokens of every game (`U`, or a source and a destination pile of one game), as the
    schema's pattern; which of them a given attempt's game knows, and which are legal now, only
    the server can say (400 `malformed_move`, 422 `illegal_move`)."""
    alternatives = ["U"]
    for game in GAMES.values():
        sources = "|".join(sorted(game.SOURCES, key=lambda pile: (-len(pile), pile)))
        destinations = "|".join(sorted(game.DESTINATIONS, key=lambda pile: (-len(pile), pile)))
        alternatives.append(f"(?:{sources})>(?:{destinations})")
    return "^(?:" + "|".join(alternatives) + ")$"


@extend_schema_field(
    {
        "type": "string",
        "minLength": MOVE_TOKEN_MIN,
        "maxLength": MOVE_TOKEN_MAX,
        "pattern": _move_pattern(),
    }
)
class MoveTokenField(StrictCharField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(min_length=MOVE_TOKEN_MIN, max_length=MOVE_TOKEN_MAX, **kwargs)


class MoveInputSerializer(StrictSerializer):
    seq = StrictIntegerField(
        min_value=0, help_text="The move's index in the history: the `seq` of the last state."
    )
    move = MoveTokenField(
        help_text="One move token (docs/rules.md, move notation), e.g. T3>T5, R>F, U.",
    )


class FinishInputSerializer(StrictSerializer):
    seq = StrictIntegerField(
        min_value=0, help_text="The `seq` of the last state: the finish starts there."
    )


@extend_schema_field({"type": "integer", "minimum": 0, "maximum": SEED_MAX})
class SeedField(StrictIntegerField):
    """A deal's seed, 0 to 2**64 - 1: an unsigned 64-bit number, which OpenAPI's `int64`
    format (signed) cannot say, so the schema gives the bounds alone."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(min_value=0, max_value=SEED_MAX, **kwargs)


class PracticeInputSerializer(StrictSerializer):
    game = serializers.ChoiceField(choices=GameName.choices)
    seed = SeedField(
        required=False,
        help_text="The deal's seed (docs/deals.md); a random one when left out.",
    )


DISPLAY_NAME_HELP = (
    "2 to 24 letters (of one alphabet), digits, spaces and . ' - _; unique: a name that looks "
    "like a taken one is taken too."
)


class PlayerUpdateSerializer(StrictSerializer):
    # The length as sent (400 `invalid`, as the schema says); the rules of names, the length
    # once spaces are collapsed included, are the service's (400 `bad_display_name`).
    display_name = StrictCharField(
        min_length=DISPLAY_NAME_MIN, max_length=DISPLAY_NAME_MAX, help_text=DISPLAY_NAME_HELP
    )


class PlayerCreateSerializer(StrictSerializer):
    display_name = StrictCharField(
        min_length=DISPLAY_NAME_MIN,
        max_length=DISPLAY_NAME_MAX,
        required=False,
        help_text=DISPLAY_NAME_HELP + " Left out: a generated guest name.",
    )


class LoginInputSerializer(StrictSerializer):
    # min_length: a blank string is refused, and the schema says so.
    username = StrictCharField(min_length=1, max_length=150)
    password = StrictCharField(min_length=1, max_length=256, style={"input_type": "password"})


class RegisterInputSerializer(LoginInputSerializer):
    username = StrictCharField(
        min_length=1, max_length=150, validators=[UnicodeUsernameValidator()]
    )
    password = StrictCharField(
        min_length=PASSWORD_MIN_LENGTH,
        max_length=256,
        style={"input_type": "password"},
        help_text=f"At least {PASSWORD_MIN_LENGTH} characters, not all digits, not a common "
        "password, not like the username.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        from django.contrib.auth import get_user_model

        user = get_user_model()(username=attrs["username"])
        try:
            password_validation.validate_password(attrs["password"], user=user)
        except DjangoValidationError as exc:
            raise serializers.ValidationError({"password": list(exc.messages)}) from None
        return attrs


# -- output ----------------------------------------------------------------------------------


REVIEW_HELP = (
    'Fair play (docs/fair-play.md): "held" while an admin reviews this finished ranked result '
    '(it is off the board until then; show "under review"), "approved" once ranked after a '
    'review, else "". Always "" while the game is played (a hold is told only at its end) and '
    "for a disqualified result."
)
DISQUALIFIED_HELP = 'Why an admin disqualified this result; "" unless disqualified.'
HINTS_HELP = "Hints given to this attempt (practice only: POST .../hint/)."


def review_shown(attempt: Attempt) -> str:
    """The review state the player is told (`Attempt.review_told`)."""
    return attempt.review_told


class AnalysisAccessSerializer(serializers.Serializer):
    """Whether the move-by-move analysis of an attempt may be asked for."""

    available = serializers.BooleanField(
        help_text="POST .../analysis/ may be asked now: a finished game (or a ranked one whose "
        "day ended while it was played) of no daily still played for rank. A race still "
        "running on the deal is refused when asked (409 `analysis_race`)."
    )
    opens_at = serializers.DateTimeField(
        allow_null=True,
        help_text="When a daily still played for rank lets its analysis open; else null.",
    )


class AttemptSummarySerializer(serializers.Serializer):
    """One attempt in a list: its result, without the position."""

    id = serializers.IntegerField()
    game = serializers.CharField()
    date = serializers.SerializerMethodField(help_text="The daily's date; null for a random seed.")
    ranked = serializers.BooleanField()
    status = serializers.ChoiceField(choices=Attempt.Status.choices)
    moves_played = serializers.IntegerField(source="move_count")
    undos = serializers.IntegerField(help_text="How many of the moves were undos.")
    foundation_cards = serializers.IntegerField()
    started_at = serializers.DateTimeField()
    first_move_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    elapsed_seconds = serializers.SerializerMethodField()
    verified = serializers.BooleanField()
    review = serializers.SerializerMethodField(help_text=REVIEW_HELP)
    disqualified_reason = serializers.SerializerMethodField(help_text=DISQUALIFIED_HELP)
    hints = serializers.IntegerField(help_text=HINTS_HELP)
    analysis = serializers.SerializerMethodField(help_text="Its move-by-move analysis.")

    @extend_schema_field(AnalysisAccessSerializer)
    def get_analysis(self, attempt: Attempt) -> dict[str, Any]:
        return attempt.analysis_access()

    @extend_schema_field(serializers.DateField(allow_null=True))
    def get_date(self, attempt: Attempt) -> dt.date | None:
        return attempt.daily.date if attempt.daily_id else None

    @extend_schema_field(serializers.ChoiceField(choices=Attempt.Review.choices))
    def get_review(self, attempt: Attempt) -> str:
        return review_shown(attempt)

    @extend_schema_field(OpenApiTypes.STR)
    def get_disqualified_reason(self, attempt: Attempt) -> str:
        return attempt.disqualified_reason if attempt.disqualified else ""

    @extend_schema_field(OpenApiTypes.DOUBLE)
    def get_elapsed_seconds(self, attempt: Attempt) -> float:
        return attempt.play_seconds()


@extend_schema_field(OpenApiTypes.OBJECT)
class PlayerViewField(serializers.DictField):
    """The position as the player may see it (the engine's player view)."""


class LegalMoveSerializer(serializers.Serializer):
    move = serializers.CharField(help_text="The token to send.")
    card = serializers.CharField(
        allow_null=True,
        help_text="The face-up card that leads what moves (the lowest card of a run); null for "
        "a stock draw, whose card is hidden.",
    )
    count = serializers.IntegerField(help_text="How many cards move.")


class AttemptStateSerializer(serializers.Serializer):
    """An attempt as the player's screen needs it (`games.state.AttemptState`): the position,
    the legal moves and what each carries, the counts and flags. The play socket sends the
    same."""

    id = serializers.IntegerField(source="attempt.id")
    game = serializers.CharField(source="attempt.game")
    date = serializers.SerializerMethodField(help_text="The daily's date; null for a random seed.")
    ranked = serializers.BooleanField(source="attempt.ranked")
    status = serializers.ChoiceField(
        source="attempt.status",
        choices=Attempt.Status.choices,
        help_text="Only a win or a resignation ends an attempt.",
    )
    seq = serializers.IntegerField(
        source="attempt.next_seq", help_text="The seq the next move must carry."
    )
    version = serializers.IntegerField(
        help_text="Grows with every stored move (equal to seq): what a reconnecting client "
        "reports to learn what it missed."
    )
    moves_played = serializers.IntegerField(
        source="attempt.move_count", help_text="Moves made, undos included."
    )
    undos = serializers.IntegerField(
        source="attempt.undos", help_text="How many of the moves were undos."
    )
    foundation_cards = serializers.IntegerField(source="attempt.foundation_cards")
    can_undo = serializers.BooleanField(help_text="U (undo) is allowed now; it counts as a move.")
    blocked = serializers.BooleanField(
        help_text="No card move is left: the player may undo or resign (the attempt goes on)."
    )
    finishable = serializers.BooleanField(
        help_text="Every card left can go to the foundations by foundation moves alone: "
        "POST .../finish/ plays them (they count as moves)."
    )
    legal = serializers.ListField(
        child=serializers.CharField(),
        help_text="The card moves allowed now, sorted (U, undo, is never listed).",
    )
    moves = LegalMoveSerializer(
        many=True, help_text="The same moves, each with the cards it carries."
    )
    safe_moves = serializers.ListField(
        child=serializers.CharField(),
        help_text="The foundation moves of `legal` that are safe: they never cost a win nor "
        "lengthen the shortest one (the solver's safe foundation moves). A page's auto-move "
        "plays these, one at a time, and nothing else; each counts as a move.",
    )
    last_move = LegalMoveSerializer(
        allow_null=True,
        help_text="The last card move and what it carried (null at the start and just after "
        "an undo): where a screen marks the card that came and the pile it left.",
    )
    view = PlayerViewField(
        help_text=(
            "The position as the player sees it. Munger's face-down cards and stock appear as "
            "backs and counts only: their codes are never sent before they are turned up."
        )
    )
    started_at = serializers.DateTimeField(
        source="attempt.started_at", help_text="When the deal was first shown."
    )
    first_move_at = serializers.DateTimeField(source="attempt.first_move_at", allow_null=True)
    finished_at = serializers.DateTimeField(source="attempt.finished_at", allow_null=True)
    elapsed_seconds = serializers.SerializerMethodField(
        help_text="Server-measured seconds of play to the finish (or now): the time that ranks "
        "a result. It counts each gap, from the deal shown to the first move, between two "
        "moves and from the last move on, up to max_pause_seconds."
    )
    clock_left_seconds = serializers.SerializerMethodField(
        help_text="How much longer the clock runs without a move: 0 once the pause reached "
        "max_pause_seconds, or the attempt is over."
    )
    max_pause_seconds = serializers.SerializerMethodField(
        help_text="The longest pause the clock counts, in seconds."
    )
    verified = serializers.BooleanField(
        source="attempt.verified", help_text="The finished result replayed from the deal."
    )
    par = serializers.SerializerMethodField(
        help_text="The solver's move count, once the attempt or the day is over; else null."
    )
    par_proven = serializers.SerializerMethodField(
        help_text="Whether the solver proved the daily's par the fewest moves any win takes "
        "(it says nothing of the par itself, which stays hidden until the end); null for a "
        "random deal."
    )
    review = serializers.SerializerMethodField(help_text=REVIEW_HELP)
    disqualified_reason = serializers.SerializerMethodField(help_text=DISQUALIFIED_HELP)
    day_over = serializers.BooleanField(
        help_text="A ranked attempt whose day ended while it was played: it takes no more "
        "moves (none are listed) and its result stays as it was; POST .../continue/ goes on "
        "from here in practice."
    )
    hints = serializers.IntegerField(source="attempt.hints", help_text=HINTS_HELP)
    hints_open = serializers.BooleanField(
        help_text="Hints may be asked for now (POST .../hint/): an unfinished practice attempt, "
        "on a random deal or on a daily whose ranked play is over; never a ranked one."
    )
    ranked_until = serializers.SerializerMethodField(
        help_text="When ranked play of this attempt's daily ends (the end of its UTC day and a "
        "short grace); null for practice."
    )
    analysis = serializers.SerializerMethodField(help_text="Its move-by-move analysis.")

    @extend_schema_field(AnalysisAccessSerializer)
    def get_analysis(self, state: AttemptState) -> dict[str, Any]:
        return state.attempt.analysis_access()

    @extend_schema_field(serializers.DateTimeField(allow_null=True))
    def get_ranked_until(self, state: AttemptState) -> str | None:
        attempt = state.attempt
        if not attempt.ranked or attempt.daily is None:
            return None
        return attempt.daily.ranked_until.isoformat().replace("+00:00", "Z")

    @extend_schema_field(serializers.DateField(allow_null=True))
    def get_date(self, state: AttemptState) -> str | None:
        return state.attempt.daily.date.isoformat() if state.attempt.daily_id else None

    @extend_schema_field(serializers.ChoiceField(choices=Attempt.Review.choices))
    def get_review(self, state: AttemptState) -> str:
        return review_shown(state.attempt)

    @extend_schema_field(OpenApiTypes.STR)
    def get_disqualified_reason(self, state: AttemptState) -> str:
        return state.attempt.disqualified_reason if state.attempt.disqualified else ""

    @extend_schema_field(OpenApiTypes.DOUBLE)
    def get_elapsed_seconds(self, state: AttemptState) -> float:
        # A ranked attempt whose day is over keeps its result as it was: its clock stopped at
        # its last move.
        if state.day_over:
            return state.attempt.board_seconds()
        return state.attempt.play_seconds()

    @extend_schema_field(OpenApiTypes.DOUBLE)
    def get_clock_left_seconds(self, state: AttemptState) -> float:
        return 0.0 if state.day_over else state.attempt.clock_left_seconds()

    @extend_schema_field(OpenApiTypes.INT)
    def get_max_pause_seconds(self, state: AttemptState) -> int:
        return Attempt.MAX_PAUSE_MS // 1000

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_par(self, state: AttemptState) -> int | None:
        return selectors.attempt_par(attempt=state.attempt)

    @extend_schema_field(serializers.BooleanField(allow_null=True))
    def get_par_proven(self, state: AttemptState) -> bool | None:
        daily = state.attempt.daily
        return bool(daily.deal.par_optimal) if daily is not None else None


class MoveAnswerSerializer(AttemptStateSerializer):
    revealed = serializers.ListField(
        child=serializers.CharField(), help_text="The cards this move turned face up."
    )
    replayed = serializers.BooleanField(
        help_text="True when this seq had been played before: the answer is the one first given "
        "(view, legal, revealed after that move) and nothing was stored."
    )


Render = Callable[[Any], Any]


class PlannedRepresentation:
    """A read-only serializer's `to_representation`, planned once: for each readable field,
    how its value is found (`source`, through mappings, attributes and simple callables, as DRF
    finds it) and rendered (nested serializers and lists planned in turn, a leaf field by its
    own `to_representation`); a None value is rendered None, as DRF does. The answer equals
    DRF's (tests/games/test_state_rendering.py), without its per-field machinery, which cost
    more than the values for a state rendered on every move (its legal moves a nested
    serializer each)."""

    def __init__(self, serializer: serializers.Serializer) -> None:
        self._plan: list[tuple[str, Render, Render]] = [
            (field.field_name, _finder(field), _renderer(field))
            for field in serializer._readable_fields
        ]

    def __call__(self, instance: Any) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, find, render in self._plan:
            value = find(instance)
            out[name] = None if value is None else render(value)
        return out


def _finder(field: serializers.Field) -> Render:
    if field.source == "*":
        return lambda instance: instance
    attrs = field.source_attrs
    return lambda instance: drf_fields.get_attribute(instance, attrs)


def _renderer(field: serializers.Field) -> Render:
    if isinstance(field, serializers.ListSerializer):
        child = PlannedRepresentation(field.child)
        return lambda items: [child(item) for item in items]
    if isinstance(field, serializers.Serializer):
        return PlannedRepresentation(field)
    if isinstance(field, serializers.ListField):
        item = _renderer(field.child)
        return lambda items: [None if x is None else item(x) for x in items]
    if isinstance(field, serializers.DictField):
        value = _renderer(field.child)
        return lambda d: {str(k): None if v is None else value(v) for k, v in d.items()}
    return field.to_representation


# One bound instance of each state serializer: building a serializer's fields (a deep copy of
# the declared ones) costs more than rendering with them; each planned once, at import.
_STATE_SERIALIZERS = {"state": AttemptStateSerializer(), "answer": MoveAnswerSerializer()}
_STATE_RENDERERS = {kind: PlannedRepresentation(s) for kind, s in _STATE_SERIALIZERS.items()}


def render_state(state: AttemptState, *, answer: bool = False) -> dict[str, Any]:
    """`state` as the API and the play socket send it, as plain JSON values; rendered once per
    state and kind (`answer`: with `revealed` and `replayed`, as a move's answer)."""
    kind = "answer" if answer else "state"
    rendered = state.rendered.get(kind)
    if rendered is None:
        rendered = _STATE_RENDERERS[kind](state)
        state.rendered[kind] = rendered
    return rendered


class HintSerializer(serializers.Serializer):
    """A hint (games/services/hints.py): a move token and the face-up card leading what it
    carries, or an undo count; never a card the player cannot see, nor the position."""

    attempt = serializers.IntegerField(help_text="The attempt's id.")
    seq = serializers.IntegerField(
        help_text="The seq of the position it is for: a state with another seq makes it stale."
    )
    status = serializers.ChoiceField(
        choices=hints.STATUSES,
        help_text="move: play `move` (a win stays within reach); undo: no win from here, undo "
        "`undo` moves and one exists again; won; no_win: not even the deal's start wins; "
        "timeout: no hint found in time (the search has a budget per game).",
    )
    detail = serializers.CharField(help_text="The status in words, for people.")
    move = serializers.CharField(allow_null=True, help_text="move: the token to play.")
    card = serializers.CharField(
        allow_null=True,
        help_text="move: the face-up card leading what it carries (null for a stock draw), as "
        "in the state's `moves`.",
    )
    count = serializers.IntegerField(allow_null=True, help_text="move: how many cards move.")
    undo = serializers.IntegerField(allow_null=True, help_text="undo: how many moves to undo.")
    hints = serializers.IntegerField(help_text="The attempt's hints so far, this one included.")


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
    par_proven = serializers.BooleanField(
        allow_null=True,
        help_text="The par is proven to be the fewest moves any win takes (null while the par "
        "is hidden, or when the exact search has not run).",
    )
    par_lower_bound = serializers.IntegerField(
        allow_null=True,
        help_text="A proven floor: no win takes fewer moves (the par itself once proven); null "
        "while the par is hidden or when unknown.",
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
        child=serializers.CharField(),
        required=False,
        help_text="illegal_move: the moves allowed now.",
    )
    reason = serializers.CharField(
        required=False,
        help_text="illegal_move: why the rules refuse it, a stable code (docs/api.md lists "
        "them); `detail` says it in English.",
    )
    facts = serializers.DictField(
        required=False,
        help_text="illegal_move: the facts of the refusal (cards, places, ranks), for a "
        "sentence in the player's language.",
    )
    retry_after = serializers.IntegerField(
        required=False, help_text="throttled: seconds to wait (also the Retry-After header)."
    )
    fields = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text="invalid: the messages per field of the body.",
    )


# -- the analysis of a game ---------------------------------------------------------------------


class AnalysisMoveSerializer(serializers.Serializer):
    move = serializers.CharField(help_text="The move token.")
    card = serializers.CharField(
        allow_null=True, help_text="The face-up card leading what it carries (null: a draw)."
    )
    count = serializers.IntegerField(help_text="How many cards move.")


class AnalysisPointSerializer(serializers.Serializer):
    index = serializers.IntegerField(help_text="The position after this many moves (0: the deal).")
    status = serializers.ChoiceField(
        choices=["exact", "bounds", "no_win", "won"],
        help_text="exact: `distance` is the fewest moves still needed to win; bounds: the "
        "solver's budget ran out, the fewest lies between `lower` and `upper` (null: no line "
        "found); no_win: no line from here wins; won.",
    )
    distance = serializers.IntegerField(allow_null=True)
    lower = serializers.IntegerField(allow_null=True)
    upper = serializers.IntegerField(allow_null=True)
    best = AnalysisMoveSerializer(
        allow_null=True,
        help_text="The solver's move from here (a shortest line's first when exact, a winning "
        "line's otherwise); null when none or none found within the budget.",
    )


class AnalysisLineSerializer(serializers.Serializer):
    start = PlayerViewField(help_text="The position the line starts from.")
    steps = serializers.ListField(
        child=serializers.DictField(),
        help_text="`{move, card, count, view}` for each move (the position after it).",
    )


class AnalysisStretchSerializer(serializers.Serializer):
    from_ = serializers.IntegerField(help_text="The stretch's first move (1-based).")
    to = serializers.IntegerField(help_text="Its last move (1-based, inclusive).")
    wasted = serializers.IntegerField(help_text="Moves it lost (at least, when not `exact`).")
    exact = serializers.BooleanField()
    better = AnalysisLineSerializer(
        help_text="A shorter way: the solver's shortest line from the position before `from`, "
        "as many moves of it as the stretch took."
    )

    def get_fields(self) -> dict[str, Any]:
        fields = super().get_fields()
        fields["from"] = fields.pop("from_")
        return fields


class AnalysisSerializer(serializers.Serializer):
    """The analysis of a game (docs/api.md, "The analysis of a game"): its status, and once
    done the report (every field but `status` and `detail` is absent before)."""

    status = serializers.ChoiceField(
        choices=["none", "queued", "running", "done", "failed"],
        help_text="none: never asked for (GET only); queued and running: poll GET; done; "
        "failed: POST asks again.",
    )
    detail = serializers.CharField(required=False, help_text="failed: what to do, in words.")
    attempt = serializers.IntegerField(required=False)
    game = serializers.ChoiceField(choices=GameName.choices, required=False)
    date = serializers.DateField(allow_null=True, required=False)
    ranked = serializers.BooleanField(required=False)
    outcome = serializers.ChoiceField(choices=Attempt.Status.choices, required=False)
    par = serializers.IntegerField(allow_null=True, required=False)
    par_proven = serializers.BooleanField(required=False)
    moves = serializers.IntegerField(required=False, help_text="Moves played, undos included.")
    over_par = serializers.IntegerField(allow_null=True, required=False)
    start = PlayerViewField(required=False, help_text="The deal's first view.")
    steps = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        help_text="`{move, card, count, view}` for each move played, as GET "
        "/play/<game>/<date>/solution/ gives the solver's.",
    )
    points = AnalysisPointSerializer(many=True, required=False)
    lost_at = serializers.IntegerField(
        allow_null=True,
        required=False,
        help_text="The move (1-based) after which no win remained; null when one remained to "
        "the end or when the deal itself had none.",
    )
    winning_move = AnalysisMoveSerializer(
        allow_null=True, required=False, help_text="A winning move from the position before it."
    )
    stretches = AnalysisStretchSerializer(
        many=True, required=False, help_text="Up to three, the costliest first."
    )
    settled = serializers.IntegerField(required=False, help_text="Positions settled exactly.")
    bounded = serializers.IntegerField(required=False, help_text="Positions with bounds only.")
    seconds = serializers.FloatField(required=False, help_text="The solver's seconds.")
    budget_seconds = serializers.FloatField(required=False)
    position_seconds = serializers.FloatField(required=False)
    hidden_cards = serializers.BooleanField(
        required=False,
        help_text="Munger: the solver knew every card, face-down ones included (the deal is "
        "no secret any more when an analysis is shown).",
    )
