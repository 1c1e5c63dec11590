"""Browser tests of the leagues' pages: three people in browser contexts of their own. The first
names themselves, makes a league and copies its invite; the second and the third, new visitors
(the third reads the site in Russian), open the link and join it, picking a name on the way in.
Their results (today's, and a closed day's points) are written through the ORM, as the leagues'
own tests do; the league's page shows today's results and the standings, and reads them again
when it comes back into sight. The owner renames the league, removes the third and makes a new
invite: the old link then says it is retired. A member's moves on today's daily reach an open
league page live, through the daily's socket. The pages fit a phone's width, and axe finds no
serious violation on them (tests/e2e/test_a11y.py)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.test_a11y import blocking_violations

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect
expect.set_options(timeout=30_000)  # a loaded machine: a state within half a minute

#: Results written straight into the live server's database: today's (a win, a resignation
#: and a game being played), and a day before today closed with its points worked out.
RESULTS = """
import datetime as dt, json
from games import clock
from games.models import Attempt, DailyChallenge, Player
from leagues import services
names = %(names)r
players = {name: Player.objects.get(display_name=name) for name in names}

def result(daily, player, status, moves, cards):
    started = dt.datetime.combine(daily.date, dt.time(0, 1), tzinfo=dt.UTC)
    if daily.date == clock.today():
        started = clock.now() - dt.timedelta(minutes=10)
    finished = status != Attempt.Status.PLAYING
    Attempt.objects.filter(daily=daily, player=player).delete()
    Attempt.objects.create(
        player=player, game=daily.game, daily=daily, seed=daily.deal.seed,
        deal_string=daily.deal.deal_string, ranked=True, status=status, verified=finished,
        move_count=moves, next_seq=moves, foundation_cards=cards, started_at=started,
        first_move_at=started, last_move_at=started + dt.timedelta(minutes=5),
        finished_at=started + dt.timedelta(minutes=5) if finished else None,
        counted_ms=300_000,
    )

W, R, P = Attempt.Status.WON, Attempt.Status.RESIGNED, Attempt.Status.PLAYING
today = DailyChallenge.objects.get(game="munger", date=clock.today())
result(today, players[names[0]], W, 90, 52)
result(today, players[names[1]], R, 40, 12)
result(today, players[names[2]], P, 30, 7)
past = DailyChallenge.objects.get(game="munger", date=dt.date.fromisoformat(%(past)r))
# The closed day's board holds these three only (an earlier test on this server may have
# played it), so that their ranks and points are the ones the test reads.
Attempt.objects.filter(daily=past).exclude(player__in=players.values()).delete()
result(past, players[names[0]], W, 100, 52)
result(past, players[names[1]], W, 120, 52)
result(past, players[names[2]], R, 50, 20)
DailyChallenge.objects.filter(pk=past.pk).update(
    closed_at=dt.datetime.combine(past.date + dt.timedelta(days=1), dt.time(0, 10), dt.UTC)
)
print(json.dumps(services.daily_points_compute(daily_id=past.pk)))
"""

#: True when nothing on the page is wider than the window (no sideways scroll).
FITS = "() => document.documentElement.scrollWidth <= window.innerWidth"


def watched(page: Any, problems: list[str]) -> Any:
    page.on("pageerror", lambda error: problems.append(f"script error: {error}"))
    page.on("dialog", lambda dialog: dialog.accept())
    page.set_default_timeout(30_000)
    return page


def context_of(browser: Any, language: str = "en", **more: Any) -> Any:
    options = {"viewport": {"width": 1280, "height": 900}, **more}
    return browser.new_context(
        locale={"en": "en-GB", "fr": "fr-FR", "ru": "ru-RU"}[language],
        extra_http_headers={"Accept-Language": language},
        **options,
    )


def join_by(page: Any, link: str, name: str) -> None:
    """A new visitor opens the invite, picks a name and joins: the league's page."""
    page.goto(link)
    expect(page.get_by_test_id("join-what")).to_be_visible()
    page.get_by_test_id("join-name").fill(name)
    page.get_by_test_id("join-submit").click()
    page.wait_for_url(re.compile(r".*/leagues/\d+/$"))
    expect(page.get_by_test_id("league-members")).to_contain_text(name)


def refresh(page: Any) -> None:
    """What the page does when it comes back into sight: it reads the league again."""
    page.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")


