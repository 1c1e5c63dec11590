"""Browser tests of the words at the end of a game, in English, French and Russian: every end
panel and every share text is whole sentences, with no "null", "undefined", "NaN" nor an
unfilled "{placeholder}" in them: on the play page after a win and after a resignation, and on
a race's page, whose end panel says the race's own par once the race is over, the place in the
race and the race's share text (never a daily's date nor "practice is not ranked")."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.test_race import (
    CERTIFICATE_ON,
    PAR_OF,
    context_for,
    join,
    make_race,
    play_moves,
    race_over,
    resign,
    start,
    watched,
    words_of,
)

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect
expect.set_options(timeout=30_000)

#: What a sentence a script built wrongly shows: a missing value, or a placeholder left unfilled.
BROKEN = re.compile(r"\bnull\b|\bundefined\b|\bNaN\b|\{\w*\}|\[object ")


def assert_whole(text: str, where: str) -> None:
    found = BROKEN.findall(text)
    assert not found, f"{where}: {found} in {text!r}"


def end_words(page: Any) -> tuple[str, str]:
    """The end panel's text and its share text."""
    end = page.get_by_test_id("end")
    expect(end).to_be_visible()
    expect(end).not_to_contain_text(words_of(page)["end_loading"])  # what loads, loaded
    return end.inner_text(), page.get_by_test_id("share-text").input_value()


@pytest.mark.long
@pytest.mark.parametrize("language", ["en", "fr", "ru"])
def test_every_end_panel_and_share_text_is_whole_sentences(
    browser, live_server_url, make_dailies, server_python, language
):
    day = make_dailies(back=11)["date"]
    certificate = server_python(CERTIFICATE_ON % ("masterpiece", day))
    par = server_python(PAR_OF % ("masterpiece", day))
    problems: list[str] = []
    contexts = [context_for(browser, language=language), context_for(browser)]
    try:
        page, friend = (watched(c.new_page(), problems) for c in contexts)

        # The play page, a win (a past day: practice, its solver's line and the day's figures).
        page.goto(f"{live_server_url}/play/masterpiece/{day}/")
        expect(page.locator("#board")).to_have_attribute("data-seq", "0")
        words = words_of(page)
        play_moves(page, live_server_url, certificate)
        page.evaluate("window.dispatchEvent(new Event('focus'))")
        expect(page.get_by_test_id("solution-board")).to_be_visible()
        expect(page.get_by_test_id("end").locator("h2").first).to_have_text(words["end_won"])
        panel, share = end_words(page)
        assert_whole(panel, f"{language} play page, won")
        assert_whole(share, f"{language} play page's share, won")
        assert day in share
        # On a phone the share text is in sight whole: its box is as tall as its lines.
        page.set_viewport_size({"width": 390, "height": 844})
        box = page.get_by_test_id("share-text")
        expect(box).to_be_visible()
        sizes = box.evaluate("(b) => [b.scrollHeight, b.clientHeight]")
        assert sizes[0] <= sizes[1] + 1, f"{language}: the share text is cut off {sizes}"
        page.set_viewport_size({"width": 1280, "height": 1000})

        # The play page, a resignation.
        page.goto(f"{live_server_url}/play/munger/{day}/")
        expect(page.locator("#board")).to_have_attribute("data-seq", "0")
        page.get_by_test_id("resign").click()
        page.get_by_test_id("resign-confirm").click()
        expect(page.get_by_test_id("end").locator("h2").first).to_have_text(words["end_resigned"])
        panel, share = end_words(page)
        assert_whole(panel, f"{language} play page, resigned")
        assert_whole(share, f"{language} play page's share, resigned")

        # Today's ranked daily, resigned: the panel also says what it does to the week.
        today = make_dailies()["munger"]["date"]
        page.goto(f"{live_server_url}/play/munger/{today}/")
        expect(page.locator("#board")).to_have_attribute("data-seq", "0")
        page.get_by_test_id("resign").click()
        page.get_by_test_id("resign-confirm").click()
        expect(page.get_by_test_id("end-week").locator("li").first).not_to_have_text(
            words["end_loading"]
        )
        panel, share = end_words(page)
        assert words["week_title"] in panel
        assert_whole(panel, f"{language} play page, today's daily resigned")

        # A race: the end panel says the race's par once it is over, and the place in it.
        link = make_race(page, live_server_url, "masterpiece", day)
        words = words_of(page)  # the race page's catalogue: the play page's and the race's
        join(friend, link)
        start([page, friend])
        play_moves(page, live_server_url, certificate[:3])
        resign(page, live_server_url)
        expect(page.get_by_test_id("end-par")).to_have_text(words["race_par_later"])
        panel, share = end_words(page)
        assert_whole(panel, f"{language} race, before its end")
        assert_whole(share, f"{language} race's share, before its end")
        resign(friend, live_server_url)
        race_over([page, friend])
        expect(page.get_by_test_id("end-par")).to_have_text(str(par))
        places = {words["rank_of"].format(rank=rank, total=2) for rank in (1, 2)}
        expect(page.get_by_test_id("end-rank")).to_have_text(re.compile("|".join(places)))
        assert page.get_by_test_id("end-rank").inner_text() in places
        panel, share = end_words(page)
        assert_whole(panel, f"{language} race, over")
        assert_whole(share, f"{language} race's share, over")
        assert re.search(r"#[12]/2", share) and link in share, share
        assert words["rank_practice"] not in panel
        results = page.locator(".race-results").inner_text()
        assert_whole(results, f"{language} race's results")
        assert_whole(page.locator("#race").inner_text(), f"{language} race page")
        assert problems == []
    finally:
        for context in contexts:
            context.close()
