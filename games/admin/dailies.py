"""Daily challenges: the calendar of the coming weeks per game with its gaps, swapping a day's
deal, and unscheduling, all through `daily_schedule` and `daily_unschedule` (a day someone has
played keeps its deal and cannot be removed)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Count, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import path, reverse
from django.utils.html import format_html

from games import clock, services
from games.engine import game_class
from games.errors import ServiceError
from games.models import DailyChallenge, GameName

from . import schedule
from .base import CurationAdmin, call_service
from .board import board
from .deals import dots
from .forms import DailyAddForm, DayDealForm


def observed_text(observed: dict[str, Any] | None) -> str:
    """How a day went (`DailyChallenge.observed`) in a few words, beside the predicted dots:
    "42 played, 13 won (31%), wins +7 over par in 9.7 min"; "-" before the day's end."""
    if not observed:
        return "-"
    players, winners = observed.get("players", 0), observed.get("winners", 0)
    text = f"{players} played, {winners} won"
    if observed.get("win_rate") is not None:
        text += f" ({observed['win_rate']:.0%})"
    if observed.get("median_moves_over_par") is not None:
        text += f", wins +{observed['median_moves_over_par']:g} over par"
    if observed.get("median_seconds") is not None:
        text += f" in {observed['median_seconds'] / 60:.1f} min"
    return text


