"""Disqualifying attempts with a required reason, in one place for the two admins that do it:
the attempts (`attempt_disqualify`) and the fair-play review queue of held results
(`attempt_review_disqualify`, which also records the decision). Both ask for the reason on the
same page (`admin/games/disqualify.html`), as an action on the list or from one attempt."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse

from games.models import Attempt

from .base import CurationAdmin, plural
from .forms import DisqualifyForm

TEMPLATE = "admin/games/disqualify.html"


class DisqualifyAdmin(CurationAdmin):
    """An attempts' admin with the "Disqualify…" action. A subclass says which service
    disqualifies, what its attempts are called and what the page and messages tell."""

    #: What one attempt of this admin is called in titles and messages.
    disqualify_noun = "attempt"
    #: The title of the reason's page for the list's action.
    disqualify_title = "Disqualify attempts"
    #: Above the list of attempts on the reason's page.
    disqualify_intro = ""
    #: Under the reason's field: who reads it.
    disqualify_help = ""
    #: After "Disqualified N attempts: " in the message once done.
    disqualify_done = ""

    def disqualify_one(self, request: HttpRequest, attempt: Attempt, reason: str) -> Attempt:
        raise NotImplementedError

    def disqualify_detail(self, attempt: Attempt) -> str:
        """What the reason's page says of `attempt`, after its name."""
        return ""

    def has_disqualify_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.has_perm("games.change_attempt")

    def disqualify_form(self, data: Any = None) -> DisqualifyForm:
        return DisqualifyForm(data, help_text=self.disqualify_help)

    @admin.action(description="Disqualify…", permissions=["disqualify"])
    def disqualify(self, request: HttpRequest, queryset: QuerySet[Attempt]) -> HttpResponse | None:
        """Ask for the reason (required), then disqualify every selected attempt."""
        form = self.disqualify_form(request.POST if "apply" in request.POST else None)
        if form.is_valid():
            self.disqualify_all(request, list(queryset), form.cleaned_data["reason"])
            return None
        attempts = queryset.select_related("player", "daily")
        return self.render_disqualify(request, form, attempts, title=self.disqualify_title)

    def render_disqualify(
        self,
        request: HttpRequest,
        form: DisqualifyForm,
        attempts: Any,
        *,
        title: str,
        original: Attempt | None = None,
    ) -> HttpResponse:
        """The reason's page: for the list's action (`original` None, the selection posted
        again with the reason) or for the one attempt `original`."""
        return self.render(
            request,
            TEMPLATE,
            {
                "title": title,
                "intro": self.disqualify_intro,
                "attempts": [(a, self.disqualify_detail(a)) for a in attempts],
                "form": form,
                "original": original,
                "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
            },
        )

    def disqualify_all(self, request: HttpRequest, attempts: list[Attempt], reason: str) -> int:
        done = self.call_each(
            request,
            attempts,
            lambda a: self.disqualify_one(request, a, reason),
            lambda a: f"Disqualified: {a.disqualified_reason}",
        )
        if done:
            self.message_user(
                request,
                f"Disqualified {plural(done, self.disqualify_noun)}: {self.disqualify_done}",
                messages.SUCCESS,
            )
        return done
