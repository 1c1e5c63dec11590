"""Players: who plays, with a link to their attempts. Only the display name changes, through
`player_rename` and its validation; players are created by playing and never deleted here."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import Count, QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html

from games.models import ON_BOARD, WIN, Player, q_through

from .base import CurationAdmin
from .forms import PlayerForm


@admin.register(Player)
class PlayerAdmin(CurationAdmin):
    form = PlayerForm
    list_display = ("display_name", "user", "attempts", "ranked_wins", "created_at", "last_seen_at")
    search_fields = ("display_name", "user__username")
    list_select_related = ("user",)
    fields = ("display_name", "user", "attempts", "ranked_wins", "created_at", "last_seen_at")
    readonly_fields = ("user", "attempts", "ranked_wins", "created_at", "last_seen_at")
    ordering = ("-last_seen_at",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Player]:
        won = q_through(ON_BOARD & WIN, "attempts")  # a board's wins: never one held for review
        return (
            super()
            .get_queryset(request)
            .annotate(attempt_count=Count("attempts"), win_count=Count("attempts", filter=won))
        )

    @admin.display(description="attempts", ordering="attempt_count")
    def attempts(self, player: Player) -> str:
        count = getattr(player, "attempt_count", None)
        if count is None:
            count = player.attempts.count()
        url = reverse("admin:games_attempt_changelist") + f"?player__id__exact={player.pk}"
        return format_html('<a href="{}">{} attempt{}</a>', url, count, "" if count == 1 else "s")

    @admin.display(description="ranked wins", ordering="win_count")
    def ranked_wins(self, player: Player) -> int:
        return getattr(player, "win_count", 0)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # players come from playing (a guest cookie)

    def has_delete_permission(self, request: HttpRequest, obj: Player | None = None) -> bool:
        return False  # their attempts are the boards' history

    def save_model(self, request: HttpRequest, obj: Player, form: Any, change: bool) -> None:
        pass  # `player_rename` ran in the form
