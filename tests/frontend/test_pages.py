"""The public pages, through Django's test client: every page answers for today, unknown games
and future days are 404 pages, the language switch works, and no page creates a player."""

from __future__ import annotations

import datetime as dt
import gettext
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from frontend.catalogue import frontend_strings
from frontend.views import player_overview, seconds_to_next_day
from frontend.vocabulary import DIFFICULTY_WORDS, GAME_PAGES
from games import clock, services
from games.engine import GAMES, game_class
from games.identity import COOKIE_NAME
from games.models import Attempt, Player
from tests.games import factories


@pytest.fixture
def dailies(db):
    """Today's certified daily of both games."""
    return {game: factories.daily(game) for game in ("munger", "masterpiece")}


@pytest.fixture
def yesterday_dailies(db):
    day = clock.today() - dt.timedelta(days=1)
    return {game: factories.daily(game, day) for game in ("munger", "masterpiece")}


def as_player(client, player: Player) -> None:
    client.cookies[COOKIE_NAME] = services.player_token_issue(player=player)


def today() -> str:
    return clock.today().isoformat()


def tomorrow() -> str:
    return (clock.today() + dt.timedelta(days=1)).isoformat()


# -- home ----------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_home_page_names_both_games_and_links_to_their_rules(client):
    response = client.get("/")

    assert response.status_code == 200
    html = response.content.decode()
    assert "<title>Patience Daily</title>" in html
    assert "Munger" in html
    assert "Masterpiece" in html
    assert "Шедевр" in html
    assert 'href="/rules/munger/"' in html
    assert 'href="/rules/masterpiece/"' in html


def test_home_shows_todays_dailies_with_links_and_a_countdown(client, dailies):
    html = client.get("/").content.decode()

    for game in ("munger", "masterpiece"):
        assert f'href="/play/{game}/"' in html
        assert f'href="/board/{game}/{today()}/"' in html
    assert 'href="/archive/"' in html
    assert 'id="countdown"' in html
    assert re.search(r'data-seconds="\d+"', html)
    assert "Difficulty" in html and "of 5" in html
    assert "Players so far" in html and "Winners so far" in html
    # First visit: the name prompt, and the account offered but not required.
    assert 'id="name-form"' in html
    assert 'href="/account/"' in html


def test_home_shows_the_players_result_and_no_name_prompt(client, dailies):
    alice = factories.player("alice")
    services.attempt_start(player=alice, daily=dailies["munger"])
    as_player(client, alice)

    html = client.get("/").content.decode()

    assert "alice" in html
    assert 'id="name-form"' not in html
    assert "In progress" in html
    assert "0 moves" in html


def test_the_undos_are_shown_with_the_moves_on_home_and_my_stats(client, dailies):
    alice = factories.player("alice")
    attempt, _ = services.attempt_start(player=alice, daily=dailies["munger"])
    for seq, move in enumerate(["S>W", "U", "S>W"]):
        services.attempt_play(attempt_id=attempt.pk, player=alice, seq=seq, move=move)
    as_player(client, alice)

    assert re.search(r"3 moves\s*, 1 undo\b", client.get("/").content.decode())
    services.attempt_resign(attempt_id=attempt.pk, player=alice)
    assert re.search(r">3\s*, 1 undo\s*<", client.get("/me/").content.decode())


def finished_attempt(player: Player, daily, **fields) -> Attempt:
    """The player's ranked attempt at `daily`, marked won and verified, with `fields` on top."""
    attempt, _ = services.attempt_start(player=player, daily=daily)
    fields = {
        "status": Attempt.Status.WON,
        "verified": True,
        "move_count": 42,
        "next_seq": 42,
        **fields,
    }
    Attempt.objects.filter(pk=attempt.pk).update(**fields)
    attempt.refresh_from_db()
    return attempt


HELD = {"review": Attempt.Review.HELD}
DISQUALIFIED = {"disqualified": True, "disqualified_reason": "Played by a program."}


