"""The OpenAPI description of the games API (served at /api/schema/ and /api/docs/): what each
operation of games/api/views.py takes and answers, its documented errors and parameters (the
error answers and path parameters other apps' APIs share are in games/api/base.py).

Each view method carries one of these with `@openapi.NAME`; the words live here so that the
views read as what they do.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema

from games.api.base import (
    DATE,
    E400,
    E400_DATE,
    E403_CHANGE,
    E403_CSRF,
    E404_ATTEMPT,
    E404_DAILY,
    E409_NAME,
    E413,
    E429,
    GAME,
    error_response,
)
from games.api.serializers import (
    AnalysisSerializer,
    AttemptStateSerializer,
    AttemptSummarySerializer,
    DailySerializer,
    FinishInputSerializer,
    HintSerializer,
    LoginInputSerializer,
    MoveAnswerSerializer,
    MoveInputSerializer,
    PlayerCreateSerializer,
    PlayerSerializer,
    PlayerUpdateSerializer,
    PracticeInputSerializer,
    RegisterInputSerializer,
)


def _responses(
    ok: dict[int, Any],
    errors: dict[int, OpenApiResponse | str] | None = None,
    *,
    limited: bool = False,
) -> dict[int, Any]:
    """An operation's documented answers: `ok` as given, then the `errors` in the order of
    their status (a string is the description of an `ErrorSerializer` body), and 413 and 429
    when `limited` (a throttled endpoint that reads a body)."""
    documented = {**(errors or {}), **({413: E413, 429: E429} if limited else {})}
    return {
        **ok,
        **{
            code: error_response(answer) if isinstance(answer, str) else answer
            for code, answer in sorted(documented.items())
        },
    }


def _new_or_resumed(serializer: Any, new: str, resumed: str) -> dict[int, OpenApiResponse]:
    """201 with something created, 200 with what the player had already."""
    return {
        201: OpenApiResponse(serializer, description=new),
        200: OpenApiResponse(serializer, description=resumed),
    }


ATTEMPT_ID = OpenApiParameter("attempt_id", OpenApiTypes.INT, OpenApiParameter.PATH)

COOKIE_NOTE = (
    "The player is the one the `patience_player` cookie names (a guest is created and the "
    "cookie set when there is none)."
)


# -- the operations --------------------------------------------------------------------------

DAILY_LIST_GET = extend_schema(
    operation_id="dailies_today",
    tags=["dailies"],
    summary="Today's dailies",
    description="One per game that has a daily today (UTC). Creates no player.",
    responses={200: DailySerializer(many=True)},
)

DAILY_DETAIL_GET = extend_schema(
    operation_id="daily_get",
    tags=["dailies"],
    summary="One daily",
    description="Today's or a past day's daily; a future one is 404. Creates no player.",
    parameters=[GAME, DATE],
    responses=_responses({200: DailySerializer}, {400: E400_DATE, 404: E404_DAILY}),
)

DAILY_ATTEMPTS_POST = extend_schema(
    operation_id="daily_attempt_start",
    tags=["play"],
    summary="Start or resume your attempt at a daily",
    description=(
        "Today's daily is ranked (one attempt per player: starting again resumes it, from "
        "any device); nothing else shows its cards until its ranked play ends: a browser that "
        "played it as another player (e.g. an account before logging out) is refused it, and "
        "so is a guest past the address's ranked attempts (a player with an account is not). "
        "A past day's is practice, never ranked, once its ranked play is over (a ranked game "
        "begun before midnight resumes during the grace after it). The attempt counts as "
        "started now, when the deal is first shown. No body. The `patience_device` cookie (a "
        "random token, kept across players) names the browser. " + COOKIE_NOTE
    ),
    parameters=[GAME, DATE],
    request=None,
    responses=_responses(
        _new_or_resumed(AttemptStateSerializer, "A new attempt.", "Your attempt, resumed."),
        {
            400: E400_DATE,
            403: E403_CSRF,
            404: E404_DAILY,
            409: "`daily_played_here` (this browser played the daily as another player), "
            "`daily_address_full` (a guest past the address's or network's ranked attempts: "
            "log in to an account), `daily_running` (a past day in the grace after midnight, "
            "without a ranked game of yours); each with `ranked_until`, when it opens for "
            "practice.",
        },
        limited=True,
    ),
)

PRACTICE_POST = extend_schema(
    operation_id="practice_start",
    tags=["play"],
    summary="Practise on any seed",
    description=(
        "Starts (or resumes, while unfinished) a practice attempt on the deal of `seed`, "
        "or of a random seed. Never ranked. Never the deal of a daily still played for the "
        "boards, in either game (the same seed deals the same deck in both). " + COOKIE_NOTE
    ),
    request=PracticeInputSerializer,
    responses=_responses(
        _new_or_resumed(
            AttemptStateSerializer, "A new practice attempt.", "Your practice, resumed."
        ),
        {
            400: E400,
            403: E403_CSRF,
            409: "`daily_running`: the seed deals a daily whose ranked play is open; "
            "`ranked_until` says when it opens for practice.",
        },
        limited=True,
    ),
)

ATTEMPT_DETAIL_GET = extend_schema(
    operation_id="attempt_get",
    tags=["play"],
    summary="Your attempt",
    description="The position, the legal moves, the next seq, the status and times.",
    parameters=[ATTEMPT_ID],
    responses=_responses({200: AttemptStateSerializer}, {404: E404_ATTEMPT}),
)

MOVE_POST = extend_schema(
    operation_id="attempt_move",
    tags=["play"],
    summary="Play a move",
    description=(
        "The REST twin of the play socket. `seq` is the move's index in the history (the "
        "`seq` of the last state). Sending a played seq again with the same move answers as "
        "the first time and stores nothing (`replayed: true`). Guests need no CSRF token; "
        "a logged-in user sends X-CSRFToken."
    ),
    parameters=[ATTEMPT_ID],
    request=MoveInputSerializer,
    responses=_responses(
        {200: MoveAnswerSerializer},
        {
            400: "`malformed` (not JSON), `invalid` (bad fields), `malformed_move` (not a "
            "move token), `malformed_seq`.",
            403: E403_CHANGE,
            404: E404_ATTEMPT,
            409: "`wrong_seq` (not the next seq), `seq_taken` (another move was played at "
            "that seq), `attempt_finished`, `history_full`, `day_over` (a ranked attempt whose "
            "day ended; `continue_as_practice`: POST .../continue/); `expected_seq` says which "
            "is next. `daily_running`: a practice of a daily still played for the boards.",
            422: "`illegal_move`: the rules refuse it; `legal` lists the allowed moves.",
        },
        limited=True,
    ),
)

FINISH_POST = extend_schema(
    operation_id="attempt_finish",
    tags=["play"],
    summary="Finish: send every card left to the foundations",
    description=(
        "Allowed when the state says `finishable`: every card left can go to the "
        "foundations by foundation moves alone. The server plays those moves; each is "
        "stored and counts as a move. `seq` is the state's seq (a stale one is 409)."
    ),
    parameters=[ATTEMPT_ID],
    request=FinishInputSerializer,
    responses=_responses(
        {200: AttemptStateSerializer},
        {
            400: E400,
            403: E403_CHANGE,
            404: E404_ATTEMPT,
            409: "`wrong_seq`, `attempt_finished`, `not_finishable`, `day_over` (a ranked "
            "attempt whose day ended: see `day_over` in the state), `daily_running` (a "
            "practice of a daily still played for the boards), `seq_taken` (the attempt kept "
            "changing from elsewhere meanwhile: send it again).",
        },
        limited=True,
    ),
)

RESIGN_POST = extend_schema(
    operation_id="attempt_resign",
    tags=["play"],
    summary="Give up",
    description="Ends the attempt as resigned (it keeps its cards on foundations). No body.",
    parameters=[ATTEMPT_ID],
    request=None,
    responses=_responses(
        {200: AttemptStateSerializer},
        {
            403: E403_CHANGE,
            404: E404_ATTEMPT,
            409: "`attempt_finished`, `day_over`, `seq_taken` (the attempt kept changing from "
            "elsewhere meanwhile: send it again).",
        },
        limited=True,
    ),
)

HINT_POST = extend_schema(
    operation_id="attempt_hint",
    tags=["play"],
    summary="A hint: the next move of a winning line, or how many moves to undo",
    description=(
        "For practice only: an unfinished attempt that is not ranked, on a random deal or on "
        "a daily whose ranked play is over (`hints_open` in the state). The server searches "
        "from your position with the deal it holds, within a time budget per game, and "
        "answers a move token (with the face-up card it carries, as in the state's `moves`) "
        "or an undo count: never a card you cannot see. A move or an undo adds one to the "
        "attempt's `hints`. Throttled like moves (scope `hints`). No body."
    ),
    parameters=[ATTEMPT_ID],
    request=None,
    responses=_responses(
        {200: HintSerializer},
        {
            403: E403_CHANGE,
            404: E404_ATTEMPT,
            409: "`hints_ranked` (a ranked attempt: no hints), `hints_not_yet` (practice on a "
            "daily still played for rank: hints open when its ranked play ends), "
            "`attempt_finished`.",
        },
        limited=True,
    ),
)

_ANALYSIS_ERRORS: dict[int, OpenApiResponse | str] = {
    404: E404_ATTEMPT,
    409: "`analysis_unfinished` (the game is still played), `analysis_not_yet` (a daily still "
    "played for rank: `opens_at` says when its analysis opens), `analysis_race` (a race on "
    "the deal that you are in still runs).",
}
_ANALYSIS_ANSWERS = {
    200: OpenApiResponse(AnalysisSerializer, description="done, failed, or (GET) none."),
    202: OpenApiResponse(AnalysisSerializer, description="queued or running: poll GET."),
}

ANALYSIS_POST = extend_schema(
    operation_id="attempt_analysis_ask",
    tags=["play"],
    summary="Ask for the move-by-move analysis of your finished game",
    description=(
        "The solver works out, in the background, the fewest moves still needed to win from "
        "every position of the game (or that none wins), its move from each, the move after "
        "which no win remained and the stretches that cost the most moves, each with a shorter "
        "way. Once per game: asking again answers how it stands (a failed one is asked for "
        "again). Never for a daily still played for rank: the solver knows every card, "
        "Munger's face-down ones too. Throttled (scope `analyses`). No body."
    ),
    parameters=[ATTEMPT_ID],
    request=None,
    responses=_responses(_ANALYSIS_ANSWERS, {403: E403_CHANGE, **_ANALYSIS_ERRORS}, limited=True),
)

ANALYSIS_GET = extend_schema(
    operation_id="attempt_analysis",
    tags=["play"],
    summary="The move-by-move analysis of your game, as it stands",
    description="As POST answers, but asks for nothing: `none` when never asked for.",
    parameters=[ATTEMPT_ID],
    responses=_responses(_ANALYSIS_ANSWERS, {**_ANALYSIS_ERRORS, 429: E429}),
)

CONTINUE_POST = extend_schema(
    operation_id="attempt_continue_as_practice",
    tags=["play"],
    summary="Go on in practice after the day ended",
    description=(
        "For a ranked attempt whose daily's day ended while it was played (`day_over` in its "
        "state): a practice attempt of the same daily with the same moves, from which play "
        "goes on (never ranked). The ranked attempt stays as it was on the board. Asking "
        "again answers the same practice while it is unfinished. No body."
    ),
    parameters=[ATTEMPT_ID],
    request=None,
    responses=_responses(
        _new_or_resumed(
            AttemptStateSerializer, "The practice, from where the ranked game stood.", "It again."
        ),
        {403: E403_CHANGE, 404: E404_ATTEMPT, 409: "`not_day_over`."},
        limited=True,
    ),
)

PLAYERS_POST = extend_schema(
    operation_id="player_create",
    tags=["players"],
    summary="Become a player (no sign-up)",
    description=(
        "Creates a guest named `display_name` (or a generated guest name) and sets the "
        "`patience_player` cookie. A browser calls this once, before any parallel request, "
        "so that it is one player. With a player already, answers it (200) and creates "
        "no one."
    ),
    request=PlayerCreateSerializer,
    responses=_responses(
        _new_or_resumed(PlayerSerializer, "A new guest.", "You had a player already."),
        {
            400: "`invalid`, or `bad_display_name`.",
            403: "`bad_origin` or `csrf_failed`.",
            409: E409_NAME,
        },
        limited=True,
    ),
)

ME_GET = extend_schema(
    operation_id="player_me",
    tags=["players"],
    summary="Your player",
    description=(
        "Display name, account, stats and latest attempts. Creates no player: without one, "
        "404 `no_player`."
    ),
    responses=_responses({200: PlayerSerializer}, {404: "`no_player`."}),
)

ME_PATCH = extend_schema(
    operation_id="player_me_update",
    tags=["players"],
    summary="Change your display name",
    description=COOKIE_NOTE,
    request=PlayerUpdateSerializer,
    responses=_responses(
        {200: PlayerSerializer},
        {
            400: "`invalid`, or `bad_display_name` (length, characters, 'Guest ...').",
            403: E403_CSRF,
            409: E409_NAME,
        },
        limited=True,
    ),
)

MY_ATTEMPTS_GET = extend_schema(
    operation_id="player_me_attempts",
    tags=["players"],
    summary="Your attempts",
    description="Newest first, ranked and practice. Creates no player (no cookie: empty).",
    responses=_responses(
        {200: AttemptSummarySerializer(many=True)},
        {400: "`invalid`: `page_size` out of range.", 404: "`not_found`: no such page."},
    ),
)

REGISTER_POST = extend_schema(
    operation_id="account_register",
    tags=["accounts"],
    summary="Create an account",
    description=(
        "Creates the account, logs in (session cookie) and links this browser's player to "
        "it, so its attempts and streaks follow the account to other devices."
    ),
    request=RegisterInputSerializer,
    responses=_responses(
        {201: PlayerSerializer},
        {
            400: "`invalid`: a username or password that does not fit; `bad_username`: "
            "letters of two alphabets, or only letters that look Latin.",
            403: E403_CSRF,
            409: "`username_taken`: taken, or taken in another case.",
        },
        limited=True,
    ),
)

LOGIN_POST = extend_schema(
    operation_id="account_login",
    tags=["accounts"],
    summary="Log in",
    description=(
        "Logs in (session cookie, and a new csrftoken cookie) and switches the player cookie "
        "to the account's player; this browser's guest attempts move to it where they do "
        "not clash."
    ),
    request=LoginInputSerializer,
    responses=_responses(
        {200: PlayerSerializer},
        {
            400: "`invalid`.",
            401: "`bad_credentials`: no account has that username and password.",
            403: E403_CSRF,
        },
        limited=True,
    ),
)

LOGOUT_POST = extend_schema(
    operation_id="account_logout",
    tags=["accounts"],
    summary="Log out",
    description=(
        "Ends the session and forgets the player cookie: the next request is a new guest. "
        "Without a session (a guest), does nothing: the cookie is all that remembers them."
    ),
    request=None,
    responses=_responses({204: None}, {403: E403_CSRF}),
)


# -- what the generator cannot say by itself -------------------------------------------------


def strict_request_bodies(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """A postprocessing hook (settings' SPECTACULAR_SETTINGS): every request body's schema
    says `additionalProperties: false`, as the server refuses fields it does not know
    (`StrictSerializer`)."""
    components = result.get("components", {}).get("schemas", {})
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            body = operation.get("requestBody") if isinstance(operation, dict) else None
            for media in (body or {}).get("content", {}).values():
                ref = media.get("schema", {}).get("$ref", "")
                schema = components.get(ref.rsplit("/", 1)[-1])
                if schema is not None:
                    schema["additionalProperties"] = False
    return result
