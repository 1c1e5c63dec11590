"""Browser tests of what players of the best solitaire apps and daily puzzles take for granted,
where the other browser tests do not look already (docs/ux.md, "How the table measures up",
maps every point to its test): a finger that drifts a little still taps, and a finger's drag
moves the card, never the page; the stock counts down and, once empty, says that there is no
redeal (said again when asked again); a whole game can be won with the keyboard alone; keys
move a run and walk each fan the way it is laid out; the table is one tab stop whose focus
ring stands out, and the focus stays where it was after a move; a long time away counts for a
minute at most, as the page says before the first move; and a visitor's first move is one
click from the home page, while a forged move changes nothing.

Most use test_table.py's Munger deal laid out for them (its module docstring says how).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e import test_table as table
from tests.e2e.browser import until
from tests.e2e.test_play import (
    CERTIFICATE_ON,
    focus_board_by_tab,
    focused_pile,
    key_to,
    keyboard_move,
    state_of,
)
from tests.e2e.test_table import LONG_COLUMN, SIZES, WAIT_MS, play_by_api, wait_seq

# test_table.py's fixtures, shared.
dailies = table.dailies
laid_day = table.laid_day
open_page = table.open_page

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect


def centre(box: dict[str, float]) -> tuple[float, float]:
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_a_small_drift_is_a_tap_and_a_fingers_drag_moves_the_card_not_the_page(open_page, laid_day):
    page = open_page(f"/play/munger/{laid_day}/", SIZES["phone"], one_tap=False)
    cdp = page.context.new_cdp_session(page)

    def touch(kind: str, x: float = 0, y: float = 0) -> None:
        points = [] if kind == "touchEnd" else [{"x": x, "y": y}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    # The Queen of hearts, the reserve's top card: a finger that drifts 6 px still taps it
    # (one-tap moves are off: the tap picks it up).
    x, y = centre(page.locator('[data-pile="R"] [data-card="QH"]').bounding_box())
    touch("touchStart", x, y)
    touch("touchMove", x + 3.6, y + 4.8)
    touch("touchEnd")
    expect(page.locator('.card.selected[data-card="QH"]')).to_have_count(1)
    page.keyboard.press("Escape")
    expect(page.locator(".card.selected")).to_have_count(0)

    # Dragged by a finger onto the King of spades, it goes there, and the page never scrolls
    # (the page is taller than the phone's screen: a pan would scroll it).
    assert page.evaluate("document.documentElement.scrollHeight") > SIZES["phone"][1]
    before = page.evaluate(
        "() => { window.__scrolls = 0;"
        " addEventListener('scroll', () => { window.__scrolls += 1; }); return scrollY; }"
    )
    to_x, to_y = centre(page.locator('[data-pile="T1"]').bounding_box())
    touch("touchStart", x, y)
    for step in range(1, 11):
        touch("touchMove", x + (to_x - x) * step / 10, y + (to_y - y) * step / 10)
    touch("touchEnd")
    wait_seq(page, 1)
    expect(page.locator('[data-pile="T1"] [data-card="QH"]')).to_have_count(1)
    assert page.evaluate("[scrollY, window.__scrolls]") == [before, 0]


# What the status line said, in order, from the moment this is run.
RECORD_STATUS = """() => {
  window.__said = [];
  const status = document.querySelector('[data-testid=status]');
  new MutationObserver(() => window.__said.push(status.textContent))
    .observe(status, {childList: true, characterData: true, subtree: true});
}"""


def test_the_stock_counts_down_and_once_empty_says_there_is_no_redeal(
    open_page, live_server_url, laid_day
):
    page = open_page(f"/play/munger/{laid_day}/")
    stock = page.locator('[data-pile="S"]')
    expect(stock.locator(".badge")).to_have_text("17")
    expect(stock).to_have_attribute("aria-label", re.compile(r"^Stock: 17 cards face down"))
    stock.click()
    wait_seq(page, 1)
    expect(stock.locator(".badge")).to_have_text("16")
    play_by_api(page, live_server_url, ["S>W"] * 16)

    # Munger deals the stock once: empty, it says so in sight and in its name.
    expect(stock.locator(".badge")).to_have_count(0)
    expect(stock).to_have_attribute("aria-label", "Stock: empty, no redeal")
    expect(stock.locator(".slot-mark")).to_have_text("no redeal")
    assert "S>W" not in state_of(page, live_server_url)["legal"]
    # A tap on it plays nothing and says why; a second tap says it again: the status line is
    # emptied between two equal sentences, so that a screen reader repeats it.
    page.evaluate(RECORD_STATUS)
    said = "The stock is empty: there is no redeal."
    x, y = centre(stock.bounding_box())  # a click where it lies (it is marked disabled)
    page.mouse.click(x, y)
    expect(page.get_by_test_id("status")).to_have_text(said)
    page.mouse.click(x, y)
    until(page, lambda: page.evaluate("window.__said").count(said) >= 2)
    assert page.evaluate("window.__said")[-3:] == [said, "", said]
    assert page.locator("#board").get_attribute("data-seq") == "17"


@pytest.mark.long
def test_a_whole_game_is_won_with_the_keyboard_alone(
    e2e_page, live_server_url, make_dailies, server_python
):
    day = make_dailies(back=2)["date"]
    certificate = server_python(CERTIFICATE_ON % ("masterpiece", day))
    page = e2e_page
    page.set_default_timeout(WAIT_MS)
    page.goto(f"{live_server_url}/play/masterpiece/{day}/")
    wait_seq(page, 0)
    focus_board_by_tab(page)
    for seq, token in enumerate(certificate):
        state = state_of(page, live_server_url)
        if state["finishable"]:
            # The rest goes up with the Finish button, reached with Shift+Tab.
            for _ in range(30):
                page.keyboard.press("Shift+Tab")
                if page.evaluate("document.activeElement.dataset.testid") == "finish":
                    break
            page.keyboard.press("Enter")
            break
        keyboard_move(page, token, state)
        wait_seq(page, seq + 1)
    expect(page.locator("#board")).to_have_attribute("data-status", "won", timeout=WAIT_MS)
    expect(page.locator("#end-title")).to_have_text("You won!")


def cursor_card(page) -> str | None:
    return page.locator("#board .card.cursor").get_attribute("data-card")


def test_keys_move_a_run_and_walk_each_fan_the_way_it_runs(open_page, live_server_url, laid_day):
    page = open_page(f"/play/munger/{laid_day}/", one_tap=False)
    play_by_api(page, live_server_url, LONG_COLUMN)
    column = page.locator('[data-pile="T1"]')
    ten = page.locator('[data-pile="T5"] > .card')
    under_ten = ten.count()
    column.focus()
    # Enter picks up the longest run (led by the 9 of spades); Shift+Down makes it shorter,
    # Shift+Up longer again, and the run is put down on the ten of hearts by keys.
    page.keyboard.press("Enter")
    selected = column.locator(".card.selected")
    expect(selected).to_have_count(9)
    page.keyboard.press("Shift+ArrowDown")
    page.keyboard.press("Shift+ArrowDown")
    expect(selected).to_have_count(7)
    page.keyboard.press("Shift+ArrowUp")
    page.keyboard.press("Shift+ArrowUp")
    expect(selected).to_have_count(9)
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    assert focused_pile(page) == {"name": "T5", "suit": ""}
    page.keyboard.press("Enter")
    wait_seq(page, len(LONG_COLUMN) + 1)
    expect(ten).to_have_count(under_ten + 9)
    assert state_of(page, live_server_url)["last_move"]["move"] == "T1>T5"

    # Masterpiece's rows run sideways: a left-hand row grows leftwards, so Shift+Left walks
    # out to its free card and Shift+Right in; a right-hand row the other way round.
    page = open_page("/play/masterpiece/")
    status = page.get_by_test_id("status")
    for row, inwards, outwards in (
        ("M1", "ArrowRight", "ArrowLeft"),
        ("M5", "ArrowLeft", "ArrowRight"),
    ):
        cards = page.locator(f'[data-pile="{row}"] > .card').evaluate_all(
            "cards => cards.map(c => c.dataset.card)"
        )
        page.locator(f'[data-pile="{row}"]').focus()
        page.keyboard.press("End")
        assert cursor_card(page) == cards[-1]
        page.keyboard.press(f"Shift+{inwards}")
        assert cursor_card(page) == cards[-2]
        expect(status).to_contain_text(f"{len(cards) - 1} of {len(cards)}, main row {row[1]}")
        page.keyboard.press(f"Shift+{outwards}")
        assert cursor_card(page) == cards[-1]
    assert page.locator("#board").get_attribute("data-seq") == "0"


def relative_luminance(rgb: tuple[int, int, int]) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    red, green, blue = (channel(v) for v in rgb)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(one: tuple[int, int, int], two: tuple[int, int, int]) -> float:
    light, dark = sorted((relative_luminance(one), relative_luminance(two)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def colours(text: str) -> list[tuple[int, int, int]]:
    """The colours a computed style names: rgb(...) and #rrggbb."""
    found = [
        (int(r), int(g), int(b)) for r, g, b in re.findall(r"rgba?\((\d+), (\d+), (\d+)", text)
    ]
    found += [
        (int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16))
        for h in re.findall(r"#([0-9a-fA-F]{6})\b", text)
    ]
    return found


