"""Browser tests of hints on the play page (frontend/static/frontend/game/hint.js): in practice
the Hint button (or the H key) marks a move on the table, and playing it works; the hints are
said to be allowed before the first move, counted in sight (after a reload too) and in the
share text; a ranked daily has no Hint button, and H asks nothing."""

from __future__ import annotations

import re

import pytest

from tests.e2e.test_play import TAP_TAP, click_move, state_of, wait_seq

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect


def test_a_practice_hint_marks_a_move_and_playing_it_works(make_dailies, e2e_page, live_server_url):
    day = make_dailies(back=1)["date"]
    page = e2e_page
    page.set_viewport_size({"width": 1280, "height": 1000})
    page.context.add_init_script(TAP_TAP)  # the hinted move is played tap by tap
    page.goto(f"{live_server_url}/play/masterpiece/{day}/")
    wait_seq(page, 0)
    button = page.get_by_test_id("hint")
    expect(button).to_be_visible()
    expect(page.get_by_test_id("rank-note")).to_contain_text("hints are allowed")
    count = page.get_by_test_id("hints-count")
    expect(count).to_have_text("0")

    with page.expect_response(re.compile(r"/api/attempts/\d+/hint/$")) as asked:
        page.keyboard.press("h")
    answer = asked.value.json()

    assert answer["status"] == "move", answer
    src, dst = answer["move"].split(">")
    expect(page.locator(f'[data-pile="{src}"].hint-from')).to_have_count(1)
    expect(page.locator(".pile.hint-to")).to_have_count(1)
    if answer["card"]:
        expect(page.locator(f'.card.hint-card[data-card="{answer["card"]}"]')).to_have_count(1)
    expect(page.get_by_test_id("status")).to_contain_text("Hint: ")

    click_move(page, "masterpiece", answer["move"], state_of(page, live_server_url))
    wait_seq(page, 1)
    expect(page.locator(".hint-from, .hint-to, .hint-card")).to_have_count(0)
    state = state_of(page, live_server_url)
    assert state["moves_played"] == 1 and state["hints"] == 1

    button.click()  # a second hint, from the new position, by the button
    expect(page.locator(".pile.hint-to")).to_have_count(1)
    expect(page.get_by_test_id("status")).to_contain_text("Hint: ")
    expect(count).to_have_text("2")

    # The count is the server's: a reload keeps it, and the result's share text says it.
    page.reload()
    wait_seq(page, 1)
    expect(count).to_have_text("2")
    page.get_by_test_id("resign").click()
    page.get_by_test_id("resign-confirm").click()
    expect(page.get_by_test_id("end-hints")).to_have_text("2")
    share = page.get_by_test_id("share-text").input_value()
    assert "resigned after 1 move, no undo, 2 hints" in share, share


def test_a_ranked_daily_has_no_hint(make_dailies, e2e_page, live_server_url):
    make_dailies()
    page = e2e_page
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/hint/" in r.url else None)
    page.goto(f"{live_server_url}/play/masterpiece/")
    wait_seq(page, 0)
    expect(page.get_by_test_id("ranked")).to_have_text("Ranked")
    expect(page.get_by_test_id("hint")).to_be_hidden()

    page.keyboard.press("h")
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => done(null)))")

    assert not asked
    assert state_of(page, live_server_url)["hints_open"] is False
