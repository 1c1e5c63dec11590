"""The fair-play review queue: finished ranked results held by the checks of games/fairplay.py,
waiting for an admin to approve them (ranked again) or disqualify them (with a reason the
player sees). Each decision goes through `attempt_review_approve` / `attempt_review_disqualify`,
which record it (`ReviewDecision`) and tell the boards after commit.

The queue is the admin of `HeldAttempt` (games/models.py, a proxy of `Attempt`: its own page
in the sidebar). Its page for one result shows what tripped, the timing of every move as a
chart drawn here as SVG (no script), the numbers the rules looked at, a link to the
step-by-step replay of the attempt admin, and the two decisions; disqualifying is shared with
the attempts' admin (games/admin/disqualify.py).
"""

from __future__ import annotations

import statistics
from typing import Any

from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from games import fairplay, selectors, services
from games.models import Attempt, HeldAttempt

from .base import ReadOnlyAdmin, plural
from .disqualify import DisqualifyAdmin
from .forms import ApproveForm

# -- the timing chart ------------------------------------------------------------------------

CHART_WIDTH, CHART_HEIGHT = 720, 260
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 48, 12, 12, 36


def _nice_step(span: float, ticks: int = 6) -> float:
    """A round step (1, 2 or 5 times a power of ten) giving about `ticks` ticks over `span`."""
    raw = max(span, 1e-9) / ticks
    power = 10 ** len(str(int(raw))) / 10 if raw >= 1 else 1.0
    for factor in (1, 2, 5, 10):
        if raw <= factor * power:
            return factor * power
    return 10 * power  # pragma: no cover


def timing_chart(moves: list[str], move_times: list[int]) -> SafeString:
    """Moves over time as an inline SVG: each move a dot at (seconds since the deal was shown,
    moves played), undos in red, the line through them; a flat stretch is a pause, a steep one
    fast play, a straight ruled line a timer."""
    if not moves:
        return format_html("<p>{}</p>", "No move.")
    plot_w = CHART_WIDTH - MARGIN_LEFT - MARGIN_RIGHT
    plot_h = CHART_HEIGHT - MARGIN_TOP - MARGIN_BOTTOM
    end_s = max(move_times[-1] / 1000, 0.001)
    count = len(moves)

    def x(ms: int) -> float:
        return round(MARGIN_LEFT + plot_w * (ms / 1000) / end_s, 1)

    def y(n: int) -> float:
        return round(MARGIN_TOP + plot_h * (1 - n / count), 1)

    points = " ".join(f"{x(t)},{y(i)}" for i, t in enumerate(move_times, start=1))
    dots = format_html_join(
        "",
        '<circle cx="{}" cy="{}" r="{}" fill="{}"><title>move {}: {} at {} s</title></circle>',
        (
            (
                x(t),
                y(i),
                3 if token == "U" else 1.6,
                "#c0392b" if token == "U" else "#205067",
                i,
                token,
                f"{t / 1000:.3f}",
            )
            for i, (token, t) in enumerate(zip(moves, move_times, strict=False), start=1)
        ),
    )
    x_step = _nice_step(end_s)
    x_ticks = format_html_join(
        "",
        '<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="#ccc"/>'
        '<text x="{0}" y="{3}" font-size="11" text-anchor="middle">{4}</text>',
        (
            (x(int(s * 1000)), MARGIN_TOP, MARGIN_TOP + plot_h, CHART_HEIGHT - 20, f"{s:g}")
            for s in (x_step * k for k in range(int(end_s / x_step) + 1))
        ),
    )
    y_step = max(1, int(_nice_step(count, 5)))
    y_ticks = format_html_join(
        "",
        '<line x1="{0}" y1="{1}" x2="{2}" y2="{1}" stroke="#eee"/>'
        '<text x="{3}" y="{4}" font-size="11" text-anchor="end">{5}</text>',
        (
            (MARGIN_LEFT, y(n), MARGIN_LEFT + plot_w, MARGIN_LEFT - 6, y(n) + 4, n)
            for n in range(0, count + 1, y_step)
        ),
    )
    return format_html(
        '<svg class="pd-timing" xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
        'viewBox="0 0 {w} {h}" role="img" aria-labelledby="pd-timing-title">'
        '<title id="pd-timing-title">{count} moves over {end} s</title>'
        "{x_ticks}{y_ticks}"
        '<polyline points="{start},{bottom} {points}" fill="none" stroke="#79aec8" '
        'stroke-width="1.5"/>{dots}'
        '<text x="{mid}" y="{label_y}" font-size="12" text-anchor="middle">'
        "seconds since the deal was shown</text>"
        '<text x="12" y="{mid_y}" font-size="12" text-anchor="middle" '
        'transform="rotate(-90 12 {mid_y})">moves</text>'
        "</svg>",
        w=CHART_WIDTH,
        h=CHART_HEIGHT,
        count=count,
        end=f"{end_s:.1f}",
        x_ticks=x_ticks,
        y_ticks=y_ticks,
        start=MARGIN_LEFT,
        bottom=MARGIN_TOP + plot_h,
        points=points,
        dots=dots,
        mid=MARGIN_LEFT + plot_w // 2,
        label_y=CHART_HEIGHT - 4,
        mid_y=MARGIN_TOP + plot_h // 2,
    )


