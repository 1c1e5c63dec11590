"""Browser tests of the table itself: it fits the screen with its controls and the notes said before
the first move, cards with room over the 24 px minimum (desktop, phone, phone on its side, where
axe finds nothing either; a long Munger column closes up), quick taps are all played in order,
the speed setting is kept, one tap sends a card to its best place and the last move stays marked,
what can move is marked for a finger too, every empty place says what it takes, the keyboard
reaches foundations and picks shorter runs and has its shortcuts, and touch targets are big
enough. The home page shows a phone the games before the name form.

Most use a Munger deal laid out for them (a practice day of its own): column 1 ends with the
King of spades, the reserve and the stock build a 16-card column on it in 17 moves, the Ace of
spades can go to its foundation or onto the 2 of hearts, and the 9 of hearts onto either black
10.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.browser import settle
from tests.e2e.test_a11y import blocking_violations

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect
# A busy machine serves a page in seconds: waits get a generous deadline (they end as soon as
# the state is reached).
WAIT_MS = 30_000

SIZES = {"desktop": (1366, 768), "phone": (390, 844), "phone on its side": (740, 360)}

# Columns' tops (cards 22-28), the reserve (29-35, the top last) and the first five draws.
LAID = {
    22: "KS", 23: "AS", 24: "2H", 25: "TS", 26: "TH", 27: "9H", 28: "TC",
    29: "6D", 30: "7C", 31: "8H", 32: "9S", 33: "TD", 34: "JC", 35: "QH",
    36: "5S", 37: "4H", 38: "3C", 39: "2D", 40: "AC",
}  # fmt: skip
LONG_COLUMN = ["R>T1"] * 7 + ["S>W", "W>T1"] * 5

# A daily's deal is solved and approved: the solver wins this one in about a second.
LAID_DAILY = """
import datetime as dt, json
from games import clock, services
from games.engine.solver import solve
from games.models import DailyChallenge, Deal
day = clock.today() - dt.timedelta(days=40)
if not DailyChallenge.objects.filter(game="munger", date=day).exists():
    deal = services.deal_create(game="munger", deal_string=%(deal)r)
    result = solve("munger", deal.deal_string, time_limit=60, par_time=0.05)
    deal = services.deal_approve(deal=services.deal_store_solution(deal_id=deal.pk, result=result))
    DailyChallenge.objects.create(game="munger", date=day, deal=deal)
