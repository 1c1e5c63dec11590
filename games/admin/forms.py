"""The curation forms. Those that write call their service in `clean` (see `ServiceForm`)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import F, Max
from django.urls import reverse
from django.utils.html import format_html

from games import services
from games.errors import ServiceError
from games.models import SEED_MAX, DailyChallenge, Deal, Player

from .base import ServiceForm


class DealAddForm(ServiceForm):
    """A new candidate deal from a seed or a pasted deal string, made by `deal_create`."""

    seed = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=SEED_MAX,
        help_text="An integer from 0 to 2^64-1 (docs/deals.md). Leave empty to paste a deal.",
    )
    deal_string = forms.CharField(
        required=False,
        label="Deal string",
        widget=forms.Textarea(attrs={"rows": 3, "cols": 80, "spellcheck": "false"}),
        help_text="52 card codes such as 7D 9C 4D ..., in dealing order (docs/rules.md, "
        "“Deal strings”). Line breaks and extra spaces are fine.",
    )
    solve = forms.BooleanField(
        required=False,
        initial=True,
        label="Solve it now",
        help_text="Send it to the background solver at once.",
    )

    class Meta:
        model = Deal
        fields = ["game", "seed", "deal_string", "notes"]

    def clean_deal_string(self) -> str | None:
        text = " ".join(self.cleaned_data.get("deal_string", "").split())
        return text or None

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        seed, deal_string = data.get("seed"), data.get("deal_string")
        try:
            self.instance = services.deal_create(
                game=data["game"], seed=seed, deal_string=deal_string, notes=data.get("notes", "")
            )
        except ServiceError as exc:
            if exc.code == "bad_deal":
                self.add_error("deal_string" if deal_string else "seed", exc.detail)
            elif exc.code == "deal_exists" and "deal_id" in exc.extra:
                url = reverse("admin:games_deal_change", args=[exc.extra["deal_id"]])
                self.add_error(None, format_html('{} <a href="{}">Open it.</a>', exc.detail, url))
            else:
                self.add_error(None, exc.detail)
        return data


class DealNotesForm(ServiceForm):
    """The one thing of a deal an admin edits in place: the notes (`deal_set_notes`)."""

    class Meta:
        model = Deal
        fields = ["notes"]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not self.errors and "notes" in self.changed_data:
            services.deal_set_notes(deal=self.instance, notes=data.get("notes", ""))
        return data


class ScheduleForm(forms.Form):
    """The date a deal is to be played on (`daily_schedule`)."""

    date = forms.DateField(
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text="UTC date. A day nobody has played yet may be replaced.",
    )


class DealChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: Deal) -> str:
        last = getattr(obj, "last_scheduled", None)
        when = f"last scheduled {last.isoformat()}" if last else "never scheduled"
        return f"{obj} · difficulty {obj.difficulty} · par {obj.par} · {when}"


def approved_deals(game: str | None = None) -> Any:
    """The deals that may be scheduled (of `game`, or of every game): never-scheduled first,
    then the easiest and shortest."""
    deals = Deal.objects.schedulable()
    if game is not None:
        deals = deals.filter(game=game)
    return deals.annotate(last_scheduled=Max("dailies__date")).order_by(
        "game", F("last_scheduled").asc(nulls_first=True), "difficulty", "par", "pk"
    )


class DayDealForm(forms.Form):
    """Another approved, certified deal for one game's day (the swap)."""

    deal = DealChoiceField(
        queryset=Deal.objects.none(),
        empty_label=None,
        help_text="Approved deals with a certificate; never-scheduled ones first.",
    )

    def __init__(self, *args: Any, game: str, exclude: int | None = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        deals = approved_deals(game)
        if exclude is not None:
            deals = deals.exclude(pk=exclude)
        self.fields["deal"].queryset = deals


class DailyAddForm(ServiceForm):
    """A day's daily made by `daily_schedule` (which replaces an unplayed day's deal)."""

    user: Any = None  # set by the admin: who schedules

    class Meta:
        model = DailyChallenge
        fields = ["game", "date", "deal"]
        widgets = {"date": forms.DateInput(attrs={"type": "date"})}

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["deal"].queryset = approved_deals()
        self.fields["deal"].help_text = "Approved deals with a certificate."

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        try:
            self.instance = services.daily_schedule(
                game=data["game"], date=data["date"], deal=data["deal"], by=self.user
            )
        except ServiceError as exc:
            self.add_error(None, exc.detail)
        return data


class DisqualifyForm(forms.Form):
    """The reason for disqualifying (required); `help_text` says who reads it."""

    reason = forms.CharField(max_length=1000, widget=forms.Textarea(attrs={"rows": 3, "cols": 70}))

    def __init__(self, *args: Any, help_text: str = "", **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["reason"].help_text = help_text


class ApproveForm(forms.Form):
    """Approving a held result: an optional note for the other admins."""

    note = forms.CharField(
        required=False,
        max_length=1000,
        widget=forms.Textarea(attrs={"rows": 2, "cols": 70}),
        help_text="Optional, for the other admins (why it is fine).",
    )


class PlayerForm(ServiceForm):
    """A player's display name, changed through `player_rename` and its validation."""

    class Meta:
        model = Player
        fields = ["display_name"]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors or "display_name" not in self.changed_data:
            return data
        try:
            services.player_rename(player=self.instance, display_name=data["display_name"])
        except ServiceError as exc:
            self.add_error("display_name", exc.detail)
        return data
