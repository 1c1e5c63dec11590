"""Browser tests of what the table offers besides play: the large-index and four-colour
settings (readable corners whose colours keep the two colour families apart, contrast checked by
axe), the S key's summary of the position, a second tab that says what the first played, and the
opt-in auto-move of safe cards to the foundations.

They use test_table.py's Munger deal laid out for them (its module docstring says how).
"""

from __future__ import annotations

import re

import pytest

from tests.e2e import test_table as table
from tests.e2e.browser import settle
from tests.e2e.test_a11y import blocking_violations
from tests.e2e.test_table import SIZES, WAIT_MS, play_by_api

# test_table.py's fixtures, shared.
dailies = table.dailies
laid_day = table.laid_day
open_page = table.open_page

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

# The corner of each face-up card a column covers, and the top of the card over it.
STRIPS = """pile => {
  const cards = [...pile.querySelectorAll(':scope > .card')];
  return cards.slice(0, -1).filter(c => c.dataset.card).map(c => {
    const rank = c.querySelector('.corner-left .rank').getBoundingClientRect();
    const next = cards[cards.indexOf(c) + 1].getBoundingClientRect();
    return {rank: rank.height, bottom: rank.bottom, cover: next.top,
            size: parseFloat(getComputedStyle(c.querySelector('.rank')).fontSize)};
  });
}"""

SUIT_COLOURS = """() => Object.fromEntries([...document.querySelectorAll('#board .card.face')]
  .map(c => [c.dataset.card[1], getComputedStyle(c).color]))"""


def rgb(text: str) -> tuple[int, int, int]:
    red, green, blue = (int(part) for part in re.findall(r"\d+", text)[:3])
    return red, green, blue


def open_settings(page) -> None:
    page.get_by_test_id("settings").locator("summary").click()


def test_large_corners_are_readable_on_a_phone_and_four_colours_keep_the_families(
    open_page, live_server_url, laid_day
):
    page = open_page(f"/play/munger/{laid_day}/", SIZES["phone"])
    play_by_api(page, live_server_url, ["R>T1", "R>T1", "R>T1"])
    column = page.locator('[data-pile="T1"]')
    normal = column.evaluate(STRIPS)

    open_settings(page)
    page.get_by_test_id("large-index").check()
    expect(page.locator("#play")).to_have_class(re.compile(r"\bindex-large\b"))
    settle(page)
    large = column.evaluate(STRIPS)
    # Bigger by half and more, at least 20 px on a phone, and never cut by the card over it.
    assert len(large) == len(normal) >= 3, large
    for before, after in zip(normal, large, strict=True):
        assert after["size"] >= 1.4 * before["size"] and after["size"] >= 20, (before, after)
        assert after["bottom"] <= after["cover"] + 0.5, after

    page.get_by_test_id("four-colour").check()
    page.keyboard.press("Escape")
    colours = {suit: rgb(text) for suit, text in page.evaluate(SUIT_COLOURS).items()}
    assert set(colours) == set("CDHS"), colours
    assert len(set(colours.values())) == 4, colours
    # Hearts and diamonds stay warm (red well over green and blue), clubs and spades dark.
    for suit in "HD":
        red, green, blue = colours[suit]
        assert red > max(green, blue) + 60, (suit, colours[suit])
    for suit in "CS":
        assert max(colours[suit]) < 100, (suit, colours[suit])
    # Both settings are kept.
    page.reload()
    expect(page.locator("#play")).to_have_class(re.compile(r"\bdeck-four\b.*\bindex-large\b"))
    expect(page.locator("#board")).to_have_attribute("data-seq", "3", timeout=WAIT_MS)
    settle(page)

    problems = blocking_violations(page)
    assert not problems, "\n".join(problems)


# Each covered card of the reserve: how far its corner reaches, and where the card over it
# starts (the reserve fans out sideways).
RESERVE_CORNERS = """pile => {
  const cards = [...pile.querySelectorAll(':scope > .card')];
  return cards.slice(0, -1).map((c, i) => ({
    card: c.dataset.card,
    reach: c.querySelector('.corner-left').getBoundingClientRect().right,
    cover: cards[i + 1].getBoundingClientRect().left,
  }));
}"""


# How far apart the reserve's cards are, in card widths.
STEP = """cards => (cards[1].getBoundingClientRect().left - cards[0].getBoundingClientRect().left)
  / cards[0].getBoundingClientRect().width"""


