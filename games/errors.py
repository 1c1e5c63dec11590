"""Errors the games services raise: each has a stable code, a sentence for people and the HTTP
status the API answers with (docs/api.md)."""

from __future__ import annotations

import datetime as dt
from typing import Any


class ServiceError(Exception):
    status = 400
    code = "bad_request"

    def __init__(self, detail: str, *, code: str | None = None, **extra: Any):
        super().__init__(detail)
        self.detail = detail
        if code:
            self.code = code
        self.extra = extra


class Malformed(ServiceError):
    status, code = 400, "malformed"


class Forbidden(ServiceError):
    status, code = 403, "forbidden"


class Unauthorized(ServiceError):
    """The credentials given do not name an account (a login's wrong password)."""

    status, code = 401, "unauthorized"


class NotFound(ServiceError):
    status, code = 404, "not_found"


def attempt_not_found() -> NotFound:
    """An attempt that does not exist, or is another player's: the same answer for both, so
    that nobody learns which attempt ids exist."""
    return NotFound("You have no attempt with that id.", code="attempt_not_found")


class Conflict(ServiceError):
    status, code = 409, "conflict"


class TooLarge(ServiceError):
    status, code = 413, "too_large"


class IllegalMove(ServiceError):
    status, code = 422, "illegal_move"


# -- a daily still played for the boards -----------------------------------------------------
# Nothing shows a card of a daily whose ranked play is open (`DailyChallenge.ranked_until`) but
# a player's own ranked game: no practice of it, by its date, its seed or its deal, until its
# day is over (docs/fair-play.md, "One person, one row"). Each refusal says when it opens.


def _opens(ranked_until: dt.datetime) -> str:
    return ranked_until.strftime("%Y-%m-%d %H:%M UTC")


def daily_played_here(ranked_until: dt.datetime) -> Conflict:
    """409 `daily_played_here`: the browser (its device cookie) has today's ranked row, as
    another player; a new guest of it gets this answer, never a game on the same deal."""
    return Conflict(
        "You have played today's daily from this browser; it opens for practice once its day "
        f"is over ({_opens(ranked_until)}).",
        code="daily_played_here",
        ranked_until=ranked_until.isoformat().replace("+00:00", "Z"),
    )


def daily_address_full(ranked_until: dt.datetime) -> Conflict:
    """409 `daily_address_full`: the address (or its network) has as many ranked rows at
    today's daily as it may start (`RANKED_STARTS_PER_*`); a player with an account is not
    refused this way."""
    return Conflict(
        "Today's daily has been played ranked by as many players from your address as it "
        "allows. On a shared connection (a school, an office), log in to an account to play it "
        f"ranked: each account has its own row. It opens for practice once its day is over "
        f"({_opens(ranked_until)}).",
        code="daily_address_full",
        ranked_until=ranked_until.isoformat().replace("+00:00", "Z"),
    )


def daily_running(ranked_until: dt.datetime) -> Conflict:
    """409 `daily_running`: a practice of the deal of a daily whose ranked play is open (by its
    date during the grace after midnight, by its seed or its deal), or a move in one."""
    return Conflict(
        "This deal is a daily still being played for the boards: it opens for practice once "
        f"its day is over ({_opens(ranked_until)}).",
        code="daily_running",
        ranked_until=ranked_until.isoformat().replace("+00:00", "Z"),
    )
