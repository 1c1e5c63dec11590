"""Browser tests of "Analyse my game" (/analysis/<attempt>/, frontend/static/frontend/pages/
analysis.js) against the real API and the solver's real analysis: for each game, a win and a
loss played in practice on a past day's certified deal; the end panel and the archive lead to
the page, which shows the summary, the chart and its table (axe finds no serious problem, on a
desktop and on a phone); a click on the chart or a row shows
that position on a table of its own with the player's and the solver's move; the keys move the
chart's cursor and the position is announced. One run is in Russian, with no key nor
placeholder left unfilled. A race's results offer each racer their game's analysis once the
race is over. While a ranked day runs, the end panel and My stats say when the
analysis opens and the page says why not yet; another player's game is "not your game".

The analysis is the solver's job, queued when the page asks for it: as the other tests do with
the solver's long jobs, the test runs the queued job itself (`services.analysis_run` against the
server's database), with a small budget, so every position is settled or bounded within
seconds; the page, polling, shows it once done."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from typing import Any

import pytest

from games.engine.solver import DECIDE, rules_for
from games.engine.solver.distance import position
from games.engine.solver.search import UNSOLVABLE, Budget, decide
from tests.e2e.test_a11y import blocking_violations
from tests.e2e.test_race import (
    CERTIFICATE_ON,
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

# The same small budget where the server runs the job itself (no worker: a thread of its own).
os.environ.setdefault("ANALYSIS_MS", "8000")
os.environ.setdefault("ANALYSIS_POSITION_MS", "100")

#: The queued job, worked out on the server's database with a small budget: in all, and for
#: one position (a short lost game gets more a position: its last one is proven lost).
RUN_ANALYSIS = """
import json
from django.conf import settings
from games import services
settings.ANALYSIS_SECONDS, settings.ANALYSIS_POSITION_SECONDS = %r, %r
analysis = services.analysis_run(attempt_id=%d)
print(json.dumps(analysis.status if analysis else None))
"""

DEAL_ON = """
import datetime as dt, json
from games.models import DailyChallenge
daily = DailyChallenge.objects.get(game=%r, date=dt.date.fromisoformat(%r))
print(json.dumps(daily.deal.deal_string))
"""

#: Moves played on an attempt by the games' services against the server's database (a whole
#: game in a second or two, where one request a move takes half a minute).
PLAY_BY_SERVICES = """
import json
from games import services
from games.models import Attempt
attempt = Attempt.objects.select_related("player").get(pk=%d)
kept = services.KeptGame()  # the position kept between moves, as the play socket does
for seq, move in enumerate(json.loads(%r)):
    services.attempt_play(
        attempt_id=attempt.pk, player=attempt.player, seq=seq, move=move, kept=kept
    )