print(json.dumps(day.isoformat()))
"""


def laid_deal() -> str:
    deck = [rank + suit for suit in "CDHS" for rank in "A23456789TJQK"]
    rest = iter(card for card in deck if card not in LAID.values())
    return " ".join(LAID.get(i) or next(rest) for i in range(1, 53))


@pytest.fixture(scope="module")
def dailies(make_dailies) -> dict[str, Any]:
    return make_dailies()


@pytest.fixture(scope="module")
def laid_day(e2e_server, dailies) -> str:
    return e2e_server.python(LAID_DAILY % {"deal": laid_deal()})


@pytest.fixture
def open_page(browser, live_server_url, dailies):
    """`open_page(path, size, one_tap=True)`: a new player's page at a screen size (a phone's
    with touch), once its table is drawn; afterwards, no script error."""
    contexts: list[Any] = []
    problems: list[str] = []

    def open_(path: str, size: tuple[int, int] = SIZES["desktop"], one_tap: bool = True) -> Any:
        phone = size[0] < 800
        context = browser.new_context(
            viewport={"width": size[0], "height": size[1]},
            has_touch=phone,
            is_mobile=phone,
            locale="en-GB",
        )
        contexts.append(context)
        if not one_tap:
            context.add_init_script("window.localStorage.setItem('patience.oneTap', '0')")
        page = context.new_page()
        page.set_default_timeout(WAIT_MS)
        page.on("pageerror", lambda error: problems.append(f"script error: {error}"))
        page.goto(f"{live_server_url}{path}")
        expect(page.locator("#board")).to_have_attribute(
            "data-seq", re.compile(r"\d+"), timeout=WAIT_MS
        )
        settle(page)
        return page

    yield open_
    for context in contexts:
        context.close()
    assert not problems, problems


def wait_seq(page, seq: int) -> None:
    expect(page.locator("#board")).to_have_attribute("data-seq", str(seq), timeout=WAIT_MS)


def state_of(page, base_url: str) -> dict[str, Any]:
    attempt = page.locator("#board").get_attribute("data-attempt")
    response = page.request.get(f"{base_url}/api/attempts/{attempt}/")
    assert response.ok
    return response.json()


def play_by_api(page, base_url: str, moves: list[str]) -> None:
    """Plays `moves` over REST, then has the page catch up (it asks again on focus)."""
    attempt = page.locator("#board").get_attribute("data-attempt")
    seq = int(page.locator("#board").get_attribute("data-seq"))
    for token in moves:
        answer = page.request.post(
            f"{base_url}/api/attempts/{attempt}/moves/", data={"seq": seq, "move": token}
        )
        assert answer.ok, answer.text()
        seq += 1
    page.evaluate("window.dispatchEvent(new Event('focus'))")
    wait_seq(page, seq)
    settle(page)


FITS = """() => {
  const h = window.innerHeight, w = window.innerWidth;
  let lowest = 0;
  for (const c of document.querySelectorAll('#board .card')) {
    lowest = Math.max(lowest, c.getBoundingClientRect().bottom);
  }
  const controls = document.querySelector('.play-controls').getBoundingClientRect();
  const undo = document.querySelector('[data-testid=undo]').getBoundingClientRect();
  const shown = (e) => e.getClientRects().length > 0;
  const notes = [...document.querySelectorAll('.play-policy')].filter(shown)
    .map(n => ({top: n.getBoundingClientRect().top, bottom: n.getBoundingClientRect().bottom}));
  const taps = [...document.querySelectorAll('.play-controls .btn')].filter(shown)
    .map(b => Math.min(b.getBoundingClientRect().width, b.getBoundingClientRect().height));
  return {lowest, h, controlsTop: controls.top, controlsBottom: controls.bottom,
          undoBottom: undo.bottom, wide: document.documentElement.scrollWidth - w, notes,
          smallestTap: Math.min(...taps),
          card: document.querySelector('#board .card').getBoundingClientRect().width};
}"""


def assert_fits(page, what: str) -> None:
    """The lowest card and the controls are inside the window, with no sideways scroll."""
    fits = page.evaluate(FITS)
    assert fits["lowest"] <= fits["h"] + 0.5, (what, fits)
    assert fits["controlsTop"] >= 0 and fits["undoBottom"] <= fits["h"], (what, fits)
    assert fits["wide"] <= 0, (what, fits)


# -- 1. the table fits the screen ---------------------------------------------------------------


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", ["munger", "masterpiece"])
def test_the_table_and_its_controls_fit_the_screen(open_page, screenshot, game, size):
    page = open_page(f"/play/{game}/", SIZES[size])
    assert_fits(page, f"{game} {size}")
    # Before the first move, with the notes said then: each note whole on the screen, every
    # button a big enough target, and the cards with room to spare over the 24 px minimum.
    fits = page.evaluate(FITS)
    assert len(fits["notes"]) >= 2, fits
    for note in fits["notes"]:
        assert note["top"] >= 0 and note["bottom"] <= fits["h"], (game, size, fits)
    assert fits["controlsBottom"] <= fits["h"] and fits["smallestTap"] >= 24, (game, size, fits)
    assert fits["card"] >= 36, (game, size, fits)
    if size == "phone on its side":
        # The column beside the table passes axe as the band above it does.
        problems = blocking_violations(page)
        assert not problems, "\n".join(problems)
    if (game, size) == ("masterpiece", "phone on its side"):
        screenshot(page, "play-masterpiece-landscape.png", full_page=False)
    # Finish, when offered, sits with Undo and Resign.
    assert page.locator(".play-controls [data-testid=finish]").count() == 1


def test_a_long_munger_column_closes_up_to_fit_every_screen(open_page, live_server_url, laid_day):
    page = open_page(f"/play/munger/{laid_day}/")
    play_by_api(page, live_server_url, LONG_COLUMN)
    assert page.locator('[data-pile="T1"] > .card').count() == 16
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("window.dispatchEvent(new Event('resize'))")
        page.evaluate(
            "window.scrollTo({top: document.getElementById('play').getBoundingClientRect().top"
            " + window.scrollY, behavior: 'instant'})"
        )
        assert_fits(page, f"long column, {size}")
    # Closed up, the column's strips are narrower than at rest, and still in order.
    tops = page.locator('[data-pile="T1"] > .card').evaluate_all(
        "cards => cards.map(c => c.getBoundingClientRect().top)"
    )
    assert tops == sorted(tops) and len(set(tops)) == 16


# -- 5. quick taps, the speed setting ---------------------------------------------------------


def test_five_quick_taps_on_the_stock_make_five_draws(open_page, live_server_url, laid_day):
    page = open_page(f"/play/munger/{laid_day}/")
    stock = page.locator('[data-pile="S"]').bounding_box()
    x, y = stock["x"] + stock["width"] / 2, stock["y"] + stock["height"] / 2
    for tap in range(5):
        if tap:
            page.wait_for_timeout(60)  # the taps' rhythm, not a wait for the page
        page.mouse.click(x, y)
    wait_seq(page, 5)
    settle(page)
    assert state_of(page, live_server_url)["legal"].count("S>W") == 1
    assert state_of(page, live_server_url)["view"]["stock"]["count"] == 12
    expect(page.locator(".card.selected")).to_have_count(0)
    expect(page.locator('[data-pile="W"] [data-card="AC"]')).to_have_count(1)


def test_the_speed_setting_is_kept_and_instant_slides_nothing(open_page, laid_day):
    page = open_page(f"/play/munger/{laid_day}/")
    page.get_by_test_id("settings").locator("summary").click()
    page.get_by_test_id("speed").select_option("instant")
    expect(page.locator("#play")).to_have_attribute("data-speed", "instant")
    page.locator('[data-pile="S"]').click()
    wait_seq(page, 1)
    # Drawn at once: no card is on its way, and none would slide.
    assert page.locator("#board .card.flying").count() == 0
    duration = page.locator("#board .card").first.evaluate(
        "e => getComputedStyle(e).transitionDuration"
    )
    assert duration.split(",")[0].strip() == "0s", duration
    page.reload()
    expect(page.locator("#board")).to_have_attribute(
        "data-seq", re.compile(r"\d+"), timeout=WAIT_MS
    )
    expect(page.get_by_test_id("speed")).to_have_value("instant")
    expect(page.locator("#play")).to_have_attribute("data-speed", "instant")


# -- 4. what can move, the last move, one tap ----------------------------------------------------


def test_one_tap_sends_a_card_to_its_best_place_and_the_last_move_stays_marked(
    open_page, live_server_url, laid_day
):
    page = open_page(f"/play/munger/{laid_day}/", SIZES["phone"])
    # The Ace of spades could go onto the 2 of hearts too: the foundation comes first.
    page.locator('[data-pile="T2"] [data-card="AS"]').tap()
    wait_seq(page, 1)
    assert state_of(page, live_server_url)["last_move"]["move"] == "T2>F"
    expect(page.locator('[data-pile="FS"] [data-card="AS"]')).to_have_class(
        re.compile(r"\blast-to\b")
    )
    expect(page.locator('[data-pile="T2"]')).to_have_class(re.compile(r"\blast-from\b"))
    # The Queen of hearts has one place: onto the King of spades.
    page.locator('[data-pile="R"] [data-card="QH"]').tap()
    wait_seq(page, 2)
    expect(page.locator('[data-pile="T1"] [data-card="QH"]')).to_have_class(
        re.compile(r"\blast-to\b")
    )
    expect(page.locator(".last-from")).to_have_count(1)
    # The 9 of hearts has two: it is picked up, both places are offered.
    page.locator('[data-pile="T6"] [data-card="9H"]').tap()
    expect(page.locator(".card.selected")).to_have_count(1)
    expect(page.locator(".pile.target")).to_have_count(2)
    page.locator('[data-pile="T7"]').tap()
    wait_seq(page, 3)
    assert state_of(page, live_server_url)["last_move"]["move"] == "T6>T7"


def test_what_can_move_is_marked_for_a_finger_and_masterpieces_free_cards_show(open_page):
    page = open_page("/play/masterpiece/", SIZES["phone"])
    playable = page.locator("#board .card.face.playable")
    assert playable.count() > 0
    ring = playable.first.evaluate("e => getComputedStyle(e).boxShadow")
    assert "255, 210, 63" in ring, ring  # a gold edge, not only a cursor
    # One free card per row that has cards: its outermost; the cards it covers are dimmed.
    rows = page.locator(".masterpiece-table > .row")
    filled = rows.evaluate_all("rows => rows.filter(r => r.querySelector('.card')).length")
    expect(page.locator(".row > .card.free")).to_have_count(filled)
    assert page.locator('[data-pile="M1"] > .card').last.evaluate(
        "e => e.classList.contains('free')"
    )
    covered = page.locator(".row > .card:not(.free)").first
    assert "brightness" in covered.evaluate("e => getComputedStyle(e).filter")


# -- 6. labels ------------------------------------------------------------------------------------


def test_every_empty_place_says_what_it_takes(open_page, laid_day):
    page = open_page(f"/play/munger/{laid_day}/")
    for suit, word in zip("CDHS", ["clubs", "diamonds", "hearts", "spades"], strict=True):
        foundation = page.locator(f'[data-pile="F{suit}"]')
        expect(foundation).to_have_attribute(
            "aria-label", re.compile(f"empty, takes the ace of {word}")
        )
        expect(foundation.locator(".slot-suit")).to_have_count(1)
    expect(page.locator('[data-pile="W"]')).to_have_attribute(
        "aria-label", re.compile("empty, cards drawn from the stock come here")
    )

    page = open_page("/play/masterpiece/")
    cellar = page.locator('[data-pile="C"]')
    expect(cellar).to_have_attribute("aria-label", "Cellar: empty, takes any free card")
    expect(cellar.locator(".pile-caption")).to_have_text("Cellar")
    expect(cellar.locator(".slot-mark")).to_have_text("Any card")
    # The cellar is a dark hollow, unlike the foundations.
    hollow = cellar.evaluate("e => getComputedStyle(e).backgroundColor")
    ace = page.locator(".aces .pile").first.evaluate("e => getComputedStyle(e).backgroundColor")
    assert hollow != ace and hollow != "rgba(0, 0, 0, 0)"
    # The outer card of a left-hand row shows its index once.
    for row in ("M1", "M2", "M3", "M4"):
        outer = page.locator(f'[data-pile="{row}"] > .card.free')
        expect(outer.locator(".corner .rank:visible")).to_have_count(1)


# -- 9. keyboard ----------------------------------------------------------------------------------


def focused(page) -> str:
    return page.evaluate(
        "() => { const p = document.activeElement.closest('.pile'); "
        "return p ? p.dataset.name + (p.dataset.suit || '') : ''; }"
    )


def test_the_keyboard_reaches_foundations_picks_shorter_runs_and_has_shortcuts(
    open_page, live_server_url, laid_day
):
    page = open_page(f"/play/munger/{laid_day}/", one_tap=False)
    play_by_api(page, live_server_url, LONG_COLUMN)
    page.locator('[data-pile="T7"]').focus()
    # Up from the last column: straight to the foundation above it.
    page.keyboard.press("ArrowUp")
    assert focused(page).startswith("F"), focused(page)
    page.keyboard.press("ArrowDown")
    assert focused(page) == "T7"
    page.locator('[data-pile="T1"]').focus()
    # Enter picks up the longest run that can move (led by the 9 of spades)...
    page.keyboard.press("Enter")
    expect(page.locator('[data-pile="T1"] .card.selected')).to_have_count(9)
    expect(page.locator('[data-pile="T5"]')).to_have_class(re.compile(r"\btarget\b"))
    # ...End takes only the top card, the Ace of clubs, which goes to its foundation.
    page.keyboard.press("End")
    expect(page.locator('[data-pile="T1"] .card.selected')).to_have_count(1)
    expect(page.locator('[data-pile="FC"]')).to_have_class(re.compile(r"\btarget\b"))
    expect(page.get_by_test_id("status")).to_contain_text("ace of clubs")
    # Home points at the first face-up card; Shift+Down walks the fan.
    page.keyboard.press("Escape")
    page.keyboard.press("Home")
    expect(page.locator('[data-pile="T1"] .card.cursor')).to_have_count(1)
    first = page.locator('[data-pile="T1"] .card.cursor').get_attribute("data-card")
    page.keyboard.press("Shift+ArrowDown")
    assert page.locator('[data-pile="T1"] .card.cursor').get_attribute("data-card") != first
    # U undoes; ? shows the rules and keys, and Escape closes them.
    page.keyboard.press("u")
    wait_seq(page, len(LONG_COLUMN) + 1)
    assert state_of(page, live_server_url)["last_move"] is None
    page.keyboard.press("?")
    help_dialog = page.get_by_test_id("help")
    expect(help_dialog).to_be_visible()
    expect(help_dialog.get_by_role("link")).to_have_attribute("href", "/rules/munger/")
    page.keyboard.press("Escape")
    expect(help_dialog).to_be_hidden()


# -- 10. touch targets, the phone's first screen -------------------------------------------------


def test_touch_targets_are_big_enough_and_a_face_down_tap_takes_the_card_above(
    open_page, live_server_url, laid_day
):
    page = open_page(f"/play/munger/{laid_day}/", SIZES["phone"], one_tap=False)
    play_by_api(page, live_server_url, ["R>T1", "R>T1", "R>T1"])
    # Each face-up card a column covers shows a strip of at least 24 px.
    strips = page.locator('[data-pile="T1"] > .card').evaluate_all(
        """cards => cards.slice(0, -1).map((c, i) => c.dataset.card
             ? cards[i + 1].getBoundingClientRect().top - c.getBoundingClientRect().top : null)
           .filter(s => s !== null)"""
    )
    assert strips and min(strips) >= 24, strips
    # A tap on a face-down card picks up the lowest face-up card above it, not the top card.
    page.locator('[data-pile="T1"] > .card.back').first.tap(position={"x": 10, "y": 3})
    selected = page.locator('[data-pile="T1"] .card.selected')
    expect(selected.first).to_have_attribute(
        "data-card",
        page.locator('[data-pile="T1"] > .card[data-card]').first.get_attribute("data-card"),
    )


def test_a_phone_sees_the_games_before_the_name_form(open_page, live_server_url, browser):
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, locale="en-GB"
    )
    try:
        page = context.new_page()
        page.goto(f"{live_server_url}/")
        games = page.locator(".daily-card").first.bounding_box()
        form = page.locator("#welcome").bounding_box()
        assert games["y"] < form["y"]
        assert games["y"] < 844
    finally:
        context.close()
