"""Browser tests of what the server decides and the pages say: what a ranked game counts
towards and the clock's rule before the first move (and the clock's on the rules page), the
undos counted in sight and after a reload, the promise that every daily deal is winnable (and,
when the solver proved it, that the par is the fewest moves possible) beside the deal's
difficulty, the undo count on the result and in the share text (through the browser's share
sheet when it has one), and a leaderboard that agrees with itself (live counters, one feed
line per move, plurals, no row before a first move)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

from playwright.sync_api import expect  # noqa: E402

from tests.e2e.test_pages import board_with_a_fake_socket  # noqa: E402
from tests.e2e.test_play import TAP_TAP  # noqa: E402


@pytest.fixture(scope="module")
def dailies(make_dailies) -> dict[str, Any]:
    return make_dailies()


def open_play(page: Any, base_url: str, game: str) -> Any:
    page.goto(f"{base_url}/play/{game}/")
    expect(page.locator("#board")).to_have_attribute("data-seq", re.compile(r"\d+"))
    return page


def board_total(page: Any, base_url: str, date: str) -> int:
    response = page.request.get(f"{base_url}/api/leaderboards/munger/{date}/")
    assert response.ok
    return response.json()["total"]


def test_the_clock_rule_is_said_first_and_undos_are_in_the_result_and_share(
    e2e_page, live_server_url, dailies
):
    page = e2e_page
    page.add_init_script(
        "window.__shared = [];"
        "navigator.share = async (data) => { window.__shared.push(data.text); };"
    )
    date = dailies["munger"]["date"]
    before = board_total(page, live_server_url, date)
    open_play(page, live_server_url, "munger")
    policy = page.get_by_test_id("clock-policy")
    expect(policy).to_be_visible()
    expect(policy).to_contain_text("at most 60 seconds")
    # What a ranked game counts towards: the undo is a move, and there are no hints.
    rank_note = page.get_by_test_id("rank-note")
    expect(rank_note).to_have_text(re.compile(r"^Ranked: an undo counts as a move.*no hints\.$"))
    expect(page.get_by_test_id("undos")).to_have_text("0")
    expect(page.get_by_test_id("hints-count")).to_be_hidden()
    # Opening the deal puts nobody on the board: a row comes with the first move.
    assert board_total(page, live_server_url, date) == before

    top = page.locator("#board").bounding_box()["y"]
    page.locator('[data-pile="S"]').click()  # a draw: the first move
    expect(page.locator("#board")).to_have_attribute("data-seq", "1")
    expect(policy).to_be_hidden()
    # The note keeps its room: the table does not move under the player's next tap.
    assert page.locator("#board").bounding_box()["y"] == top
    expect(page.get_by_test_id("time-stat")).to_have_attribute(
        "title", re.compile("at most 60 seconds")
    )
    assert board_total(page, live_server_url, date) == before + 1
    page.get_by_test_id("undo").click()
    expect(page.locator("#board")).to_have_attribute("data-seq", "2")
    # The undo is counted in sight, and so it stays after a reload (the server's count).
    expect(page.get_by_test_id("undos")).to_have_text("1")
    page.reload()
    expect(page.locator("#board")).to_have_attribute("data-seq", "2")
    expect(page.get_by_test_id("undos")).to_have_text("1")
    expect(page.get_by_test_id("moves")).to_have_text("2")
    expect(rank_note).to_be_hidden()

    page.get_by_test_id("resign").click()
    page.get_by_test_id("resign-confirm").click()
    expect(page.get_by_test_id("end-undos")).to_have_text("1 undo")
    share = page.get_by_test_id("share-text").input_value()
    assert "resigned after 2 moves, 1 undo" in share, share
    button = page.get_by_test_id("share")
    expect(button).to_have_text("Share result")
    button.click()
    expect(page.get_by_test_id("copied")).to_have_text("Shared")
    assert page.evaluate("window.__shared") == [share]

    page.goto(f"{live_server_url}/rules/munger/")
    expect(page.get_by_test_id("clock-policy")).to_contain_text("at most 60 seconds")


def test_the_board_counters_and_feed_follow_the_live_events(e2e_page, live_server_url, dailies):
    page = e2e_page
    socket = board_with_a_fake_socket(page, live_server_url, dailies["munger"]["date"])
    di = {"player": "Di", "moves": 1, "foundation_cards": 1, "status": "playing"}
    eve = {"player": "Eve", "moves": 84, "foundation_cards": 52, "status": "won"}
    eve_row = {
        "rank": 1,
        "player": "Eve",
        "status": "won",
        "moves": 84,
        "undos": 2,
        "seconds": 300,
        "foundation_cards": 52,
        "finished_at": None,
    }
    board = {"top": [eve_row], "total": 2}
    socket.send(
        json.dumps(
            {
                "type": "snapshot",
                "version": 1,
                "board": board,
                "playing_now": 2,
                "counts": {"players": 2, "winners": 0},
                "feed": [di],
            }
        )
    )
    expect(page.get_by_test_id("players-count")).to_have_text("2")
    expect(page.get_by_test_id("winners-count")).to_have_text("0")
    lines = page.get_by_test_id("feed-line")
    expect(lines).to_have_text(["Di: 1 card on the foundations after 1 move"])
    # The next update carries Di's move again (it was made as the snapshot was built) and
    # Eve's win: Di's line is not repeated, and the counters follow.
    socket.send(
        json.dumps(
            {
                "type": "update",
                "version": 2,
                "board": board,
                "playing_now": 1,
                "counts": {"players": 2, "winners": 1},
                "feed": [eve, di],
            }
        )
    )
    expect(page.get_by_test_id("winners-count")).to_have_text("1")
    expect(lines).to_have_text(
        ["Eve won in 84 moves", "Di: 1 card on the foundations after 1 move"]
    )
    expect(page.locator("#board-total")).to_have_text("2 players on the board")
    # A row shows the undos among its moves.
    expect(page.get_by_test_id("row-undos")).to_have_text("· 2 undos")


# Words of the English refusal sentences; a French one shares none of them.
ENGLISH_WORDS = re.compile(
    r"\b(cannot|can't|goes?|its|yet|the|starts?|with|only|there|empty|takes?|nothing|card|"
    r"foundation|column|reserve|waste|stock|hearts|spades|clubs|diamonds|rule|allowed|here)\b",
    re.IGNORECASE,
)


def a_card_with_no_foundation_move(page: Any, base_url: str) -> Any:
    """The top card of Munger's reserve, or of a column, whose foundation move is not listed."""
    attempt = page.locator("#board").get_attribute("data-attempt")
    state = page.request.get(f"{base_url}/api/attempts/{attempt}/").json()
    listed = set(state["legal"])
    for pile in ("R", *(f"T{k}" for k in range(1, 8))):
        if f"{pile}>F" not in listed:
            return page.locator(f'[data-pile="{pile}"] [data-card]').last
    raise AssertionError("every top card could go to a foundation")


