"""The leagues' pages: your leagues and everyone's seasons (`/leagues/`), a league's page
(`/leagues/<id>/`) and an invite (`/leagues/join/<code>/`).

As the other pages, they only read who the visitor is (never creating a player) and hand the
page's module its words; everything else comes from the leagues' API (docs/api.md, "Leagues
and seasons"), asked by frontend/static/frontend/pages/leagues.js, league.js and
league_join.js, which say its refusals in words (pages/leaguewords.js).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_safe

from frontend.catalogue import plural_forms
from frontend.languages import localized
from frontend.vocabulary import GAME_PAGES
from games.api import identity
from leagues.services import NAME_MAX, NAME_MIN

#: How often a league's page reads its data again while it is in sight (ms); live sockets
#: are a later step.
REFRESH_MS = 30_000


def league_strings() -> dict[str, Any]:
    """The words of the three leagues' pages (one catalogue: they share tables and refusals)."""
    strings: dict[str, Any] = {
        # refusals, by the API's codes
        "lg_error_league_full": _("This league is full: it has as many members as a league may."),
        "lg_error_leagues_full": _(
            "You are in as many leagues as a player may be: leave one of them first."
        ),
        "lg_error_creations": _(
            "Too many leagues were made from this connection today: please try again tomorrow."
        ),
        "lg_error_not_owner": _("Only the league’s owner may do that."),
        "lg_error_not_found": _("There is no such league, or you are not one of its members."),
        "lg_error_owner_remove": _("The owner cannot be removed: the owner leaves instead."),
        "lg_error_member_gone": _("That player is no longer a member."),
        "lg_error_name": _(
            "A league’s name has {min} to {max} characters, with a letter or a digit among them."
        ),
        "lg_error_throttled": _("Too many tries: please wait a minute and try again."),
        "lg_error_network": _("The server could not be reached. Please try again."),
        "lg_error_failed": _("Something went wrong. Please try again."),
        # standings
        "lg_rank": _("Rank"),
        "lg_player": _("Player"),
        "lg_points": _("Points"),
        "lg_days": _("Days"),
        "lg_wins": _("Wins"),
        "lg_you": _("you"),
        "lg_no_points": _("No points yet: a day’s points come once the day is over."),
        "lg_week_caption": _("This week, {first} to {last}"),
        "lg_month_caption": _("This month, {first} to {last}"),
        "lg_all_time_caption": _("All time"),
        "lg_season_week": _("Week {season}, {first} to {last}"),
        "lg_season_month": _("Month {season}, {first} to {last}"),
        "lg_season_open": _("Running: each day counts once it is over."),
        "lg_season_closed": _("Closed."),
        "lg_previous_week": _("Previous week"),
        "lg_previous_month": _("Previous month"),
        "lg_current_week": _("This week"),
        "lg_current_month": _("This month"),
        "lg_loading": _("Loading…"),
        # your leagues
        "lg_none": _("You are in no league yet: make one, or open a friend’s invite."),
        "lg_owner": _("owner: {name}"),
        "lg_members": plural_forms(lambda n: ngettext("{n} member", "{n} members", n)),
        "lg_made": _("The league “{name}” is made: share its invite from its page."),
        # a league's page
        "lg_owner_tag": _("owner"),
        "lg_remove": _("Remove {name}"),
        "lg_remove_confirm": _("Remove {name} from the league?"),
        "lg_removed": _("{name} is no longer a member."),
        "lg_today_caption": _("{game}, today’s results"),
        "lg_result": _("Result"),
        "lg_won": plural_forms(lambda n: ngettext("won in {n} move", "won in {n} moves", n)),
        "lg_resigned": plural_forms(
            lambda n: ngettext(
                "resigned with {n} card on the foundations",
                "resigned with {n} cards on the foundations",
                n,
            )
        ),
        "lg_playing": plural_forms(
            lambda n: ngettext(
                "playing now: {n} card on the foundations",
                "playing now: {n} cards on the foundations",
                n,
            )
        ),
        "lg_not_yet": _("Not played yet: {names}."),
        "lg_nobody_yet": _("Nobody in the league has played it yet."),
        "lg_no_dailies": _("There is no daily today yet."),
        "lg_copied": _("Copied."),
        "lg_copy_by_hand": _("The link is selected: copy it with Ctrl+C (or ⌘+C)."),
        "lg_renamed": _("The league is now called “{name}”."),
        "lg_new_invite_confirm": _(
            "Make a new invite link? The current link stops working at once."
        ),
        "lg_new_invite_done": _("A new invite link is ready: the old one no longer works."),
        "lg_leave_confirm": _("Leave “{name}”? You can come back only by an invite."),
        "lg_owner_leave_note": _(
            "If you leave, the league goes to the member who joined first after you."
        ),
        # an invite
        "lg_invite_to": _("{owner} invites you to the league “{name}”."),
        "lg_invite_members": _("Its members: {names}."),
        "lg_retired": _(
            "This invite no longer works: the league has a new one, or it has ended. Ask one "
            "of its members for the current link."
        ),
        "lg_joining": _("Joining…"),
        "lg_name_taken": _("That name is taken: please choose another one."),
        "lg_name_bad": _(
            "Use 2 to 24 letters, digits, spaces and . ' - _ (not starting with “Guest”)."
        ),
    }
    return {key: value if isinstance(value, dict) else str(value) for key, value in strings.items()}


def _config(request: HttpRequest, **more: Any) -> dict[str, Any]:
    player = identity.current_player(request)
    return {
        "you": player.pk if player else None,
        "games": {slug: str(page.name) for slug, page in GAME_PAGES.items()},
        "name_min": NAME_MIN,
        "name_max": NAME_MAX,
        **more,
    }


@require_safe
@localized
def leagues(request: HttpRequest) -> HttpResponse:
    """Your leagues, the form that makes one, and everyone's standings of this week and this
    month (or of a past season: `?date=` a day of it)."""
    context = {
        "player": identity.current_player(request),
        "name_min": NAME_MIN,
        "name_max": NAME_MAX,
        "config": _config(request, date=request.GET.get("date", "")[:10]),
        "strings": league_strings(),
    }
    return render(request, "frontend/leagues.html", context)


@require_safe
@localized
def league(request: HttpRequest, league_id: int) -> HttpResponse:
    """A league's page, for its members; whether the visitor is one is the API's answer, said
    in words by the page."""
    context = {
        "league_id": league_id,
        "name_min": NAME_MIN,
        "name_max": NAME_MAX,
        "config": _config(request, league=league_id, refresh_ms=REFRESH_MS),
        "strings": league_strings(),
    }
    return render(request, "frontend/league.html", context)


@require_safe
@localized
def league_join(request: HttpRequest, code: str) -> HttpResponse:
    """What an invite leads to, and joining it; a visitor without a player names themselves on
    the way in."""
    player = identity.current_player(request)
    context = {
        "player": player,
        "config": _config(request, code=code[:32]),
        "strings": league_strings(),
    }
    return render(request, "frontend/league_join.html", context)