@pytest.mark.parametrize("path", ["/", "/me/"])
@pytest.mark.parametrize(
    ("fields", "review", "words", "absent"),
    [
        (
            HELD,
            "held",
            ["Under review", "not on the public board until a reviewer approves it"],
            "Disqualified",
        ),
        (DISQUALIFIED, "disqualified", ["Disqualified", "Played by a program."], "Under review"),
    ],
)
def test_a_held_or_disqualified_result_says_so(
    client, dailies, path, fields, review, words, absent
):
    alice = factories.player("alice")
    finished_attempt(alice, dailies["munger"], **fields)
    as_player(client, alice)

    html = client.get(path).content.decode()

    assert f'data-review="{review}"' in html
    for word in words:
        assert word in html
    assert absent not in html


def test_an_approved_result_says_nothing_of_the_review(client, dailies):
    alice = factories.player("alice")
    finished_attempt(alice, dailies["munger"], review=Attempt.Review.APPROVED)
    as_player(client, alice)

    html = client.get("/").content.decode() + client.get("/me/").content.decode()

    assert "data-review" not in html


def test_the_review_is_shown_in_french_and_russian(client, dailies):
    alice = factories.player("alice")
    finished_attempt(alice, dailies["munger"], **HELD)
    finished_attempt(alice, dailies["masterpiece"], **DISQUALIFIED)
    as_player(client, alice)

    french = client.get("/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    russian = client.get("/me/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()

    assert "En cours d’examen" in french and "Disqualifié" in french
    assert "Motif de l’arbitre : Played by a program." in french
    assert "На проверке" in russian and "Дисквалифицирован" in russian


def test_held_and_disqualified_wins_make_no_streak(db):
    alice = factories.player("alice")
    day = clock.today()
    for back, fields in ((0, HELD), (1, DISQUALIFIED)):
        daily = factories.daily("munger", day - dt.timedelta(days=back))
        finished_attempt(alice, daily, ranked=True, **fields)  # ranked then, on its own day

    overview = player_overview(alice, day)

    assert overview["streaks"] == []
    assert [row["result"]["review"] for row in overview["recent"]] == ["held", "disqualified"]


def test_home_without_dailies_says_they_are_being_prepared(client, db):
    html = client.get("/").content.decode()

    assert "being prepared" in html


def test_countdown_is_the_seconds_to_the_next_utc_midnight():
    now = dt.datetime(2026, 12, 1, 23, 59, 30, tzinfo=dt.UTC)
    assert seconds_to_next_day(now) == 30
    assert seconds_to_next_day(now.replace(hour=0, minute=0, second=0)) == 24 * 3600


# -- every page, today and otherwise ---------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/play/munger/",
        "/play/masterpiece/",
        "/play/munger/{today}/",
        "/board/munger/{today}/",
        "/board/masterpiece/{today}/",
        "/archive/",
        "/me/",
        "/account/",
        "/rules/munger/",
        "/rules/masterpiece/",
    ],
)
def test_every_page_answers_today(client, dailies, path):
    response = client.get(path.format(today=today()))

    assert response.status_code == 200
    assert b"<main" in response.content


@pytest.mark.parametrize(
    "path",
    [
        "/play/klondike/",
        "/play/munger/{tomorrow}/",
        "/play/masterpiece/{tomorrow}/",
        "/play/munger/not-a-date/",
        "/play/munger/2020-02-30/",
        "/board/munger/{tomorrow}/",
        "/board/klondike/{today}/",
        "/board/munger/2020-01-01/",
        "/rules/klondike/",
        "/archive/?month=2099-01",
        "/archive/?month=garbage",
    ],
)
def test_unknown_games_and_future_days_are_404_pages(client, dailies, path):
    response = client.get(path.format(today=today(), tomorrow=tomorrow()))

    assert response.status_code == 404
    assert "Not found" in response.content.decode()