def untranslated(page: Any) -> list[str]:
    """A catalogue key or an unfilled placeholder left in the page's text."""
    text = page.locator("body").inner_text()
    return re.findall(r"\blg_[a-z_]+|\{[a-z_]+\}", text)


@pytest.mark.long
def test_friends_make_join_and_run_a_league(browser, live_server_url, make_dailies, server_python):
    make_dailies()
    past = make_dailies(back=1)["date"]
    url = live_server_url
    problems: list[str] = []
    owner_context = context_of(browser, permissions=["clipboard-read", "clipboard-write"])
    friend_context, third_context = context_of(browser), context_of(browser, "ru")
    try:
        owner = watched(owner_context.new_page(), problems)
        friend = watched(friend_context.new_page(), problems)
        third = watched(third_context.new_page(), problems)

        # The first names themselves on the home page, then makes a league.
        owner.goto(f"{url}/")
        owner.locator("#display-name").fill("Ann Leaguer")
        owner.locator("#name-form button[type=submit]").click()
        expect(owner.locator(".hello")).to_contain_text("Ann Leaguer")
        owner.get_by_role("navigation", name="Main").get_by_role("link", name="Leagues").click()
        expect(owner.get_by_test_id("leagues-status")).to_contain_text("no league yet")
        owner.get_by_test_id("league-make-name").fill("The   Sunday club")
        owner.get_by_test_id("league-make-submit").click()
        expect(owner.get_by_test_id("league-make-message")).to_contain_text(
            "The league “The Sunday club” is made"
        )
        made = owner.get_by_test_id("league-link")
        expect(made).to_be_focused()
        expect(owner.get_by_test_id("leagues-list")).to_contain_text("1 member")
        made.click()
        expect(owner.get_by_test_id("league-title")).to_have_text("The Sunday club")
        league_url = owner.url

        # The invite, copied.
        owner.get_by_test_id("league-copy").click()
        expect(owner.get_by_test_id("league-copy-message")).to_have_text("Copied.")
        link = owner.evaluate("() => navigator.clipboard.readText()")
        assert re.fullmatch(rf"{re.escape(url)}/leagues/join/[A-Za-z0-9_-]+/", link), link
        assert owner.get_by_test_id("league-invite").input_value() == link

        # Two new visitors join by the link, each with a name of their choice.
        friend.goto(link)
        expect(friend.get_by_test_id("join-what")).to_be_visible()
        assert blocking_violations(friend) == []
        join_by(friend, link, "Ben Leaguer")
        third.goto(link)
        expect(third.get_by_test_id("join-what")).to_contain_text("приглашает вас в лигу")
        expect(third.get_by_test_id("join-what")).to_contain_text("Ann Leaguer")
        expect(third.get_by_test_id("join-members")).to_have_text("2 участника")
        third.get_by_test_id("join-name").fill("Cy Leaguer")
        third.get_by_test_id("join-submit").click()
        third.wait_for_url(league_url)
        expect(third.get_by_test_id("league-members")).to_contain_text("Cy Leaguer")

        # They play: today's results and a closed day's points.
        names = ["Ann Leaguer", "Ben Leaguer", "Cy Leaguer"]
        assert server_python(RESULTS % {"names": names, "past": past}) == 3
        refresh(owner)
        today = owner.get_by_test_id("today-munger")
        expect(today.locator("tr[data-player='Ann Leaguer']")).to_contain_text("won in 90 moves")
        expect(today.locator("tr[data-player='Ben Leaguer']")).to_contain_text(
            "resigned with 12 cards on the foundations"
        )
        expect(today.locator("tr[data-player='Cy Leaguer']")).to_contain_text(
            "playing now: 7 cards on the foundations"
        )
        expect(owner.get_by_test_id("today-masterpiece")).to_contain_text(
            "Nobody in the league has played it yet."
        )
        all_time = owner.get_by_test_id("standings-all-time")
        expect(all_time.locator("caption")).to_have_text("All time")
        rows = all_time.locator("tbody tr")
        expect(rows).to_have_count(3)
        # Ann's win ranks first (100), Ben's longer win second, Cy's resignation last (0).
        expect(rows.nth(0)).to_contain_text("Ann Leaguer")
        assert rows.nth(0).locator("td").all_inner_texts() == ["1", "100", "1", "1"]
        assert rows.nth(1).locator("th").inner_text().startswith("Ben Leaguer")
        assert rows.nth(2).locator("td").all_inner_texts() == ["3", "0", "1", "0"]
        expect(rows.nth(0)).to_contain_text("you")
        # This week's and this month's tables (the closed day is in them when it is in their
        # season: yesterday may be in the last week or month).
        expect(owner.get_by_test_id("standings-week").locator("caption")).to_contain_text(
            "This week, "
        )
        expect(owner.get_by_test_id("standings-month").locator("caption")).to_contain_text(
            "This month, "
        )
        expect(owner.get_by_test_id("points-rule")).to_contain_text("How points are counted")
        assert blocking_violations(owner) == []

        # In Russian: the same page, every word translated.
        refresh(third)
        expect(third.get_by_test_id("today-munger")).to_contain_text("победа за 90 ходов")
        expect(third.get_by_test_id("standings-all-time").locator("caption")).to_have_text(
            "За всё время"
        )
        assert untranslated(third) == []
        assert blocking_violations(third) == []
        third.goto(f"{url}/leagues/")
        expect(third.get_by_test_id("season-week-table")).to_be_visible()
        expect(third.get_by_test_id("leagues-list")).to_contain_text("The Sunday club")
        assert untranslated(third) == []
        assert blocking_violations(third) == []
        third.goto(league_url)

        # The owner renames the league; the others see it.
        owner.get_by_test_id("league-rename-name").fill("The Monday club")
        owner.get_by_test_id("league-rename-submit").click()
        expect(owner.get_by_test_id("league-rename-message")).to_have_text(
            "The league is now called “The Monday club”."
        )
        expect(owner.get_by_test_id("league-title")).to_have_text("The Monday club")
        refresh(friend)
        expect(friend.get_by_test_id("league-title")).to_have_text("The Monday club")
        # Only the owner runs it.
        expect(friend.get_by_test_id("league-rename")).to_be_hidden()
        expect(friend.get_by_test_id("league-remove")).to_have_count(0)

        # The owner removes the third, who is told the league is no longer theirs.
        owner.locator("button[data-player='Cy Leaguer']").click()
        expect(owner.get_by_test_id("league-status")).to_have_text(
            "Cy Leaguer is no longer a member."
        )
        expect(owner.get_by_test_id("league-members")).not_to_contain_text("Cy Leaguer")
        expect(owner.locator("#members-title")).to_be_focused()
        refresh(third)
        expect(third.get_by_test_id("league-error")).to_have_text(
            "Такой лиги нет, или вы не её участник."
        )

        # A new invite: the old link says it is retired, the new one works.
        owner.get_by_test_id("league-new-invite").click()
        expect(owner.get_by_test_id("league-copy-message")).to_have_text(
            "A new invite link is ready: the old one no longer works."
        )
        new_link = owner.get_by_test_id("league-invite").input_value()
        assert new_link != link
        third.goto(link)
        expect(third.get_by_test_id("join-retired")).to_contain_text(
            "Это приглашение больше не работает"
        )
        expect(third.get_by_test_id("join-invite")).to_be_hidden()
        third.goto(new_link)
        expect(third.get_by_test_id("join-what")).to_contain_text("The Monday club")

        # The friend leaves; the league goes on with its owner.
        friend.get_by_test_id("league-leave").click()
        friend.wait_for_url(f"{url}/leagues/")
        expect(friend.get_by_test_id("leagues-status")).to_contain_text("no league yet")
        refresh(owner)
        expect(owner.get_by_test_id("league-owner")).to_contain_text("1 member")
        assert problems == []
    finally:
        for context in (owner_context, friend_context, third_context):
            context.close()