RING = """pile => {
  const style = getComputedStyle(pile);
  const board = getComputedStyle(document.getElementById('board'));
  return {outline: style.outlineColor, width: parseFloat(style.outlineWidth), halo: style.boxShadow,
          felt: ['--felt', '--felt-dark'].map(v => board.getPropertyValue(v)).join(' ')
                + ' ' + board.backgroundImage,
          target: board.getPropertyValue('--target'), face: board.getPropertyValue('--card-face')};
}"""


def test_the_table_is_one_tab_stop_whose_ring_stands_out_and_the_focus_stays_after_a_move(
    open_page, laid_day
):
    page = open_page(f"/play/munger/{laid_day}/", one_tap=False)
    focus_board_by_tab(page)
    first = focused_pile(page)
    # One tab stop: Tab leaves the table, Shift+Tab comes back to the same pile.
    page.keyboard.press("Tab")
    assert focused_pile(page) is None
    page.keyboard.press("Shift+Tab")
    assert focused_pile(page) == first

    # The ring: a light outline (against the felt) with a dark halo (against a picked-up
    # card's edge and the card faces), each at least 3:1.
    key_to(page, "T2")
    page.keyboard.press("Enter")  # picks up the Ace of spades
    expect(page.locator('[data-pile="T2"] .card.selected')).to_have_count(1)
    ring = page.locator('[data-pile="T2"]').evaluate(RING)
    assert ring["width"] >= 3, ring
    (outline,) = colours(ring["outline"])
    halo = colours(ring["halo"])[0]
    felts = colours(ring["felt"])
    assert len(felts) >= 3, ring
    for felt in felts:
        assert contrast(outline, felt) >= 3, (outline, felt)
    for edge in colours(ring["target"]) + colours(ring["face"]):
        assert contrast(halo, edge) >= 3, (halo, edge)

    # A move made with the keys leaves the focus where it was, on the pile it left.
    key_to(page, "FS")
    page.keyboard.press("Enter")
    wait_seq(page, 1)
    expect(page.locator('[data-pile="FS"] [data-card="AS"]')).to_have_count(1)
    assert focused_pile(page)["name"] == "FS"
    expect(page.get_by_test_id("status")).to_contain_text("Moved ace of spades")


