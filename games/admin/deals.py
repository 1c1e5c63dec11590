"""Deals: the list curators work from, the add form (a seed or a pasted deal string), the change
page with the layout drawn as cards and the solver's progress, the certificate replay, and the
actions solve now, approve, reject and schedule on date."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from django.contrib import admin, messages
from django.contrib.admin.options import IS_POPUP_VAR
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch, Q, QuerySet
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseNotAllowed,
    HttpResponseRedirect,
)
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join

from games import clock, services
from games.engine import game_class
from games.models import DailyChallenge, Deal

from . import schedule
from .base import CurationAdmin, call_service
from .board import board
from .forms import DealAddForm, DealNotesForm, ScheduleForm
from .replay import replay_view as render_replay

CARD_CODE = re.compile(r"^[A2-9TJQK][CDHS]$", re.IGNORECASE)
#: Seconds between reloads of a deal's page while the solver works on it.
REFRESH_SECONDS = 3


def badge(value: str) -> str:
    return format_html('<span class="pd-status pd-status-{}">{}</span>', value, value)


def dots(difficulty: int | None) -> str:
    if difficulty is None:
        return "—"
    return format_html(
        '<span class="pd-dots" title="difficulty {} of 5">{}</span>&nbsp;{}',
        difficulty,
        "●" * difficulty + "○" * (5 - difficulty),
        difficulty,
    )


class ScheduleFilter(admin.SimpleListFilter):
    title = "schedule"
    parameter_name = "schedule"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [
            ("upcoming", "Scheduled from today on"),
            ("ready", "Approved, never scheduled"),
            ("never", "Never scheduled"),
        ]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Deal]) -> QuerySet[Deal]:
        if self.value() == "upcoming":
            return queryset.filter(dailies__date__gte=clock.today()).distinct()
        if self.value() == "ready":
            return queryset.filter(curation=Deal.Curation.APPROVED, dailies__isnull=True)
        if self.value() == "never":
            return queryset.filter(dailies__isnull=True)
        return queryset


@admin.register(Deal)
class DealAdmin(CurationAdmin):
    list_display = (
        "number",
        "game",
        "seed",
        "solver",
        "par_shown",
        "difficulty_shown",
        "curation_shown",
        "auto",
        "scheduled_on",
    )
    list_display_links = ("number",)
    list_filter = (
        "game",
        "solver_status",
        "curation",
        "difficulty",
        "par_optimal",
        ScheduleFilter,
        "chosen_by_system",
    )
    search_fields = ("notes",)
    search_help_text = (
        "A seed, a deal id, words of the notes, or card codes of the deal string "
        "(a whole pasted deal, or a run such as 7D 9C 4D)."
    )
    actions = ["solve_now", "approve", "reject", "schedule_on_date"]
    ordering = ("-created_at", "-pk")
    list_per_page = 50

    add_fieldsets = ((None, {"fields": ("game", "seed", "deal_string", "solve", "notes")}),)
    fieldsets = (
        ("Deal", {"fields": ("game", "seed", "rules_version", "deal_string", "created_at")}),
        (
            "Solver",
            {
                "fields": (
                    "solver",
                    "par_shown",
                    "par_proved_at",
                    "difficulty_shown",
                    "certificate_shown",
                    "stats_shown",
                    "solve_requested_at",
                    "solve_started_at",
                    "solved_at",
                )
            },
        ),
        (
            "Curation",
            {
                "fields": (
                    "curation_shown",
                    "curated_by",
                    "curated_at",
                    "chosen_by_system",
                    "scheduled_on_links",
                    "notes",
                )
            },
        ),
    )
    readonly_fields = (
        "game",
        "seed",
        "rules_version",
        "deal_string",
        "created_at",
        "solver",
        "par_shown",
        "par_proved_at",
        "difficulty_shown",
        "certificate_shown",
        "stats_shown",
        "solve_requested_at",
        "solve_started_at",
        "solved_at",
        "curation_shown",
        "curated_by",
        "curated_at",
        "chosen_by_system",
        "scheduled_on_links",
    )

    class Media:
        css = {"all": ["games/admin/cards.css"]}

    # -- list ---------------------------------------------------------------------------

    def get_queryset(self, request: HttpRequest) -> QuerySet[Deal]:
        dailies = DailyChallenge.objects.order_by("date")
        return (
            super()
            .get_queryset(request)
            .select_related("curated_by")
            .prefetch_related(Prefetch("dailies", queryset=dailies))
        )

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[Deal], search_term: str
    ) -> tuple[QuerySet[Deal], bool]:
        term = search_term.strip()
        if not term:
            return queryset, False
        found = Q(notes__icontains=term)
        if term.isdigit() and len(term) <= 20:
            found |= Q(seed=str(int(term)))
            if int(term) < 2**63:
                found |= Q(pk=int(term))
        tokens = term.split()
        if all(CARD_CODE.match(token) for token in tokens):
            found |= Q(deal_string__contains=" ".join(token.upper() for token in tokens))
        return queryset.filter(found), False

    @admin.display(description="par", ordering="par")
    def par_shown(self, deal: Deal) -> str:
        """The par, and whether it is a proven floor: "85, proven shortest", "109, not proven
        (no win under 97)", or "-"."""
        if deal.par is None:
            return "-"
        if deal.par_optimal:
            return f"{deal.par}, proven shortest"
        if deal.par_lower_bound is not None:
            return f"{deal.par}, not proven (no win under {deal.par_lower_bound})"
        return f"{deal.par}, not proven"

    @admin.display(description="solver", ordering="solver_status")
    def solver(self, deal: Deal) -> str:
        return badge(deal.solver_status)

    @admin.display(description="difficulty", ordering="difficulty")
    def difficulty_shown(self, deal: Deal) -> str:
        return dots(deal.difficulty)

    @admin.display(description="deal", ordering="pk")
    def number(self, deal: Deal) -> str:
        return f"#{deal.pk}"

    @admin.display(description="curation", ordering="curation")
    def curation_shown(self, deal: Deal) -> str:
        return badge(deal.curation)

    @admin.display(description="auto", boolean=True, ordering="chosen_by_system")
    def auto(self, deal: Deal) -> bool:
        """Approved by the scheduler rather than by an admin."""
        return deal.chosen_by_system

    @admin.display(description="scheduled on")
    def scheduled_on(self, deal: Deal) -> str:
        dates = [daily.date for daily in deal.dailies.all()]
        if not dates:
            return "—"
        today = clock.today()
        shown = format_html_join(
            ", ",
            "{}",
            ((format_html("<strong>{}</strong>", d) if d >= today else d,) for d in dates[-4:]),
        )
        more = f" (+{len(dates) - 4} earlier)" if len(dates) > 4 else ""
        return format_html("{}{}", shown, more)

    # -- change page --------------------------------------------------------------------

    @admin.display(description="deal string")
    def deal_string(self, deal: Deal) -> str:
        return format_html('<code class="pd-history">{}</code>', deal.deal_string)

    @admin.display(description="certificate")
    def certificate_shown(self, deal: Deal) -> str:
        if not deal.certificate:
            return "—"
        return format_html(
            '{} moves. <a href="{}">Replay it step by step</a><br><code class="pd-history">{}'
            "</code>",
            len(deal.certificate),
            self.url("replay", deal.pk),
            " ".join(deal.certificate),
        )

    @admin.display(description="solver statistics")
    def stats_shown(self, deal: Deal) -> str:
        if not deal.solver_stats:
            return "—"
        rows = format_html_join(
            "", "<tr><th>{}</th><td>{}</td></tr>", sorted(deal.solver_stats.items())
        )
        return format_html('<table class="pd-stats">{}</table>', rows)

    @admin.display(description="scheduled on")
    def scheduled_on_links(self, deal: Deal) -> str:
        dailies = list(deal.dailies.all())
        if not dailies:
            return "—"
        return format_html_join(
            ", ",
            '<a href="{}">{}</a>',
            (
                (reverse("admin:games_dailychallenge_change", args=[d.pk]), d.date.isoformat())
                for d in dailies
            ),
        )

    def get_fieldsets(self, request: HttpRequest, obj: Deal | None = None) -> Any:
        return self.add_fieldsets if obj is None else self.fieldsets

    def get_readonly_fields(self, request: HttpRequest, obj: Deal | None = None) -> Any:
        return () if obj is None else self.readonly_fields

    def get_form(
        self, request: HttpRequest, obj: Deal | None = None, change: bool = False, **kwargs: Any
    ) -> Any:
        kwargs["form"] = DealAddForm if obj is None else DealNotesForm
        return super().get_form(request, obj, change, **kwargs)

    def has_delete_permission(self, request: HttpRequest, obj: Deal | None = None) -> bool:
        return False  # a deal is rejected, never deleted: dailies and attempts point at it

    def save_model(self, request: HttpRequest, obj: Deal, form: Any, change: bool) -> None:
        # The form's service call made the change; only the optional solve is left.
        if not change and form.cleaned_data.get("solve"):
            call_service(request, str(obj), lambda: services.deal_request_solve(deal=obj))

    def response_add(
        self, request: HttpRequest, obj: Deal, post_url_continue: str | None = None
    ) -> HttpResponse:
        if "_addanother" in request.POST or IS_POPUP_VAR in request.POST:
            return super().response_add(request, obj, post_url_continue)
        self.message_user(request, f"Added {obj}.", messages.SUCCESS)
        return HttpResponseRedirect(self.url("change", obj.pk))

    def render_change_form(
        self,
        request: HttpRequest,
        context: dict[str, Any],
        add: bool = False,
        change: bool = False,
        form_url: str = "",
        obj: Deal | None = None,
    ) -> HttpResponse:
        if obj is not None:
            context.update(progress(obj))
            context["board"] = board(game_class(obj.game).from_deal(obj.deal_string))
            context["can_curate"] = self.has_change_permission(request, obj)
            context["calendar_url"] = reverse("admin:games_dailychallenge_calendar")
        return super().render_change_form(request, context, add, change, form_url, obj)

    # -- what curators do to a deal, from the list (actions) or its page (buttons) ---------

    def solve(self, request: HttpRequest, deal: Deal) -> None:
        was = deal.solver_status
        done = call_service(request, str(deal), lambda: services.deal_request_solve(deal=deal))
        if done is None:
            return
        if was == Deal.SolverStatus.SOLVING and done.solver_status == was:
            self.message_user(request, f"{deal} is being solved already.", messages.WARNING)
            return
        self.log_change(request, done, "Asked the solver")
        if done.solver_status in (Deal.SolverStatus.PENDING, Deal.SolverStatus.SOLVING):
            self.message_user(request, f"{deal} went to the solver; its page shows the progress.")
        else:
            self.message_user(request, f"{deal}: {verdict(done)}", messages.SUCCESS)

    def approve_one(self, request: HttpRequest, deal: Deal) -> None:
        done = call_service(
            request, str(deal), lambda: services.deal_approve(deal=deal, by=request.user)
        )
        if done is not None:
            self.log_change(request, done, "Approved")
            self.message_user(request, f"{deal} is approved.", messages.SUCCESS)

    def reject_one(self, request: HttpRequest, deal: Deal) -> None:
        done = call_service(
            request, str(deal), lambda: services.deal_reject(deal=deal, by=request.user)
        )
        if done is not None:
            self.log_change(request, done, "Rejected")
            self.message_user(request, f"{deal} is rejected.", messages.SUCCESS)

    @admin.action(description="Solve now", permissions=["change"])
    def solve_now(self, request: HttpRequest, queryset: QuerySet[Deal]) -> None:
        for deal in queryset:
            self.solve(request, deal)

    @admin.action(description="Approve", permissions=["change"])
    def approve(self, request: HttpRequest, queryset: QuerySet[Deal]) -> None:
        for deal in queryset:
            self.approve_one(request, deal)

    @admin.action(description="Reject", permissions=["change"])
    def reject(self, request: HttpRequest, queryset: QuerySet[Deal]) -> None:
        for deal in queryset:
            self.reject_one(request, deal)

    @admin.action(description="Schedule on date…", permissions=["change"])
    def schedule_on_date(
        self, request: HttpRequest, queryset: QuerySet[Deal]
    ) -> HttpResponse | None:
        deals = list(queryset[:2])
        if len(deals) != 1:
            self.message_user(
                request, "Schedule on date works on one deal: select exactly one.", messages.ERROR
            )
            return None
        return HttpResponseRedirect(self.url("schedule", deals[0].pk))

    # -- custom views -------------------------------------------------------------------

    def get_urls(self) -> list[Any]:
        view = self.admin_site.admin_view
        name = f"{self.opts.app_label}_{self.opts.model_name}"
        return [
            path("<path:object_id>/solve/", view(self.solve_view), name=f"{name}_solve"),
            path("<path:object_id>/approve/", view(self.approve_view), name=f"{name}_approve"),
            path("<path:object_id>/reject/", view(self.reject_view), name=f"{name}_reject"),
            path("<path:object_id>/schedule/", view(self.schedule_view), name=f"{name}_schedule"),
            path("<path:object_id>/replay/", view(self.replay_view), name=f"{name}_replay"),
            *super().get_urls(),
        ]

    def deal_for(self, request: HttpRequest, object_id: str, *, change: bool) -> Deal:
        deal = self.get_object(request, unquote(object_id))
        if deal is None:
            raise Http404("There is no such deal.")
        allowed = self.has_change_permission if change else self.has_view_or_change_permission
        if not allowed(request, deal):
            raise PermissionDenied
        return deal

    def _button(self, request: HttpRequest, object_id: str, act: Any) -> HttpResponse:
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        deal = self.deal_for(request, object_id, change=True)
        act(request, deal)
        return self.back_to(deal)

    def solve_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        return self._button(request, object_id, self.solve)

    def approve_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        return self._button(request, object_id, self.approve_one)

    def reject_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        return self._button(request, object_id, self.reject_one)

    def schedule_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """Ask for the date, then put the deal on it (`daily_schedule`)."""
        deal = self.deal_for(request, object_id, change=True)
        today = clock.today()
        form = ScheduleForm(
            request.POST or None, initial={"date": schedule.first_gap(game=deal.game, start=today)}
        )
        if request.method == "POST" and form.is_valid():
            date = form.cleaned_data["date"]
            if self.schedule_one(request, deal, date):
                return HttpResponseRedirect(reverse("admin:games_dailychallenge_calendar"))
        return self.render(
            request,
            "admin/games/deal/schedule.html",
            {
                "title": f"Schedule {deal} on a date",
                "original": deal,
                "form": form,
                "period": schedule.days(game=deal.game, start=today, today=today),
            },
        )

    def schedule_one(self, request: HttpRequest, deal: Deal, date: dt.date) -> bool:
        before = DailyChallenge.objects.filter(game=deal.game, date=date).select_related("deal")
        replaced = before.first()
        daily = call_service(
            request,
            str(deal),
            lambda: services.daily_schedule(game=deal.game, date=date, deal=deal, by=request.user),
        )
        if daily is None:
            return False
        note = f", replacing {replaced.deal}" if replaced and replaced.deal_id != deal.pk else ""
        self.log_change(request, deal, f"Scheduled on {date.isoformat()}{note}")
        self.message_user(
            request, f"{deal} is the daily of {date.isoformat()}{note}.", messages.SUCCESS
        )
        return True

    def replay_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """The certificate played from the deal, one step at a time."""
        deal = self.deal_for(request, object_id, change=False)
        if not deal.certificate:
            self.message_user(request, f"{deal} has no certificate yet.", messages.WARNING)
            return self.back_to(deal)
        return render_replay(
            self,
            request,
            obj=deal,
            game=deal.game,
            deal_string=deal.deal_string,
            moves=deal.certificate,
            title=f"Certificate of {deal}",
            back=self.url("change", deal.pk),
        )


