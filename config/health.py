"""`GET /healthz/`: can this process serve players? For load balancers and container checks.

Checks the database (`SELECT 1`), Redis when REDIS_URL is set (a PING, short timeouts) and the
channel layer (a message sent to a new channel and received back, within a second):

- 200 `{"status": "ok", "checks": {"database": "ok", "redis": "ok", "channel_layer": "ok"}}`
  ("redis": "not configured" without REDIS_URL);
- 503 `"status": "degraded"` when Redis or the channel layer is down: play still works (the
  database holds every game) but live updates and throttles do not;
- 503 `"status": "down"` when the database is down: nothing can be played.

Each failed check is "down" in `checks`; the reason goes to the log, never to the client. The
view is exempt from the HTTPS redirect (SECURE_REDIRECT_EXEMPT) so that checks over plain HTTP
inside the container work; they must still send an allowed Host header.
"""

from __future__ import annotations

import asyncio
import logging

import redis
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connections
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

logger = logging.getLogger(__name__)

OK, DOWN, NOT_CONFIGURED = "ok", "down", "not configured"

#: Seconds each of Redis and the channel layer may take to answer.
REDIS_TIMEOUT = 0.5
CHANNEL_LAYER_TIMEOUT = 1.0


def check_database() -> str:
    try:
        with connections["default"].cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception:
        logger.warning("health: the database is down", exc_info=True)
        return DOWN
    return OK


def check_redis() -> str:
    url = getattr(settings, "REDIS_URL", "")
    if not url:
        return NOT_CONFIGURED
    client = redis.Redis.from_url(
        url, socket_connect_timeout=REDIS_TIMEOUT, socket_timeout=REDIS_TIMEOUT
    )
    try:
        client.ping()
    except Exception:
        logger.warning("health: Redis is down", exc_info=True)
        return DOWN
    finally:
        client.close()
    return OK


async def _channel_layer_round_trip() -> None:
    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer is configured")
    channel = await layer.new_channel("healthz.")
    await layer.send(channel, {"type": "health.ping"})
    message = await layer.receive(channel)
    if message.get("type") != "health.ping":
        raise RuntimeError(f"unexpected message {message!r}")


async def _check_channel_layer() -> str:
    try:
        await asyncio.wait_for(_channel_layer_round_trip(), CHANNEL_LAYER_TIMEOUT)
    except Exception:
        logger.warning("health: the channel layer is down", exc_info=True)
        return DOWN
    return OK


def check_channel_layer() -> str:
    return async_to_sync(_check_channel_layer)()


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    checks = {
        "database": check_database(),
        "redis": check_redis(),
        "channel_layer": check_channel_layer(),
    }
    if checks["database"] == DOWN:
        status = "down"
    elif DOWN in checks.values():
        status = "degraded"
    else:
        status = "ok"
    return JsonResponse({"status": status, "checks": checks}, status=200 if status == "ok" else 503)
