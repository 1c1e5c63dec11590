"""WebSocket routes, served by `config.asgi` under the "websocket" protocol.

Apps add their consumers here, e.g. `path("ws/play/<int:attempt_id>/", PlayConsumer.as_asgi())`.
"""

from django.urls import URLPattern

websocket_urlpatterns: list[URLPattern] = []