def test_the_404_handler_renders_the_sites_page(rf, db):
    from frontend.views import page_not_found

    response = page_not_found(rf.get("/nowhere/"), None)

    assert response.status_code == 404
    assert "There is no page at this address." in response.content.decode()


def test_play_views_hand_the_play_page_its_context(client, dailies):
    response = client.get("/play/masterpiece/")

    assert response.context["game"] == "masterpiece"
    assert str(response.context["game_title"]) == "Masterpiece"
    assert response.context["date"] == today()
    assert response.context["today"] == today()
    assert response.context["practice"] is False


def test_a_past_day_is_practice(client, yesterday_dailies):
    day = (clock.today() - dt.timedelta(days=1)).isoformat()

    response = client.get(f"/play/munger/{day}/")

    assert response.status_code == 200
    assert response.context["practice"] is True
    assert response.context["date"] == day


def test_boards_link_goes_to_todays_board(client, db):
    response = client.get("/board/")

    assert response.status_code == 302
    assert response["Location"] == f"/board/munger/{today()}/"


def test_board_page_has_the_table_and_the_live_parts(client, dailies):
    html = client.get(f"/board/munger/{today()}/").content.decode()

    assert 'id="ranks"' in html
    assert 'id="playing-now"' in html
    assert 'id="race-feed"' in html
    assert f"/api/leaderboards/munger/{today()}/?around=me" in html
    assert f"/ws/daily/munger/{today()}/" in html
    assert "Equal results share a rank" in html


def test_munger_play_page_shows_no_face_down_card(client, dailies):
    deal = dailies["munger"].deal.deal_string.split()
    hidden = deal[0:7] + deal[14:21] + deal[35:]  # face-down tableau cards and the stock

    html = client.get("/play/munger/").content.decode()

    for code in hidden:
        assert not re.search(rf"(?<![A-Za-z0-9]){code}(?![A-Za-z0-9])", html), code


# -- a daily this visitor may not start: said in words, no table ---------------------------------


def played_as_someone_else(client, daily) -> None:
    """This browser (its device cookie) plays `daily` ranked as a player, then loses that
    player's cookie: the next visit is a new guest of the same browser."""
    answer = client.post(f"/api/dailies/{daily.game}/{daily.date.isoformat()}/attempts/")
    assert answer.status_code == 201 and answer.json()["ranked"]
    del client.cookies[COOKIE_NAME]


def refusal_of(html: str) -> str:
    return html.split('id="play-refused"', 1)[1].split("</section>", 1)[0]


def test_a_browser_that_played_today_as_another_player_reads_why_not(client, dailies):
    played_as_someone_else(client, dailies["munger"])
    deal = dailies["munger"].deal.deal_string.split()
    hidden = deal[0:7] + deal[14:21] + deal[35:]

    response = client.get("/play/munger/")

    html = response.content.decode()
    assert response.status_code == 200
    assert response.context["refusal"]["code"] == "daily_played_here"
    said = refusal_of(html)
    assert "You have played today’s daily from this browser" in said
    assert "opens for practice once its day is over" in said and "00:05 UTC" in said
    assert 'id="play"' not in html  # no table for the script to start a game on
    for code in hidden:
        assert not re.search(rf"(?<![A-Za-z0-9]){code}(?![A-Za-z0-9])", html), code
    # The other game, not played from this browser, is played as ever.
    other = client.get("/play/masterpiece/")
    assert other.context["refusal"] is None and 'id="play"' in other.content.decode()


