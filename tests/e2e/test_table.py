"""Browser tests of the table itself: it fits the screen with its controls and the notes said before
the first move, cards with room over the 24 px minimum (desktop, phone, phone on its side, where
axe finds nothing either; a long Munger column closes up), quick taps are all played in order,
the speed setting is kept, one tap sends a card to its best place and the last move stays marked,
what can move is marked for a finger too, every empty place says what it takes, the keyboard
reaches foundations and picks shorter runs and has its shortcuts, and touch targets are big
enough. The home page's first screen offers a name, then the games.

Most use a Munger deal laid out for them (a practice day of its own): column 1 ends with the
King of spades, the reserve and the stock build a 16-card column on it in 17 moves, the Ace of
spades can go to its foundation or onto the 2 of hearts, and the 9 of hearts onto either black
10.
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

import pytest

from games.engine import new_game
from games.engine.replay import replay
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
    """`open_page(path, size, one_tap=True, locale="en-GB")`: a new player's page at a screen
    size (a phone's with touch), in the browser's language, once its table is drawn;
    afterwards, no script error."""
    contexts: list[Any] = []
    problems: list[str] = []

    def open_(
        path: str,
        size: tuple[int, int] = SIZES["desktop"],
        one_tap: bool = True,
        locale: str = "en-GB",
    ) -> Any:
        phone = size[0] < 800
        context = browser.new_context(
            viewport={"width": size[0], "height": size[1]},
            has_touch=phone,
            is_mobile=phone,
            locale=locale,
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


# Deals whose solver's run takes milliseconds (a daily needs one), none of them
# tests/games/factories.py's: each gets a past day of its own, far back.
QUICK_SEEDS = {
    "munger": [101, 103, 107, 113, 114, 117, 118, 122, 124, 127,
               130, 132, 137, 138, 140, 142, 143, 145, 146, 147],
    "masterpiece": [101, 102, 103, 104, 106, 107, 108, 109, 110, 111,
                    112, 114, 115, 116, 117, 118, 119, 121, 123, 124],
}  # fmt: skip
QUICK_BACK = 300  # days back of the first of them

QUICK_DAYS = """
import datetime as dt, json
from games import clock, services
from games.engine.solver import solve
from games.models import DailyChallenge
made = {}
for game, seeds in %(seeds)r.items():
    for i, seed in enumerate(seeds):
        day = clock.today() - dt.timedelta(days=%(back)d + i)
        daily = DailyChallenge.objects.filter(game=game, date=day).first()
        if daily is None:
            deal = services.deal_create(game=game, seed=seed)
            result = solve(game, deal.deal_string, time_limit=30, par_time=0.05)
            deal = services.deal_approve(
                deal=services.deal_store_solution(deal_id=deal.pk, result=result)
            )
            daily = DailyChallenge.objects.create(game=game, date=day, deal=deal)
        made.setdefault(game, []).append([day.isoformat(), daily.deal.deal_string])
print(json.dumps(made))
"""

# Each tap of a quick series: the card a tap sends somewhere is the outer card of its row.
CARD_CENTRE = """code => {
  const box = document.querySelector(`#board [data-card="${code}"]`).getBoundingClientRect();
  return [box.left + box.width / 2, box.top + box.height / 2];
}"""


@pytest.fixture(scope="module")
def quick_days(e2e_server, dailies) -> dict[str, list[list[str]]]:
    return e2e_server.python(QUICK_DAYS % {"seeds": QUICK_SEEDS, "back": QUICK_BACK})


def one_tap_move(position, src: str):
    """The move one tap on the outer card of `src` makes (the page's smartMove, on the
    engine's list): its foundation, else its only place; None when it has none or several."""
    moves = [m for m in position.legal_moves_carrying() if m.move.split(">")[0] == src]
    if not moves:
        return None
    led = [m for m in moves if m.card == moves[0].card]
    home = [m for m in led if m.move.endswith(">F")]
    return home[0] if home else led[0] if len({m.move for m in led}) == 1 else None


def quick_masterpiece_taps(deal: str, want: int = 4) -> tuple[str, list[tuple[str, str]]]:
    """A move into the cellar (then most free cards have one place), and after it up to
    `want` one-tap moves, each from a row that no earlier tap took from or put on: so the card
    each tap aims at lies where it was at the start, whatever the page has drawn yet."""
    position = new_game("masterpiece", deal=deal)
    rows = [f"M{n}" for n in range(1, 9)] + ["A1", "A2"]
    best: tuple[str, list[tuple[str, str]]] = ("", [])
    for first in [m.move for m in position.legal_moves_carrying() if m.move.endswith(">C")]:
        position.push(first)
        found: list[tuple[str, str]] = []

        def search(taps: list[tuple[str, str]], used: set[str]) -> bool:
            nonlocal found
            if len(taps) > len(found):
                found = list(taps)
            if len(found) >= want:
                return True
            for src in rows:
                move = None if src in used else one_tap_move(position, src)
                if move is None or move.move.endswith(">C"):
                    continue
                position.push(move.move)
                done = search([*taps, (move.move, move.card)], used | {src, move.move[3:]})
                position.push("U")
                if done:
                    return True
            return False

        search([], {first[:2]})
        position.push("U")
        if len(found) > len(best[1]):
            best = (first, found)
        if len(found) >= want:
            break
    return best


def cpu_slowed(page, rate: float = 4) -> Any:
    """The page's scripts and drawing `rate` times slower (a loaded machine, a slow phone)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
    return cdp


@pytest.mark.long
@pytest.mark.parametrize("game", ["munger", "masterpiece"])
def test_quick_taps_are_all_played_on_every_deal(open_page, live_server_url, quick_days, game):
    """Twenty deals, each on a page of its own slowed down as on a loaded machine, every size
    in turn: Munger's five quick taps on the stock make five draws, Masterpiece's quick taps on
    cards with one place each (after a move into the cellar) move each card once, and U pressed
    right after them undoes the last (it was lost while a move was on its way); each page ends
    on the server's position of exactly those moves, with nothing picked up."""
    problems = []
    for i, (day, deal) in enumerate(quick_days[game]):
        size = list(SIZES.values())[i % len(SIZES)]
        page = open_page(f"/play/{game}/{day}/", size)
        if game == "munger":
            first, taps = "", [("S>W", None)] * 5
        else:
            first, taps = quick_masterpiece_taps(deal)
            assert len(taps) >= 3, (day, taps)
            play_by_api(page, live_server_url, [first])
        cpu_slowed(page)
        stock = page.locator('[data-pile="S"]').bounding_box() if game == "munger" else None
        for n, (_token, card) in enumerate(taps):
            if n:
                page.wait_for_timeout(60)  # the taps' rhythm, not a wait for the page
            if card is None:
                x, y = stock["x"] + stock["width"] / 2, stock["y"] + stock["height"] / 2
            else:
                x, y = page.evaluate(CARD_CENTRE, card)
            if size[0] < 800:
                page.touchscreen.tap(x, y)
            else:
                page.mouse.click(x, y)
        # Then U, as quick: it waits its turn too.
        page.wait_for_timeout(60)
        page.keyboard.press("u")
        moves = ([first] if first else []) + [token for token, _ in taps] + ["U"]
        with contextlib.suppress(AssertionError):  # what it reached is checked below
            wait_seq(page, len(moves))
        state = state_of(page, live_server_url)
        expected = replay(game, deal, moves).game.view()
        shown = state["view"]
        if game == "munger":
            shown = {"waste": shown["waste"], "stock": shown["stock"]["count"]}
            expected = {"waste": expected["waste"], "stock": expected["stock"]["count"]}
        if state["seq"] != len(moves) or shown != expected or state["undos"] != 1:
            status = page.get_by_test_id("status").inner_text()
            problems.append(f"{game} {day} {size}: seq {state['seq']} of {len(moves)}: {status}")
        elif page.locator("#board .card.selected").count():
            problems.append(f"{game} {day} {size}: a card is picked up")
        page.context.close()
    assert not problems, "\n".join(problems)


def test_a_tap_on_the_stock_while_the_drawn_card_slides_off_it_draws_again(
    open_page, live_server_url, laid_day
):
    """On a loaded machine a card's slide is drawn behind the page's clock: the page had
    signalled the drawn card's landing while it still covered the stock, and the next tap on
    the stock picked that card up instead of drawing (then the taps after it tried to put it on
    the stock). Here the slides stand still: every tap on the stock draws."""
    page = open_page(f"/play/munger/{laid_day}/")
    cdp = page.context.new_cdp_session(page)
    cdp.send("Animation.enable")
    cdp.send("Animation.setPlaybackRate", {"playbackRate": 0})
    stock = page.locator('[data-pile="S"]').bounding_box()
    x, y = stock["x"] + stock["width"] / 2, stock["y"] + stock["height"] / 2
    for draw in range(1, 4):
        page.mouse.click(x, y)
        wait_seq(page, draw)
        # The card drawn still lies over the stock, and the page counts it as landed (its
        # timer has run): the state the tester's taps met.
        page.wait_for_function(
            """([x, y]) => {
              const card = document.querySelector('[data-pile="W"] > .card:last-child');
              const box = card.getBoundingClientRect();
              return !card.classList.contains('flying')
                && box.left <= x && x <= box.right && box.top <= y && y <= box.bottom;
            }""",
            arg=[x, y],
        )
    wait_seq(page, 3)
    assert state_of(page, live_server_url)["view"]["stock"]["count"] == 14
    expect(page.locator(".card.selected")).to_have_count(0)
    expect(page.get_by_test_id("status")).to_contain_text("Drew")


# The cards drawn outside the table: "code left,top" of each, with the table's box.
OFF_THE_TABLE = """() => {
  const b = document.getElementById('board').getBoundingClientRect();
  return [...document.querySelectorAll('#board .card')]
    .map(c => [c.dataset.card, c.getBoundingClientRect()])
    .filter(([, r]) => r.left < b.left - 0.5 || r.right > b.right + 0.5
      || r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5)
    .map(([code, r]) => `${code} ${Math.round(r.left)},${Math.round(r.top)} off ` +
      `${Math.round(b.left)},${Math.round(b.top)}-${Math.round(b.right)},${Math.round(b.bottom)}`);
}"""


# Where the table and Masterpiece's Aces are on the screen, and the direction line's words.
STEADY = """() => ({
  board: document.getElementById('board').getBoundingClientRect().top,
  aces: document.querySelector('#board .aces').getBoundingClientRect().top,
  direction: document.querySelector('#board .direction').textContent,
})"""


def test_on_a_phone_the_table_stays_put_while_cards_are_played(
    open_page, live_server_url, quick_days
):
    """On a phone held upright a move said in two lines pushed the table down (a blank band
    opened over it), and the first card on a foundation, fixing the direction, pulled the cards
    up a line (the direction line said only "up"): a quick tap met a card that had moved. The
    table and its cards stay where they were from the first move to the last, and the direction
    line says which way the foundations build."""
    day, deal = quick_days["masterpiece"][16]
    first, taps = quick_masterpiece_taps(deal)
    assert taps[0][0].endswith(">F"), taps  # the first tap fixes the direction
    page = open_page(f"/play/masterpiece/{day}/", SIZES["phone"])
    play_by_api(page, live_server_url, [first])
    before = page.evaluate(STEADY)
    assert before["direction"].startswith("Foundations: the direction is not fixed yet")
    for n, (_token, card) in enumerate(taps, 2):
        page.locator(f'#board [data-card="{card}"]').tap()
        wait_seq(page, n)
        settle(page)
        now = page.evaluate(STEADY)
        if not state_of(page, live_server_url)["moves"]:
            break  # blocked: the notice that says so comes over the table, as it should
        assert abs(now["board"] - before["board"]) < 0.5, (n, before, now)
        assert abs(now["aces"] - before["aces"]) < 0.5, (n, before, now)
    assert re.match(r"^Foundations build (up|down): Ace, ", now["direction"]), now


TWO_FRAMES = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"


@pytest.mark.parametrize("n", range(3))
def test_a_card_on_its_way_never_hangs_off_the_table_when_the_table_refits(
    open_page, live_server_url, quick_days, n
):
    """On a phone a Masterpiece card played to a row slid along a path measured before the
    table changed size (a notice above the table, the browser's bars, the phone turned), and
    hung off the table's edge on its way. Here the slides crawl, the window gets shorter while
    the card is on its way, and no card is ever drawn off the table."""
    day, deal = quick_days["masterpiece"][n]
    first, taps = quick_masterpiece_taps(deal)
    page = open_page(f"/play/masterpiece/{day}/", SIZES["phone"])
    play_by_api(page, live_server_url, [first])
    cdp = page.context.new_cdp_session(page)
    cdp.send("Animation.enable")
    cdp.send("Animation.setPlaybackRate", {"playbackRate": 0.02})
    page.locator(f'#board [data-card="{taps[0][1]}"]').tap()
    wait_seq(page, 2)
    page.wait_for_function("() => document.querySelector('#board .card.flying')")
    assert page.evaluate(OFF_THE_TABLE) == []
    page.set_viewport_size({"width": SIZES["phone"][0], "height": 560})
    page.evaluate(TWO_FRAMES)  # the table refitted, drawn
    assert page.evaluate(OFF_THE_TABLE) == []


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


def cellar_only(state: dict[str, Any]) -> tuple[str, str]:
    """A free card (its row, its code) whose only listed place is the cellar."""
    places: dict[tuple[str, str], set[str]] = {}
    for move in state["moves"]:
        src, dst = move["move"].split(">")
        places.setdefault((src, move["card"]), set()).add(dst)
    return next(key for key, dsts in sorted(places.items()) if dsts == {"C"})


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_one_tap_never_fills_the_cellar_it_picks_the_card_up(
    open_page, live_server_url, quick_days, size
):
    """Masterpiece's cellar holds one card: a tap on a card whose only place is the cellar
    picks the card up and offers the cellar, and only a second, deliberate tap there fills it
    (one tap put it there, and two curious taps could dead-end a game)."""
    day = quick_days["masterpiece"][0][0]
    page = open_page(f"/play/masterpiece/{day}/", SIZES[size])
    row, card = cellar_only(state_of(page, live_server_url))
    target = page.locator(f'[data-pile="{row}"] [data-card="{card}"]')
    if size == "phone":
        target.tap()
    else:
        target.click()
    expect(page.locator(f'#board [data-card="{card}"].selected')).to_have_count(1)
    expect(page.locator('[data-pile="C"]')).to_have_class(re.compile(r"\btarget\b"))
    expect(page.get_by_test_id("status")).to_have_text(re.compile(r"It can go to: cellar\.$"))
    assert page.locator("#board").get_attribute("data-seq") == "0"
    assert state_of(page, live_server_url)["view"]["cellar"] is None
    cellar = page.locator('[data-pile="C"]')
    if size == "phone":
        cellar.tap()
    else:
        cellar.click()
    wait_seq(page, 1)
    expect(page.locator(f'[data-pile="C"] [data-card="{card}"]')).to_have_count(1)


# What a picked-up card and a draw are said as, in each language: a sentence that starts with
# a capital, and in French with no participle that would have to agree with the card's name
# ("neuf de cœur prise" read as a feminine, lower-case sentence).
SAID = {
    "en-GB": (
        r"^Picked up nine of hearts\. It can go to: column 4, column 7\.$",
        r"^Drew five of spades\.$",
    ),
    "fr-FR": (
        r"^Carte prise : neuf de cœur\. Elle peut aller : colonne 4, colonne 7\.$",
        r"^Tirage : cinq de pique\.$",
    ),
    "ru-RU": (r"^Выбрана карта: \S+ \S+\. Её можно положить: столбец 4, столбец 7\.$", r"^\S"),
}


@pytest.mark.parametrize("locale", list(SAID))
def test_a_picked_up_card_and_a_draw_are_said_as_sentences_in_each_language(
    open_page, laid_day, locale
):
    page = open_page(f"/play/munger/{laid_day}/", locale=locale)
    picked, drew = SAID[locale]
    # The nine of hearts has two places (the black tens): one tap picks it up.
    page.locator('[data-pile="T6"] [data-card="9H"]').click()
    expect(page.locator(".card.selected")).to_have_count(1)
    expect(page.get_by_test_id("status")).to_have_text(re.compile(picked))
    page.keyboard.press("Escape")
    page.locator('[data-pile="S"]').click()
    wait_seq(page, 1)
    expect(page.get_by_test_id("status")).to_have_text(re.compile(drew))


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


@pytest.mark.parametrize("size", list(SIZES))
def test_the_first_screen_offers_a_name_then_the_games_and_the_next_deals(
    live_server_url, browser, dailies, size
):
    """The home page said "pick a name and play" with its name field below the games and the
    race form, out of sight: a newcomer who played at once was "Guest 185226" on the boards.
    The name field is on the first screen at every size (begun, on a phone on its side), before
    the games; on a desktop and a phone held upright the games begin on it too, and on a desktop
    the next deals' countdown is there as well."""
    width, height = SIZES[size]
    phone = width < 800
    context = browser.new_context(
        viewport={"width": width, "height": height}, has_touch=phone, is_mobile=phone,
        locale="en-GB",
    )  # fmt: skip
    try:
        page = context.new_page()
        page.goto(f"{live_server_url}/")
        field = page.get_by_label("Your name").bounding_box()
        games = page.locator(".daily-card").first.bounding_box()
        countdown = page.locator("#countdown").bounding_box()
        # Whole; on a phone on its side (360 px high), at least begun.
        seen = field["y"] + (field["height"] if size != "phone on its side" else 0)
        assert seen <= height, (size, field)
        assert field["y"] < games["y"], (size, field, games)
        if size != "phone on its side":
            assert games["y"] < height, (size, games)
        if size == "desktop":
            assert countdown["y"] + countdown["height"] <= height, countdown
    finally:
        context.close()
