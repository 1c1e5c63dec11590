"""Pages of the site. Views stay thin: pick the data, render a template.

Pages only read: the day comes from `games.clock`, the data from `games.selectors` and
`leaderboards.selectors` (plus read-only checks that a day had a daily), and the player from
the player cookie without ever creating one. Everything live (countdown, leaderboards, the
name prompt, charts) is done by the small ES modules under static/frontend/pages/, through the
REST API and the daily's socket. Each page is rendered in the visitor's language
(`frontend.languages.localized`), with the site's words for games and results
(`frontend.vocabulary`).
"""

from __future__ import annotations

import calendar
import datetime as dt
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.dates import WEEKDAYS_ABBR
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_safe

from frontend.catalogue import frontend_strings, plural_forms, start_refusal_sentences
from frontend.languages import localized
from frontend.rating_info import (
    deal_rating_info,
    deal_ratings_info,
    player_ratings_info,
    rating_charts,
)
from frontend.vocabulary import (
    GAME_PAGES,
    LEFT_WORD,
    STATUS_WORDS,
    clock_policy,
    deal_promise,
    difficulty_info,
    result_info,
    review_of,
)
from games import clock, names, selectors
from games.api import identity
from games.errors import ServiceError
from games.models import Attempt, DailyChallenge, Player
from leaderboards import selectors as board_selectors
from leaderboards import streaks
from races import selectors as race_selectors


def not_found(request: HttpRequest, message: str) -> HttpResponse:
    """The site's 404 page, with a sentence saying what was not found."""
    return render(request, "frontend/404.html", {"message": message}, status=404)


@localized
def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """The site's 404 page for any unknown address (config/urls.py: `handler404`)."""
    return not_found(request, _("There is no page at this address."))


def _player(request: HttpRequest) -> Player | None:
    """The visitor's player, read from the cookie or the session; never created here."""
    return identity.current_player(request)


def _page_strings(**strings: Any) -> dict[str, Any]:
    """Translated sentences handed to a page's module as a JSON block (a plural entry, a dict
    of forms from `plural_forms`, as it is)."""
    return {key: value if isinstance(value, dict) else str(value) for key, value in strings.items()}


# -- home --------------------------------------------------------------------------------------


def seconds_to_next_day(now: dt.datetime) -> int:
    """Whole seconds until the next UTC midnight, when the new dailies start."""
    tomorrow = dt.datetime.combine(now.date() + dt.timedelta(days=1), dt.time(), tzinfo=dt.UTC)
    return max(0, int((tomorrow - now).total_seconds()))


def _countdown_text(seconds: int) -> str:
    hours, rest = divmod(seconds, 3600)
    return f"{hours:02d}:{rest // 60:02d}:{rest % 60:02d}"


@require_safe
@localized
def home(request: HttpRequest) -> HttpResponse:
    player = _player(request)
    today = clock.today()
    dailies = selectors.dailies_today()
    summaries = selectors.daily_summaries(dailies=dailies, player=player)
    by_game = {d.game: (d, summary) for d, summary in zip(dailies, summaries, strict=True)}
    # Today's deals are played for rank: their rating is yesterday's deals' (once rated).
    yesterday = today - dt.timedelta(days=1)
    past = {d.game: d for d in selectors.dailies_between(start=yesterday, end=yesterday)}
    cards = []
    for page in GAME_PAGES.values():
        daily, summary = by_game.get(page.slug, (None, None))
        before = past.get(page.slug)
        cards.append(
            {
                "game": page,
                "daily": daily,
                "summary": summary,
                "difficulty": difficulty_info(summary["difficulty"]) if summary else None,
                "result": result_info(summary["attempt"]) if summary else None,
                "yesterday": before,
                "yesterday_difficulty": difficulty_info(before.deal.difficulty) if before else None,
                "yesterday_rating": deal_rating_info(before),
            }
        )
    seconds = seconds_to_next_day(clock.now())
    context = {
        "cards": cards,
        "today": today,
        "player": player,
        "countdown_seconds": seconds,
        "countdown_text": _countdown_text(seconds),
        "next_day": today + dt.timedelta(days=1),
        "strings": _page_strings(
            new_day=_("The new deals are out: reload the page to play them."),
            name_taken=_("That name is taken: please choose another one."),
            name_bad=_(
                "Use 2 to 24 letters, digits, spaces and . ' - _ (not starting with “Guest”)."
            ),
            throttled=_("Too many tries: please wait a minute and try again."),
            failed=_("Something went wrong. Please try again."),
            welcome=_("Welcome, {name}!"),
        ),
    }
    return render(request, "frontend/home.html", context)