def timing_figures(attempt: Attempt) -> list[tuple[str, str]]:
    """The numbers the rules look at, for the page."""
    certificate = attempt.daily.deal.certificate if attempt.daily_id else []
    play = fairplay.Play(attempt.game, attempt.moves, attempt.move_times, certificate)
    gaps = play.gaps
    rows = [
        ("moves (undos)", f"{len(attempt.moves)} ({attempt.moves.count('U')})"),
        ("first move after", f"{(play.first_move_ms or 0) / 1000:.2f} s"),
        ("play time", f"{attempt.play_seconds():.1f} s"),
    ]
    if gaps:
        mean = statistics.fmean(gaps)
        cv = statistics.pstdev(gaps) / mean if mean else 0.0
        rows += [
            ("gaps between moves", f"{len(gaps)}: median {statistics.median(gaps) / 1000:.2f} s"),
            ("mean gap", f"{mean / 1000:.2f} s (coefficient of variation {cv:.2f})"),
        ]
    if certificate:
        rows.append(
            ("the solver's line", f"first {play.certificate_prefix} of {len(certificate)} moves")
        )
    return rows


def perfection_chart(perfection: dict[str, Any] | None) -> SafeString:
    """The distance to a win after each move of the net line (undo pairs removed) as an inline
    SVG, over the dashed diagonal of shortest play from the deal: a line that runs down the
    diagonal all the way is the solver's; a person's wanders above it (plateaus, steps up)."""
    distances = (perfection or {}).get("distances") or []
    start = (perfection or {}).get("start")
    if not distances or start is None:
        return format_html("<p>{}</p>", "Not measured.")
    plot_w = CHART_WIDTH - MARGIN_LEFT - MARGIN_RIGHT
    plot_h = CHART_HEIGHT - MARGIN_TOP - MARGIN_BOTTOM
    count = len(distances)
    top = max([start, *(d for d in distances if d is not None)]) or 1

    def x(i: int) -> float:
        return round(MARGIN_LEFT + plot_w * i / count, 1)

    def y(d: float) -> float:
        return round(MARGIN_TOP + plot_h * (1 - d / top), 1)

    points = " ".join(f"{x(i)},{y(d)}" for i, d in enumerate([start, *distances]) if d is not None)
    y_step = max(1, int(_nice_step(top, 5)))
    y_ticks = format_html_join(
        "",
        '<line x1="{0}" y1="{1}" x2="{2}" y2="{1}" stroke="#eee"/>'
        '<text x="{3}" y="{4}" font-size="11" text-anchor="end">{5}</text>',
        (
            (MARGIN_LEFT, y(n), MARGIN_LEFT + plot_w, MARGIN_LEFT - 6, y(n) + 4, n)
            for n in range(0, top + 1, y_step)
        ),
    )
    return format_html(
        '<svg class="pd-perfection" xmlns="http://www.w3.org/2000/svg" width="{w}" '
        'height="{h}" viewBox="0 0 {w} {h}" role="img" aria-labelledby="pd-perfection-title">'
        '<title id="pd-perfection-title">distance to a win after each of {count} moves</title>'
        "{y_ticks}"
        '<line x1="{x0}" y1="{y0}" x2="{x1}" y2="{y1}" stroke="#999" stroke-dasharray="4 3"/>'
        '<polyline points="{points}" fill="none" stroke="#205067" stroke-width="1.5"/>'
        '<text x="{mid}" y="{label_y}" font-size="12" text-anchor="middle">'
        "moves (undo pairs removed)</text>"
        '<text x="12" y="{mid_y}" font-size="12" text-anchor="middle" '
        'transform="rotate(-90 12 {mid_y})">moves left to win</text>'
        "</svg>",
        w=CHART_WIDTH,
        h=CHART_HEIGHT,
        count=count,
        y_ticks=y_ticks,
        x0=x(0),
        y0=y(start),
        x1=x(min(start, count)),
        y1=y(max(0, start - count)),
        points=points,
        mid=MARGIN_LEFT + plot_w // 2,
        label_y=CHART_HEIGHT - 4,
        mid_y=MARGIN_TOP + plot_h // 2,
    )