@pytest.mark.parametrize("size", list(SIZES))
def test_large_corners_show_every_card_of_the_reserve_whole(open_page, laid_day, browser, size):
    """With large corners the reserve's covered cards showed "1(" for a ten: the fan opens up
    as far as a corner needs, and the table still fits the screen."""
    page = open_page(f"/play/munger/{laid_day}/", SIZES[size])
    open_settings(page)
    page.get_by_test_id("large-index").check()
    expect(page.locator("#play")).to_have_class(re.compile(r"\bindex-large\b"))
    settle(page)
    corners = page.locator('[data-pile="R"]').evaluate(RESERVE_CORNERS)
    opened = page.locator('[data-pile="R"] > .card').evaluate_all(STEP)
    assert [c["card"] for c in corners] == ["6D", "7C", "8H", "9S", "TD", "JC"]
    for corner in corners:
        assert corner["reach"] <= corner["cover"] + 0.5, (size, corner)
    page.get_by_test_id("settings").locator("summary").click()  # folded again
    table.assert_fits(page, f"large corners, {size}")
    open_settings(page)
    # Turned off, the reserve closes up again (its corners need less).
    page.get_by_test_id("large-index").uncheck()
    expect(page.locator("#play")).not_to_have_class(re.compile(r"\bindex-large\b"))
    settle(page)
    closed = page.locator('[data-pile="R"] > .card').evaluate_all(STEP)
    assert 0.43 < closed < opened, (closed, opened)


def focused(page) -> str:
    return table.focused(page)


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_arrow_keys_follow_the_table_as_it_is_drawn(open_page, laid_day, size):
    """On a wide screen Munger's reserve is drawn in the top row, between the waste and the
    foundations: the arrows go there from the waste and the foundations, and up to it from the
    columns under it (they treated it as a row of its own between the top row and the columns).
    Stacked (a phone), it is a row of its own, and the arrows go down to it."""
    page = open_page(f"/play/munger/{laid_day}/", SIZES[size])
    reserve = page.locator('[data-pile="R"]').bounding_box()
    stock = page.locator('[data-pile="S"]').bounding_box()
    drawn_in_top_row = abs(reserve["y"] - stock["y"]) < 1
    assert drawn_in_top_row == (size == "desktop"), (reserve, stock)
    if drawn_in_top_row:
        page.locator('[data-pile="W"]').focus()
        for key, pile in [("ArrowRight", "R"), ("ArrowRight", "FCC"), ("ArrowLeft", "R"),
                          ("ArrowLeft", "W"), ("ArrowRight", "R")]:  # fmt: skip
            page.keyboard.press(key)
            assert focused(page) == pile, (key, focused(page))
        page.keyboard.press("ArrowDown")
        under = focused(page)
        box = page.locator(f'[data-pile="{under}"]').bounding_box()
        assert under.startswith("T") and box["x"] < reserve["x"] + reserve["width"], under
        page.keyboard.press("ArrowUp")
        assert focused(page) == "R"
    else:
        page.locator('[data-pile="R"]').focus()
        for key in ("ArrowLeft", "ArrowRight"):  # alone in its row
            page.keyboard.press(key)
            assert focused(page) == "R"
        page.keyboard.press("ArrowDown")
        assert focused(page).startswith("T")
        page.keyboard.press("ArrowUp")
        assert focused(page) == "R"
        page.keyboard.press("ArrowUp")  # the top row, above the reserve
        assert focused(page) in {"S", "W", "FCC", "FDD", "FHH", "FSS"}


@pytest.mark.parametrize("game", ["munger", "masterpiece"])
def test_the_new_looks_pass_axe_on_every_card(browser, live_server_url, dailies, game):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    context.add_init_script(
        "localStorage.setItem('patience.fourColourDeck', '1');"
        "localStorage.setItem('patience.largeIndex', '1');"
    )
    try:
        page = context.new_page()
        page.goto(f"{live_server_url}/play/{game}/")
        expect(page.locator("#board")).to_have_attribute(
            "data-seq", re.compile(r"\d+"), timeout=WAIT_MS
        )
        expect(page.locator("#play")).to_have_class(re.compile(r"\bdeck-four\b.*\bindex-large\b"))
        settle(page)
        problems = blocking_violations(page)
    finally:
        context.close()
    assert not problems, "\n".join(problems)


def test_s_says_the_position_and_a_second_tab_says_what_the_first_played(
    open_page, laid_day, live_server_url
):
    page = open_page(f"/play/munger/{laid_day}/")
    other = page.context.new_page()
    other.goto(f"{live_server_url}/play/munger/{laid_day}/")
    expect(other.locator("#board")).to_have_attribute("data-seq", "0", timeout=WAIT_MS)
    expect(other.get_by_test_id("connection")).to_have_text(re.compile("^Live"))
    expect(page.get_by_test_id("connection")).to_have_text(re.compile("^Live"))

    # One tap sends the Ace of spades to its foundation; the other tab says so.
    page.locator('[data-pile="T2"] [data-card="AS"]').click()
    expect(other.locator("#board")).to_have_attribute("data-seq", "1", timeout=WAIT_MS)
    expect(other.get_by_test_id("status")).to_have_text(
        "In another tab: Moved ace of spades to spades foundation. Revealed jack of diamonds."
    )
    page.locator('[data-pile="S"]').click()
    expect(other.get_by_test_id("status")).to_have_text("In another tab: Drew five of spades.")
    page.get_by_test_id("undo").click()
    expect(other.get_by_test_id("status")).to_have_text("In another tab: Took back the last move.")

    # S, anywhere on the page: the position in short.
    other.keyboard.press("s")
    expect(other.get_by_test_id("status")).to_have_text(
        re.compile(
            r"^1 card of 52 on the foundations\. Stock: 17 cards; waste: 0 cards\. "
            r"3 moves, 1 undo\. Time \d+:\d\d\.$"
        )
    )


