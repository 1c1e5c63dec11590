"""Browser tests of the site's pages against the live server (tests/e2e/conftest.py): the home
page's dailies and countdown, the first visit's name prompt, the language switch, the archive's
links and a phone-sized screen. They take the pages' screenshots when asked (the `screenshot`
fixture)."""

from __future__ import annotations

import datetime as dt
import json
import re
from typing import Any

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

from playwright.sync_api import expect  # noqa: E402

from tests.e2e.browser import until  # noqa: E402
from tests.support import wait_until  # noqa: E402

PLAYER_COUNT = "import json; from games.models import Player; print(Player.objects.count())"


@pytest.fixture(scope="module")
def dailies(make_dailies):
    return make_dailies()


def test_home_shows_both_dailies_and_a_running_countdown(
    e2e_page, live_server_url, dailies, screenshot
):
    page = e2e_page
    page.goto(f"{live_server_url}/")

    cards = page.locator(".daily-card")
    expect(cards).to_have_count(2)
    expect(cards.nth(0)).to_contain_text("Munger")
    expect(cards.nth(1)).to_contain_text("Masterpiece")
    expect(cards.nth(1)).to_contain_text("Шедевр")
    for game in ("munger", "masterpiece"):
        expect(page.locator(f'a[href="/play/{game}/"]')).to_be_visible()
    countdown = page.locator("#countdown")
    expect(countdown).to_have_text(re.compile(r"^\d\d:\d\d:\d\d$"))
    expect(page.locator(".countdown")).to_contain_text("new deals start at midnight UTC")
    # The module ticks every second.
    expect(countdown).not_to_have_text(countdown.inner_text(), timeout=5000)
    screenshot(page, "home.png")


def test_name_prompt_creates_exactly_one_guest(
    e2e_page, live_server_url, dailies, server_python, screenshot
):
    page = e2e_page
    before = server_python(PLAYER_COUNT)
    page.goto(f"{live_server_url}/")
    requests: list[str] = []
    page.on(
        "request",
        lambda request: (
            requests.append(f"{request.method} {request.url}") if "/api/" in request.url else None
        ),
    )

    page.get_by_label("Your name").fill("Ada Lovelace")
    screenshot(page, "home-first-visit.png")
    page.get_by_role("button", name="Start playing").click()

    expect(page.locator(".hello")).to_contain_text("Ada Lovelace")
    assert server_python(PLAYER_COUNT) == before + 1
    creating = [entry for entry in requests if not entry.startswith("GET")]
    assert len(creating) == 1, requests
    expect(page.locator("#name-form")).to_have_count(0)
    # Pages read afterwards create nobody else.
    page.goto(f"{live_server_url}/me/")
    expect(page.locator("h1")).to_have_text("My stats")
    assert server_python(PLAYER_COUNT) == before + 1


def test_skip_keeps_a_generated_guest_name(e2e_page, live_server_url, dailies, server_python):
    page = e2e_page
    before = server_python(PLAYER_COUNT)
    page.goto(f"{live_server_url}/")

    page.get_by_role("button", name="Skip").click()

    expect(page.locator(".hello")).to_contain_text(re.compile(r"Guest \d+"))
    assert server_python(PLAYER_COUNT) == before + 1


def test_a_taken_name_is_refused_with_a_message(e2e_page, live_server_url, dailies):
    page = e2e_page
    page.goto(f"{live_server_url}/")
    page.get_by_label("Your name").fill("Taken Name")
    page.get_by_role("button", name="Start playing").click()
    expect(page.locator(".hello")).to_contain_text("Taken Name")

    # Another browser (a new context has no cookie) wants the same name.
    other = page.context.browser.new_context()
    try:
        second = other.new_page()
        second.goto(f"{live_server_url}/")
        second.get_by_label("Your name").fill("Taken Name")
        second.get_by_role("button", name="Start playing").click()
        expect(second.locator("#name-message")).to_contain_text("taken")
        expect(second.get_by_label("Your name")).to_have_attribute("aria-invalid", "true")
    finally:
        other.close()