# -- play --------------------------------------------------------------------------------------


def _render_play(request: HttpRequest, game: str, date: dt.date | None) -> HttpResponse:
    page = GAME_PAGES.get(game)
    if page is None:
        return not_found(request, _("There is no game called “%(game)s”.") % {"game": game[:40]})
    today = clock.today()
    day = date or today
    if day > today:
        return not_found(request, _("That day's deal is not out yet."))
    daily = (
        DailyChallenge.objects.select_related("deal")
        .filter(game=game, date=day, published=True)
        .first()
    )
    if day < today and daily is None:
        return not_found(request, _("There was no daily on that day."))
    player = _player(request)
    context = {
        "game": page.slug,
        "game_title": page.name,
        "game_page": page,
        "date": day.isoformat(),
        "practice": day < today,
        "today": today.isoformat(),
        # Stated beside the deal's promise (proven winnable), as the home page does.
        "difficulty": difficulty_info(daily.deal.difficulty) if daily else None,
        "player": player,
        "refusal": _start_refusal(request, daily, player) if daily else None,
        "offer_name": not _name_chosen(player),
        "frontend_strings": frontend_strings(request),
    }
    return render(request, "frontend/play.html", context)


def _name_chosen(player: Player | None) -> bool:
    """Whether the visitor chose the name the boards show (a guest made by a game's start, or
    one who skipped the name, has a generated "Guest 123456": the play page's end offers to
    choose one)."""
    return player is not None and not names.is_reserved(names.name_key(player.display_name))


def _start_refusal(
    request: HttpRequest, daily: DailyChallenge, player: Player | None
) -> dict[str, str] | None:
    """Why this visitor may not start `daily` now (`selectors.daily_start_check`: a daily still
    played for the boards, which nothing but their own ranked game may show), in words, or
    None: the page then says so instead of drawing a table."""
    try:
        selectors.daily_start_check(
            daily=daily,
            player=player,
            device=identity.device_seen(request),
            address=identity.client_address(request),
        )
    except ServiceError as refusal:
        until = daily.ranked_until.strftime("%Y-%m-%d %H:%M UTC")
        sentence = start_refusal_sentences().get(f"start_{refusal.code}")
        return {
            "code": refusal.code,
            "text": sentence.replace("{until}", until) if sentence else refusal.detail,
        }
    return None


@require_safe
@localized
def play_today(request: HttpRequest, game: str) -> HttpResponse:
    return _render_play(request, game, None)


@require_safe
@localized
def play_day(request: HttpRequest, game: str, date: str) -> HttpResponse:
    day = clock.date_from_text(date)
    if day is None:
        return not_found(request, _("That is not a date (use YYYY-MM-DD)."))
    return _render_play(request, game, day)