# The browser's player's attempt began ten minutes ago (the deal shown, no move yet).
DEALT_LONG_AGO = """
import datetime as dt, json
from games import clock
from games.models import Attempt
print(Attempt.objects.filter(pk=%d).update(started_at=clock.now() - dt.timedelta(minutes=10)))
"""


def test_ten_minutes_away_before_the_first_move_count_for_one(
    open_page, live_server_url, laid_day, server_python
):
    page = open_page(f"/play/munger/{laid_day}/")
    expect(page.get_by_test_id("clock-policy")).to_contain_text("at most 60 seconds")
    attempt = int(page.locator("#board").get_attribute("data-attempt"))
    assert server_python(DEALT_LONG_AGO % attempt) == 1
    page.reload()
    wait_seq(page, 0)
    # The server's clock stopped at a minute: the page shows it and does not run on.
    timer = page.get_by_test_id("timer")
    expect(timer).to_have_text("1:00")
    assert state_of(page, live_server_url)["clock_left_seconds"] == 0
    page.locator('[data-pile="S"]').click()
    wait_seq(page, 1)
    elapsed = state_of(page, live_server_url)["elapsed_seconds"]
    assert 60 <= elapsed < 60 + WAIT_MS / 1000, elapsed


def test_a_visitors_first_move_is_one_click_from_home_and_a_forged_move_changes_nothing(
    browser, live_server_url, dailies
):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    try:
        page = context.new_page()
        page.set_default_timeout(WAIT_MS)
        page.goto(f"{live_server_url}/")
        # No sign-up, no page in between: the game's button, then the first move.
        page.locator('.daily-card[data-game="munger"] a.button.primary').click()
        expect(page).to_have_url(re.compile(r"/play/munger/"))
        wait_seq(page, 0)
        page.locator('[data-pile="S"]').click()
        wait_seq(page, 1)

        # The server judges every move: another move for a seq already played (a rewritten
        # history), or one the rules do not allow, is refused and changes nothing.
        attempt = page.locator("#board").get_attribute("data-attempt")
        moves = f"{live_server_url}/api/attempts/{attempt}/moves/"
        rewritten = page.request.post(moves, data={"seq": 0, "move": "T1>F"})
        assert rewritten.status == 409, rewritten.text()
        illegal = page.request.post(moves, data={"seq": 1, "move": "FS>T1"})
        assert illegal.status == 422, illegal.text()
        state: dict[str, Any] = state_of(page, live_server_url)
        assert state["seq"] == 1 and state["moves_played"] == 1
    finally:
        context.close()