@admin.register(DailyChallenge)
class DailyChallengeAdmin(CurationAdmin):
    list_display = (
        "__str__",
        "date",
        "game",
        "deal_link",
        "difficulty",
        "observed_summary",
        "par",
        "attempts",
        "published",
        "scheduled",
    )
    list_filter = ("game", "published", "date")
    date_hierarchy = "date"
    ordering = ("-date", "game")
    actions = ["unschedule"]
    list_select_related = ("deal", "scheduled_by")

    add_fields = ("game", "date", "deal")
    change_fields = (
        "game",
        "date",
        "deal_link",
        "difficulty",
        "observed_summary",
        "par",
        "attempts",
        "published",
        "scheduled",
        "created_at",
        "updated_at",
    )

    class Media:
        css = {"all": ["games/admin/cards.css"]}

    def get_queryset(self, request: HttpRequest) -> QuerySet[DailyChallenge]:
        return super().get_queryset(request).annotate(attempt_count=Count("attempts"))

    @admin.display(description="deal", ordering="deal")
    def deal_link(self, daily: DailyChallenge) -> str:
        url = reverse("admin:games_deal_change", args=[daily.deal_id])
        return format_html('<a href="{}">{}</a>', url, daily.deal)

    @admin.display(description="difficulty", ordering="deal__difficulty")
    def difficulty(self, daily: DailyChallenge) -> str:
        return dots(daily.deal.difficulty)

    @admin.display(description="observed")
    def observed_summary(self, daily: DailyChallenge) -> str:
        return observed_text(daily.observed)

    @admin.display(description="par", ordering="deal__par")
    def par(self, daily: DailyChallenge) -> int | None:
        return daily.deal.par

    @admin.display(description="attempts", ordering="attempt_count")
    def attempts(self, daily: DailyChallenge) -> str:
        count = getattr(daily, "attempt_count", None)
        if count is None:
            count = daily.attempts.count()
        if not count:
            return "0"
        url = reverse("admin:games_attempt_changelist") + f"?daily__id__exact={daily.pk}"
        return format_html('<a href="{}">{}</a>', url, count)

    @admin.display(description="scheduled by")
    def scheduled(self, daily: DailyChallenge) -> str:
        return str(daily.scheduled_by) if daily.scheduled_by_id else "the scheduler"

    # -- add and change -----------------------------------------------------------------

    def get_fields(self, request: HttpRequest, obj: DailyChallenge | None = None) -> Any:
        return self.add_fields if obj is None else self.change_fields

    def get_readonly_fields(self, request: HttpRequest, obj: DailyChallenge | None = None) -> Any:
        return () if obj is None else self.change_fields

    def get_form(
        self,
        request: HttpRequest,
        obj: DailyChallenge | None = None,
        change: bool = False,
        **kwargs: Any,
    ) -> Any:
        if obj is None:
            kwargs["form"] = type("DailyAddForm", (DailyAddForm,), {"user": request.user})
        return super().get_form(request, obj, change, **kwargs)

    def save_model(
        self, request: HttpRequest, obj: DailyChallenge, form: Any, change: bool
    ) -> None:
        pass  # `daily_schedule` ran in the form; a daily's page changes nothing itself

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        daily = self.get_object(request, unquote(object_id))
        extra = {
            "show_save": False,
            "show_save_and_continue": False,
            "show_save_and_add_another": False,
            **(extra_context or {}),
        }
        if daily is not None:
            extra["board"] = board(game_class(daily.game).from_deal(daily.deal.deal_string))
            extra["day_url"] = self.url("day", daily.game, daily.date.isoformat())
            extra["can_swap"] = self.has_change_permission(request, daily)
        return super().change_view(request, object_id, form_url, extra)

    # -- unscheduling: every path goes through `daily_unschedule` ------------------------

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)  # replaced by `unschedule`
        return actions

    def delete_model(self, request: HttpRequest, obj: DailyChallenge) -> None:
        services.daily_unschedule(daily=obj)  # refuses (ServiceError) once someone played

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[DailyChallenge]) -> None:
        for daily in queryset:
            self.unschedule_one(request, daily)

    def unschedule_one(self, request: HttpRequest, daily: DailyChallenge) -> bool:
        label = str(daily)
        try:
            with transaction.atomic():  # the log entry goes too if the service refuses
                self.log_deletions(request, [daily])
                self.delete_model(request, daily)
        except ServiceError as exc:
            self.message_user(request, f"{label}: {exc.detail}", messages.ERROR)
            return False
        self.message_user(
            request, f"{label} is unscheduled: that day has a gap now.", messages.SUCCESS
        )
        return True

    def delete_view(
        self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        if request.method != "POST":
            return super().delete_view(request, object_id, extra_context)
        daily = self.get_object(request, unquote(object_id))
        if daily is None:
            return super().delete_view(request, object_id, extra_context)
        if not self.has_delete_permission(request, daily):
            raise PermissionDenied
        if self.unschedule_one(request, daily):
            return HttpResponseRedirect(self.url("changelist"))
        return self.back_to(daily)

    @admin.action(description="Unschedule selected days…", permissions=["delete"])
    def unschedule(
        self, request: HttpRequest, queryset: QuerySet[DailyChallenge]
    ) -> HttpResponse | None:
        if request.POST.get("confirm") != "yes":
            return self.render(
                request,
                "admin/games/dailychallenge/unschedule.html",
                {
                    "title": "Unschedule these days?",
                    "dailies": queryset.select_related("deal"),
                    "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
                },
            )
        self.delete_queryset(request, queryset)
        return None

    # -- the calendar and a day's deal ----------------------------------------------------

    def get_urls(self) -> list[Any]:
        view = self.admin_site.admin_view
        name = f"{self.opts.app_label}_{self.opts.model_name}"
        return [
            path("calendar/", view(self.calendar_view), name=f"{name}_calendar"),
            path("day/<str:game>/<str:date>/", view(self.day_view), name=f"{name}_day"),
            *super().get_urls(),
        ]

    def calendar_view(self, request: HttpRequest) -> HttpResponse:
        """The next four weeks of each game from `?start=` (today by default): each day's deal,
        its difficulty and par, or a GAP."""
        if not self.has_view_or_change_permission(request):
            raise PermissionDenied
        today = clock.today()
        # A bad or missing ?start= shows the coming weeks.
        start = clock.date_from_text(request.GET.get("start", "")) or today
        period = dt.timedelta(days=schedule.HORIZON_DAYS)
        return self.render(
            request,
            "admin/games/dailychallenge/calendar.html",
            {
                "title": "Calendar of the dailies",
                "games": schedule.calendar(start=start, today=today),
                "start": start,
                "end": start + period - dt.timedelta(days=1),
                "today": today,
                "earlier": (start - period).isoformat(),
                "later": (start + period).isoformat(),
                "can_change": self.has_change_permission(request),
            },
        )

    def day_view(self, request: HttpRequest, game: str, date: str) -> HttpResponse:
        """Choose the deal of one game's day: fill a gap, or swap the deal nobody played yet."""
        if game not in GameName.values:
            raise Http404("There is no such game.")
        day = clock.date_from_text(date)
        if day is None:
            raise Http404("That is not a date (YYYY-MM-DD).")
        if not self.has_change_permission(request):
            raise PermissionDenied
        daily = (
            DailyChallenge.objects.filter(game=game, date=day)
            .select_related("deal")
            .annotate(attempt_count=Count("attempts"))
            .first()
        )
        form = DayDealForm(
            request.POST or None, game=game, exclude=daily.deal_id if daily else None
        )
        label = f"{GameName(game).label} {day.isoformat()}"
        if request.method == "POST" and form.is_valid():
            deal = form.cleaned_data["deal"]
            done = call_service(
                request,
                label,
                lambda: services.daily_schedule(game=game, date=day, deal=deal, by=request.user),
            )
            if done is not None:
                was = f" (was {daily.deal})" if daily is not None else ""
                log = self.log_change if daily is not None else self.log_addition
                log(request, done, f"Deal set to {deal}{was}")
                self.message_user(
                    request, f"The {label} daily is {deal} now{was}.", messages.SUCCESS
                )
                return HttpResponseRedirect(self.url("calendar"))
        return self.render(
            request,
            "admin/games/dailychallenge/day.html",
            {
                "title": f"{'Swap the deal of' if daily else 'Fill'} {label}",
                "game": game,
                "game_title": GameName(game).label,
                "date": day,
                "daily": daily,
                "form": form,
                "past": day < clock.today(),
                "board": (
                    board(game_class(game).from_deal(daily.deal.deal_string)) if daily else None
                ),
            },
        )