@require_safe
def solution(request: HttpRequest, game: str, date: str) -> HttpResponse:
    """The solver's line of a past daily, step by step, as JSON for the play page's replay
    (`games.selectors.daily_solution`). Today's and future days are 404, and so is yesterday's
    until its ranked play has ended (`DailyChallenge.ranked_until`): the line is never shown
    while a ranked attempt of its daily may still move. Nor to a player the games' refusals
    turn away (`selectors.solution_check`: a racer while a race on the deal runs, 409
    `solution_race`). A past day's line never changes, so browsers may keep it (by cookie:
    whether it is shown depends on who asks)."""
    day = clock.date_from_text(date)
    daily = (
        DailyChallenge.objects.select_related("deal")
        .filter(game=game, date=day, published=True)
        .first()
        if game in GAME_PAGES and day is not None and day < clock.today()
        else None
    )
    # Not while a ranked attempt of the day may still move (the grace after midnight).
    if daily is None or daily.ranked_play_open() or not daily.deal.certificate:
        return JsonResponse(
            {"code": "not_found", "detail": "No solver's line for that day (yet)."}, status=404
        )
    try:
        selectors.solution_check(daily=daily, player=_player(request))
    except ServiceError as refusal:
        return JsonResponse({"code": refusal.code, "detail": refusal.detail}, status=refusal.status)
    response = JsonResponse(selectors.daily_solution(daily=daily))
    patch_cache_control(response, public=True, max_age=3600)
    patch_vary_headers(response, ["Cookie"])
    return response


# -- board -------------------------------------------------------------------------------------


#: Rows of the top of a board the page shows before the rows around the player.
BOARD_TOP = 10


def _day_with_daily(game: str, day: dt.date) -> dt.date | None:
    """`day` when `game` had a published daily then (a board worth linking to), else None."""
    exists = DailyChallenge.objects.filter(game=game, date=day, published=True).exists()
    return day if exists else None


@require_safe
@localized
def board(request: HttpRequest, game: str, date: str) -> HttpResponse:
    page = GAME_PAGES.get(game)
    day = clock.date_from_text(date)
    if page is None:
        return not_found(request, _("There is no game called “%(game)s”.") % {"game": game[:40]})
    if day is None:
        return not_found(request, _("That is not a date (use YYYY-MM-DD)."))
    today = clock.today()
    if day > today:
        return not_found(request, _("That day's deal is not out yet."))
    daily = (
        DailyChallenge.objects.select_related("deal")
        .filter(game=game, date=day, published=True)
        .first()
    )
    if daily is None:
        if day < today:
            return not_found(request, _("There was no daily on that day."))
        summary = None
    else:
        summary = selectors.daily_summary(daily=daily, player=_player(request))
    context = {
        "game": page,
        "others": [other for other in GAME_PAGES.values() if other.slug != page.slug],
        "day": day,
        "today": today,
        "is_today": day == today,
        "previous_day": _day_with_daily(game, day - dt.timedelta(days=1)),
        "next_day": _day_with_daily(game, day + dt.timedelta(days=1)) if day < today else None,
        "summary": summary,
        "difficulty": difficulty_info(summary["difficulty"]) if summary else None,
        "raceable": daily is not None and race_selectors.daily_raceable(daily),
        "config": {
            "game": page.slug,
            "date": day.isoformat(),
            "top": f"/api/leaderboards/{page.slug}/{day.isoformat()}/?limit={BOARD_TOP}",
            "api": f"/api/leaderboards/{page.slug}/{day.isoformat()}/?around=me",
            "socket": f"/ws/daily/{page.slug}/{day.isoformat()}/" if day == today else "",
            "ratings": f"/api/leaderboards/{page.slug}/{day.isoformat()}/ratings/",
        },
        "strings": _page_strings(
            rating_provisional=_("{rating}, provisional"),
            unavailable=_("The leaderboard is not available yet. Please come back later."),
            empty=_("Nobody has finished this deal yet."),
            failed=_("The leaderboard could not be loaded."),
            you=_("you"),
            gap=_("Other players ranked in between are not shown."),
            tied=_("tied"),
            won=STATUS_WORDS["won"],
            resigned=STATUS_WORDS["resigned"],
            playing=STATUS_WORDS["playing"],
            left=LEFT_WORD,
            feed_won=_("{player} won in {moves}"),
            feed_progress=_("{player}: {cards} on the foundations after {moves}"),
            n_moves=plural_forms(lambda n: ngettext("{n} move", "{n} moves", n)),
            n_cards=plural_forms(lambda n: ngettext("{n} card", "{n} cards", n)),
            undos_note=plural_forms(lambda n: ngettext("{n} undo", "{n} undos", n)),
            live=_("Live"),
            offline=_("Not live: showing the last loaded board."),
            total=plural_forms(
                lambda n: ngettext("{n} player on the board", "{n} players on the board", n)
            ),
        ),
    }
    return render(request, "frontend/board.html", context)