def test_the_leagues_pages_fit_a_phone(browser, live_server_url, make_dailies):
    make_dailies()
    context = context_of(browser, viewport={"width": 390, "height": 844}, is_mobile=True)
    problems: list[str] = []
    try:
        page = watched(context.new_page(), problems)
        page.goto(f"{live_server_url}/leagues/")
        page.get_by_test_id("league-make-name").fill("A rather long league name, for phones")
        page.get_by_test_id("league-make-submit").click()
        page.get_by_test_id("league-link").click()
        expect(page.get_by_test_id("league-title")).to_have_text(
            "A rather long league name, for phones"
        )
        expect(page.get_by_test_id("standings-week")).to_be_visible()
        assert page.evaluate(FITS)
        assert blocking_violations(page) == []
        page.goto(page.get_by_test_id("league-invite").input_value())
        expect(page.get_by_test_id("join-what")).to_be_visible()
        assert page.evaluate(FITS)
        page.goto(f"{live_server_url}/leagues/")
        expect(page.get_by_test_id("season-month-table")).to_be_visible()
        expect(page.get_by_test_id("season-month-current")).to_be_hidden()  # it is this month
        assert page.evaluate(FITS)
        # A step back to the week before, and its table.
        page.get_by_test_id("season-week-previous").click()
        expect(page.get_by_test_id("season-week-note")).to_have_text("Closed.")
        expect(page.get_by_test_id("season-week-current")).to_be_visible()
        expect(page.locator("#season-week")).to_be_focused()
        assert page.evaluate(FITS)
        assert blocking_violations(page) == []
        assert problems == []
    finally:
        context.close()


