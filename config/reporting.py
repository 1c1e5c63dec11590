"""Error reporting to Sentry (or any service that speaks its protocol), off unless `SENTRY_DSN`
is set (config/settings.py calls `sentry_init`). Every process reports: the web processes'
unhandled exceptions (and error log lines), the Celery tasks' failures.

Nothing personal leaves: no cookies (the player's token is one), no request body, no query
string, no headers but a harmless few, no IP address, no local variables of the stack's frames
(a request's body or a token could be one), and no breadcrumb's data. The SDK's own
`send_default_pii=False` does most of it; `scrub` removes what remains before an event is sent,
and tags it with the request's id (config/requestid.py) so that its log lines can be found.
"""

from __future__ import annotations

from typing import Any

from config import requestid

#: The request headers an event keeps (lower case); every other is dropped.
KEPT_HEADERS = frozenset({"accept", "content-length", "content-type", "host", "user-agent"})


def scrub(event: dict[str, Any], hint: dict[str, Any] | None = None) -> dict[str, Any]:
    """`before_send`: the event without what could name or identify a player."""
    request = event.get("request")
    if isinstance(request, dict):
        kept: dict[str, Any] = {
            key: request[key] for key in ("method", "url") if request.get(key) is not None
        }
        headers = request.get("headers")
        if isinstance(headers, dict):
            kept["headers"] = {k: v for k, v in headers.items() if k.lower() in KEPT_HEADERS}
        event["request"] = kept
    event.pop("user", None)
    for breadcrumb in (event.get("breadcrumbs") or {}).get("values", []):
        breadcrumb.pop("data", None)
    request_id = requestid.current()
    if request_id:
        event.setdefault("tags", {})["request_id"] = request_id
    return event


def sentry_init(dsn: str, *, environment: str = "", transport: Any = None) -> None:
    """Report errors to `dsn` (the Django, Celery and logging integrations are on by
    themselves); `transport` replaces the SDK's (the tests capture events so)."""
    import sentry_sdk

    options: dict[str, Any] = {}
    if transport is not None:
        options["transport"] = transport
    sentry_sdk.init(
        dsn=dsn,
        environment=environment or None,
        send_default_pii=False,
        include_local_variables=False,
        max_request_body_size="never",
        before_send=scrub,  # type: ignore[arg-type]
        **options,
    )
