"""ASGI entry point: HTTP goes to Django, WebSockets to Channels consumers.

Servers run it through config/server.py (`uvicorn config.server:application`; `make run` does),
which also tunes the process's garbage collector. HTTP health checks (`/healthz/`,
`/healthz/live/`) are answered first, on the event loop, never reaching Django
(config/health.py). Other HTTP passes through `BodySizeLimitMiddleware` (config/bodylimit.py):
an oversized body is refused with 413 before Django reads any of it; then at most
`HTTP_CONCURRENCY` requests per process are inside Django at once, the others wait their turn
(config/concurrency.py). WebSockets pass the origin check (a browser's Origin must be the
site's own, port included; a handshake without one passes: realtime/origin.py) and reach
their route (the play socket through the session/auth stack, realtime/routing.py); a refused
socket is accepted, then closed with its code (4403 another origin, 4404 a path no consumer
serves, 4503 the database or Redis cannot be reached: config/handshake.py). The lifespan starts and
stops what the live side runs per process (realtime/lifespan.py). With DEBUG on, a connection
that reached the server at an address other than a loopback one is refused before all of this
(config/security.py `LoopbackOnly`).

Around all of it, each request and socket gets its id (config/requestid.py), and `GET /metrics`
is answered before Django like the health checks, to whom may read it; the sockets are counted
while open (infra/metrics.py).
"""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# Set up Django (apps registry, settings) before anything imports models or consumers.
django.setup(set_prefix=False)

from config.handler import SyncStackASGIHandler  # noqa: E402

django_asgi_app = SyncStackASGIHandler()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402

from config.bodylimit import BodySizeLimitMiddleware  # noqa: E402
from config.concurrency import ConcurrencyLimitMiddleware  # noqa: E402
from config.handshake import UnavailableSockets  # noqa: E402
from config.health import HealthCheckMiddleware  # noqa: E402
from config.requestid import RequestIdMiddleware  # noqa: E402
from config.security import LoopbackOnly  # noqa: E402
from infra.metrics import MetricsEndpoint, SocketMetrics  # noqa: E402
from realtime.lifespan import lifespan  # noqa: E402
from realtime.origin import SameOriginValidator  # noqa: E402
from realtime.routing import unknown_path_route, websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": RequestIdMiddleware(
            HealthCheckMiddleware(
                MetricsEndpoint(
                    BodySizeLimitMiddleware(
                        ConcurrencyLimitMiddleware(django_asgi_app, settings.HTTP_CONCURRENCY)
                    )
                )
            )
        ),
        "websocket": RequestIdMiddleware(
            SocketMetrics(
                UnavailableSockets(
                    SameOriginValidator(URLRouter([*websocket_urlpatterns, unknown_path_route]))
                )
            )
        ),
        "lifespan": lifespan,
    }
)

if settings.SENTRY_DSN:
    # Error reports know the request they came from (its method, URL and harmless headers:
    # config/reporting.py scrubs the rest); Django's own hook for it misses this handler.
    from sentry_sdk.integrations.asgi import SentryAsgiMiddleware

    application = SentryAsgiMiddleware(application)

if settings.DEBUG:
    # DEBUG pages reach this machine only: by the address a connection reached, never by its
    # Host header (config/security.py).
    application = LoopbackOnly(application)
