"""Errors the games services raise: each has a stable code, a sentence for people and the HTTP
status the API answers with (docs/api.md)."""

from __future__ import annotations

from typing import Any

from redis.exceptions import RedisError

#: What a Redis server that cannot be reached raises (redis-py's errors and the socket's own):
#: the one list every Redis user of the project (throttle cache, channel layer, leaderboard
#: index) catches to degrade instead of failing.
REDIS_ERRORS: tuple[type[BaseException], ...] = (RedisError, OSError)


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
