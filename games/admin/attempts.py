"""Attempts: read-only histories (no add, no change, no delete) with a step-by-step replay,
and "disqualify" with a required reason (`attempt_disqualify`: off the boards, record kept)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import path, reverse
from django.utils.html import format_html

from games import services
from games.models import Attempt

from .disqualify import DisqualifyAdmin
from .replay import replay_view as render_replay


@admin.register(Attempt)
class AttemptAdmin(DisqualifyAdmin):
    list_display = (
        "__str__",
        "player_link",
        "game",
        "daily_link",
        "ranked",
        "status",
        "move_count",
        "foundation_cards",
        "started_at",
        "finished_at",
        "verified",
        "disqualified",
    )
    list_filter = ("game", "status", "ranked", "verified", "disqualified")
    search_fields = ("player__display_name",)
    search_help_text = "A player's display name."
    list_select_related = ("player", "daily")
    date_hierarchy = "started_at"
    actions = ["disqualify"]
    disqualify_intro = (
        "A disqualified attempt leaves the leaderboards and the player's stats; its record and "
        "history stay, with your reason."
    )
    disqualify_help = "Required. Kept with the attempt and shown to the other admins."
    disqualify_done = "off the leaderboards, the records stay."
    fieldsets = (
        (None, {"fields": ("player_link", "game", "daily_link", "seed", "ranked", "status")}),
        (
            "History",
            {
                "fields": (
                    "history",
                    "next_seq",
                    "move_count",
                    "foundation_cards",
                    "started_at",
                    "first_move_at",
                    "finished_at",
                    "duration",
                )
            },
        ),
        (
            "Verification",
            {
                "fields": (
                    "verified",
                    "verified_at",
                    "disqualified",
                    "disqualified_reason",
                    "disqualified_by",
                    "disqualified_at",
                )
            },
        ),
        ("Deal", {"classes": ["collapse"], "fields": ("deal_string",)}),
    )
    readonly_fields = (
        "player_link",
        "game",
        "daily_link",
        "seed",
        "ranked",
        "status",
        "history",
        "next_seq",
        "move_count",
        "foundation_cards",
        "started_at",
        "first_move_at",
        "finished_at",
        "duration",
        "verified",
        "verified_at",
        "disqualified",
        "disqualified_reason",
        "disqualified_by",
        "disqualified_at",
        "deal_string",
    )

    class Media:
        css = {"all": ["games/admin/cards.css"]}

    # -- read-only: attempts are written by play, and disqualified, never edited ---------

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Attempt | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Attempt | None = None) -> bool:
        return False

    @admin.display(description="player", ordering="player__display_name")
    def player_link(self, attempt: Attempt) -> str:
        url = reverse("admin:games_player_change", args=[attempt.player_id])
        return format_html('<a href="{}">{}</a>', url, attempt.player)

    @admin.display(description="daily", ordering="daily__date")
    def daily_link(self, attempt: Attempt) -> str:
        if attempt.daily_id is None:
            return f"practice, seed {attempt.seed}" if attempt.seed is not None else "practice"
        url = reverse("admin:games_dailychallenge_change", args=[attempt.daily_id])
        return format_html('<a href="{}">{}</a>', url, attempt.daily)

    @admin.display(description="moves")
    def history(self, attempt: Attempt) -> str:
        if not attempt.moves:
            return "No move yet."
        return format_html(
            '{} tokens ({} undo). <a href="{}">Replay step by step</a><br>'
            '<code class="pd-history">{}</code>',
            len(attempt.moves),
            attempt.moves.count("U"),
            self.url("replay", attempt.pk),
            " ".join(attempt.moves),
        )

    @admin.display(description="time (server, ranked)")
    def duration(self, attempt: Attempt) -> str:
        if attempt.finished_at is None:
            return "—"
        seconds = int(attempt.play_seconds())
        return f"{seconds // 60} min {seconds % 60:02d} s"

    @admin.display(description="deal string")
    def deal_string(self, attempt: Attempt) -> str:
        return format_html('<code class="pd-history">{}</code>', attempt.deal_string)

    def render_change_form(
        self,
        request: HttpRequest,
        context: dict[str, Any],
        add: bool = False,
        change: bool = False,
        form_url: str = "",
        obj: Attempt | None = None,
    ) -> HttpResponse:
        context["can_disqualify"] = self.has_disqualify_permission(request, obj)
        return super().render_change_form(request, context, add, change, form_url, obj)

    # -- custom views -------------------------------------------------------------------

    def get_urls(self) -> list[Any]:
        view = self.admin_site.admin_view
        name = f"{self.opts.app_label}_{self.opts.model_name}"
        return [
            path("<path:object_id>/replay/", view(self.replay_view), name=f"{name}_replay"),
            path(
                "<path:object_id>/disqualify/",
                view(self.disqualify_view),
                name=f"{name}_disqualify",
            ),
            *super().get_urls(),
        ]

    def attempt_for(self, request: HttpRequest, object_id: str) -> Attempt:
        attempt = self.get_object(request, unquote(object_id))
        if attempt is None:
            raise Http404("There is no such attempt.")
        if not self.has_view_permission(request, attempt):
            raise PermissionDenied
        return attempt

    def replay_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """The attempt's history (undo tokens included) played from its deal, step by step."""
        attempt = self.attempt_for(request, object_id)
        return render_replay(
            self,
            request,
            obj=attempt,
            game=attempt.game,
            deal_string=attempt.deal_string,
            moves=attempt.moves,
            title=f"Moves of {attempt}",
            back=self.url("change", attempt.pk),
        )

    def disqualify_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """The same form for one attempt, from its page."""
        attempt = self.attempt_for(request, object_id)
        if not self.has_disqualify_permission(request, attempt):
            raise PermissionDenied
        form = self.disqualify_form(request.POST or None)
        if request.method == "POST" and form.is_valid():
            self.disqualify_all(request, [attempt], form.cleaned_data["reason"])
            return HttpResponseRedirect(self.url("change", attempt.pk))
        return self.render_disqualify(
            request, form, [attempt], title=f"Disqualify {attempt}", original=attempt
        )

    def disqualify_one(self, request: HttpRequest, attempt: Attempt, reason: str) -> Attempt:
        return services.attempt_disqualify(attempt=attempt, by=request.user, reason=reason)

    def disqualify_detail(self, attempt: Attempt) -> str:
        done = f"{attempt.move_count} moves, {attempt.foundation_cards}/52 on the foundations"
        if attempt.disqualified:
            done += f" (disqualified already: {attempt.disqualified_reason})"
        return done
