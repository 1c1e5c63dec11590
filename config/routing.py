"""WebSocket routes, served by `config.asgi` under the "websocket" protocol.

Apps add their consumers to `websocket_urlpatterns`, e.g.
`path("ws/daily/<str:game>/<str:date>/", DailyConsumer.as_asgi())`. A route that needs to know
who is connecting wraps its consumer in Channels' `AuthMiddlewareStack` (the cookies, the session
and its user, read as Django reads them): the play socket does; the daily socket, open to anyone,
does not, so its watchers pay for no session on their connection nor on each event sent (the
session middleware checks the session on every message going out). `config.asgi` puts
`unknown_path_route` after them: a socket to any other path is refused cleanly (close code 4404)
instead of failing with "No route found".
"""

from channels.auth import AuthMiddlewareStack
from django.urls import URLPattern, path, re_path

from config.consumers import UnknownPathConsumer
from games.consumers import PlayConsumer
from leaderboards.consumers import DailyConsumer

websocket_urlpatterns: list[URLPattern] = [
    path("ws/play/<int:attempt_id>/", AuthMiddlewareStack(PlayConsumer.as_asgi()), name="ws-play"),
    path("ws/daily/<str:game>/<str:date>/", DailyConsumer.as_asgi(), name="ws-daily"),
]

#: Matches every path: keep it after all the others.
unknown_path_route = re_path(r"", UnknownPathConsumer.as_asgi(), name="ws-unknown-path")