print(json.dumps(Attempt.objects.get(pk=attempt.pk).status))
"""

#: What a sentence built wrongly shows: a missing value, a placeholder or a catalogue key.
BROKEN = re.compile(r"\bnull\b|\bundefined\b|\bNaN\b|\{\w*\}|\[object |\banalysis_\w+")


def losing_line(game: str, deal_string: str) -> list[str]:
    """Moves from the deal after which no win is left, found with the engine: at each step a
    legal move that loses the win if there is one, else a draw from the stock (Munger) or
    the first legal move."""
    here = position(game, deal_string, [])
    line: list[str] = []
    for _ in range(60):
        legal = [move.text for move in here.legal_moves()]
        for move in legal:
            trial = position(game, deal_string, [*line, move])
            # Deciding alone, on a node budget: a win found is quick, a loss proven is exhaustive.
            if decide(rules_for(trial, DECIDE), Budget(None, 30_000)).status == UNSOLVABLE:
                return [*line, move]
        move = "S>W" if "S>W" in legal else legal[0]
        here.push(move)
        line.append(move)
    raise AssertionError(f"no losing line found for this {game} deal")


def finish_on_the_play_page(
    page: Any, url: str, game: str, day: str, moves: list[str], run: Callable[[str], Any]
) -> str:
    """Plays `moves` by the services on the practice game the play page of `day` started
    (then resigns on the page unless they won): the attempt's id, once the end panel is
    shown."""
    # The table's socket stays quiet (it would draw each of the moves played meanwhile, one at
    # a time); the page reads the state the game ended in when it gets the focus back.
    page.route_web_socket(re.compile(r".*/ws/play/.*"), lambda socket: None)
    page.goto(f"{url}/play/{game}/{day}/")
    expect(page.locator("#board")).to_have_attribute("data-seq", "0")
    attempt: str = page.locator("#board").get_attribute("data-attempt")
    won = run(PLAY_BY_SERVICES % (int(attempt), json.dumps(moves))) == "won"
    page.evaluate("window.dispatchEvent(new Event('focus'))")  # the page catches up
    expect(page.locator("#board")).to_have_attribute("data-seq", str(len(moves)))
    if not won:
        page.get_by_test_id("resign").click()
        page.get_by_test_id("resign-confirm").click()
    expect(page.locator("#board")).to_have_attribute("data-status", "won" if won else "resigned")
    expect(page.get_by_test_id("end")).to_be_visible()
    return attempt


def analysed(
    page: Any, attempt: str, run: Callable[[str], Any], budget: tuple[float, float] = (8, 0.1)
) -> None:
    """The page asks for the analysis and says it is on its way; the queued job is run; the
    page, polling, shows the report."""
    words = words_of(page)
    asked = "|".join(
        re.escape(words[k]) for k in ("analysis_queued", "analysis_running", "analysis_ready")
    )
    expect(page.get_by_test_id("analysis-status")).to_have_text(re.compile(asked))
    assert run(RUN_ANALYSIS % (*budget, int(attempt))) == "done"
    expect(page.get_by_test_id("analysis-chart")).to_be_visible()
    expect(page.locator("#analysis")).to_have_attribute("aria-busy", "false")


def open_from_the_end_panel(
    page: Any, attempt: str, run: Callable[[str], Any], budget: tuple[float, float] = (8, 0.1)
) -> None:
    link = page.get_by_test_id("end-analysis").get_by_role("link")
    expect(link).to_have_attribute("href", f"/analysis/{attempt}/")
    link.click()
    expect(page).to_have_url(re.compile(rf"/analysis/{attempt}/$"))
    analysed(page, attempt, run, budget)


def click_point(page: Any, index: int, last: int) -> None:
    """A click on the chart where position `index` is drawn (the viewBox's plot area)."""
    box = page.get_by_test_id("analysis-chart").locator("svg").bounding_box()
    left, right, width = page.evaluate(
        """() => {
          const svg = document.querySelector('[data-testid=analysis-chart] svg');
          const axis = svg.querySelector('line.axis');
          const at = (name) => Number(axis.getAttribute(name));
          return [at('x1'), at('x2'), svg.viewBox.baseVal.width];
        }"""
    )
    x = left + (right - left) * index / last
    page.mouse.click(box["x"] + box["width"] * x / width, box["y"] + box["height"] / 2)


def shows_position(page: Any, index: int) -> None:
    """The chart's cursor, the table's row and the position's table are at `index`."""
    expect(page.get_by_test_id("analysis-chart")).to_have_attribute("aria-valuenow", str(index))
    expect(page.get_by_test_id("analysis-replay-board")).to_have_attribute("data-step", str(index))
    current = page.locator("[data-testid=analysis-row][aria-current=true]")
    expect(current).to_have_attribute("data-index", str(index))


def check_the_page(page: Any, moves: int, words: dict[str, Any]) -> None:
    """The chart and the table of `moves + 1` positions, a click on a point and on a row, the
    keys along the chart and what is announced."""
    rows = page.get_by_test_id("analysis-row")
    expect(rows).to_have_count(moves + 1)
    chart = page.get_by_test_id("analysis-chart")
    expect(chart).to_have_attribute("aria-valuemax", str(moves))
    # A click on a point shows that position, with the move played next and the solver's.
    target = min(3, moves)
    click_point(page, target, moves)
    shows_position(page, target)
    title = words["analysis_position_after"].format(i=target)
    expect(page.get_by_test_id("analysis-position-title")).to_have_text(title)
    for part in ("analysis-position-played", "analysis-position-best"):
        expect(page.get_by_test_id(part)).not_to_have_text("")
    # A row of the table does the same.
    rows.nth(1).get_by_test_id("analysis-row-show").click()
    shows_position(page, 1)
    # The keys move along the chart, and the position is announced.
    chart.focus()
    page.keyboard.press("End")
    shows_position(page, moves)
    page.keyboard.press("Home")
    shows_position(page, 0)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    shows_position(page, min(2, moves))
    said = words["analysis_after_move"].format(i=min(2, moves), n=moves)
    expect(page.get_by_test_id("analysis-live")).to_contain_text(said)
    # The replay's own steps move the chart's cursor too.
    page.get_by_test_id("analysis-replay-previous").click()
    shows_position(page, min(2, moves) - 1)


@pytest.mark.long
@pytest.mark.parametrize("game", ["masterpiece", "munger"])
def test_a_won_game_is_analysed_move_by_move(
    browser, live_server_url, make_dailies, server_python, game
):
    day = make_dailies(back=30)["date"]
    certificate = server_python(CERTIFICATE_ON % (game, day))
    problems: list[str] = []
    context = context_for(browser)
    try:
        page = watched(context.new_page(), problems)
        attempt = finish_on_the_play_page(
            page, live_server_url, game, day, certificate, server_python
        )
        expect(page.get_by_test_id("end").locator("h2").first).to_have_text("You won!")
        open_from_the_end_panel(page, attempt, server_python)
        words = words_of(page)

        summary = page.get_by_test_id("analysis-summary")
        expect(summary).to_contain_text(f"You won in {len(certificate)} moves.")
        expect(summary).to_contain_text(re.compile(r"Par \d+: the fewest moves"))
        expect(page.get_by_test_id("chart-par")).to_have_count(1)
        expect(page.get_by_test_id("analysis-subtitle")).to_contain_text(day)
        hidden = page.get_by_test_id("analysis-hidden")
        expect(hidden).to_have_count(1 if game == "munger" else 0)
        # The last position is the win.
        last = page.get_by_test_id("analysis-row").last
        expect(last.locator("td.num")).to_have_text(words["analysis_distance_won"])
        check_the_page(page, len(certificate), words)
        assert blocking_violations(page) == []

        # The archive leads to the same page.
        page.goto(f"{live_server_url}/archive/?month={day[:7]}")
        link = page.locator(f"a[href='/analysis/{attempt}/']")
        expect(link).to_have_count(1)
        # On a phone, nothing runs off the side of the page.
        page.set_viewport_size({"width": 390, "height": 844})
        link.click()
        expect(page.get_by_test_id("analysis-chart")).to_be_visible()  # kept: no new job
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the page is {width} px wide on a 390 px screen"
        assert blocking_violations(page) == []
        assert problems == []
    finally:
        context.close()


@pytest.mark.long
@pytest.mark.parametrize(("game", "language"), [("masterpiece", "en"), ("munger", "ru")])
def test_a_lost_game_says_after_which_move_no_win_was_left(
    browser, live_server_url, make_dailies, server_python, screenshot, game, language
):
    day = make_dailies(back=31)["date"]
    deal = server_python(DEAL_ON % (game, day))
    line = losing_line(game, deal)
    problems: list[str] = []
    context = context_for(browser, language=language)
    try:
        page = watched(context.new_page(), problems)
        attempt = finish_on_the_play_page(page, live_server_url, game, day, line, server_python)
        open_from_the_end_panel(page, attempt, server_python, budget=(8, 0.5))
        words = words_of(page)

        summary = page.get_by_test_id("analysis-summary")
        lost = re.escape(words["analysis_lost_at"]).replace(r"\{k\}", r"(\d+)")
        found = re.search(lost, summary.inner_text())
        assert found, summary.inner_text()
        assert 1 <= int(found.group(1)) <= len(line)
        # The winning move from the position before it, in words.
        expect(page.get_by_test_id("analysis-winning-move")).to_be_visible()
        expect(page.get_by_test_id("legend-no-win")).to_be_visible()
        no_win = page.locator("[data-testid=analysis-row].status-no_win")
        expect(no_win.last.locator("td.num")).to_have_text(words["analysis_distance_no_win"])
        check_the_page(page, len(line), words)
        text = page.locator("main").inner_text()
        assert not BROKEN.findall(text), BROKEN.findall(text)
        if language == "ru":
            assert "Анализ вашей партии" in text and "Your move" not in text
        screenshot(page, f"analysis-{game}-{language}.png")
        assert problems == []
    finally:
        context.close()


def test_a_ranked_day_still_running_says_when_its_analysis_opens(
    browser, live_server_url, make_dailies
):
    today = make_dailies()["masterpiece"]
    problems: list[str] = []
    contexts = [context_for(browser), context_for(browser)]
    try:
        page, other = (watched(c.new_page(), problems) for c in contexts)
        # Today's ranked game, one move played (a daily played, for My stats), then resigned.
        page.goto(f"{live_server_url}/play/masterpiece/")
        expect(page.locator("#board")).to_have_attribute("data-seq", "0")
        expect(page.get_by_test_id("ranked")).to_have_text("Ranked")
        attempt = play_moves(page, live_server_url, today["certificate"][:1])
        page.evaluate("window.dispatchEvent(new Event('focus'))")
        expect(page.locator("#board")).to_have_attribute("data-seq", "1")
        page.get_by_test_id("resign").click()
        page.get_by_test_id("resign-confirm").click()
        # The end panel says when, in the reader's time, and offers no link.
        opens = page.get_by_test_id("end-analysis")
        expect(opens).to_contain_text("Analysis opens at ")
        expect(opens.get_by_role("link")).to_have_count(0)
        # So does My stats' row of the day.
        page.goto(f"{live_server_url}/me/")
        expect(page.get_by_test_id("me-analysis")).to_contain_text("Analysis opens at ")
        # The page itself says why not yet.
        page.goto(f"{live_server_url}/analysis/{attempt}/")
        status = page.get_by_test_id("analysis-status")
        expect(status).to_contain_text("The analysis opens when the day’s ranked play is over, at")
        expect(page.locator("#analysis")).to_have_attribute("data-refusal", "analysis_not_yet")
        expect(page.get_by_test_id("analysis-report")).to_be_hidden()
        # Another player's game is not theirs to analyse.
        other.goto(f"{live_server_url}/analysis/{attempt}/")
        expect(other.get_by_test_id("analysis-status")).to_contain_text("This is not your game")
        assert problems == []
    finally:
        for context in contexts:
            context.close()


@pytest.mark.long
def test_a_race_offers_each_racer_the_analysis_of_their_game_once_it_is_over(
    browser, live_server_url, make_dailies, server_python
):
    day = make_dailies(back=32)["date"]
    certificate = server_python(CERTIFICATE_ON % ("masterpiece", day))
    problems: list[str] = []
    contexts = [context_for(browser), context_for(browser)]
    try:
        alice, bob = (watched(c.new_page(), problems) for c in contexts)
        join(bob, make_race(alice, live_server_url, "masterpiece", day))
        start([alice, bob])
        mine = play_moves(alice, live_server_url, certificate[:2])
        resign(alice, live_server_url)
        # Bob still races on the deal: no analysis for Alice yet.
        expect(alice.get_by_test_id("race-result")).to_have_count(1)
        expect(alice.get_by_test_id("race-analysis")).to_have_count(0)
        refused = alice.request.post(f"{live_server_url}/api/attempts/{mine}/analysis/")
        assert refused.status == 409 and refused.json()["code"] == "analysis_race"
        resign(bob, live_server_url)
        race_over([alice, bob])
        link = alice.get_by_test_id("race-analysis").get_by_role("link")
        expect(link).to_have_attribute("href", f"/analysis/{mine}/")
        expect(bob.get_by_test_id("race-analysis").get_by_role("link")).to_be_visible()
        link.click()
        analysed(alice, mine, server_python)
        expect(alice.get_by_test_id("analysis-summary")).to_contain_text(
            "You resigned after 2 moves."
        )
        assert problems == []
    finally:
        for context in contexts:
            context.close()
