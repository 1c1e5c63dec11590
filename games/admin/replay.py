"""The step-by-step replay page: a move list (a certificate, an attempt's history) played from
its deal, showing the position after step k drawn as cards and the move just played."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.http import HttpRequest, HttpResponse

from .base import CurationAdmin
from .board import replay_step


def replay_view(
    admin: CurationAdmin,
    request: HttpRequest,
    *,
    obj: Any,
    game: str,
    deal_string: str,
    moves: Sequence[str],
    title: str,
    back: str,
) -> HttpResponse:
    """Render the position after `?step=k` (0 is the deal; clamped to the list's length)."""
    try:
        step = int(request.GET.get("step", "0"))
    except ValueError:
        step = 0
    shown = replay_step(game, deal_string, moves, step)
    step, total = shown.step, shown.total
    here = request.path
    return admin.render(
        request,
        "admin/games/replay.html",
        {
            "title": title,
            "original": obj,
            "replay": shown,
            "back": back,
            "first": f"{here}?step=0" if step > 0 else None,
            "previous": f"{here}?step={step - 1}" if step > 0 else None,
            "next": f"{here}?step={step + 1}" if step < total else None,
            "last": f"{here}?step={total}" if step < total else None,
            "tokens": [(i, token, f"{here}?step={i}") for i, token in enumerate(moves, start=1)],
        },
    )
