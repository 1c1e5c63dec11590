"""Live play: every socket open on an attempt (a second tab, a phone) hears each new state.

The `move_played` and `attempt_finished` signals (sent after commit, whatever path made the
move: the REST API or a socket) push the attempt's new state to the group `attempt_group(id)`,
which every play socket of that attempt joins. The state is built and rendered once, as the
REST API renders it. A channel layer that is down (Redis) costs the live update, never the
move: the error is logged and play goes on.
"""

from __future__ import annotations

import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.dispatch import receiver

from games import signals
from games.models import Attempt
from games.state import AttemptState, attempt_state

logger = logging.getLogger(__name__)


def attempt_group(attempt_id: int) -> str:
    """The channel-layer group of one attempt's play sockets."""
    return f"attempt.{attempt_id}"


def render(state: AttemptState) -> dict[str, Any]:
    """A state as the REST API answers a move, as plain JSON values (a channel layer carries
    it); rendered once per state, whoever asks first."""
    from games.api.serializers import render_state

    return render_state(state, answer=True)


def state_json(attempt: Attempt) -> dict[str, Any]:
    """An attempt's current state, rendered."""
    return render(attempt_state(attempt))


def group_send(group: str, message: dict[str, Any]) -> bool:
    """Send to a group from sync code; False (logged) when the channel layer fails."""
    layer = get_channel_layer()
    if layer is None:
        return False
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:  # a channel layer that is down must not fail the move behind it
        logger.warning(
            "live update to %s not sent: channel layer unavailable", group, exc_info=True
        )
        return False
    return True


@receiver(signals.move_played)
@receiver(signals.attempt_finished)
def _push_state(
    sender: Any, attempt_id: int, state: AttemptState | None = None, **kwargs: Any
) -> None:
    """Push the committed state: the one the service built (`state`), else read afresh."""
    if state is None:
        attempt = Attempt.objects.select_related("daily__deal").filter(pk=attempt_id).first()
        if attempt is None:
            return
        state = attempt_state(attempt)
    group_send(attempt_group(attempt_id), {"type": "attempt.state", "state": render(state)})