def wait_auto(page, seq: int) -> None:
    """Wait until the auto-move has decided what to do after the state `seq` (it marks it)."""
    expect(page.locator("#play")).to_have_attribute("data-auto-move-seq", str(seq))
    expect(page.locator("#board")).to_have_attribute("data-seq", str(seq))


def test_auto_move_is_opt_in_sends_the_safe_moves_and_never_fights_an_undo(
    open_page, laid_day, live_server_url
):
    page = open_page(f"/play/munger/{laid_day}/")
    ace = page.locator('[data-pile="T2"] [data-card="AS"]')
    # Off by default: a draw, and the Ace of spades (safe to send up) stays where it is.
    page.locator('[data-pile="S"]').click()
    wait_auto(page, 1)
    expect(ace).to_have_count(1)

    open_settings(page)
    expect(page.get_by_test_id("auto-move")).not_to_be_checked()
    expect(page.locator("#auto-move-note")).to_contain_text("counts as a move, in ranked games")
    page.get_by_test_id("auto-move").check()
    page.keyboard.press("Escape")
    page.locator('[data-pile="S"]').click()  # the player's move; the Ace goes up after it
    wait_auto(page, 3)
    expect(page.locator('[data-pile="FS"] [data-card="AS"]')).to_have_count(1)
    expect(page.get_by_test_id("status")).to_contain_text(
        "Auto-move: Moved ace of spades to spades foundation."
    )
    state = table.state_of(page, live_server_url)
    assert state["moves_played"] == 3 and state["last_move"]["move"] == "T2>F"

    # The player undoes it: the Ace comes back and stays, after the undo and after the next
    # move too.
    page.get_by_test_id("undo").click()
    wait_auto(page, 4)
    expect(ace).to_have_count(1)
    page.locator('[data-pile="S"]').click()
    wait_auto(page, 5)
    expect(ace).to_have_count(1)
    assert "T2>F" in table.state_of(page, live_server_url)["safe_moves"]

    # The setting is kept.
    page.reload()
    expect(page.get_by_test_id("auto-move")).to_be_checked()


def test_a_covered_card_is_shown_whole_by_a_long_press_or_a_resting_mouse_and_nothing_moves(
    open_page, laid_day, live_server_url
):
    # The Queen of hearts, the Jack of clubs and the ten of diamonds on the King of spades.
    page = open_page(f"/play/munger/{laid_day}/", one_tap=True)
    play_by_api(page, live_server_url, ["R>T1", "R>T1", "R>T1"])
    peek = page.get_by_test_id("peek")
    queen = page.locator('[data-pile="T1"] [data-card="QH"]')

    # A mouse resting on its strip shows it whole, with its name; leaving the table hides it.
    queen.hover(position={"x": 8, "y": 4})
    expect(peek).to_be_visible()
    expect(peek.locator(".peek-name")).to_have_text("Queen of hearts")
    expect(peek.locator('.card[data-card="QH"]')).to_have_count(1)
    page.mouse.move(2, 2)
    expect(peek).to_have_count(0)

    # The keyboard names a covered card too: Shift+Up points at the card under the top one.
    page.locator('[data-pile="T1"]').focus()
    page.keyboard.press("Shift+ArrowUp")
    expect(page.get_by_test_id("status")).to_have_text("Jack of clubs, face up, 6 of 7, column 1")

    phone = open_page(f"/play/munger/{laid_day}/", SIZES["phone"])
    play_by_api(phone, live_server_url, ["R>T1", "R>T1", "R>T1"])
    cdp = phone.context.new_cdp_session(phone)

    def long_press(card) -> None:
        box = card.bounding_box()
        point = {"x": box["x"] + 6, "y": box["y"] + 4}
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})

    def release() -> None:
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})

    board = phone.locator("#board")
    jack = phone.locator('[data-pile="T1"] [data-card="JC"]')
    long_press(jack)
    expect(board).to_have_attribute("data-peek", "JC")
    expect(phone.locator(".peek-name")).to_have_text("Jack of clubs")
    release()
    expect(phone.get_by_test_id("peek")).to_have_count(0)
    # A face-down card has no face to show.
    long_press(phone.locator('[data-pile="T1"] > .card.back').first)
    expect(board).to_have_attribute("data-peek", "none")
    expect(phone.get_by_test_id("peek")).to_have_count(0)
    release()
    # Neither press moved or picked up anything (one tap would have).
    assert board.get_attribute("data-seq") == "3"
    expect(phone.locator(".card.selected")).to_have_count(0)
