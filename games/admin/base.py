"""What the curation admins share: calling a service with its refusal shown as a message,
forms whose validation is the service call, and the custom views' plumbing.

The admin writes only through `games.services`. A service refuses with a `ServiceError`
whose `.detail` is a sentence for people: the admin shows it (as a message, or on the form)
and never answers with a 500.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from typing import Any, TypeVar

from django import forms
from django.contrib import admin, messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse

from games.errors import ServiceError

T = TypeVar("T")


def call_service(request: HttpRequest, label: str, call: Callable[[], T]) -> T | None:
    """Run one service call; on refusal, add `label: detail` as an error message and answer
    None."""
    try:
        return call()
    except ServiceError as exc:
        messages.error(request, f"{label}: {exc.detail}")
        return None


class ServiceForm(forms.ModelForm):
    """A model form whose `clean` calls the service that makes the change.

    The call runs inside the admin's transaction (`changeform_view` is atomic), so a refusal
    lands on the form as an error and nothing is written; the service validates, so Django's
    own instance validation is skipped, and the admin's `save_model` writes nothing more.
    """

    def _post_clean(self) -> None:
        pass


class CurationAdmin(admin.ModelAdmin):
    """A ModelAdmin with the helpers of the custom views (replay, schedule, disqualify...)."""

    def url(self, view: str, *args: Any, query: str = "") -> str:
        """The admin URL `admin:games_<model>_<view>` with `args`."""
        name = f"admin:{self.opts.app_label}_{self.opts.model_name}_{view}"
        return reverse(name, args=args) + (f"?{query}" if query else "")

    def render(self, request: HttpRequest, template: str, context: dict[str, Any]) -> HttpResponse:
        return TemplateResponse(
            request,
            template,
            {
                **self.admin_site.each_context(request),
                "opts": self.opts,
                "app_label": self.opts.app_label,
                **context,
            },
        )

    def back_to(self, obj: Any) -> HttpResponseRedirect:
        return HttpResponseRedirect(self.url("change", obj.pk))

    def call_each(
        self,
        request: HttpRequest,
        objs: Iterable[T],
        call: Callable[[T], T],
        log: Callable[[T], str],
    ) -> int:
        """`call` on each object through `call_service` (a refusal is a message, the others
        go on); each change logged with `log(result)`. Answers how many were done."""
        done = 0
        for obj in objs:
            result = call_service(request, str(obj), partial(call, obj))
            if result is not None:
                self.log_change(request, result, log(result))
                done += 1
        return done


def plural(count: int, noun: str) -> str:
    """`1 attempt`, `2 attempts`."""
    return f"{count} {noun}{'s' if count != 1 else ''}"


class ReadOnlyAdmin:
    """A ModelAdmin mixin for records that the admin shows but never writes (they are written
    by services elsewhere): no add, change or delete."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
