"""WebSocket routes, served by `config.asgi` under the "websocket" protocol.

- `ws/play/<attempt_id>/`: the play socket (realtime/play.py), wrapped in Channels'
  `AuthMiddlewareStack` (the cookies, the session and its user, read as Django reads them):
  it must know who connects.
- `ws/daily/<game>/<date>/`: the daily socket (realtime/daily.py), open to anyone, without the
  session stack, so its watchers pay for no session on their connection nor on each event sent
  (the session middleware checks the session on every message going out).
- `ws/race/<code>/`: the race socket (realtime/race.py), open to anyone with the race's link,
  without the session stack, like the daily socket.
- `unknown_path_route`, after them: a socket to any other path is refused cleanly (accepted,
  then closed with code 4404) instead of failing with "No route found".
"""

from __future__ import annotations

from typing import Any

from channels.auth import AuthMiddlewareStack
from django.urls import URLPattern, path, re_path

from realtime.daily import DailyConsumer
from realtime.play import PlayConsumer
from realtime.race import RaceConsumer
from realtime.sockets import CLOSE_NOT_FOUND, refuse_handshake


async def unknown_path(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Refuses a socket to a path that no route serves: accepted, then closed with 4404."""
    await refuse_handshake(receive, send, CLOSE_NOT_FOUND)


websocket_urlpatterns: list[URLPattern] = [
    path("ws/play/<int:attempt_id>/", AuthMiddlewareStack(PlayConsumer.as_asgi()), name="ws-play"),
    path("ws/daily/<str:game>/<str:date>/", DailyConsumer.as_asgi(), name="ws-daily"),
    path("ws/race/<str:code>/", RaceConsumer.as_asgi(), name="ws-race"),
]

#: Matches every path: keep it after all the others.
unknown_path_route = re_path(r"", unknown_path, name="ws-unknown-path")
