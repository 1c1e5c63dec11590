"""The difficulty cut points applied from days players confirmed (`manage.py refit_difficulty
--apply`, games/difficulty.py): a read-only history, newest first. The command is the one way
to write them."""

from __future__ import annotations

from django.contrib import admin

from games.models import DifficultyCuts

from .base import ReadOnlyAdmin


@admin.register(DifficultyCuts)
class DifficultyCutsAdmin(ReadOnlyAdmin, admin.ModelAdmin):
    list_display = ["game", "cuts", "days", "created_at", "method"]
    list_filter = ["game"]
    readonly_fields = ["game", "cuts", "days", "method", "created_at"]