@pytest.mark.parametrize(
    ("locale", "foundation_word"), [("fr-FR", "fondation"), ("ru-RU", "баз")], ids=["fr", "ru"]
)
def test_a_refusal_is_said_in_the_pages_language_with_no_english_word(
    browser, live_server_url, dailies, locale, foundation_word
):
    context = browser.new_context(viewport={"width": 1280, "height": 1000}, locale=locale)
    context.add_init_script(TAP_TAP)  # a tap picks the card up: the double-click is the move
    try:
        page = context.new_page()
        open_play(page, live_server_url, "munger")
        card = a_card_with_no_foundation_move(page, live_server_url)
        # A double-click sends a card to its foundation; this one cannot go: the server's
        # refusal is said as a sentence of the page's language.
        card.dblclick(position={"x": 20, "y": 6})
        status = page.get_by_test_id("status")
        expect(status).to_contain_text(foundation_word)
        text = status.inner_text()
        assert not ENGLISH_WORDS.search(text), text
        if locale.startswith("ru"):
            assert not re.search(r"[A-Za-z]", text), text
        expect(page.locator("#board")).to_have_attribute("data-seq", "0")
    finally:
        context.close()


PROVE_PARS = """
import json
from games.models import DailyChallenge
for game, proven in (("munger", True), ("masterpiece", False)):
    deal = DailyChallenge.objects.get(game=game, date=%(day)r).deal
    deal.par_optimal = proven
    deal.save(update_fields=["par_optimal"])
print(json.dumps(True))
"""


