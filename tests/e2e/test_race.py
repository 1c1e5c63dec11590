"""Browser tests of a race between friends: two, then four people in browser contexts of their
own make a race on a past day's deal, join it by its link, get ready, watch the countdown, and
race on the play page's table; each sees the others' progress live (moves, cards home, the
foundations' picture), then the results side by side and a share text.

And how a race looks and reads: its cards and buttons are the play page's (the table, the
racers' little foundation cards, the replays, for a racer and a visitor); the table and the
racers' panel are in sight together; a held win is listed "under review" and its player told
why, in their language; the lobby says who is ready, spaces its buttons and lets a newcomer
choose their name; a rematch is offered once the race is over and the others hear of it at
once; today's deal is not raced while it runs, and the form says so."""

from __future__ import annotations

import json
import re
import secrets
from typing import Any

import pytest

from tests.e2e.browser import settle

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect
expect.set_options(timeout=30_000)  # a loaded machine: a state within half a minute

CERTIFICATE_ON = """
import datetime as dt, json
from games.models import DailyChallenge
daily = DailyChallenge.objects.get(game=%r, date=dt.date.fromisoformat(%r))
print(json.dumps(daily.deal.certificate))
"""


def watched(page: Any, problems: list[str]) -> Any:
    page.on("pageerror", lambda error: problems.append(f"script error: {error}"))
    page.on(
        "console",
        lambda message: (
            problems.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    page.set_default_timeout(60_000)
    return page


def play_moves(page: Any, url: str, moves: list[str]) -> str:
    """Play `moves` on the attempt of the page's table, over REST; the attempt's id."""
    attempt: str = page.locator("#board").get_attribute("data-attempt")
    for seq, move in enumerate(moves):
        answer = page.request.post(
            f"{url}/api/attempts/{attempt}/moves/", data={"seq": seq, "move": move}
        )
        assert answer.ok, answer.text()
    return attempt


@pytest.mark.long
@pytest.mark.parametrize("players", [2, 4])
def test_friends_race_the_same_deal_live(
    browser, live_server_url, make_dailies, server_python, players
):
    day = make_dailies(back=3)["date"]
    certificate = server_python(CERTIFICATE_ON % ("masterpiece", day))
    problems: list[str] = []
    contexts = [
        browser.new_context(viewport={"width": 1280, "height": 1000}, locale="en-GB")
        for _ in range(players)
    ]
    try:
        pages = [watched(c.new_page(), problems) for c in contexts]
        maker, friend, others = pages[0], pages[1], pages[2:]
        maker.goto(f"{live_server_url}/challenge/?game=masterpiece&date={day}")
        maker.locator("#race-capacity").select_option(str(players))
        maker.get_by_test_id("race-make").click()
        expect(maker.get_by_test_id("race-ready")).to_be_visible()
        link = maker.get_by_test_id("race-link").inner_text()
        assert re.fullmatch(r"http://[^/]+/challenge/[a-z2-9]{10}/", link)

        for page in pages[1:]:
            page.goto(link)
            page.get_by_test_id("race-join").click()
            expect(page.get_by_test_id("race-ready")).to_be_visible()
        expect(maker.get_by_test_id("racer")).to_have_count(players)  # live, on the maker's page
        for page in pages[1:]:
            page.get_by_test_id("race-ready").click()
        expect(maker.get_by_test_id("racer").nth(1)).to_contain_text("ready")
        maker.get_by_test_id("race-ready").click()
        for page in pages:
            expect(page.get_by_test_id("race-status")).to_have_text(
                re.compile(r"The race starts in \d|The race is on")
            )
            expect(page.locator("#board")).to_have_attribute("data-seq", "0")

        # The friend plays; everyone else sees it beside their own table.
        play_moves(friend, live_server_url, certificate[:3])
        for page in (maker, *others):
            theirs = page.get_by_test_id("racer").nth(1)
            expect(theirs.get_by_test_id("racer-moves")).to_contain_text("Moves 3")
            expect(theirs.locator(".race-foundation")).to_have_count(4)
            expect(theirs).to_contain_text("playing")

        # All resign: the race is over, its results are shown side by side with a share text.
        for page in pages:
            mine = page.locator("#board").get_attribute("data-attempt")
            assert page.request.post(f"{live_server_url}/api/attempts/{mine}/resign/").ok
        for page in pages:
            expect(page.get_by_test_id("race-status")).to_have_text("The race is over.")
            expect(page.get_by_test_id("race-result").first).to_be_visible()
        expect(maker.get_by_test_id("race-share-text")).to_contain_text("Patience Daily")
        code = link.split("/")[-2]
        view = json.loads(maker.request.get(f"{live_server_url}/api/races/{code}/").text())
        assert view["status"] == "over" and len(view["racers"]) == players
        assert problems == []
    finally:
        for context in contexts:
            context.close()


def resign_and_offer(page: Any) -> dict[str, Any]:
    """Resign the game on the page; the end panel's answer to "may friends race this deal?"."""
    expect(page.locator("#board")).to_have_attribute("data-seq", "0")
    with page.expect_response(lambda r: "/api/races/offer/" in r.url) as answer:
        page.get_by_test_id("resign").click()
        page.get_by_test_id("resign-confirm").click()
    expect(page.get_by_test_id("end")).to_be_visible()
    offer: dict[str, Any] = answer.value.json()
    return offer


def test_the_end_of_a_past_days_game_challenges_a_friend_on_its_deal(
    browser, live_server_url, make_dailies
):
    make_dailies()
    day = make_dailies(back=4)["date"]
    problems: list[str] = []
    context = browser.new_context(viewport={"width": 1280, "height": 1000}, locale="en-GB")
    try:
        page = watched(context.new_page(), problems)
        # Today's daily is still played for the boards: no race on it.
        page.goto(f"{live_server_url}/play/masterpiece/")
        assert resign_and_offer(page) == {"raceable": False, "reason": "daily_running"}
        expect(page.get_by_test_id("end-race")).to_be_hidden()

        page.goto(f"{live_server_url}/play/masterpiece/{day}/")
        assert resign_and_offer(page)["raceable"]
        offer = page.get_by_test_id("end-race-make")
        expect(offer).to_have_text("Challenge a friend on this deal")
        offer.click()
        expect(page).to_have_url(re.compile(r"/challenge/[a-z2-9]{10}/$"))
        expect(page.get_by_test_id("race-ready")).to_be_visible()
        code = page.url.rstrip("/").split("/")[-1]
        view = json.loads(page.request.get(f"{live_server_url}/api/races/{code}/").text())
        assert view["daily"] == day and view["you"]["in_race"] and view["status"] == "lobby"

        # The past day's board offers the same race.
        page.goto(f"{live_server_url}/board/masterpiece/{day}/")
        page.get_by_test_id("race-day").click()
        expect(page.locator("#race-new")).to_contain_text(day)
        assert problems == []
    finally:
        context.close()


@pytest.mark.long
def test_the_results_replay_each_finished_game_side_by_side(
    browser, live_server_url, make_dailies, server_python, screenshot
):
    day = make_dailies(back=5)["date"]
    certificate = server_python(CERTIFICATE_ON % ("masterpiece", day))
    problems: list[str] = []
    contexts = [
        browser.new_context(viewport={"width": 1280, "height": 1000}, locale="en-GB")
        for _ in range(2)
    ]
    try:
        alice, bob = (watched(c.new_page(), problems) for c in contexts)
        alice.goto(f"{live_server_url}/challenge/?game=masterpiece&date={day}")
        alice.get_by_test_id("race-make").click()
        link = alice.get_by_test_id("race-link").inner_text()
        bob.goto(link)
        bob.get_by_test_id("race-join").click()
        for page in (bob, alice):
            page.get_by_test_id("race-ready").click()
        for page in (alice, bob):
            expect(page.locator("#board")).to_have_attribute("data-seq", "0")

        # Alice plays four moves and resigns: her game is over, Bob's is not.
        mine = play_moves(alice, live_server_url, certificate[:4])
        assert alice.request.post(f"{live_server_url}/api/attempts/{mine}/resign/").ok
        replays = alice.get_by_test_id("race-replay")
        expect(replays).to_have_count(1)
        theirs = replays.first
        expect(theirs).to_contain_text("resigned")
        expect(theirs.get_by_test_id("replay-step")).to_have_text("The deal, before the first move")
        theirs.get_by_test_id("replay-next").click()
        expect(theirs.get_by_test_id("replay-step")).to_contain_text("Move 1 of 4")
        theirs.get_by_test_id("replay-last").click()
        expect(theirs.get_by_test_id("replay-board")).to_have_attribute("data-step", "4")
        expect(theirs.get_by_test_id("replay-next")).to_be_disabled()
        screenshot(alice, "race-replay.png")

        # Bob, still playing, sees Alice's result but no replay of it.
        expect(bob.get_by_test_id("racer").first).to_contain_text("resigned")
        code = link.split("/")[-2]
        view = json.loads(bob.request.get(f"{live_server_url}/api/races/{code}/").text())
        assert view["you"]["replays"] is False
        expect(bob.get_by_test_id("race-replays")).to_be_hidden()
        assert bob.request.get(f"{live_server_url}/api/races/{code}/replays/").status == 409

        # Bob resigns: the race is over, and both see both games side by side.
        his = bob.locator("#board").get_attribute("data-attempt")
        assert bob.request.post(f"{live_server_url}/api/attempts/{his}/resign/").ok
        for page in (alice, bob):
            expect(page.get_by_test_id("race-status")).to_have_text("The race is over.")
            expect(page.get_by_test_id("race-replay")).to_have_count(2)
        screenshot(bob, "race-results.png")
        boxes = [bob.get_by_test_id("race-replay").nth(i).bounding_box() for i in range(2)]
        # Side by side: one left of the other, on the same band of the page.
        left, right = boxes
        assert left["x"] + left["width"] <= right["x"] + 1
        assert left["y"] < right["y"] + right["height"] and right["y"] < left["y"] + left["height"]
        assert problems == []
    finally:
        for context in contexts:
            context.close()


# -- how a race looks and reads ------------------------------------------------------------------

SIZES = {"desktop": (1366, 768), "phone": (390, 844), "phone on its side": (740, 360)}
LOCALES = {"en": "en-GB", "fr": "fr-FR", "ru": "ru-RU"}

PAR_OF = """
import datetime as dt, json
from games.models import DailyChallenge
daily = DailyChallenge.objects.get(game=%r, date=dt.date.fromisoformat(%r))
print(json.dumps(daily.deal.par))
"""


def context_for(browser: Any, size: tuple[int, int] = (1280, 1000), language: str = "en") -> Any:
    """A browser of its own (a new player): a phone's with touch, in a language."""
    phone = size[0] < 800
    return browser.new_context(
        viewport={"width": size[0], "height": size[1]},
        has_touch=phone,
        is_mobile=phone,
        locale=LOCALES[language],
        extra_http_headers={"Accept-Language": language},
    )


def words_of(page: Any) -> dict[str, Any]:
    """The page's catalogue: every sentence its scripts show, in its language."""
    strings: dict[str, Any] = page.evaluate(
        "() => JSON.parse(document.getElementById('strings').textContent)"
    )
    return strings


def make_race(page: Any, url: str, game: str, day: str, capacity: int = 2) -> str:
    """Makes a race on the deal of `day` from the page; the link to send."""
    page.goto(f"{url}/challenge/?game={game}&date={day}")
    page.locator("#race-capacity").select_option(str(capacity))
    page.get_by_test_id("race-make").click()
    expect(page.get_by_test_id("race-ready")).to_be_visible()
    link: str = page.get_by_test_id("race-link").inner_text()
    return link


def join(page: Any, link: str, name: str = "") -> None:
    page.goto(link)
    if name:
        page.get_by_test_id("race-name").fill(name)
    page.get_by_test_id("race-join").click()
    expect(page.get_by_test_id("race-ready")).to_be_visible()


def start(pages: list[Any]) -> None:
    """Everyone in the lobby gets ready (the maker, the first page, last): the race starts and
    each table is dealt."""
    expect(pages[0].get_by_test_id("racer")).to_have_count(len(pages))
    for page in [*pages[1:], pages[0]]:
        page.get_by_test_id("race-ready").click()
    for page in pages:
        try:
            expect(page.locator("#board")).to_have_attribute("data-seq", "0")
        except AssertionError as exc:  # what the table said instead (a refusal, an error)
            said = page.get_by_test_id("status").all_inner_texts()
            raise AssertionError(f"{exc}\nthe table said: {said}") from None


def resign(page: Any, url: str) -> None:
    mine = page.locator("#board").get_attribute("data-attempt")
    assert page.request.post(f"{url}/api/attempts/{mine}/resign/").ok


def race_over(pages: list[Any]) -> None:
    """Every page says the race is over, in its language."""
    for page in pages:
        expect(page.get_by_test_id("race-status")).to_have_text(words_of(page)["race_over"])


#: A card's computed face and ink, and a button's, in a part of the page.
LOOKS = """(scope) => {
  const root = document.querySelector(scope);
  const look = (selector) => {
    const found = root && root.querySelector(selector);
    if (!found) return null;
    const style = getComputedStyle(found);
    return {background: style.backgroundColor, color: style.color};
  };
  const cards = scope.includes('racers')
    ? {heart: look('.race-foundation.suit-H'), spade: look('.race-foundation.suit-S')}
    : {heart: look('.card.face.suit-H'), spade: look('.card.face.suit-S')};
  const button = root && root.querySelector('.btn');
  const b = button && getComputedStyle(button);
  return {...cards, button: b && {background: b.backgroundColor, border: b.borderTopColor,
    height: b.minHeight, radius: b.borderTopLeftRadius, width: b.borderTopWidth}};
}"""


@pytest.mark.long
def test_cards_and_buttons_look_the_same_on_every_page_that_draws_them(
    browser, live_server_url, make_dailies
):
    day = make_dailies(back=6)["date"]
    problems: list[str] = []
    contexts = [context_for(browser) for _ in range(4)]
    try:
        player, alice, bob, visitor = (watched(c.new_page(), problems) for c in contexts)
        player.goto(f"{live_server_url}/play/masterpiece/{day}/")
        expect(player.locator("#board")).to_have_attribute("data-seq", "0")
        play = player.evaluate(LOOKS, "#play")
        assert play["heart"] and play["spade"] and play["button"], play
        face = play["heart"]["background"]
        assert re.fullmatch(r"rgb\(\d+, \d+, \d+\)", face), face  # opaque: nothing shows through
        assert play["heart"]["color"] != play["spade"]["color"]  # red hearts, black spades

        link = make_race(alice, live_server_url, "masterpiece", day)
        join(bob, link)
        start([alice, bob])
        seen = {
            "race table": alice.evaluate(LOOKS, ".race-play"),
            "opponents' strip": alice.evaluate(LOOKS, "[data-testid=racers]"),
        }
        for page in (alice, bob):
            resign(page, live_server_url)
        race_over([alice, bob])
        expect(alice.get_by_test_id("race-replay")).to_have_count(2)
        seen["replay"] = alice.evaluate(LOOKS, "[data-testid=race-replay]")
        visitor.goto(link)  # not in the race: the replays once it is over
        expect(visitor.get_by_test_id("race-replay")).to_have_count(2)
        seen["a visitor's replay"] = visitor.evaluate(LOOKS, "[data-testid=race-replay]")

        for where, looks in seen.items():
            assert looks["heart"] and looks["spade"], where
            for suit in ("heart", "spade"):
                assert looks[suit] == {"background": face, "color": play[suit]["color"]}, (
                    where,
                    suit,
                    looks,
                    play,
                )
        # The table's and the replays' buttons are the play page's.
        for where in ("race table", "replay", "a visitor's replay"):
            assert seen[where]["button"] == play["button"], (where, seen[where], play)
        assert problems == []
    finally:
        for context in contexts:
            context.close()


@pytest.mark.long
@pytest.mark.parametrize("game", ["masterpiece", "munger"])
def test_the_table_and_the_racers_are_in_sight_together(
    browser, live_server_url, make_dailies, game, screenshot
):
    day = make_dailies(back=8)["date"]
    problems: list[str] = []
    contexts = [context_for(browser, SIZES["desktop"]), context_for(browser)]
    try:
        alice, bob = (watched(c.new_page(), problems) for c in contexts)
        link = make_race(alice, live_server_url, game, day)
        join(bob, link)
        start([alice, bob])
        for size, (width, height) in SIZES.items():
            alice.set_viewport_size({"width": width, "height": height})
            alice.evaluate("window.dispatchEvent(new Event('resize'))")
            if size != "desktop":  # a phone scrolls to its table (the racers are over it)
                alice.evaluate(
                    "window.scrollTo({top: document.querySelector('.race-play')"
                    ".getBoundingClientRect().top + window.scrollY, behavior: 'instant'})"
                )
            settle(alice)
            seen = alice.evaluate(IN_SIGHT)
            assert seen["top"] >= -0.5 and seen["bottom"] <= seen["h"] + 0.5, (game, size, seen)
            assert seen["wide"] <= 0, (game, size, seen)
            assert seen["card"] >= 24, (game, size, seen)
            if size == "desktop":
                # The racers' panel in sight beside the table, both at once.
                racers = seen["racers"]
                assert racers["top"] >= 0 and racers["bottom"] <= seen["h"], (game, seen)
                screenshot(alice, f"race-{game}.png", full_page=False)
        assert problems == []
    finally:
        for context in contexts:
            context.close()


#: Where the table's cards and the racers' panel are in the window.
IN_SIGHT = """() => {
  const boxes = [...document.querySelectorAll('#board .card')].map(c => c.getBoundingClientRect());
  const racers = document.querySelector('[data-testid=racers]').getBoundingClientRect();
  return {top: Math.min(...boxes.map(b => b.top)), bottom: Math.max(...boxes.map(b => b.bottom)),
          h: window.innerHeight, wide: document.documentElement.scrollWidth - window.innerWidth,
          card: boxes[0].width, racers: {top: racers.top, bottom: racers.bottom}};
}"""


@pytest.mark.long
def test_a_held_win_is_listed_under_review_and_its_player_told_why_in_their_language(
    browser, live_server_url, make_dailies, server_python
):
    day = make_dailies(back=9)["date"]
    certificate = server_python(CERTIFICATE_ON % ("masterpiece", day))
    problems: list[str] = []
    contexts = [context_for(browser, language=language) for language in ("en", "fr", "ru")]
    try:
        carol, alice, boris = (watched(c.new_page(), problems) for c in contexts)
        link = make_race(carol, live_server_url, "masterpiece", day, capacity=3)
        join(alice, link)
        join(boris, link)
        start([carol, alice, boris])
        # Alice and Boris win by the solver's own line, every move at once: held by the
        # fair-play checks. Carol resigns after one move.
        for page in (alice, boris):
            play_moves(page, live_server_url, certificate)
        play_moves(carol, live_server_url, certificate[:1])
        resign(carol, live_server_url)
        race_over([carol, alice, boris])

        english = words_of(carol)
        for page in (carol, alice, boris):
            words = words_of(page)
            rows = page.get_by_test_id("race-result")
            expect(rows).to_have_count(3)
            held = page.locator("[data-testid=race-result][data-held=true]")
            expect(held).to_have_count(2)  # listed, in their place: first, as wins
            expect(rows.nth(2)).not_to_have_attribute("data-held", "true")
            for i in range(2):
                expect(held.nth(i).get_by_test_id("race-result-rank")).to_have_text(
                    words["review_held"]
                )
            expect(rows.nth(2).get_by_test_id("race-result-rank")).to_have_text("1")

        for page in (alice, boris):
            words = words_of(page)
            assert words["review_held_note"] != english["review_held_note"]
            # Told why, in the results and on the end panel, in their own language.
            expect(page.get_by_test_id("race-review")).to_contain_text(words["review_held_note"])
            expect(page.get_by_test_id("end-review")).to_contain_text(words["review_held"])
            expect(page.get_by_test_id("end-rank")).to_have_text(words["rank_held"])
            share = page.get_by_test_id("race-share-text")
            expect(share).to_contain_text(words["race_under_review"])
            expect(share).not_to_contain_text("#")  # no place while under review
            expect(page.get_by_test_id("share-text")).to_have_value(
                re.compile(re.escape(words["race_under_review"]))
            )
        expect(carol.get_by_test_id("race-share-text")).to_contain_text("#1/1")
        expect(carol.get_by_test_id("race-review")).to_have_count(0)
        assert problems == []
    finally:
        for context in contexts:
            context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_the_lobby_says_who_is_ready_and_spaces_its_buttons(
    browser, live_server_url, make_dailies, size, screenshot
):
    day = make_dailies(back=3)["date"]
    problems: list[str] = []
    contexts = [context_for(browser, SIZES[size]) for _ in range(2)]
    try:
        maker, friend = (watched(c.new_page(), problems) for c in contexts)
        link = make_race(maker, live_server_url, "masterpiece", day)
        join(friend, link)
        expect(maker.get_by_test_id("racer")).to_have_count(2)
        words = words_of(maker)
        # Nobody is ready yet: each line says so, with no separator left dangling.
        for line in maker.get_by_test_id("racer").all_inner_texts():
            assert not line.rstrip().endswith("·"), line
        expect(maker.get_by_test_id("racer").nth(1)).to_contain_text(words["race_not_ready_mark"])
        for page, count in ((maker, 3), (friend, 2)):  # ready, start (the maker's), leave
            buttons = page.locator(".race-controls button")
            expect(buttons).to_have_count(count)
            boxes = [buttons.nth(i).bounding_box() for i in range(count)]
            for left, right in zip(boxes, boxes[1:], strict=False):
                beside = right["x"] >= left["x"] + left["width"] + 4
                below = right["y"] >= left["y"] + left["height"] + 4
                assert beside or below, (size, left, right)
        friend.get_by_test_id("race-ready").click()
        expect(maker.get_by_test_id("racer").nth(1)).to_contain_text(words["race_ready_mark"])
        if size == "desktop":
            screenshot(maker, "race-lobby.png")
        assert problems == []
    finally:
        for context in contexts:
            context.close()


@pytest.mark.long
def test_a_rematch_is_offered_once_the_race_is_over_and_the_others_are_told_at_once(
    browser, live_server_url, make_dailies
):
    make_dailies(back=3)
    day = make_dailies(back=10)["date"]
    problems: list[str] = []
    contexts = [context_for(browser) for _ in range(2)]
    try:
        alice, bob = (watched(c.new_page(), problems) for c in contexts)
        link = make_race(alice, live_server_url, "masterpiece", day)
        join(bob, link)
        start([alice, bob])
        for page in (alice, bob):  # not mid-race
            expect(page.get_by_test_id("race-leave")).to_be_visible()
            expect(page.get_by_test_id("race-rematch")).to_have_count(0)
        for page in (alice, bob):
            resign(page, live_server_url)
        race_over([alice, bob])
        expect(alice.get_by_test_id("race-rematch-notice")).to_be_hidden()
        alice.evaluate("() => { window.notReloaded = true; }")

        bob.get_by_test_id("race-rematch").click()
        expect(bob).not_to_have_url(link)  # taken to the rematch's lobby
        expect(bob).to_have_url(re.compile(r"/challenge/[a-z2-9]{10}/$"))
        rematch = bob.url
        # Alice is told at once, on the page she has open (the race socket's event).
        notice = alice.get_by_test_id("race-rematch-notice")
        expect(notice).to_be_visible()
        words = words_of(alice)
        expect(alice.get_by_test_id("race-status")).to_have_text(words["race_rematch_ready"])
        go = notice.get_by_test_id("race-rematch-link")
        assert live_server_url + go.get_attribute("href") == rematch
        assert alice.evaluate("() => window.notReloaded === true")
        go.click()
        expect(alice.get_by_test_id("race-ready")).to_be_visible()  # she is in it already
        expect(alice.get_by_test_id("racer")).to_have_count(2)
        assert problems == []
    finally:
        for context in contexts:
            context.close()


@pytest.mark.parametrize(
    ("language", "said"),
    [("en", "still being played"), ("fr", "se joue encore"), ("ru", "ещё разыгрывается")],
)
def test_todays_deal_is_not_raced_while_it_runs_and_the_form_says_so(
    browser, live_server_url, make_dailies, language, said
):
    today = make_dailies()["masterpiece"]["date"]
    context = context_for(browser, language=language)
    try:
        page = context.new_page()
        page.goto(f"{live_server_url}/challenge/?game=masterpiece&date={today}")
        refused = page.get_by_test_id("race-date-refused")
        expect(refused).to_contain_text(said)
        expect(refused).to_contain_text(today)
        expect(page.locator("#race-new input[name=date]")).to_have_count(0)
    finally:
        context.close()


def test_a_newcomer_chooses_their_name_when_joining_or_skips(
    browser, live_server_url, make_dailies
):
    day = make_dailies(back=3)["date"]
    problems: list[str] = []
    contexts = [context_for(browser, language=language) for language in ("en", "fr", "en", "ru")]
    tag = secrets.randbelow(10**4)
    zoe, sasha = f"Zoé {tag}", f"Саша {tag}"
    try:
        maker, french, english, russian = (watched(c.new_page(), problems) for c in contexts)
        link = make_race(maker, live_server_url, "masterpiece", day, capacity=4)
        expect(maker.get_by_test_id("race-name-form")).to_be_hidden()  # in the race already

        french.goto(link)
        form = french.get_by_test_id("race-name-form")
        expect(form).to_be_visible()
        words = words_of(french)
        assert words["race_name_label"] != words_of(maker)["race_name_label"]
        expect(form.locator("label")).to_have_text(words["race_name_label"])
        french.get_by_test_id("race-name").fill(zoe)
        french.get_by_test_id("race-join").click()
        expect(french.get_by_test_id("race-ready")).to_be_visible()
        expect(french.get_by_test_id("racers")).to_contain_text(zoe)
        expect(maker.get_by_test_id("racers")).to_contain_text(zoe)  # live, by that name

        # A name taken is said so, in the page's language, and nothing is joined; then "Skip".
        english.goto(link)
        english.get_by_test_id("race-name").fill(zoe.upper())
        english.get_by_test_id("race-join").click()
        expect(english.get_by_test_id("race-name-message")).to_have_text(
            words_of(english)["race_name_taken"]
        )
        expect(maker.get_by_test_id("racer")).to_have_count(2)
        english.get_by_test_id("race-join-skip").click()
        expect(english.get_by_test_id("race-ready")).to_be_visible()
        expect(maker.get_by_test_id("racer")).to_have_count(3)

        join(russian, link, sasha)
        expect(maker.get_by_test_id("racers")).to_contain_text(sasha)
        code = link.split("/")[-2]
        view = json.loads(maker.request.get(f"{live_server_url}/api/races/{code}/").text())
        names = [r["name"] for r in view["racers"]]
        assert names[1:] == [zoe, names[2], sasha] and names[2].startswith("Guest ")
        assert problems == []
    finally:
        for context in contexts:
            context.close()