def test_a_guest_past_the_addresss_ranked_rows_is_told_accounts_are_the_way(
    client, dailies, settings
):
    settings.RANKED_STARTS_PER_ADDRESS = 1
    other_browser = type(client)()
    played_as_someone_else(other_browser, dailies["masterpiece"])  # from 127.0.0.1 too

    html = client.get("/play/masterpiece/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()

    said = refusal_of(html)
    assert "connectez-vous à un compte" in said
    assert f'href="{reverse("frontend:account")}"' in said
    assert 'id="play"' not in html


def test_the_play_page_is_as_ever_for_its_own_ranked_player(client, dailies):
    client.post(f"/api/dailies/munger/{today()}/attempts/")

    response = client.get("/play/munger/")

    assert response.context["refusal"] is None
    assert 'id="play"' in response.content.decode()


# -- the solver's line of a day that is over ---------------------------------------------------


def test_the_solvers_line_of_a_past_day_is_served_step_by_step(client, yesterday_dailies):
    daily = yesterday_dailies["masterpiece"]

    response = client.get(f"/play/masterpiece/{daily.date.isoformat()}/solution/")

    assert response.status_code == 200
    data = response.json()
    assert [step["move"] for step in data["steps"]] == daily.deal.certificate
    assert data["par"] == daily.deal.par
    position = game_class("masterpiece").from_deal(daily.deal.deal_string)
    assert data["start"] == position.view()
    first = data["steps"][0]
    carried = {m.move: m.to_json() for m in position.legal_moves_carrying()}[first["move"]]
    assert (first["card"], first["count"]) == (carried["card"], carried["count"])
    assert data["steps"][-1]["view"]["foundation_cards"] == 52
    assert "public" in response["Cache-Control"]
    assert Player.objects.count() == 0


def test_the_solvers_line_of_munger_keeps_face_down_cards_hidden(client, yesterday_dailies):
    daily = yesterday_dailies["munger"]

    data = client.get(f"/play/munger/{daily.date.isoformat()}/solution/").json()

    position = game_class("munger").from_deal(daily.deal.deal_string)
    views = [data["start"], *(step["view"] for step in data["steps"])]
    for index, view in enumerate(views):
        if index:
            position.push(data["steps"][index - 1]["move"])
        assert view == position.view()
        for column in view["tableau"]:
            assert all(card["card"] is None for card in column if not card["face_up"])


@pytest.mark.parametrize(
    "path",
    [
        "/play/munger/{today}/solution/",
        "/play/munger/{tomorrow}/solution/",
        "/play/klondike/{yesterday}/solution/",
        "/play/munger/not-a-date/solution/",
        "/play/munger/2020-01-01/solution/",
    ],
)
def test_no_solvers_line_while_the_day_runs_or_without_a_daily(
    client, dailies, yesterday_dailies, path
):
    yesterday = (clock.today() - dt.timedelta(days=1)).isoformat()

    response = client.get(path.format(today=today(), tomorrow=tomorrow(), yesterday=yesterday))

    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


# -- archive ------------------------------------------------------------------------------------


def test_archive_links_each_past_daily_to_practice_and_board(client, yesterday_dailies):
    day = clock.today() - dt.timedelta(days=1)
    month = day.strftime("%Y-%m")

    html = client.get("/archive/", {"month": month}).content.decode()

    for game in ("munger", "masterpiece"):
        assert f'href="/play/{game}/{day.isoformat()}/"' in html
        assert f'href="/board/{game}/{day.isoformat()}/"' in html


def test_past_deals_are_offered_to_race_once_their_ranked_play_is_over(
    client, dailies, yesterday_dailies, monkeypatch
):
    day = clock.today() - dt.timedelta(days=1)
    race_yesterday = f'href="/challenge/?game=munger&amp;date={day.isoformat()}"'
    pages = [f"/archive/?month={day:%Y-%m}", f"/board/munger/{day.isoformat()}/"]
    noon = dt.datetime.combine(clock.today(), dt.time(12), dt.UTC)
    monkeypatch.setattr(clock, "now", lambda: noon)
    for page in pages:
        assert race_yesterday in client.get(page).content.decode(), page
    todays = client.get(f"/board/munger/{today()}/").content.decode()
    assert "/challenge/?game=munger&amp;date" not in todays
    # In the minutes after midnight, yesterday's ranked games may still be played.
    grace = dt.datetime.combine(clock.today(), dt.time(0, 2), dt.UTC)
    monkeypatch.setattr(clock, "now", lambda: grace)
    for page in pages:
        assert race_yesterday not in client.get(page).content.decode(), page


def test_archive_shows_the_players_results(client, yesterday_dailies):
    alice = factories.player("alice")
    attempt, _ = services.attempt_start(player=alice, daily=yesterday_dailies["masterpiece"])
    Attempt.objects.filter(pk=attempt.pk).update(status=Attempt.Status.RESIGNED)
    as_player(client, alice)
    month = (clock.today() - dt.timedelta(days=1)).strftime("%Y-%m")

    html = client.get("/archive/", {"month": month}).content.decode()

    assert "Resigned" in html


def test_archive_shows_predicted_beside_observed_difficulty(client, yesterday_dailies):
    closed = yesterday_dailies["munger"]
    closed.observed = {
        "players": 12,
        "winners": 7,
        "win_rate": 0.5833,
        "median_moves_over_par": 4,
        "median_seconds": 300.0,
    }
    closed.save(update_fields=["observed"])
    month = (clock.today() - dt.timedelta(days=1)).strftime("%Y-%m")

    html = client.get("/archive/", {"month": month}).content.decode()

    def said(level: int) -> str:
        return f"Difficulty: {DIFFICULTY_WORDS[level]} ({level} of 5)"

    munger = f"{said(closed.deal.difficulty)} · 58% of 12 players won it"
    assert munger in html
    open_day = yesterday_dailies["masterpiece"]  # not closed yet: the difficulty alone
    assert f"{said(open_day.deal.difficulty)}</span>" in html
    assert "predicted" not in html and "/5" not in html


def test_archive_months_link_to_each_other(client, db):
    first = clock.today().replace(day=1)
    earlier = (first - dt.timedelta(days=40)).replace(day=1)
    factories.daily("munger", earlier)

    html = client.get("/archive/").content.decode()
    assert f'href="?month={(first - dt.timedelta(days=1)).strftime("%Y-%m")}"' in html

    html = client.get("/archive/", {"month": earlier.strftime("%Y-%m")}).content.decode()
    assert 'rel="next"' in html


# -- me -------------------------------------------------------------------------------------------


def test_me_page_without_a_player_invites_to_play(client, db):
    html = client.get("/me/").content.decode()

    assert "You have not played yet" in html
    assert Player.objects.count() == 0


def test_me_page_shows_stats_charts_and_their_tables(client, dailies):
    alice = factories.player("alice")
    attempt, _ = services.attempt_start(player=alice, daily=dailies["munger"])
    Attempt.objects.filter(pk=attempt.pk).update(
        status=Attempt.Status.WON, verified=True, move_count=42, next_seq=42
    )
    as_player(client, alice)

    response = client.get("/me/")

    html = response.content.decode()
    assert response.context["overview"]["won"] == 1
    assert response.context["overview"]["current_streak"] == 1
    assert 'id="chart-data"' in html
    assert "Wins per week" in html and "Moves in won games" in html
    assert "<table>" in html and "40–49" in html


def test_streaks_count_days_in_a_row_with_a_win(db):
    alice = factories.player("alice")
    day = clock.today()
    for back in (0, 1, 3, 4, 5):
        daily = factories.daily("masterpiece", day - dt.timedelta(days=back))
        attempt = Attempt.objects.create(
            player=alice,
            game="masterpiece",
            daily=daily,
            deal_string=daily.deal.deal_string,
            ranked=True,
            started_at=clock.now(),
            status=Attempt.Status.WON,
            verified=True,
            move_count=1,
            next_seq=1,
        )
        assert attempt.pk

    overview = player_overview(alice, day)

    assert (overview["current_streak"], overview["best_streak"]) == (2, 3)
    assert overview["played"] == overview["won"] == 5


# -- read only ----------------------------------------------------------------------------------


def test_no_get_creates_a_player(client, dailies, yesterday_dailies):
    day = (clock.today() - dt.timedelta(days=1)).isoformat()
    for path in [
        "/",
        "/play/munger/",
        f"/play/masterpiece/{day}/",
        f"/play/munger/{day}/solution/",
        f"/board/munger/{today()}/",
        "/archive/",
        "/me/",
        "/account/",
        "/rules/munger/",
        "/board/",
    ]:
        client.get(path)

    assert Player.objects.count() == 0
    assert COOKIE_NAME not in client.cookies


@pytest.mark.django_db
def test_pages_are_read_only(client):
    response = client.post("/")

    assert response.status_code == 405


# -- rules -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "name", "words", "rules"),
    [
        ("munger", "Munger", ["reserve", "stock", "waste", "King"], 13),
        ("masterpiece", "Masterpiece", ["cellar", "auxiliary", "main row", "Ace"], 11),
    ],
)
def test_rules_page_explains_the_game(client, game, name, words, rules):
    response = client.get(reverse("frontend:rules", kwargs={"game": game}))

    assert response.status_code == 200
    html = response.content.decode()
    assert f"How to play {name}" in html
    for word in words:
        assert word in html
    assert "You win when" in html
    # Numbered as the engine cites them, each with an anchor: /rules/munger/#rule-8.
    for number in range(1, rules + 1):
        assert f'id="rule-{number}"' in html
    assert f'id="rule-{rules + 1}"' not in html
    assert "<svg" in html


