"""The ratings in the browser: a player whose closed dailies were rated (through
`ratings.services.ratings_close_daily`, as the task does) opens My stats and sees the rating, its
chart with the table of the same numbers, and the change each daily made; in Russian too, with
no placeholder left untranslated; and axe finds no serious violation in either language."""

from __future__ import annotations

import re

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

from playwright.sync_api import expect  # noqa: E402

from tests.e2e.test_a11y import blocking_violations  # noqa: E402

# Three munger dailies, seven to five days ago, closed and rated: the player won, resigned,
# then won; another player lost each. Prints the player's munger rating and history.
RATE = """
import json, datetime as dt
from games import clock
from games.models import Attempt, DailyChallenge, Player
from ratings import selectors
from ratings.services import ratings_close_daily
from tests.games import factories
player = Player.objects.get(display_name=%(name)r)
other = Player.objects.filter(display_name="Rating Rival").first()
other = other or factories.player("Rating Rival")
for back, status in ((7, "won"), (6, "resigned"), (5, "won")):
    day = clock.today() - dt.timedelta(days=back)
    daily = DailyChallenge.objects.filter(game="munger", date=day).first()
    daily = daily or factories.daily("munger", day)
    for who, result in ((player, status), (other, "resigned")):
        Attempt.objects.get_or_create(player=who, daily=daily, ranked=True, defaults=dict(
            game="munger", deal_string=daily.deal.deal_string, started_at=clock.now(),
            status=result, verified=True, move_count=60, next_seq=60))
    DailyChallenge.objects.filter(pk=daily.pk).update(closed_at=clock.now())
    ratings_close_daily(daily_id=daily.pk)
mine = {entry["game"]: entry for entry in selectors.player_ratings(player=player)}["munger"]
print(json.dumps({"rating": mine["rating"], "provisional": mine["provisional"],
    "history": [{**change, "date": change["date"].isoformat()} for change in mine["history"]]}))
"""


def signed(before: int, after: int) -> str:
    delta = after - before
    return f"+{delta}" if delta > 0 else f"−{-delta}" if delta < 0 else "±0"


def test_my_stats_show_the_rating_its_chart_and_the_changes(
    e2e_page, live_server_url, make_dailies, server_python, screenshot
):
    make_dailies()
    page = e2e_page
    page.goto(f"{live_server_url}/")
    page.get_by_label("Your name").fill("Rated Person")
    page.get_by_role("button", name="Start playing").click()
    expect(page.locator(".hello")).to_contain_text("Rated Person")
    munger = server_python(RATE % {"name": "Rated Person"})
    history = munger["history"]
    assert len(history) == 3

    page.goto(f"{live_server_url}/me/")

    ratings = page.locator("#ratings")
    expect(ratings.locator('[data-game="munger"] [data-testid="rating"]')).to_have_text(
        str(munger["rating"])
    )
    expect(ratings.locator('[data-game="munger"] [data-testid="provisional"]')).to_be_visible()
    chart = page.locator("#chart-rating-munger")
    expect(chart.locator("svg circle.dot")).to_have_count(3)
    expect(chart.locator("svg polyline.line")).to_have_count(1)
    expect(chart.locator("table tbody tr")).to_have_count(3)
    expect(chart.locator("table")).to_contain_text(str(history[-1]["after"]))
    rows = page.get_by_test_id("rating-changes").locator("tbody tr")
    expect(rows).to_have_count(3)
    # Newest first: the date, the result and the change it made.
    for row, change in zip(range(3), reversed(history), strict=True):
        expect(rows.nth(row)).to_contain_text(change["date"])
        expect(rows.nth(row)).to_contain_text("Win" if change["result"] == "win" else "Loss")
        expect(rows.nth(row).get_by_test_id("rating-change")).to_have_text(
            signed(change["before"], change["after"])
        )
    assert not blocking_violations(page)
    screenshot(page, "me-ratings.png")

    page.get_by_role("button", name="Русский").click()  # the site's language switch
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    expect(page).to_have_url(re.compile(r"/me/$"))
    expect(page.locator("#ratings-title")).to_have_text("Рейтинги")
    expect(chart.locator("figcaption")).to_contain_text("рейтинг со временем")
    expect(rows.first).to_contain_text("Победа")
    expect(chart.locator("svg circle.dot")).to_have_count(3)
    text = page.locator("main").inner_text()
    svg_title = chart.locator("svg title").text_content()
    for untranslated in ("%(", "{", "}", "rating over time", "Latest rating changes"):
        assert untranslated not in text
        assert untranslated not in svg_title
    assert not blocking_violations(page)


# Two ranked wins on a past munger daily, by a settled player and a newcomer; prints the date.
BOARD = """
import datetime as dt, json
from games import clock
from games.models import Attempt, DailyChallenge, Player
from ratings.models import PlayerRating
from tests.games import factories
# The oldest past munger daily on this server, if any (its database has deals for few more),
# with nobody else on its board.
past = DailyChallenge.objects.filter(game="munger", date__lt=clock.today())
daily = past.order_by("date").first()
daily = daily or factories.daily("munger", clock.today() - dt.timedelta(days=20))
day = daily.date
Attempt.objects.filter(daily=daily).delete()
for name, moves in (("Settled Sam", 80), ("New Nia", 95)):
    who = Player.objects.filter(display_name=name).first() or factories.player(name)
    Attempt.objects.get_or_create(player=who, daily=daily, ranked=True, defaults=dict(
        game="munger", deal_string=daily.deal.deal_string, started_at=clock.now(),
        finished_at=clock.now(), status="won", verified=True, foundation_cards=52,
        move_count=moves, next_seq=moves))
sam = Player.objects.get(display_name="Settled Sam")
PlayerRating.objects.update_or_create(player=sam, game="munger",
    defaults=dict(rating=1712.4, rd=64.6, games=40))
print(json.dumps(day.isoformat()))
"""


def test_a_board_shows_its_players_ratings_when_asked(e2e_page, live_server_url, server_python):
    day = server_python(BOARD)
    page = e2e_page
    page.goto(f"{live_server_url}/board/munger/{day}/")
    sam = page.locator("#ranks-body tr", has_text="Settled Sam")
    expect(sam).to_be_visible()
    expect(page.get_by_test_id("row-rating")).to_have_count(0)

    page.get_by_test_id("show-ratings").check()
    expect(sam.get_by_test_id("row-rating")).to_have_text("1712")
    nia = page.locator("#ranks-body tr", has_text="New Nia").get_by_test_id("row-rating")
    expect(nia).to_have_text("1500?")
    expect(nia).to_have_attribute("aria-label", "1500, provisional")
    expect(page.locator("#rating-head")).to_be_visible()
    assert blocking_violations(page) == []

    # The choice is kept in this browser.
    page.reload()
    expect(page.get_by_test_id("show-ratings")).to_be_checked()
    expect(sam.get_by_test_id("row-rating")).to_have_text("1712")
    page.get_by_test_id("show-ratings").uncheck()
    expect(page.get_by_test_id("row-rating")).to_have_count(0)
    expect(page.locator("#rating-head")).to_be_hidden()