@require_safe
def boards(request: HttpRequest) -> HttpResponse:
    """The Boards link: today's board of the first game."""
    first = next(iter(GAME_PAGES))
    return redirect("frontend:board", game=first, date=clock.today().isoformat())


# -- archive -----------------------------------------------------------------------------------


def _month_start(text: str | None, today: dt.date) -> dt.date | None:
    if not text:
        return today.replace(day=1)
    try:
        year, month = (int(part) for part in text.split("-"))
        return dt.date(year, month, 1) if len(text) == 7 else None
    except ValueError:
        return None


def _add_month(day: dt.date, months: int) -> dt.date:
    index = day.year * 12 + day.month - 1 + months
    return dt.date(index // 12, index % 12 + 1, 1)


def observed_info(observed: dict[str, Any] | None) -> dict[str, Any] | None:
    """What the archive shows of how a closed day went (`DailyChallenge.observed`, recorded at
    the day's end): how many played it ranked and the share of them who won, beside the
    deal's difficulty (the solver's, in words as everywhere). None before the day's end, or
    when nobody played."""
    if not observed or not observed.get("players") or observed.get("win_rate") is None:
        return None
    return {"players": observed["players"], "rate": f"{round(100 * observed['win_rate'])}%"}


@require_safe
@localized
def archive(request: HttpRequest) -> HttpResponse:
    today = clock.today()
    start = _month_start(request.GET.get("month"), today)
    if start is None:
        return not_found(request, _("That is not a month (use YYYY-MM)."))
    if start > today:
        return not_found(request, _("That month has not come yet."))
    days_in_month = calendar.monthrange(start.year, start.month)[1]
    end = start.replace(day=days_in_month)
    dailies = selectors.dailies_between(start=start, end=end)
    player = _player(request)
    results = selectors.attempts_at_dailies(dailies=dailies, player=player)
    ratings = deal_ratings_info(dailies)
    by_day: dict[dt.date, list[dict[str, Any]]] = {}
    for daily in dailies:
        by_day.setdefault(daily.date, []).append(
            {
                "game": GAME_PAGES.get(daily.game),
                "slug": daily.game,
                "result": result_info(results.get(daily.pk)),
                "difficulty": difficulty_info(daily.deal.difficulty),
                "rating": ratings.get(daily.pk),
                "observed": observed_info(daily.observed),
                "raceable": race_selectors.daily_raceable(daily),
            }
        )
    days = []
    for number in range(1, days_in_month + 1):
        day = start.replace(day=number)
        days.append(
            {
                "date": day,
                "is_today": day == today,
                "future": day > today,
                "dailies": by_day.get(day, []),
            }
        )
    earliest = (
        DailyChallenge.objects.filter(published=True)
        .order_by("date")
        .values_list("date", flat=True)
        .first()
    )
    previous = _add_month(start, -1)
    following = _add_month(start, 1)
    context = {
        "month": start,
        "days": days,
        "leading_blanks": range(start.weekday()),
        "weekdays": [WEEKDAYS_ABBR[index] for index in range(7)],
        "previous_month": previous if earliest and earliest < start else None,
        "next_month": following if following <= today else None,
        "today": today,
        "player": player,
        "strings": _page_strings(analysis_opens=_("Analysis opens at {time}")),
    }
    return render(request, "frontend/archive.html", context)


# -- me ----------------------------------------------------------------------------------------


def player_overview(player: Player, today: dt.date) -> dict[str, Any]:
    """The Me page's numbers and chart series: the ranked dailies played (every one, those under
    review or disqualified too, as the list below them shows), the leaderboards' record of the
    player (won, streaks, moves of the wins, wins per week: the wins that stand on the boards),
    the wins under review apart (`held_wins`: they count once a reviewer approves them), the win
    rate of the games decided (under review is not yet decided), the length of each streak of
    wins that stand on the boards, and the latest ranked dailies played, with what the review
    said."""
    stats = board_selectors.player_stats(player=player)
    ranked = sorted(
        selectors.player_attempts(player=player).filter(ranked=True).started(),
        key=lambda attempt: attempt.daily.date,
    )
    held = [attempt for attempt in ranked if review_of(attempt) == "held"]
    held_wins = sum(1 for attempt in held if attempt.status == Attempt.Status.WON)
    decided = len(ranked) - len(held)
    win_days = streaks.win_days(player_ids=[player.pk]).get(player.pk, set())
    recent = [
        {
            "date": attempt.daily.date,
            "game": GAME_PAGES.get(attempt.game),
            "slug": attempt.game,
            "result": result_info(attempt),
        }
        for attempt in reversed(ranked[-10:])
    ]
    return {
        "played": len(ranked),
        "won": stats["won"],
        "held_wins": held_wins,
        "win_rate": round(100 * stats["won"] / decided) if decided else None,
        "current_streak": stats["current_streak"],
        "best_streak": stats["best_streak"],
        "wins_over_time": [
            {"week": week["week"], "label": week["week"][5:], "wins": week["wins"]}
            for week in stats["weekly_wins"]
        ],
        "moves_distribution": [
            {"label": f"{bucket['from']}–{bucket['to']}", "count": bucket["count"]}
            for bucket in stats["moves_distribution"]
        ],
        "streaks": streaks.runs(win_days, today=today)[-12:],
        "recent": recent,
    }


@require_safe
@localized
def me(request: HttpRequest) -> HttpResponse:
    player = _player(request)
    overview = player_overview(player, clock.today()) if player else None
    ratings = player_ratings_info(player) if player else None
    context = {
        "player": player,
        "overview": overview,
        "ratings": ratings,
        "charts": (
            {
                "wins_over_time": overview["wins_over_time"],
                "moves_distribution": overview["moves_distribution"],
                "streaks": overview["streaks"],
                "ratings": rating_charts(ratings) if ratings else [],
            }
            if overview
            else None
        ),
        "strings": _page_strings(
            wins_over_time=_("Wins per week"),
            moves_distribution=_("Moves in won games"),
            streaks=_("Streaks (days in a row with a win)"),
            no_data=_("No data yet."),
            rating=_("Rating"),
            name_taken=_("That name is taken: please choose another one."),
            name_bad=_(
                "Use 2 to 24 letters, digits, spaces and . ' - _ (not starting with “Guest”)."
            ),
            throttled=_("Too many tries: please wait a minute and try again."),
            failed=_("Something went wrong. Please try again."),
            analysis_opens=_("Analysis opens at {time}"),
        ),
    }
    return render(request, "frontend/me.html", context)


# -- analysis --------------------------------------------------------------------------------


def analysis_strings() -> dict[str, Any]:
    """The analysis page's own words (frontend/static/frontend/pages/report.js and
    analysis.js), beside the play page's catalogue that names cards, piles and moves."""
    return _page_strings(
        analysis_asking=_("Asking for the analysis…"),
        analysis_queued=_("Analysing your game… (waiting for the solver)"),
        analysis_running=_("Analysing your game…"),
        analysis_ready=_("The analysis is ready."),
        analysis_failed=_("The analysis could not be finished. Please try again."),
        analysis_again=_("Try again"),
        analysis_not_found=_(
            "This is not your game (or there is no such game): only its player can analyse it."
        ),
        analysis_not_yet=_(
            "The analysis opens when the day’s ranked play is over, at {time}: until then the "
            "deal’s solution stays secret."
        ),
        analysis_not_yet_soon=_(
            "The analysis opens when the day’s ranked play is over: until then the deal’s "
            "solution stays secret."
        ),
        analysis_unfinished=_(
            "This game is still being played: the analysis opens once it is over."
        ),
        analysis_race=_(
            "A race on this deal is still running: the analysis opens once the race is over."
        ),
        analysis_throttled=_("Too many tries: please wait a minute and try again."),
        analysis_network=_("The server could not be reached. Please try again."),
        analysis_error=_("Something went wrong. Please try again."),
        analysis_summary=_("Summary"),
        analysis_won=_("You won in {moves}."),
        analysis_resigned=_("You resigned after {moves}."),
        analysis_unfinished_game=_("This game was left unfinished after {moves}."),
        analysis_par_proven=_("Par {par}: the fewest moves any win takes (proven)."),
        analysis_par_known=_(
            "Par {par}: the fewest moves of any win the solver knows (not proven the fewest)."
        ),
        analysis_over_par=plural_forms(
            lambda n: ngettext("{n} move over par.", "{n} moves over par.", n)
        ),
        analysis_on_par=_("Right on par."),
        analysis_from_deal=_("Fewest moves to win from the deal, by this analysis: {value}."),
        analysis_lost_at=_("No win was left after move {k}."),
        analysis_winning_move=_("A winning move from the position before move {k}: {move}"),
        analysis_never_winnable=_("This deal could not be won, not even from its start."),
        analysis_still_winnable=plural_forms(
            lambda n: ngettext(
                "A win was still there: {n} more move would have won.",
                "A win was still there: {n} more moves would have won.",
                n,
            )
        ),
        analysis_maybe_winnable=_(
            "The solver could not decide in its time whether a win was still there."
        ),
        analysis_hidden_cards=_(
            "The solver knew every card, the face-down ones included: the day is over, so the "
            "deal’s solution is public. You could not see them while you played."
        ),
        analysis_budget_all=plural_forms(
            lambda n: ngettext(
                "The solver settled the game’s {n} position, in {seconds} s.",
                "The solver settled every one of the game’s {n} positions, in {seconds} s.",
                n,
            )
        ),
        analysis_budget_some=_(
            "For {bounded} of the game’s {total} positions the solver’s time ran out: only "
            "bounds are known there ({seconds} s in all)."
        ),
        analysis_distance_won=_("won"),
        analysis_distance_no_win=_("no win left"),
        analysis_distance_at_least=_("at least {n}"),
        analysis_distance_between=_("{lower} to {upper}"),
        analysis_chart_title=_("Fewest moves still needed to win, after each move"),
        analysis_chart_label=_("Fewest moves to win, move by move"),
        analysis_chart_keys=_(
            "Click a point, or focus the chart and use Left and Right, Home and End, to see "
            "each position."
        ),
        analysis_axis_moves=_("Moves played"),
        analysis_legend_exact=_("fewest moves to win"),
        analysis_legend_bounds=_("bound: the budget ran out"),
        analysis_legend_no_win=_("no win left (the top band)"),
        analysis_legend_par=_("par"),
        analysis_legend_stretch=_("the costliest stretches"),
        analysis_table_caption=_("Move by move"),
        analysis_col_move=_("Move"),
        analysis_col_played=_("Your move"),
        analysis_col_distance=_("Fewest moves to win"),
        analysis_col_best=_("Solver’s move"),
        analysis_start=_("Start"),
        analysis_show_start=_("Show the deal, before the first move"),
        analysis_show_after=_("Show the position after move {i}"),
        analysis_start_position=_("The deal, before the first move"),
        analysis_after_move=_("After move {i} of {n}"),
        analysis_position_start=_("The position: the deal, before the first move"),
        analysis_position_after=_("The position after move {i}"),
        analysis_your_next=_("Your next move"),
        analysis_game_ended=_("none: your game ended here"),
        analysis_solver_won=_("none: the game is won"),
        analysis_solver_none=_("none: no win is left"),
        analysis_solver_unknown=_("not found in the solver’s time"),
        analysis_draw=_("Draw from the stock."),
        analysis_run=plural_forms(
            lambda n: ngettext("(a run of {n} card)", "(a run of {n} cards)", n)
        ),
        analysis_replay_slider=_("Move of your game"),
        analysis_replay_board=_("Your game: the table at the position shown"),
        analysis_stretches_title=_("Where moves were lost"),
        analysis_stretch=_("Moves {from}–{to}: {lost}"),
        analysis_lost_moves=plural_forms(lambda n: ngettext("{n} move lost", "{n} moves lost", n)),
        analysis_lost_at_least=plural_forms(
            lambda n: ngettext("at least {n} move lost", "at least {n} moves lost", n)
        ),
        analysis_stretch_show=_("Show it on the chart"),
        analysis_better_intro=_(
            "A shorter way from the position before move {from}, {moves} long: step through it."
        ),
        analysis_better_start=_("The position before move {from}, where the shorter way starts"),
        analysis_better_slider=_("Move of the shorter way"),
        analysis_better_board=_("The shorter way: the table after the move shown"),
    )


@require_safe
@localized
def analysis(request: HttpRequest, attempt_id: int) -> HttpResponse:
    """ "Analyse my game": the page asks the API for the analysis of one of the visitor's games
    and shows it (frontend/static/frontend/pages/analysis.js). Whose game it is, and whether
    its analysis may open yet, is the API's answer, said in words by the page."""
    context = {
        "attempt_id": attempt_id,
        "player": _player(request),
        "config": {
            "attempt": attempt_id,
            "api": f"/api/attempts/{attempt_id}/analysis/",
            "games": {slug: str(page.name) for slug, page in GAME_PAGES.items()},
        },
        "strings": {**frontend_strings(request), **analysis_strings()},
    }
    return render(request, "frontend/analysis.html", context)


# -- account -----------------------------------------------------------------------------------


@require_safe
@localized
def account(request: HttpRequest) -> HttpResponse:
    player = _player(request)
    context = {
        "player": player,
        "username": player.user.get_username() if player and player.user_id else None,
        "strings": _page_strings(
            taken=_("That username is taken."),
            invalid=_("Please check the username and password."),
            bad_credentials=_("Wrong username or password."),
            throttled=_("Too many tries: please wait a minute and try again."),
            failed=_("Something went wrong. Please try again."),
        ),
    }
    return render(request, "frontend/account.html", context)


# -- rules -------------------------------------------------------------------------------------


@require_safe
@localized
def rules(request: HttpRequest, game: str) -> HttpResponse:
    page = GAME_PAGES.get(game)
    if page is None:
        return not_found(request, _("There is no game called “%(game)s”.") % {"game": game[:40]})
    return render(
        request,
        f"frontend/rules/{page.slug}.html",
        {
            "game": page,
            "play_url": reverse("frontend:play", kwargs={"game": page.slug}),
            "clock_policy": clock_policy(),
            "deal_promise": deal_promise(),
        },
    )


# -- races between friends ---------------------------------------------------------------------


def _race_strings(request: HttpRequest) -> dict[str, Any]:
    """The race pages' words: the play page's catalogue and the race's own."""
    return {
        **frontend_strings(request),
        **_page_strings(
            race_join=_("Join the race"),
            race_ready=_("I'm ready"),
            race_not_ready=_("Not ready yet"),
            race_start=_("Start the race"),
            race_leave=_("Leave"),
            race_come_back=_("Come back"),
            race_waiting=_("Waiting for players: the race starts when everyone is ready."),
            race_countdown=_("The race starts in {n}…"),
            race_racing=_("The race is on."),
            race_over=_("The race is over."),
            race_share=_("Send this link to your friends:"),
            race_copy=_("Copy the link"),
            race_copied=_("Copied."),
            race_players=_("Players"),
            race_you=_("you"),
            race_ready_mark=_("ready"),
            race_gone=_("gone"),
            race_host=_("starts the race"),
            race_status_waiting=_("waiting"),
            race_status_playing=_("playing"),
            race_status_won=_("won"),
            race_status_resigned=_("resigned"),
            race_results=_("Results"),
            race_rank=_("Rank"),
            race_name=_("Player"),
            race_moves=_("Moves"),
            race_time=_("Time"),
            race_cards=_("Cards home"),
            race_rematch=_("Rematch: same players, new deal"),
            race_replays=_("Replays: each game, move by move"),
            race_replay_intro=_("{n} moves: step through them."),
            race_replay_slider=_("Move of {name}’s game"),
            race_replay_board=_("{name}’s game: the table after the move shown"),
            race_share_text=_("I raced {game} with friends on Patience Daily: {result}"),
            race_share_won=_("won in {moves} moves, {time}"),
            race_share_lost=_("{cards} cards home"),
            race_make=_("Make the race"),
            race_full=_("This race is full."),
            race_started=_("This race has started without you."),
            race_expired=_("This race's link has expired."),
            race_error=_("Something went wrong: {detail}"),
            race_not_ready_mark=_("not ready yet"),
            race_rank_later=_("known once every racer has finished"),
            race_par_later=_("shown once the race is over"),
            race_under_review=_("under review"),
            race_rematch_ready=_("A rematch is ready: the same players on a new deal."),
            race_rematch_go=_("Go to the rematch"),
            race_name_label=_("Your name in the race"),
            race_name_skip=_("Skip: join as a guest"),
            race_join_as=_("You join as {name}."),
            race_name_taken=_("That name is taken: please choose another one."),
            race_name_bad=_(
                "Use 2 to 24 letters, digits, spaces and . ' - _ (not starting with “Guest”)."
            ),
            race_name_throttled=_("Too many tries: please wait a minute and try again."),
        ),
    }


@require_safe
def challenge_new(request: HttpRequest) -> HttpResponse:
    """ "Challenge a friend": pick the game, the number of players (and a past day's deal when
    coming from the archive), then the page makes the race and goes to it. A day whose deal
    may not be raced (`refused`: still played for the boards, `running`, or not out yet,
    `future`) is said so, and the form offers a fresh deal instead."""
    game = request.GET.get("game", "")
    date = clock.date_from_text(request.GET.get("date", ""))
    refused = ""
    if date is not None and date > clock.today():
        refused = "future"
    elif date is not None and DailyChallenge(date=date).ranked_play_open():
        refused = "running"  # the rule of a daily's ranked play: its day, and the grace after
    context = {
        "games": list(GAME_PAGES.values()),
        "game": game if game in GAME_PAGES else next(iter(GAME_PAGES)),
        "date": date.isoformat() if date and not refused else "",
        "refused": refused,
        "refused_date": date.isoformat() if refused and date else "",
        "player": _player(request),
        "strings": _race_strings(request),
    }
    return render(request, "frontend/challenge_new.html", context)


@require_safe
def challenge(request: HttpRequest, code: str) -> HttpResponse:
    """A race's page: its lobby, then the race (your table, your opponents' progress), then
    the results. Everything live comes from the race socket (frontend/race/race.js)."""
    try:
        race = race_selectors.race_get(code=code)
    except ServiceError:
        return not_found(request, _("There is no race at this address."))
    page = GAME_PAGES[race.game]
    context = {
        "code": race.code,
        "game": page.slug,
        "game_title": page.name,
        "game_page": page,
        "player": _player(request),
        "strings": _race_strings(request),
    }
    return render(request, "frontend/challenge.html", context)