def perfection_figures(attempt: Attempt) -> list[tuple[str, str]]:
    """The perfection measure's numbers, for the page (empty when it did not run)."""
    measured = attempt.perfection
    if not measured or not measured.get("decided"):
        return []
    return [
        ("shortest win from the deal", f"{measured['start']} moves"),
        ("net moves (undo pairs removed)", str(measured["moves"])),
        (
            "moves that brought the win one closer",
            f"{measured['decided'] - measured['misses']} of {measured['decided']} checked "
            f"({1 - measured['value']:.1%})",
        ),
    ]


# -- the attempts that may be the same person's ----------------------------------------------


def _timing_row(attempt: Attempt, shared: str, *, this: bool, same_daily: bool) -> dict[str, Any]:
    """One attempt's line of the linked attempts: when it started, how soon it moved, when it
    ended (or how it stands), its moves and play time and its result."""
    first = (
        f"+{(attempt.first_move_at - attempt.started_at).total_seconds():.1f} s"
        if attempt.first_move_at
        else "no move"
    )
    result = [
        "ranked" if attempt.ranked else "practice",
        f"{attempt.foundation_cards}/52",
    ]
    if attempt.review == Attempt.Review.HELD:
        result.append("held")
    elif attempt.review == Attempt.Review.APPROVED:
        result.append("approved")
    if attempt.disqualified:
        result.append("disqualified")
    return {
        "attempt": attempt,
        "this": this,
        "shared": shared,
        "same_daily": same_daily,
        "url": reverse("admin:games_attempt_change", args=[attempt.pk]),
        "first_move": first,
        "moves": f"{attempt.move_count} ({attempt.undo_count or 0} undos)",
        "play_time": f"{attempt.play_seconds():.0f} s",
        "result": ", ".join(result),
    }


def linked_rows(attempt: Attempt) -> list[dict[str, Any]]:
    """The review's linked attempts (`selectors.attempts_linked`) with their timings: those of
    the same daily in the order they started, this result among them, so that a probe and the
    bot it served read one after the other; then other days' of the same account or browser."""
    linked = selectors.attempts_linked(attempt=attempt)
    rows = [
        _timing_row(other, ", ".join(shared), this=False, same_daily=True)
        for other, shared in linked
        if other.daily_id == attempt.daily_id
    ]
    if rows:
        rows.append(_timing_row(attempt, "this result", this=True, same_daily=True))
        rows.sort(key=lambda row: (row["attempt"].started_at, row["attempt"].pk))
    return rows + [
        _timing_row(other, ", ".join(shared), this=False, same_daily=False)
        for other, shared in linked
        if other.daily_id != attempt.daily_id
    ]


# -- the admin -------------------------------------------------------------------------------


class HeldRuleFilter(admin.SimpleListFilter):
    """The held results that tripped one rule (`held_reasons`, read in Python: the queue is
    short, and JSON lookups differ between databases)."""

    title = "rule tripped"
    parameter_name = "rule"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [(rule.name, rule.name) for rule in fairplay.RULES]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        rule = self.value()
        if not rule:
            return queryset
        tripped = [
            pk
            for pk, reasons in queryset.values_list("pk", "held_reasons")
            if any(reason.get("rule") == rule for reason in reasons or [])
        ]
        return queryset.filter(pk__in=tripped)


