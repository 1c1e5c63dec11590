"""WebSocket routes, served by `config.asgi` under the "websocket" protocol.

Apps add their consumers to `websocket_urlpatterns`, e.g.
`path("ws/play/<int:attempt_id>/", PlayConsumer.as_asgi())`. `config.asgi` puts
`unknown_path_route` after them: a socket to any other path is refused cleanly (close code 4404)
instead of failing with "No route found".
"""

from django.urls import URLPattern, path, re_path

from config.consumers import UnknownPathConsumer
from games.consumers import PlayConsumer
from leaderboards.consumers import DailyConsumer

websocket_urlpatterns: list[URLPattern] = [
    path("ws/play/<int:attempt_id>/", PlayConsumer.as_asgi(), name="ws-play"),
    path("ws/daily/<str:game>/<str:date>/", DailyConsumer.as_asgi(), name="ws-daily"),
]

#: Matches every path: keep it after all the others.
unknown_path_route = re_path(r"", UnknownPathConsumer.as_asgi(), name="ws-unknown-path")