def test_rules_page_of_an_unknown_game_is_404(client):
    response = client.get("/rules/klondike/")

    assert response.status_code == 404


# -- languages ---------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words"),
    [("fr", ["Aujourd’hui", "Archives", "Comment jouer"]), ("ru", ["Сегодня", "Архив"])],
)
def test_language_switch_sets_the_language_of_the_pages(client, language, words):
    response = client.post(reverse("frontend:set_language"), {"language": language, "next": "/"})

    assert response.status_code == 302
    html = client.get("/").content.decode()
    assert f'<html lang="{language}">' in html
    for word in words:
        assert word in html


def test_the_settings_choose_among_the_sites_three_languages():
    middleware = settings.MIDDLEWARE
    locale = middleware.index("django.middleware.locale.LocaleMiddleware")

    # After the session (the language may live there), before CommonMiddleware.
    assert middleware.index("django.contrib.sessions.middleware.SessionMiddleware") < locale
    assert locale < middleware.index("django.middleware.common.CommonMiddleware")
    assert [code for code, _name in settings.LANGUAGES] == ["en", "fr", "ru"]
    assert any(Path(path).parts[-2:] == ("frontend", "locale") for path in settings.LOCALE_PATHS)


@pytest.mark.django_db
def test_language_switch_works_with_the_locale_middleware(client):
    client.post(reverse("frontend:set_language"), {"language": "ru", "next": "/"})

    html = client.get("/rules/masterpiece/").content.decode()

    assert '<html lang="ru">' in html
    assert "Подвал" in html and "Правило 8" in html