@pytest.mark.long
def test_a_league_page_follows_a_member_playing_today_live(browser, live_server_url, make_dailies):
    """The owner's page stays open and is not told anything: a member's moves on today's
    daily reach it through the daily's socket, and it reads the league again."""
    today = make_dailies()["masterpiece"]
    url = live_server_url
    problems: list[str] = []
    owner_context, member_context = context_of(browser), context_of(browser)
    try:
        owner = watched(owner_context.new_page(), problems)
        member = watched(member_context.new_page(), problems)
        owner.goto(f"{url}/")
        owner.locator("#display-name").fill("Dee Live")
        owner.locator("#name-form button[type=submit]").click()
        expect(owner.locator(".hello")).to_contain_text("Dee Live")
        owner.goto(f"{url}/leagues/")
        owner.get_by_test_id("league-make-name").fill("Live ones")
        owner.get_by_test_id("league-make-submit").click()
        owner.get_by_test_id("league-link").click()
        expect(owner.get_by_test_id("league-title")).to_have_text("Live ones")
        link = owner.get_by_test_id("league-invite").input_value()
        join_by(member, link, "Eve Live")
        refresh(owner)  # a new member: the page learns of them when it reads the league again
        expect(owner.get_by_test_id("league-members")).to_contain_text("Eve Live")
        today_table = owner.get_by_test_id("today-masterpiece")
        expect(today_table).to_contain_text("Nobody in the league has played it yet.")

        # The member plays the day's first moves (the browser's own cookie, over REST).
        started = member.request.post(f"{url}/api/dailies/masterpiece/{today['date']}/attempts/")
        assert started.status == 201, started.text()
        attempt = started.json()["id"]
        for seq, move in enumerate(today["certificate"][:3]):
            moved = member.request.post(
                f"{url}/api/attempts/{attempt}/moves/", data={"seq": seq, "move": move}
            )
            assert moved.status == 200, moved.text()

        # Well before the page's own reading every 30 s.
        expect(today_table.locator("tr[data-player='Eve Live']")).to_contain_text(
            "playing now", timeout=10_000
        )

        # The member resigns on the game's page: the end panel says what it does to the week,
        # and the share text carries the league's standing.
        member.goto(f"{url}/play/masterpiece/{today['date']}/")
        expect(member.get_by_test_id("moves")).to_have_text("3")
        member.get_by_test_id("resign").click()
        member.get_by_test_id("resign-confirm").click()
        week = member.get_by_test_id("end-week")
        # (Others on this server may have played today's daily: the rank is theirs to say.)
        expect(week).to_contain_text(
            re.compile(r"Today: rank \d+ of \d+ so far, worth \d+ points? if it holds\.")
        )
        expect(week).to_contain_text("This week so far: no points yet")
        expect(week).to_contain_text("Live ones: rank 1 of 2 this week, 1 with today’s.")
        expect(member.get_by_test_id("share-text")).to_have_value(
            re.compile(r"resigned after 3 moves.*\nLive ones: rank 1 of 2 this week\nhttp")
        )
        assert blocking_violations(member) == []
        expect(today_table.locator("tr[data-player='Eve Live']")).to_contain_text(
            "resigned", timeout=10_000
        )
        assert problems == []
    finally:
        owner_context.close()
        member_context.close()