@pytest.mark.parametrize(
    ("language", "button", "today", "archive"),
    [("fr", "Français", "Aujourd’hui", "Archives"), ("ru", "Русский", "Сегодня", "Архив")],
)
def test_language_switch_changes_the_navigation(
    e2e_page, live_server_url, language, button, today, archive, screenshot
):
    page = e2e_page
    page.goto(f"{live_server_url}/rules/masterpiece/")
    nav = page.get_by_role("navigation", name="Main")
    expect(nav).to_contain_text("Today")

    page.get_by_role("button", name=button).click()

    expect(page.locator("html")).to_have_attribute("lang", language)
    nav = page.locator("nav.site-nav")
    expect(nav).to_contain_text(today)
    expect(nav).to_contain_text(archive)
    assert page.url.endswith("/rules/masterpiece/")  # the switch comes back to the same page
    screenshot(page, f"rules-masterpiece-{language}.png")
    page.goto(f"{live_server_url}/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    page.set_viewport_size({"width": 375, "height": 740})
    screenshot(page, f"home-375-{language}.png")
    page.set_viewport_size({"width": 1280, "height": 900})
    page.get_by_role("button", name="English").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")


def test_archive_links_to_practice_and_to_the_board(
    e2e_page, live_server_url, make_dailies, screenshot
):
    day = make_dailies(back=2)["date"]
    month = day[:7]
    page = e2e_page
    page.goto(f"{live_server_url}/archive/?month={month}")
    screenshot(page, "archive.png")

    page.locator(f'a[href="/board/munger/{day}/"]').click()
    expect(page).to_have_url(re.compile(rf"/board/munger/{day}/$"))
    expect(page.locator("h1")).to_contain_text("Munger")

    page.go_back()
    page.locator(f'a[href="/play/masterpiece/{day}/"]').click()
    expect(page).to_have_url(re.compile(rf"/play/masterpiece/{day}/$"))
    expect(page.locator("h1")).to_contain_text("Masterpiece")


@pytest.mark.parametrize(("language", "said"), [
    ("en", r"^Difficulty: (Very easy|Easy|Medium|Hard|Very hard) \([1-5] of 5\)"),
    ("fr", r"^Difficulté : (Très facile|Facile|Moyen|Difficile|Très difficile) \([1-5] sur 5\)"),
    ("ru", r"^Сложность: (Очень легко|Легко|Средне|Сложно|Очень сложно) \([1-5] из 5\)"),
])  # fmt: skip
def test_the_archive_says_each_days_difficulty_plainly(
    browser, live_server_url, make_dailies, language, said
):
    """The archive said "Difficulty: predicted 5/5": now as the home page says it, in words
    and out of five, in each language."""
    day = make_dailies(back=2)["date"]
    context = browser.new_context(locale=language, extra_http_headers={"Accept-Language": language})
    try:
        page = context.new_page()
        page.goto(f"{live_server_url}/archive/?month={day[:7]}")
        cell = page.locator(f'li.day:has(time[datetime="{day}"]) [data-testid="difficulty"]')
        expect(cell).to_have_count(2)
        for text in cell.all_inner_texts():
            assert re.match(said, text), text
            assert "/5" not in text and "predicted" not in text, text
    finally:
        context.close()


def test_board_says_when_the_leaderboard_is_not_available(
    e2e_page, live_server_url, dailies, screenshot
):
    page = e2e_page
    today = dailies["munger"]["date"]
    page.goto(f"{live_server_url}/board/munger/{today}/")

    message = page.locator("#board-message")
    expect(message).not_to_have_text("Loading the leaderboard…")
    rows = page.locator("#ranks-body tr")
    if rows.count() == 0:
        expect(message).to_have_text(
            re.compile(r"not available yet|Nobody has finished|could not be loaded")
        )
    screenshot(page, "board.png")


@pytest.mark.parametrize(
    "path", ["/", "/rules/munger/", "/rules/masterpiece/", "/archive/", "/me/", "/board/"]
)
def test_a_phone_screen_has_no_horizontal_scroll(
    browser, live_server_url, dailies, path, screenshot
):
    context = browser.new_context(
        viewport={"width": 375, "height": 740}, device_scale_factor=2, is_mobile=True
    )
    try:
        page = context.new_page()
        page.goto(f"{live_server_url}{path}")
        page.wait_for_load_state("networkidle")
        overflow = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, f"{path} scrolls sideways by {overflow}px at 375px"
        if path == "/":
            screenshot(page, "home-375.png")
        if path == "/rules/munger/":
            screenshot(page, "rules-munger-375.png")
    finally:
        context.close()


def test_me_page_draws_the_charts_with_their_tables(
    e2e_page, live_server_url, dailies, server_python, screenshot
):
    page = e2e_page
    page.goto(f"{live_server_url}/")
    page.get_by_label("Your name").fill("Chart Person")
    page.get_by_role("button", name="Start playing").click()
    expect(page.locator(".hello")).to_contain_text("Chart Person")
    yesterday = dt.date.fromisoformat(dailies["munger"]["date"]) - dt.timedelta(days=1)
    server_python(
        "import json, datetime as dt\n"
        "from games import clock\n"
        "from games.models import Attempt, DailyChallenge, Player\n"
        "from tests.games import factories\n"
        "player = Player.objects.get(display_name='Chart Person')\n"
        f"day = dt.date.fromisoformat('{yesterday.isoformat()}')\n"
        "daily = DailyChallenge.objects.filter(game='munger', date=day).first()"
        " or factories.daily('munger', day)\n"
        "Attempt.objects.create(player=player, game='munger', daily=daily,"
        " deal_string=daily.deal.deal_string, ranked=True, started_at=clock.now(),"
        " status='won', verified=True, move_count=87, next_seq=87)\n"
        "print(json.dumps(True))\n"
    )

    page.goto(f"{live_server_url}/me/")

    expect(page.locator('[data-stat="won"]')).to_have_text("1")
    expect(page.locator("#chart-wins svg")).to_have_count(1)
    expect(page.locator("#chart-moves svg rect.bar")).to_have_count(1)
    expect(page.locator("#chart-moves table")).to_contain_text("80–89")

    # The name can change here; a taken one is refused with a message.
    page.get_by_text("Change your name").click()
    page.get_by_label("New name").fill("Chart Master")
    page.get_by_role("button", name="Save").click()
    expect(page.locator(".lead")).to_contain_text("Chart Master")
    screenshot(page, "me.png")


HELD_WINS = """
import json, datetime as dt
from games import clock
from games.models import Attempt, DailyChallenge, Player
from tests.games import factories
player = Player.objects.get(display_name=%(name)r)
for back in (21, 22):
    day = clock.today() - dt.timedelta(days=back)
    daily = DailyChallenge.objects.filter(game="munger", date=day).first()
    daily = daily or factories.daily("munger", day)
    Attempt.objects.create(player=player, game="munger", daily=daily,
        deal_string=daily.deal.deal_string, ranked=True, started_at=clock.now(),
        status="won", verified=True, move_count=90, next_seq=90, review="held")
print(json.dumps(True))
"""

# The note on wins under review, in each language (a held result is off the boards).
HELD_NOTE = {
    "en": "2 wins are under review",
    "fr": "2 victoires sont en cours d’examen",
    "ru": "2 победы на проверке",
}


def test_my_stats_count_a_held_game_as_played_and_a_held_win_as_under_review(
    e2e_page, live_server_url, dailies, server_python
):
    """Two won dailies held for review: they are played (the list under the numbers shows
    them), two wins under review apart from the wins that stand, no streak yet, and no win
    rate while nothing is decided; in each language."""
    page = e2e_page
    page.goto(f"{live_server_url}/")
    page.get_by_label("Your name").fill("Held Person")
    page.get_by_role("button", name="Start playing").click()
    expect(page.locator(".hello")).to_contain_text("Held Person")
    server_python(HELD_WINS % {"name": "Held Person"})

    page.goto(f"{live_server_url}/me/")
    expect(page.locator('[data-stat="played"]')).to_have_text("2")
    expect(page.locator('[data-stat="won"]')).to_have_text("0")
    expect(page.locator('[data-stat="held_wins"]')).to_have_text("2")
    expect(page.locator('[data-stat="current_streak"]')).to_have_text("0")
    expect(page.locator('[data-stat="win_rate"]')).to_have_text("–")
    expect(page.get_by_test_id("held-note")).to_contain_text(HELD_NOTE["en"])
    expect(page.locator("table.recent [data-review=held]")).to_have_count(2)
    for language, button in (("fr", "Français"), ("ru", "Русский")):
        page.get_by_role("button", name=button).click()  # the site's language switch
        expect(page.locator("html")).to_have_attribute("lang", language)
        expect(page).to_have_url(re.compile(r"/me/$"))
        expect(page.get_by_test_id("held-note")).to_contain_text(HELD_NOTE[language])
        expect(page.locator('[data-stat="played"]')).to_have_text("2")


# Two players of today's Munger, each with one move: one a minute ago, one two hours ago.
IDLE_PLAYERS = """
import json, datetime as dt
from games import clock, services
from games.models import Attempt, DailyChallenge
from tests.games import factories
daily = DailyChallenge.objects.get(game="munger", date=clock.today())
for name, idle in ((%(here)r, 1), (%(gone)r, 120)):
    player = factories.player(name)
    attempt, _ = services.attempt_start(player=player, daily=daily)
    services.attempt_play(
        attempt_id=attempt.pk, player=player, seq=0, move=daily.deal.certificate[0]
    )
    when = clock.now() - dt.timedelta(minutes=idle)
    Attempt.objects.filter(pk=attempt.pk).update(first_move_at=when, last_move_at=when)
print(json.dumps(True))
"""
IDLE_NOW = """
import json, datetime as dt
from games import clock
from games.models import Attempt
when = clock.now() - dt.timedelta(minutes=11)
print(json.dumps(Attempt.objects.filter(player__display_name=%r).update(last_move_at=when)))
"""


def result_of(page, player: str) -> Any:
    row = page.locator("#ranks-body tr").filter(has=page.get_by_role("rowheader", name=player))
    return row.get_by_test_id("row-result")


@pytest.mark.parametrize(("language", "playing", "left"), [
    ("en", "In progress", "Left"),
    ("fr", "En cours", "Partie laissée"),
    ("ru", "Идёт игра", "Не играет"),
])  # fmt: skip
def test_a_game_left_for_ten_minutes_says_left_and_is_not_playing_now(
    browser, live_server_url, dailies, server_python, language, playing, left
):
    """An unfinished game with no move for ten minutes is "Left" on the board, not "In
    progress", and is not counted as playing now; a board page left open on a quiet board
    asks again now and then, so a game left while it is open is said so too (the page's clock
    is moved on, the server's rows made older: nothing sleeps)."""
    here, gone = f"Still Here {language}", f"Gone Away {language}"
    server_python(IDLE_PLAYERS % {"here": here, "gone": gone})
    context = browser.new_context(locale=language, extra_http_headers={"Accept-Language": language})
    try:
        page = context.new_page()
        page.clock.install()
        page.goto(f"{live_server_url}/board/munger/{dailies['munger']['date']}/")
        expect(page.locator("#live-state")).to_have_attribute("data-state", "open")
        expect(result_of(page, gone)).to_have_text(re.compile(f"{left}$"))
        expect(result_of(page, here)).to_have_text(re.compile(f"{playing}$"))
        # The count comes with the socket's first snapshot ("–" until then).
        expect(page.locator("#playing-now")).to_have_text(re.compile(r"^\d+$"))
        before = int(page.locator("#playing-now").inner_text())
        assert before >= 1

        assert server_python(IDLE_NOW % here) == 1

        def said_left() -> bool:
            # Each round is a minute of quiet on the page, so it asks again; the server may
            # answer the first ask with the snapshot it built under a second ago.
            page.clock.fast_forward("01:01")
            return bool(re.search(f"{left}$", result_of(page, here).inner_text()))

        wait_until(said_left, timeout=30, step=0.5, what=f"{here} said left")
        assert int(page.locator("#playing-now").inner_text()) <= before - 1
    finally:
        context.close()


BOARD = {
    "game": "munger",
    "total": 4,
    "rows": [
        {
            "rank": 1,
            "player": "Ann",
            "status": "won",
            "moves": 80,
            "seconds": 300,
            "foundation_cards": 52,
            "finished_at": None,
            "you": False,
        },
        {
            "rank": 2,
            "player": "Ben",
            "status": "won",
            "moves": 90,
            "seconds": 400,
            "foundation_cards": 52,
            "finished_at": None,
            "you": True,
        },
        {
            "rank": 2,
            "player": "Cy",
            "status": "won",
            "moves": 90,
            "seconds": 400,
            "foundation_cards": 52,
            "finished_at": None,
            "you": False,
        },
        {
            "rank": 4,
            "player": "Di",
            "status": "playing",
            "moves": 12,
            "seconds": 60,
            "foundation_cards": 9,
            "finished_at": None,
            "you": False,
        },
    ],
}


FAR_ROW = {**BOARD["rows"][-1], "rank": 9, "player": "Eve", "moves": 5, "foundation_cards": 4}


def board_with_a_fake_socket(page: Any, live_server_url: str, today: str, heard=None) -> Any:
    """Munger's board of `today` open on `page`, its API answering BOARD and its daily socket
    answered by the test (the route returned; what the page sends goes to `heard`)."""
    body = json.dumps({**BOARD, "date": today})
    page.route(
        "**/api/leaderboards/munger/*/**",
        lambda route: route.fulfill(status=200, content_type="application/json", body=body),
    )
    sockets: list[Any] = []

    def fake_server(socket: Any) -> None:
        if heard is not None:
            socket.on_message(lambda text: heard.append(json.loads(text)))
        sockets.append(socket)

    page.route_web_socket(re.compile(r".*/ws/daily/munger/.*"), fake_server)
    page.goto(f"{live_server_url}/board/munger/{today}/")
    expect(page.locator("#live-state")).to_have_attribute("data-state", "open")
    until(page, lambda: bool(sockets))
    return sockets[0]


def test_board_shows_shared_ranks_your_row_and_the_live_race(
    e2e_page, live_server_url, dailies, screenshot
):
    page = e2e_page
    socket = board_with_a_fake_socket(page, live_server_url, dailies["munger"]["date"])

    ranks = page.locator("#ranks-body td.rank")
    expect(ranks).to_have_count(4)
    numbers = [re.search(r"\d+", text).group() for text in ranks.all_inner_texts()]
    assert numbers == ["1", "2", "2", "4"]
    # The socket's snapshot: playing now, the race, and a row far below after a gap.
    live = {"player": "Di", "moves": 13, "foundation_cards": 10, "status": "playing"}
    snapshot = {
        "type": "snapshot",
        "version": 1,
        "board": {"top": [*BOARD["rows"], FAR_ROW], "total": 9},
        "playing_now": 3,
        "feed": [live],
    }
    socket.send(json.dumps(snapshot))
    expect(page.locator("#playing-now")).to_have_text("3")
    expect(ranks).to_have_count(5)
    expect(page.locator("#ranks-body tr.gap")).to_have_count(1)
    mine = page.locator("#ranks-body tr[aria-current='true']")
    expect(mine).to_have_count(1)
    expect(mine).to_contain_text("Ben")
    expect(mine).to_contain_text("you")  # a word, not a colour only
    expect(page.locator("#ranks-body tr").nth(1)).to_contain_text("tied")
    # The order's rule is said above the rows.
    expect(page.locator(".rank-note")).to_have_text(
        "Wins first, then fewer moves, then less time. Equal results share a rank."
    )
    expect(page.locator("#race-feed li")).to_contain_text(["Di: 10 cards"])
    screenshot(page, "board-live.png")


def test_an_account_is_offered_and_keeps_the_guests_results(e2e_page, live_server_url, dailies):
    page = e2e_page
    page.goto(f"{live_server_url}/")
    page.get_by_label("Your name").fill("Future Member")
    page.get_by_role("button", name="Start playing").click()
    expect(page.locator(".hello")).to_contain_text("Future Member")

    page.get_by_role("link", name=re.compile("Keep your streaks")).click()
    expect(page.locator("h1")).to_have_text("Account")
    form = page.locator("#register-form")
    form.get_by_label("Username").fill("future_member")
    form.get_by_label("Password").fill("a long and unusual passphrase 42")
    form.get_by_role("button", name="Create the account").click()

    expect(page).to_have_url(re.compile(r"/me/$"))
    expect(page.locator(".lead")).to_contain_text("Future Member")
    expect(page.locator(".lead")).to_contain_text("Your account keeps your streaks")


@pytest.mark.parametrize(
    ("game", "rules", "language"),
    [("munger", 13, "en"), ("masterpiece", 11, "en"), ("munger", 13, "fr"), ("munger", 13, "ru")],
)
def test_rules_pages_number_every_rule_and_draw_the_layout(
    browser, live_server_url, game, rules, language, screenshot
):
    context = browser.new_context(
        viewport={"width": 1280, "height": 900}, extra_http_headers={"Accept-Language": language}
    )
    try:
        page = context.new_page()
        page.goto(f"{live_server_url}/rules/{game}/#rule-8")
        expect(page.locator("html")).to_have_attribute("lang", language)
        expect(page.locator("ol.numbered > li")).to_have_count(rules)
        expect(page.locator("#rule-8")).to_be_in_viewport()
        expect(page.locator("figure.diagram svg").first).to_be_visible()
        suffix = "" if language == "en" else f"-{language}"
        screenshot(page, f"rules-{game}{suffix}.png")
    finally:
        context.close()


def test_board_from_the_api_marks_your_row(e2e_page, live_server_url, dailies):
    page = e2e_page
    daily = dailies["masterpiece"]
    page.goto(f"{live_server_url}/")
    page.get_by_label("Your name").fill("Board Climber")
    page.get_by_role("button", name="Start playing").click()
    expect(page.locator(".hello")).to_contain_text("Board Climber")
    # Play the first move of the day's certified line through the API, as the play page does.
    started = page.request.post(
        f"{live_server_url}/api/dailies/masterpiece/{daily['date']}/attempts/", data={}
    )
    assert started.ok, started.text()
    attempt = started.json()["id"]
    moved = page.request.post(
        f"{live_server_url}/api/attempts/{attempt}/moves/",
        data={"seq": 0, "move": daily["certificate"][0]},
    )
    assert moved.ok, moved.text()

    page.goto(f"{live_server_url}/board/masterpiece/{daily['date']}/")

    mine = page.locator("#ranks-body tr[aria-current='true']")
    expect(mine).to_have_count(1)
    expect(mine).to_contain_text("Board Climber")
    expect(mine).to_contain_text("you")
    expect(mine).to_contain_text("In progress")
    # The daily's socket answered with its snapshot (the real consumer, through uvicorn).
    expect(page.locator("#playing-now")).to_have_text(re.compile(r"^\d+$"))


def test_pages_run_under_the_content_security_policy_without_errors(
    e2e_page, live_server_url, dailies, make_dailies
):
    page = e2e_page
    past = make_dailies(back=1)["date"]
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
    page.on(
        "console",
        lambda message: (
            errors.append(f"{page.url}: {message.text} {message.location}")
            if message.type == "error"
            else None
        ),
    )
    today = dailies["munger"]["date"]
    for path in [
        "/",
        "/archive/",
        "/me/",
        "/account/",
        f"/board/munger/{today}/",
        f"/board/masterpiece/{past}/",
        "/rules/munger/",
        "/rules/masterpiece/",
    ]:
        response = page.goto(f"{live_server_url}{path}")
        assert response is not None and response.ok, path
        policy = response.headers.get("content-security-policy", "")
        assert "script-src 'self'" in policy, policy
        page.wait_for_load_state("networkidle")

    assert not errors, "\n".join(errors)


def test_a_missed_board_update_is_asked_for_again(e2e_page, live_server_url, dailies):
    """An update whose version skips one is not drawn: the page asks for what followed the
    last version it saw (once), and draws the updates that come back in order."""
    page = e2e_page
    asked: list[dict] = []
    socket = board_with_a_fake_socket(page, live_server_url, dailies["munger"]["date"], asked)
    board = {"top": BOARD["rows"], "total": 4}

    def event(kind: str, version: int, playing: int) -> str:
        return json.dumps(
            {"type": kind, "version": version, "board": board, "playing_now": playing}
        )

    socket.send(event("snapshot", 1, 1))
    expect(page.locator("#playing-now")).to_have_text("1")
    socket.send(event("update", 3, 3))  # version 2 never came
    socket.send(event("update", 4, 4))  # the same gap: not asked twice
    socket.send(event("update", 5, 5))

    def resyncs() -> list[dict]:
        return [m for m in asked if m.get("type") == "resync"]

    until(page, lambda: len(resyncs()) >= 1)
    expect(page.locator("#playing-now")).to_have_text("1")
    for version in (2, 3, 4, 5):  # the server's answer: what came after version 1, in order
        socket.send(event("update", version, version))
    expect(page.locator("#playing-now")).to_have_text("5")
    assert resyncs() == [{"type": "resync", "version": 1}]