def verdict(deal: Deal) -> str:
    """What the solver decided, in a sentence."""
    if deal.solver_status == Deal.SolverStatus.SOLVED:
        return f"solved, par {deal.par}, difficulty {deal.difficulty} of 5."
    if deal.solver_status == Deal.SolverStatus.UNSOLVABLE:
        return "unsolvable: no line wins."
    return "unknown: the solver's budget ran out before it decided."


def progress(deal: Deal) -> dict[str, Any]:
    """Where the solver is with this deal, for the notice on its page; `refresh` (seconds)
    while a result is expected."""
    now = clock.now()
    status = deal.solver_status
    if status == Deal.SolverStatus.SOLVING:
        since = deal.solve_started_at or now
        if now - since > services.STALE_CLAIM:
            return {"solver_state": "stale", "since": since}
        return {
            "solver_state": "solving",
            "refresh": REFRESH_SECONDS,
            "elapsed": int((now - since).total_seconds()),
        }
    if status == Deal.SolverStatus.PENDING:
        since = deal.solve_requested_at
        if since is None:
            return {"solver_state": "unrequested"}
        if now - since > services.STALE_CLAIM:
            return {"solver_state": "stale", "since": since}
        return {
            "solver_state": "queued",
            "refresh": REFRESH_SECONDS,
            "elapsed": int((now - since).total_seconds()),
        }
    return {"solver_state": "decided", "verdict": verdict(deal)}