def test_every_daily_is_said_winnable_and_a_proven_par_the_fewest_moves(
    e2e_page, live_server_url, make_dailies, server_python
):
    page = e2e_page
    day = make_dailies(back=3)["date"]
    server_python(PROVE_PARS % {"day": day})
    fewest = re.compile("the fewest moves possible")

    page.goto(f"{live_server_url}/play/munger/{day}/")
    expect(page.locator("#board")).to_have_attribute("data-seq", "0")
    promise = page.get_by_test_id("deal-promise")
    expect(promise).to_be_visible()
    expect(promise).to_contain_text("proven winnable")
    expect(promise).to_contain_text(fewest)
    # And how hard the deal is, on the same page.
    expect(page.get_by_test_id("difficulty")).to_have_text(
        re.compile(r"^Difficulty: [●○]{5} [\w ]+ \([1-5] of 5\)$")
    )
    page.locator('[data-pile="S"]').click()  # the first move: the note goes, its room stays
    expect(page.locator("#board")).to_have_attribute("data-seq", "1")
    expect(promise).to_be_hidden()

    # A par not proven shortest is not said to be.
    page.goto(f"{live_server_url}/play/masterpiece/{day}/")
    expect(page.locator("#board")).to_have_attribute("data-seq", "0")
    expect(promise).to_contain_text("proven winnable")
    expect(promise).not_to_contain_text(fewest)

    page.goto(f"{live_server_url}/rules/munger/")
    expect(page.get_by_test_id("deal-promise")).to_contain_text("proven winnable")


# The browser's player starts the ranked game of a day that is over, at 23:50 of that day (the
# server's clock travels there for this script only), and plays three moves of its line.
LATE_RANKED_GAME = """
import datetime as dt, json
from unittest import mock
from games import services
from games.models import Attempt, DailyChallenge
player = Attempt.objects.get(pk=%(attempt)d).player
daily = DailyChallenge.objects.get(game="munger", date=%(day)r)
evening = dt.datetime.combine(daily.date, dt.time(23, 50), dt.UTC)
with mock.patch("games.clock.now", return_value=evening):
    attempt, _ = services.attempt_start(player=player, daily=daily)
    for seq, move in enumerate(daily.deal.certificate[:3]):
        services.attempt_play(attempt_id=attempt.pk, player=player, seq=seq, move=move)
print(json.dumps({"id": attempt.pk, "ranked": attempt.ranked}))
"""


def test_a_ranked_game_reloaded_after_its_day_shows_as_it_stood_and_goes_on_unranked(
    e2e_page, live_server_url, dailies, make_dailies, server_python
):
    page = e2e_page
    day = make_dailies(back=6)["date"]
    open_play(page, live_server_url, "masterpiece")  # the browser's player, by its cookie
    mine = int(page.locator("#board").get_attribute("data-attempt"))
    late = server_python(LATE_RANKED_GAME % {"attempt": mine, "day": day})
    assert late["ranked"]

    page.goto(f"{live_server_url}/play/munger/{day}/")
    board = page.locator("#board")
    expect(board).to_have_attribute("data-attempt", str(late["id"]))
    expect(board).to_have_attribute("data-seq", "3")
    expect(page.get_by_test_id("ranked")).to_have_text("Ranked")
    notice = page.get_by_test_id("day-over")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("stays on the board as it stood")
    expect(page.locator("#board .card.playable")).to_have_count(0)  # the server lists no move

    page.get_by_test_id("continue-practice").click()
    expect(page.get_by_test_id("ranked")).to_have_text("Practice, not ranked")
    expect(board).not_to_have_attribute("data-attempt", str(late["id"]))
    expect(board).to_have_attribute("data-seq", "3")
    expect(notice).to_be_hidden()
    practice = board.get_attribute("data-attempt")
    page.locator('[data-pile="S"]').click()
    expect(board).to_have_attribute("data-seq", "4")
    # A reload resumes that practice, never a fresh one.
    page.reload()
    expect(board).to_have_attribute("data-attempt", practice)
    expect(board).to_have_attribute("data-seq", "4")


def test_a_ranked_game_page_names_its_day(e2e_page, live_server_url, dailies):
    page = open_play(e2e_page, live_server_url, "munger")
    expect(page.get_by_test_id("ranked")).to_have_text("Ranked")
    assert page.url.endswith(f"/play/munger/{dailies['munger']['date']}/"), page.url