@admin.register(HeldAttempt)
class HeldAttemptAdmin(ReadOnlyAdmin, DisqualifyAdmin):
    list_display = (
        "__str__",
        "game",
        "daily",
        "finished_at",
        "move_count",
        "play_time",
        "rules",
        "review_link",
    )
    list_filter = ("game", "status", "daily__date", HeldRuleFilter)
    search_fields = (
        "player__display_name",
        "client_address",
        "client_network",
        "client_network56",
    )
    search_help_text = "A player's display name, an address or a network (/24, /64, /56)."
    list_select_related = ("player", "daily")
    ordering = ("finished_at",)
    actions = ["approve", "disqualify"]

    disqualify_noun = "result"
    disqualify_title = "Disqualify held results"
    disqualify_intro = (
        "A disqualified result leaves the boards and the player's stats; the player sees your "
        "reason with it. Its record and history stay."
    )
    disqualify_help = "Required. The player sees it with their result."
    disqualify_done = "off the boards, the players see your reason."

    def get_queryset(self, request: HttpRequest) -> QuerySet[Attempt]:
        return super().get_queryset(request).held()

    def has_decide_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.has_disqualify_permission(request, obj)

    @admin.display(description="play time")
    def play_time(self, attempt: Attempt) -> str:
        return f"{attempt.play_seconds():.0f} s"

    @admin.display(description="tripped")
    def rules(self, attempt: Attempt) -> str:
        return self.disqualify_detail(attempt)

    @admin.display(description="")
    def review_link(self, attempt: Attempt) -> str:
        return format_html('<a href="{}">Review</a>', self.url("change", attempt.pk))

    # -- the page of one held result ----------------------------------------------------

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        try:
            attempt = (
                Attempt.objects.select_related("player", "daily__deal")
                .filter(pk=unquote(object_id))
                .first()
            )
        except (ValueError, ValidationError):  # an id that is no number names no attempt
            attempt = None
        if attempt is None:
            return self._redirect_to_queue(request, "There is no such attempt.")
        if not self.has_view_permission(request, attempt):
            raise PermissionDenied
        if attempt.review != Attempt.Review.HELD or attempt.disqualified:
            page = reverse("admin:games_attempt_change", args=[attempt.pk])
            messages.info(request, f"{attempt} is not held for review (decided already?).")
            return HttpResponseRedirect(page)
        approve_form, disqualify_form = ApproveForm(), self.disqualify_form()
        if request.method == "POST":
            if not self.has_decide_permission(request, attempt):
                raise PermissionDenied
            if "approve" in request.POST:
                approve_form = ApproveForm(request.POST)
                if approve_form.is_valid():
                    self.approve_all(request, [attempt], approve_form.cleaned_data["note"])
                    return HttpResponseRedirect(self.url("changelist"))
            elif "disqualify" in request.POST:
                disqualify_form = self.disqualify_form(request.POST)
                if disqualify_form.is_valid():
                    reason = disqualify_form.cleaned_data["reason"]
                    self.disqualify_all(request, [attempt], reason)
                    return HttpResponseRedirect(self.url("changelist"))
        return self.render(
            request,
            "admin/games/review/held.html",
            {
                "title": f"Review {attempt}",
                "original": attempt,
                "reasons": [
                    {
                        **reason,
                        "description": getattr(
                            fairplay.RULES_BY_NAME.get(reason.get("rule", "")), "description", ""
                        ),
                    }
                    for reason in attempt.held_reasons
                ],
                "chart": timing_chart(attempt.moves, attempt.move_times),
                "figures": timing_figures(attempt),
                "perfection_chart": perfection_chart(attempt.perfection),
                "perfection_figures": perfection_figures(attempt),
                "replay_url": reverse("admin:games_attempt_replay", args=[attempt.pk]),
                "attempt_url": reverse("admin:games_attempt_change", args=[attempt.pk]),
                "can_decide": self.has_decide_permission(request, attempt),
                "approve_form": approve_form,
                "disqualify_form": disqualify_form,
                "decisions": attempt.decisions.select_related("decided_by"),
                "linked": linked_rows(attempt),
            },
        )

    def _redirect_to_queue(self, request: HttpRequest, text: str) -> HttpResponse:
        messages.warning(request, text)
        return HttpResponseRedirect(self.url("changelist"))

    # -- the decisions (from the page, or as actions on the queue) ----------------------

    @admin.action(description="Approve: rank them again", permissions=["decide"])
    def approve(self, request: HttpRequest, queryset: QuerySet[Attempt]) -> None:
        self.approve_all(request, list(queryset), "")

    def approve_all(self, request: HttpRequest, attempts: list[Attempt], note: str) -> int:
        done = self.call_each(
            request,
            attempts,
            lambda a: services.attempt_review_approve(attempt=a, by=request.user, note=note),
            lambda a: f"Approved after review. {note}".strip(),
        )
        if done:
            self.message_user(
                request, f"Approved {plural(done, 'result')}: ranked again.", messages.SUCCESS
            )
        return done

    def disqualify_one(self, request: HttpRequest, attempt: Attempt, reason: str) -> Attempt:
        return services.attempt_review_disqualify(attempt=attempt, by=request.user, reason=reason)

    def disqualify_detail(self, attempt: Attempt) -> str:
        return ", ".join(reason.get("rule", "?") for reason in attempt.held_reasons)
