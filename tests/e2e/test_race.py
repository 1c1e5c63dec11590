"""Browser tests of a race between friends: two, then four people in browser contexts of their
own make a race on a past day's deal, join it by its link, get ready, watch the countdown, and
race on the play page's table; each sees the others' progress live (moves, cards home, the
foundations' picture), then the results side by side and a share text."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

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


def test_the_results_replay_each_finished_game_side_by_side(
    browser, live_server_url, make_dailies, server_python
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
        boxes = [bob.get_by_test_id("race-replay").nth(i).bounding_box() for i in range(2)]
        # Side by side: one left of the other, on the same band of the page.
        left, right = boxes
        assert left["x"] + left["width"] <= right["x"] + 1
        assert left["y"] < right["y"] + right["height"] and right["y"] < left["y"] + left["height"]
        assert problems == []
    finally:
        for context in contexts:
            context.close()