@pytest.mark.django_db
def test_browser_language_is_used_when_nothing_was_chosen(client):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9")
    assert '<html lang="fr">' in response.content.decode()
    assert response["Content-Language"] == "fr"
    assert "Accept-Language" in response["Vary"]

    html = client.get("/rules/munger/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert '<html lang="ru">' in html

    html = client.get("/", HTTP_ACCEPT_LANGUAGE="de-DE").content.decode()
    assert '<html lang="en">' in html


def test_page_has_the_layout_landmarks(client, db):
    html = client.get("/archive/").content.decode()

    assert 'class="skip-link" href="#main"' in html
    assert '<main id="main"' in html
    assert "<nav" in html and "<footer" in html
    for label in ("Today", "Archive", "Boards", "My stats", "How to play"):
        assert label in html
    for language in ("English", "Français", "Русский"):
        assert language in html
    # Strict CSP: no inline script, handler or style.
    assert "style=" not in html
    assert not re.search(r"\son[a-z]+=", html)
    for script in re.findall(r"<script[^>]*>", html):
        assert 'type="application/json"' in script or "src=" in script


def test_play_page_strings_are_translated():
    english = frontend_strings()
    with translation.override("fr"):
        french = frontend_strings()
    with translation.override("ru"):
        russian = frontend_strings()

    # The same keys as the catalogue the play page's scripts read.
    assert set(english) == set(french) == set(russian)
    assert {"rank_K", "suit_S", "pile_cellar", "pile_aux_row", "card_name", "undo"} <= set(english)
    assert (french["rank_K"], french["suit_S"]) == ("roi", "pique")
    assert french["pile_reserve"] == "réserve"
    assert (russian["rank_Q"], russian["pile_foundation"]) == ("дама", "база")
    assert all(value != english[key] for key, value in russian.items() if key != "par")


# -- the API docs -----------------------------------------------------------------------------


def test_api_schema_is_an_openapi_document(client, db):
    response = client.get(reverse("api-schema"), {"format": "json"})

    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    assert schema["info"]["title"] == "Patience Daily API"


def test_api_docs_page_answers(client, db):
    response = client.get(reverse("api-docs"))

    assert response.status_code == 200
    # Swagger UI comes from our own static files, so the docs work without the internet.
    page = response.content.decode()
    assert "swagger-ui-dist" in page and "cdn" not in page.lower()


def test_api_docs_assets_are_served(client, db):
    page = client.get(reverse("api-docs")).content.decode()
    bundle = next(
        part.split('"')[0] for part in page.split('src="')[1:] if "swagger-ui-bundle" in part
    )
    assert client.get(bundle).status_code == 200


# -- every registered game ------------------------------------------------------------------------


def compiled_catalogue(language: str) -> dict[object, str]:
    path = Path(settings.LOCALE_PATHS[0]) / language / "LC_MESSAGES" / "django.mo"
    with path.open("rb") as mo:
        return gettext.GNUTranslations(mo)._catalog  # type: ignore[attr-defined]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_registered_game_has_its_pages_and_words(client, db, game):
    cls = GAMES[game]
    page = GAME_PAGES[game]

    assert (page.slug, page.native_name) == (game, cls.native_title)
    assert client.get(f"/rules/{game}/").status_code == 200
    with translation.override("en"):
        english = (str(page.name), str(page.summary))
    assert english[0] == cls.title
    for language in ("fr", "ru"):
        catalogue = compiled_catalogue(language)
        assert catalogue.get(f"game\x04{cls.title}"), f"no {language} name for {cls.title}"
        assert catalogue.get(english[1]), f"no {language} summary for {cls.title}"


TEMPLATES = Path(settings.BASE_DIR) / "frontend" / "templates"


def test_a_form_the_script_submits_cannot_be_sent_before_the_script_runs():
    """A click before the page's module attaches its handler would send the form natively: as a
    GET that puts its fields (a password) in the URL. Such forms say method="post" and keep their
    submit buttons disabled until `onSubmit` enables them."""
    scripted = []
    for template in TEMPLATES.rglob("*.html"):
        for form in re.findall(r"<form\b[^>]*>.*?</form>", template.read_text(), re.S):
            opening = form[: form.index(">") + 1]
            if "action=" in opening:
                continue  # a real form the server answers (the language switch)
            scripted.append(template.name)
            assert 'method="post"' in opening, (template.name, opening)
            submits = re.findall(r"<button\b[^>]*type=\"submit\"[^>]*>", form)
            assert submits, template.name
            assert all(" disabled" in button for button in submits), (template.name, submits)
    assert {"account.html", "home.html", "me.html", "league_join.html"} <= set(scripted)
    pages = Path(settings.BASE_DIR) / "frontend" / "static" / "frontend"
    listens = '.addEventListener("submit"'
    handlers = {path.name for path in pages.rglob("*.js") if listens in path.read_text()}
    # onSubmit itself, and the two forms built in script (never in the page before it runs).
    assert handlers == {"dom.js", "race.js", "naming.js"}
