"""Browser tests of the play page: a person plays each game's daily to a win by clicking,
dragging and with the keyboard, following the deal's certificate; the page survives a reload,
springs an illegal drop back with the server's reason, never shows a face-down card, and plays
on a phone-sized screen. Munger's turned-up cards flip. The end panel shows the result, the
rank, the par, a share text without cards, the day's histogram with the player's place, what
the fair-play review says, and for a day that is over the solver's line, step by step.

They use the live server and the browser of tests/e2e/conftest.py (uvicorn, so moves go over
the play socket; Debian's Chromium), and take the play pages' screenshots when asked (the
`screenshot` fixture). Each test's page is a new browser context, so a new guest with an
attempt of its own at today's dailies.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
import uuid
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest

from games.engine.registry import game_class
from games.engine.replay import replay
from tests.e2e.browser import settle

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

CARD_CODE = re.compile(r"\b[A2-9TJQK][CDHS]\b")

CERTIFICATE = """
import json
from games import clock
from games.models import DailyChallenge
daily = DailyChallenge.objects.get(game=%r, date=clock.today())
print(json.dumps(daily.deal.certificate))
"""
CERTIFICATE_ON = """
import datetime as dt, json
from games.models import DailyChallenge
daily = DailyChallenge.objects.get(game=%r, date=dt.date.fromisoformat(%r))
print(json.dumps(daily.deal.certificate))
"""
ATTEMPT = """
import json
from games.models import Attempt
attempt = Attempt.objects.get(pk=%d)
print(json.dumps({"status": attempt.status, "moves": attempt.moves}))
"""
# An admin approves the attempt if the fair-play checks held it (a test plays at machine speed),
# so that it ranks; prints whether it was held.
APPROVE = """
import json
from django.contrib.auth import get_user_model
from games import services
from games.models import Attempt
attempt = Attempt.objects.get(pk=%d)
held = attempt.review == "held"
if held:
    admin, _ = get_user_model().objects.get_or_create(username="e2e-admin", is_staff=True)
    services.attempt_review_approve(attempt=attempt, by=admin)
print(json.dumps(held))
"""
HOLD = """
from games.models import Attempt
print(Attempt.objects.filter(pk=%d).update(review="held"))
"""
DISQUALIFY = """
from django.contrib.auth import get_user_model
from games import services
from games.models import Attempt
admin, _ = get_user_model().objects.get_or_create(username="e2e-admin", is_staff=True)
services.attempt_disqualify(attempt=Attempt.objects.get(pk=%d), by=admin, reason=%r)
print(1)
"""


#: Turns the play page's one-tap moves off before its scripts run.
TAP_TAP = "window.localStorage.setItem('patience.oneTap', '0')"


@pytest.fixture(scope="module")
def dailies(make_dailies) -> dict[str, Any]:
    return make_dailies()


@pytest.fixture(scope="module")
def certificates(dailies, server_python) -> dict[str, list[str]]:
    return {game: server_python(CERTIFICATE % game) for game in ("munger", "masterpiece")}


@pytest.fixture
def play_page(e2e_page, live_server_url, dailies):
    """A way to open a game's daily of today on the page; afterwards, checks that the page
    broke no Content-Security-Policy rule and threw no script error."""
    problems: list[str] = []
    e2e_page.on("pageerror", lambda error: problems.append(f"script error: {error}"))
    e2e_page.on(
        "console",
        lambda message: (
            problems.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    # Tall enough for a drag from Masterpiece's bottom row to its top one.
    e2e_page.set_viewport_size({"width": 1280, "height": 1000})
    # These tests follow a certificate move by move: a tap picks a card up (one-tap moves,
    # which send it to its best place at once, are tested in test_table.py).
    e2e_page.context.add_init_script(TAP_TAP)

    def open_game(game: str, date: str = "") -> Any:
        e2e_page.goto(f"{live_server_url}/play/{game}/{date + '/' if date else ''}")
        expect(e2e_page.locator("#board")).to_have_attribute("data-seq", re.compile(r"\d+"))
        return e2e_page

    yield open_game
    assert not problems, problems


# -- what a person does ---------------------------------------------------------------------


def board_seq(page) -> int:
    return int(page.locator("#board").get_attribute("data-seq"))


def wait_seq(page, seq: int) -> None:
    expect(page.locator("#board")).to_have_attribute("data-seq", str(seq))


def state_of(page, base_url: str) -> dict[str, Any]:
    attempt = page.locator("#board").get_attribute("data-attempt")
    response = page.request.get(f"{base_url}/api/attempts/{attempt}/")
    assert response.ok
    return response.json()


def lead_card(page, state: dict[str, Any], token: str) -> str | None:
    """The card a person takes for a move: the server's `moves` say which; else the top card."""
    for move in state.get("moves") or []:
        if move["move"] == token:
            return move["card"]
    src = token.split(">")[0]
    if src == "S":
        return None
    cards = page.locator(f'[data-pile="{src}"] [data-card]')
    return cards.nth(cards.count() - 1).get_attribute("data-card")


def source_locator(page, token: str, card: str | None):
    src = token.split(">")[0]
    if card is None:
        return page.locator(f'[data-pile="{src}"]')
    return page.locator(f'[data-pile="{src}"] [data-card="{card}"]')


def target_locator(page, game: str, token: str, card: str | None):
    dst = token.split(">")[1]
    if dst == "F":
        if game == "munger":
            return page.locator(f'[data-pile="F{card[1]}"]')
        return page.locator(f'[data-pile="F"] .pile[data-suit="{card[1]}"]')
    return page.locator(f'[data-pile="{dst}"]')


def click_move(page, game: str, token: str, state: dict[str, Any]) -> None:
    """Tap the card (or the stock), then tap where it goes."""
    card = lead_card(page, state, token)
    source = source_locator(page, token, card)

    def tap_source() -> None:
        if card is None:
            source.click()
        else:  # in a fanned column only the top strip of a covered card shows: tap there
            source.click(position={"x": source.bounding_box()["width"] / 2, "y": 6})

    tap_source()
    if token == "S>W":
        return
    target = target_locator(page, game, token, card)
    lit = re.compile(r"\btarget\b")
    try:
        expect(target).to_have_class(lit, timeout=3000)
    except AssertionError:
        # The tap did not pick the card up (a redraw of the board between the state's arrival
        # and the tap can drop it): put back whatever is held, as a player would, and tap again.
        page.keyboard.press("Escape")
        tap_source()
        expect(target).to_have_class(lit)
    target.click()


def drag_move(page, game: str, token: str, state: dict[str, Any]) -> None:
    card = lead_card(page, state, token)
    assert card is not None
    source_locator(page, token, card).scroll_into_view_if_needed()
    source = source_locator(page, token, card).bounding_box()
    target = target_locator(page, game, token, card).bounding_box()
    page.mouse.move(source["x"] + source["width"] / 2, source["y"] + 6)
    page.mouse.down()
    page.mouse.move(source["x"] + source["width"] / 2 + 4, source["y"] + 13, steps=2)
    page.mouse.move(target["x"] + target["width"] / 2, target["y"] + target["height"] / 2, steps=8)
    page.mouse.up()


def focused_pile(page) -> dict[str, str] | None:
    return page.evaluate(
        """() => { const p = document.activeElement && document.activeElement.closest('.pile');
                   return p ? {name: p.dataset.name, suit: p.dataset.suit || ''} : null; }"""
    )


def focus_board_by_tab(page) -> None:
    for _ in range(60):
        page.keyboard.press("Tab")
        if focused_pile(page):
            return
    raise AssertionError("Tab never reached the table")


ARROWS = ("ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown")


def pile_here(page) -> str:
    """The focused pile's name, a Masterpiece foundation's as F + its suit."""
    now = focused_pile(page)
    assert now is not None, "the focus left the table"
    return "F" + now["suit"] if now["name"] == "F" else now["name"]


def keys_towards(known: dict[tuple[str, str], str], start: str, goal: Callable[[str], bool]):
    """The arrow keys of the shortest walk from `start` to a pile `goal` accepts, over the
    moves of the focus seen so far (`known`: pile and key to pile); None when none is known."""
    paths: dict[str, list[str]] = {start: []}
    queue = [start]
    for pile in queue:
        if goal(pile):
            return paths[pile]
        for key in ARROWS:
            after = known.get((pile, key))
            if after is not None and after not in paths:
                paths[after] = [*paths[pile], key]
                queue.append(after)
    return None


def key_to(page, want: str) -> None:
    """Walk the focus with arrow keys to the pile `want` (Masterpiece's foundations: F + suit).
    Where an arrow goes depends on the layout (up and down go to the pile above or below on
    the screen, which may skip a row), so the walk learns it as it goes: it follows the
    shortest way it knows to `want`, else tries an arrow it has not tried yet from the nearest
    pile that has one (the table does not change meanwhile)."""
    known: dict[tuple[str, str], str] = {}
    for _ in range(150):
        here = pile_here(page)
        if here == want:
            return
        keys = keys_towards(known, here, lambda pile: pile == want)
        if keys is None:
            keys = keys_towards(
                known, here, lambda pile: any((pile, key) not in known for key in ARROWS)
            )
            if keys is None:
                break  # every arrow of every pile reached is known, and none leads there
            last = here
            for key in keys:
                last = known[(last, key)]
            keys = [*keys, next(key for key in ARROWS if (last, key) not in known)]
        page.keyboard.press(keys[0])
        known[(here, keys[0])] = pile_here(page)
    raise AssertionError(f"arrow keys never reached {want}")


def keyboard_move(page, token: str, state: dict[str, Any]) -> None:
    src, dst = token.split(">")
    card = lead_card(page, state, token)
    if not focused_pile(page):
        focus_board_by_tab(page)
    key_to(page, src)
    page.keyboard.press("Enter")
    if token == "S>W":
        return
    key_to(page, "F" + card[1] if dst == "F" else dst)
    page.keyboard.press("Enter")


def play_to_win(
    page, base_url: str, game: str, certificate: list[str], *, shot: Callable[[], Any]
) -> None:
    """Plays the certificate by clicks, with one drag, a few keyboard moves, a reload halfway
    and the Finish button when the server offers it; `shot()` a third of the way."""
    drag_at = next(i for i, token in enumerate(certificate) if not token.startswith("S>"))
    keyboard_at = set(range(drag_at + 2, drag_at + 6))
    double_at = next(
        i for i, token in enumerate(certificate) if i > drag_at + 6 and token.endswith(">F")
    )
    reload_at = len(certificate) // 2
    shot_at = len(certificate) // 3
    seq = board_seq(page)
    assert seq == 0
    hidden = None
    for index, token in enumerate(certificate):
        state = state_of(page, base_url)
        if game == "munger":
            # The live region told of each card the last move turned face up.
            now_hidden = sum(not c["face_up"] for col in state["view"]["tableau"] for c in col)
            if hidden is not None and now_hidden < hidden:
                expect(page.get_by_test_id("status")).to_contain_text("Revealed")
                # The card the server turned up flips over (a CSS animation).
                turned = page.locator("#board .card.turned")
                expect(turned).to_have_count(hidden - now_hidden)
                assert turned.first.evaluate("e => getComputedStyle(e).animationName") == (
                    "card-turn"
                )
            hidden = now_hidden
        if state.get("finishable"):
            page.get_by_test_id("finish").click()
            break
        if index == reload_at:
            page.reload()
            wait_seq(page, seq)
        if index == drag_at:
            drag_move(page, game, token, state)
        elif index in keyboard_at:
            keyboard_move(page, token, state)
        elif index == double_at:
            card = lead_card(page, state, token)
            source_locator(page, token, card).dblclick(position={"x": 20, "y": 6})
        else:
            click_move(page, game, token, state)
        seq += 1
        wait_seq(page, seq)
        if index == shot_at:
            shot()
    expect(page.locator("#board")).to_have_attribute("data-status", "won")


CARD_WORDS = re.compile(
    r"\b(ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king)\b"
    r"|\b(clubs|diamonds|hearts|spades)\b",
    re.IGNORECASE,
)


def check_end(page, game_title: str) -> None:
    """The end panel of a win: result, par, a share text with no card in it."""
    end = page.get_by_test_id("end")
    expect(end).to_be_visible()
    expect(page.locator("#end-title")).to_have_text("You won!")
    expect(page.get_by_test_id("end-par")).to_have_text(re.compile(r"^\d+$"))
    share = page.get_by_test_id("share-text").input_value()
    assert share.startswith(f"Patience Daily · {game_title} · ")
    assert " won in " in share
    assert not CARD_CODE.search(share.split("\n")[0]), share
    assert not CARD_WORDS.search(share), share
    page.get_by_test_id("share").click()
    expect(page.get_by_test_id("copied")).not_to_have_text("")


def check_rank_and_histogram(page, base_url: str, server_python) -> None:
    """A ranked win shows its rank and its place in the day's histogram; one the fair-play
    checks held says so first, and ranks once an admin approves it."""
    state = state_of(page, base_url)
    if state["review"] == "held":
        expect(page.get_by_test_id("end-review")).to_contain_text("Under review")
        expect(page.get_by_test_id("end-rank")).to_have_text(
            "none while the result is under review"
        )
    else:
        expect(page.get_by_test_id("end-review")).to_have_count(0)
    assert server_python(APPROVE % state["id"]) == (state["review"] == "held")
    page.reload()
    expect(page.get_by_test_id("end")).to_be_visible()
    expect(page.get_by_test_id("end-review")).to_have_count(0)
    expect(page.get_by_test_id("end-rank")).to_have_text(re.compile(r"^\d+ of \d+$"))
    yours = page.locator('[data-testid="histogram-bars"] [data-yours]')
    expect(yours).to_have_count(1)
    expect(yours).to_contain_text("your result")
    low, high = (int(n) for n in yours.locator(".histogram-label").inner_text().split("–"))
    assert low <= state["moves_played"] <= high
    assert int(yours.locator(".histogram-count").inner_text()) >= 1
    # A day still running has no solver's line to show.
    expect(page.get_by_test_id("solution")).to_have_count(0)


def check_review_shown(page, base_url: str, server_python) -> None:
    """Held, then disqualified: the end panel says so, with the reviewer's reason."""
    attempt = state_of(page, base_url)["id"]
    assert server_python(HOLD % attempt) == 1
    page.reload()
    review = page.get_by_test_id("end-review")
    expect(review).to_have_attribute("data-review", "held")
    expect(review).to_contain_text("Under review")
    expect(review).to_contain_text("not on the public board until a reviewer approves it")
    expect(page.get_by_test_id("end-rank")).to_have_text("none while the result is under review")
    server_python(DISQUALIFY % (attempt, "Moves at machine speed."))
    page.reload()
    expect(review).to_have_attribute("data-review", "disqualified")
    expect(review).to_contain_text("Disqualified")
    expect(review).to_contain_text("Reviewer’s reason: Moves at machine speed.")
    expect(page.get_by_test_id("end-rank")).to_have_text("none: disqualified")


# -- the tests --------------------------------------------------------------------------------


def hidden_cards(game: str, deal: str, moves: list[str]) -> set[str]:
    """The codes of the cards a Munger player cannot see after `moves`."""
    position = replay(game, deal, moves).game
    full, seen = position.view(full=True), position.view()
    hidden = set(full["stock"]["known"]) - set(seen["stock"]["known"])
    for column, shown in zip(full["tableau"], seen["tableau"], strict=True):
        for card, view in zip(column, shown, strict=True):
            if not card["face_up"] and view["card"] is None:
                hidden.add(card["card"])
    return hidden


@pytest.mark.long
def test_munger_daily_played_to_a_win_shows_no_face_down_card(
    dailies, certificates, e2e_page, play_page, live_server_url, server_python, screenshot
):
    deal_string = dailies["munger"]["deal"]
    received: list[str] = []  # every API answer and every socket message, as text

    def keep(response) -> None:
        if "/api/" in response.url:
            # A redirect or an aborted request has no body.
            with contextlib.suppress(Exception):
                received.append(response.text())

    def watch(socket) -> None:
        socket.on("framereceived", lambda payload: received.append(str(payload)))

    e2e_page.on("response", keep)
    e2e_page.on("websocket", watch)
    page = play_page("munger")
    # The stock is full and half the tableau face down: none of those cards is in the page.
    start_hidden = hidden_cards("munger", deal_string, [])
    assert len(start_hidden) == 17 + 14
    html = page.content().lower()
    for code in start_hidden:
        assert f'data-card="{code.lower()}"' not in html
    expect(page.locator('[data-pile="T1"] .card.back')).to_have_count(2)
    expect(page.locator('[data-pile="S"] .badge')).to_have_text("17")
    expect(page.locator('[data-pile="R"] [data-card]')).to_have_count(7)

    shot = partial(screenshot, page, "play-munger.png")
    play_to_win(page, live_server_url, "munger", certificates["munger"], shot=shot)
    check_end(page, "Munger")
    check_rank_and_histogram(page, live_server_url, server_python)
    screenshot(page, "end-munger.png")

    attempt = server_python(ATTEMPT % int(page.locator("#board").get_attribute("data-attempt")))
    assert attempt["status"] == "won"
    checked = 0
    for text in received:
        try:
            data = json.loads(text)
        except ValueError:
            continue
        if isinstance(data, dict) and isinstance(data.get("state"), dict):
            data = data["state"]  # a socket message
        if not isinstance(data, dict) or "seq" not in data or "view" not in data:
            continue
        secret = hidden_cards("munger", deal_string, attempt["moves"][: data["seq"]])
        leaked = {code for code in secret if f'"{code}"' in text}
        assert not leaked, f"seq {data['seq']} sent face-down cards {leaked}"
        checked += 1
    assert checked >= len(certificates["munger"]) // 2  # the finish plays many moves at once


@pytest.mark.long
def test_masterpiece_daily_played_to_a_win(
    certificates, play_page, live_server_url, server_python, screenshot
):
    page = play_page("masterpiece")
    expect(page.locator('[data-pile="F"] [data-card]')).to_have_count(4)
    for row in ("M1", "M8", "A1", "A2"):
        assert page.locator(f'[data-pile="{row}"] [data-card]').count() in (4, 5)
    shot = partial(screenshot, page, "play-masterpiece.png")
    play_to_win(page, live_server_url, "masterpiece", certificates["masterpiece"], shot=shot)
    expect(page.locator(".direction")).to_have_attribute("data-direction", re.compile("up|down"))
    check_end(page, "Masterpiece")
    check_rank_and_histogram(page, live_server_url, server_python)
    screenshot(page, "end-masterpiece.png")
    check_review_shown(page, live_server_url, server_python)


def drag_to(page, source, target) -> None:
    """Drags with the mouse from a card's visible corner to the middle of a pile."""
    start = source.bounding_box()
    box = target.bounding_box()
    page.mouse.move(start["x"] + start["width"] - 5, start["y"] + 10)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, steps=8)
    page.mouse.up()


def test_an_illegal_drop_springs_back_with_the_servers_reason(play_page, live_server_url):
    page = play_page("munger")
    state = state_of(page, live_server_url)
    legal = set(state["legal"])
    target = next(f"T{k}" for k in range(1, 8) if f"R>T{k}" not in legal)
    source = page.locator('[data-pile="R"] [data-card]').last
    before = source.bounding_box()
    drag_to(page, source, page.locator(f'[data-pile="{target}"]'))
    # The server's reason for that move (asking again changes nothing: it is refused).
    attempt = page.locator("#board").get_attribute("data-attempt")
    answer = page.request.post(
        f"{live_server_url}/api/attempts/{attempt}/moves/",
        data={"seq": state["seq"], "move": f"R>{target}"},
    )
    assert answer.status == 422
    # Said in the page's words from the reason code, not in the server's English text.
    expect(page.get_by_test_id("status")).to_have_text(
        re.compile(
            r"cannot go on .*: only a (red|black) |only a king goes there|Nothing goes on an ace"
        )
    )
    assert "(rule" not in page.get_by_test_id("status").inner_text()
    assert board_seq(page) == 0
    settle(page)  # the spring-back slide
    after = source.bounding_box()
    assert abs(after["x"] - before["x"]) < 1 and abs(after["y"] - before["y"]) < 1


def test_a_phone_sized_screen_plays_a_move(certificates, play_page, live_server_url, screenshot):
    page = play_page("masterpiece")
    page.set_viewport_size({"width": 375, "height": 740})
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    # Every free card is on screen and big enough to tap.
    for row in ("M1", "M2", "M3", "M4", "M5", "M6", "M7", "M8", "A1", "A2"):
        box = page.locator(f'[data-pile="{row}"] [data-card]').last.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 375
        assert box["width"] >= 24 and box["height"] >= 24
    for row in ("M1", "M5", "A1", "A2", "C"):
        # Nothing covers a free card: a tap in its middle reaches it.
        free = page.locator(f'[data-pile="{row}"] .card').last
        if free.count():
            free.scroll_into_view_if_needed()
            assert free.evaluate(
                """card => { const r = card.getBoundingClientRect();
                   return document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)
                     .closest('.card') === card; }"""
            )
    token = certificates["masterpiece"][0]
    click_move(page, "masterpiece", token, state_of(page, live_server_url))
    wait_seq(page, 1)
    # The clock runs from the first move.
    timer = page.get_by_test_id("timer")
    expect(timer).not_to_have_text(timer.inner_text(), timeout=5000)
    # No slides for people who ask for less motion.
    page.emulate_media(reduced_motion="reduce")
    duration = page.locator(".card").first.evaluate("e => getComputedStyle(e).transitionDuration")
    assert set(duration.replace("s", "").split(", ")) <= {"0"}, duration
    # Nor a flip for a turned-up card.
    flip = "e => { e.classList.add('turned'); return getComputedStyle(e).animationName; }"
    assert page.locator(".card[data-card]").first.evaluate(flip) == "none"
    page.emulate_media(reduced_motion="no-preference")
    assert page.locator(".card[data-card]").first.evaluate(flip) == "card-turn"
    # The four-colour deck is a switch in the settings, remembered across visits.
    page.get_by_test_id("settings").locator("summary").click()
    page.get_by_test_id("four-colour").check()
    expect(page.locator("#play")).to_have_class(re.compile(r"\bdeck-four\b"))
    clubs = page.locator(".card.suit-C").first.evaluate("e => getComputedStyle(e).color")
    spades = page.locator(".card.suit-S").first.evaluate("e => getComputedStyle(e).color")
    assert clubs != spades
    page.reload()
    wait_seq(page, 1)
    expect(page.get_by_test_id("four-colour")).to_be_checked()
    page.get_by_test_id("settings").locator("summary").click()
    page.get_by_test_id("four-colour").uncheck()
    screenshot(page, "play-masterpiece-phone.png")


def test_a_past_day_is_practice_played_by_touch(
    certificates, make_dailies, browser, live_server_url, server_python
):
    day = make_dailies(back=1)["date"]
    certificate = server_python(CERTIFICATE_ON % ("masterpiece", day))
    context = browser.new_context(
        viewport={"width": 375, "height": 740}, has_touch=True, is_mobile=True, locale="en-GB"
    )
    try:
        page = context.new_page()
        page.add_init_script(TAP_TAP)
        page.goto(f"{live_server_url}/play/masterpiece/{day}/")
        wait_seq(page, 0)
        expect(page.get_by_test_id("ranked")).to_have_text("Practice, not ranked")
        expect(page.locator(".play-practice")).to_be_visible()
        # Tap the card, then tap where it goes.
        state = state_of(page, live_server_url)
        token = certificate[0]
        card = lead_card(page, state, token)
        source_locator(page, token, card).tap()
        target = target_locator(page, "masterpiece", token, card)
        expect(target).to_have_class(re.compile(r"\btarget\b"))
        expect(target).to_have_attribute("data-target-mark", re.compile("here"))
        target.tap()
        wait_seq(page, 1)
        # Escape puts a picked-up card back.
        state = state_of(page, live_server_url)
        token = certificate[1]
        card = lead_card(page, state, token)
        source_locator(page, token, card).tap()
        expect(page.locator(".card.selected")).to_have_count(1)
        page.keyboard.press("Escape")
        expect(page.locator(".card.selected")).to_have_count(0)
    finally:
        context.close()


@pytest.mark.long
def test_a_past_daily_won_as_practice_replays_the_solvers_line(
    make_dailies, play_page, live_server_url, server_python, screenshot
):
    day = make_dailies(back=1)["date"]
    certificate = server_python(CERTIFICATE_ON % ("munger", day))
    page = play_page("munger", day)
    attempt = page.locator("#board").get_attribute("data-attempt")
    for seq, move in enumerate(certificate):
        answer = page.request.post(
            f"{live_server_url}/api/attempts/{attempt}/moves/", data={"seq": seq, "move": move}
        )
        assert answer.ok, answer.text()
    # The page asks the server again when it gets the focus back (its socket may have been
    # told of every move too; a reload would start a new practice).
    page.evaluate("window.dispatchEvent(new Event('focus'))")
    expect(page.locator("#board")).to_have_attribute("data-status", "won")
    check_end(page, "Munger")
    expect(page.get_by_test_id("end-rank")).to_have_text("none: practice is not ranked")
    expect(page.get_by_test_id("histogram")).to_be_visible()

    # The solver's line, from the deal as dealt to the last card on the foundations.
    solution = page.get_by_test_id("solution")
    expect(solution).to_contain_text(f"{len(certificate)} moves")
    table = page.get_by_test_id("solution-board")
    step = page.get_by_test_id("solution-step")
    expect(table).to_have_attribute("data-step", "0")
    expect(step).to_have_text("The deal, before the first move")
    expect(page.get_by_test_id("solution-previous")).to_be_disabled()
    # Munger's hidden cards stay backs, and the replay's table has no test hooks of the game's.
    assert table.locator(".card.back").count() >= 14
    expect(table.locator(".card.back[data-card]")).to_have_count(0)
    expect(table.locator("[data-pile]")).to_have_count(0)
    page.get_by_test_id("solution-next").click()
    expect(table).to_have_attribute("data-step", "1")
    expect(step).to_have_text(re.compile(rf"^Move 1 of {len(certificate)}: (Moved|Drew) "))
    page.get_by_test_id("solution-slider").fill("10")
    expect(table).to_have_attribute("data-step", "10")
    expect(step).to_contain_text(f"Move 10 of {len(certificate)}")
    page.get_by_test_id("solution-last").click()
    expect(table).to_have_attribute("data-step", str(len(certificate)))
    expect(table.locator('.foundation [data-card^="K"]')).to_have_count(4)
    expect(page.get_by_test_id("solution-next")).to_be_disabled()
    assert "undefined" not in solution.inner_text()
    page.get_by_test_id("solution-previous").click()
    expect(table).to_have_attribute("data-step", str(len(certificate) - 1))
    solution.scroll_into_view_if_needed()
    screenshot(page, "end-practice-munger.png")
    problems = serious_violations(page)
    assert not problems, "\n".join(problems)


@pytest.mark.long
def test_a_second_tab_converges_undo_counts_and_resign_asks_first(
    certificates, e2e_page, play_page, live_server_url
):
    certificate = certificates["munger"]
    # This tab has no socket (as if it could not connect): it plays over REST and learns of the
    # other tab's moves only when it asks the server.
    e2e_page.add_init_script("window.WebSocket = undefined;")
    page = play_page("munger")
    wait_seq(page, 0)
    # The connection drops as a move is made: the page says so, tries again, and the move
    # lands once the network is back.
    state = state_of(page, live_server_url)
    page.context.set_offline(True)
    click_move(page, "munger", certificate[0], state)
    expect(page.get_by_test_id("status")).to_contain_text("No connection")
    page.context.set_offline(False)
    wait_seq(page, 1)
    # The day's deal decides whether its first move is a draw from the stock or a card move.
    said = "Drew" if certificate[0].startswith("S>") else "Moved"
    expect(page.get_by_test_id("status")).to_contain_text(said)

    # A second tab of the same attempt (same browser, same player cookie) resumes it, with the
    # play socket.
    other = page.context.new_page()
    other.goto(f"{live_server_url}/play/munger/")
    wait_seq(other, 1)
    click_move(other, "munger", certificate[1], state_of(other, live_server_url))
    wait_seq(other, 2)

    # The first tab still shows seq 1: its undo is refused (seq taken) and it catches up.
    undo = page.get_by_test_id("undo")
    expect(undo).to_contain_text("counts as a move")
    undo.click()
    wait_seq(page, 2)
    expect(page.get_by_test_id("status")).to_contain_text("up to date")
    expect(page.get_by_test_id("moves")).to_have_text("2")

    # Undo takes the move back and counts as one; the socket tab follows at once.
    undo.click()
    wait_seq(page, 3)
    expect(page.get_by_test_id("moves")).to_have_text("3")
    wait_seq(other, 3)

    # Resign asks first; "Keep playing" changes nothing.
    page.get_by_test_id("resign").click()
    page.get_by_test_id("resign-cancel").click()
    expect(page.locator("#board")).to_have_attribute("data-status", "playing")
    page.get_by_test_id("resign").click()
    page.get_by_test_id("resign-confirm").click()
    expect(page.locator("#board")).to_have_attribute("data-status", "resigned")
    expect(page.get_by_test_id("end")).to_contain_text("You resigned.")
    expect(page.locator("#end-title")).to_be_focused()
    share = page.get_by_test_id("share-text").input_value()
    assert "resigned after 3 moves" in share
    expect(other.locator("#board")).to_have_attribute("data-status", "resigned")


# A stand-in for the play socket, in the page: it speaks the socket's protocol and carries each
# message over the REST API. It lets the page's socket client be tested before (and apart from)
# the server's consumer.
FAKE_SOCKET = """
(() => {
  window.__sent = [];
  window.__sockets = [];
  class FakeSocket extends EventTarget {
    constructor(url) {
      super();
      this.id = url.match(/\\/ws\\/play\\/(\\d+)\\//)[1];
      window.__sockets.push(this);
      setTimeout(() => { this.dispatchEvent(new Event("open")); this.push(); }, 30);
    }
    emit(message) {
      this.dispatchEvent(new MessageEvent("message", {data: JSON.stringify(message)}));
    }
    async push() {
      const response = await fetch(`/api/attempts/${this.id}/`);
      this.emit({type: "state", state: await response.json()});
    }
    send(text) {
      const message = JSON.parse(text);
      window.__sent.push(message);
      if (message.type === "ping") this.emit({type: "pong"});
      if (message.type === "resync") this.push();
      if (message.type === "move") {
        fetch(`/api/attempts/${this.id}/moves/`, {
          method: "POST", headers: {"Content-Type": "application/json"},
          body: JSON.stringify({seq: message.seq, move: message.move}),
        }).then(async (response) => {
          const body = await response.json();
          this.emit(response.ok ? {type: "state", state: body} : {type: "error", ...body});
        });
      }
    }
    close() { this.dispatchEvent(new CloseEvent("close")); }
  }
  window.WebSocket = FakeSocket;
})();
"""


def test_moves_go_over_the_play_socket_and_fall_back_to_rest(
    certificates, e2e_page, play_page, live_server_url
):
    e2e_page.add_init_script(FAKE_SOCKET)
    certificate = certificates["munger"]
    page = play_page("munger")
    expect(page.get_by_test_id("connection")).to_contain_text("Live:")
    for seq, token in enumerate(certificate[:2]):
        click_move(page, "munger", token, state_of(page, live_server_url))
        wait_seq(page, seq + 1)
    sent = page.evaluate("window.__sent.filter(m => m.type === 'move')")
    assert sent == [
        {"type": "move", "seq": 0, "move": certificate[0]},
        {"type": "move", "seq": 1, "move": certificate[1]},
    ]

    # Undo goes over the socket too.
    page.get_by_test_id("undo").click()
    wait_seq(page, 3)
    page.get_by_test_id("undo").click()
    wait_seq(page, 4)
    expect(page.get_by_test_id("status")).to_contain_text("Took back")

    # A refusal over the socket shows the server's reason, in the page's words, and changes
    # nothing.
    legal = set(state_of(page, live_server_url)["legal"])
    target = next(f"T{k}" for k in range(1, 8) if f"R>T{k}" not in legal)
    drag_to(
        page,
        page.locator('[data-pile="R"] [data-card]').last,
        page.locator(f'[data-pile="{target}"]'),
    )
    expect(page.get_by_test_id("status")).to_have_text(
        re.compile(
            r"cannot go on .*: only a (red|black) |only a king goes there|Nothing goes on an ace"
        )
    )
    assert page.evaluate("window.__sent.at(-1)")["move"] == f"R>{target}"
    assert board_seq(page) == 4

    # The socket drops: the page says so, plays over REST meanwhile, and reconnects.
    page.evaluate("window.__sockets.at(-1).close()")
    expect(page.get_by_test_id("connection")).to_contain_text("lost")
    with page.expect_response(lambda r: "/moves/" in r.url and r.request.method == "POST"):
        click_move(page, "munger", certificate[0], state_of(page, live_server_url))
    wait_seq(page, 5)
    expect(page.get_by_test_id("connection")).to_contain_text("Live:", timeout=10_000)
    assert page.evaluate("window.__sockets.length") >= 2


AXE_OPTIONS = {
    "resultTypes": ["violations"],
    "runOnly": {
        "type": "tag",
        "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"],
    },
}


def serious_violations(page) -> list[str]:
    axe = pytest.importorskip("axe_playwright_python.sync_playwright")
    results = axe.Axe().run(page, options=AXE_OPTIONS)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} {[n['target'] for n in v['nodes'][:5]]}"
        for v in results.response["violations"]
        if v.get("impact") in {"serious", "critical"}
    ]


@pytest.mark.parametrize("game", ["munger", "masterpiece"])
def test_the_play_page_has_no_serious_accessibility_violation(
    game, certificates, play_page, live_server_url
):
    page = play_page(game)
    problems = serious_violations(page)
    # With a card picked up: its targets are marked.
    token = next(t for t in certificates[game] if not t.startswith("S>"))
    state = state_of(page, live_server_url)
    if token in state["legal"]:
        card = lead_card(page, state, token)
        source = source_locator(page, token, card)
        source.click(position={"x": source.bounding_box()["width"] / 2, "y": 6})
        expect(page.locator(".pile.target").first).to_be_visible()
        problems += serious_violations(page)
    page.set_viewport_size({"width": 375, "height": 740})
    problems += serious_violations(page)
    assert not problems, "\n".join(problems)


def blocking_line(game: str, deal: str) -> list[str]:
    """A line of moves after which no card move is left (a random walk, seeded)."""
    rng = random.Random(7)
    for _ in range(500):
        position = game_class(game).from_deal(deal)
        line: list[str] = []
        for _ in range(300):
            legal = [move.text for move in position.legal_moves()]
            if not legal:
                return line
            line.append(rng.choice(legal))
            position.push(line[-1])
    pytest.skip(f"no blocked position found in this {game} deal")


def test_a_blocked_game_offers_undo_or_resign(dailies, play_page, live_server_url, screenshot):
    line = blocking_line("masterpiece", dailies["masterpiece"]["deal"])
    page = play_page("masterpiece")
    attempt = page.locator("#board").get_attribute("data-attempt")
    for seq, move in enumerate(line):
        answer = page.request.post(
            f"{live_server_url}/api/attempts/{attempt}/moves/", data={"seq": seq, "move": move}
        )
        assert answer.ok, answer.text()
    page.reload()
    wait_seq(page, len(line))
    blocked = page.get_by_test_id("blocked")
    expect(blocked).to_be_visible()
    expect(blocked).to_contain_text("No card move left: undo or resign")
    expect(page.locator("#board")).to_have_attribute("data-status", "playing")
    # No finish is offered where the finish is not proven: nothing can move.
    expect(page.get_by_test_id("finish")).to_be_hidden()
    screenshot(page, "play-masterpiece-blocked.png", full_page=False)
    blocked.get_by_role("button", name="Undo (counts as a move)").click()
    wait_seq(page, len(line) + 1)
    expect(blocked).to_be_hidden()


# -- the name on the boards, at the end -------------------------------------------------------

# The end's offer of a name, in each language: its title, and its button to keep the generated
# name (the browser's language picks the page's).
NAME_OFFER = {
    "en-GB": ("Your name on the boards", "Keep Guest "),
    "fr-FR": ("Votre nom dans les classements", "Garder Guest "),
    "ru-RU": ("Ваше имя в таблицах", "Оставить Guest "),
}


def end_a_ranked_game(browser, live_server_url: str, locale: str = "en-GB") -> Any:
    """A newcomer's page on today's Munger, one draw, then resigned: its result is on the
    day's board."""
    context = browser.new_context(
        viewport={"width": 1280, "height": 1000},
        locale=locale,
        extra_http_headers={"Accept-Language": locale[:2]},
    )
    page = context.new_page()
    page.goto(f"{live_server_url}/play/munger/")
    expect(page.locator("#board")).to_have_attribute("data-seq", "0")
    page.locator('[data-pile="S"]').click()
    wait_seq(page, 1)
    page.get_by_test_id("resign").click()
    page.get_by_test_id("resign-confirm").click()
    expect(page.locator("#board")).to_have_attribute("data-status", "resigned")
    return page


@pytest.mark.parametrize("locale", list(NAME_OFFER))
def test_a_newcomers_first_result_offers_a_name_before_the_board_shows_it(
    browser, live_server_url, dailies, locale
):
    """A newcomer who played at once is "Guest 123456" on the boards: the end of the ranked
    game offers the name the boards show (the rename API), above the result; keeping the
    generated name stays possible."""
    title, keep = NAME_OFFER[locale]
    page = end_a_ranked_game(browser, live_server_url, locale)
    try:
        offer = page.get_by_test_id("name-offer")
        expect(offer).to_be_visible()
        expect(offer.locator("h2")).to_have_text(title)
        expect(page.get_by_test_id("name-offer-skip")).to_contain_text(keep)
        # Above the end panel: seen first.
        above = page.evaluate(
            "() => document.querySelector('[data-testid=name-offer]').getBoundingClientRect().top"
            " < document.querySelector('[data-testid=end]').getBoundingClientRect().top"
        )
        assert above
        if locale != "en-GB":
            return
        name = f"Ada {uuid.uuid4().hex[:6]}"
        page.get_by_test_id("name-offer-input").fill(name)
        page.get_by_test_id("name-offer-save").click()
        expect(page.get_by_test_id("name-offer-message")).to_have_text(
            f"Saved: the boards show you as {name}."
        )
        board = page.request.get(
            f"{live_server_url}/api/leaderboards/munger/{dailies['munger']['date']}/?around=me"
        ).json()
        assert board["you"]["player"] == name
        # A player with a name of their own is not asked again.
        page.reload()
        expect(page.get_by_test_id("end")).to_be_visible()
        expect(page.get_by_test_id("name-offer")).to_be_hidden()
    finally:
        page.context.close()


def test_keeping_the_generated_name_puts_the_offer_away(browser, live_server_url, dailies):
    page = end_a_ranked_game(browser, live_server_url)
    try:
        offer = page.get_by_test_id("name-offer")
        expect(offer).to_be_visible()
        page.get_by_test_id("name-offer-skip").click()
        expect(offer).to_be_hidden()
        expect(page.get_by_test_id("end")).to_be_visible()
        me = page.request.get(f"{live_server_url}/api/players/me/").json()
        assert me["display_name"].startswith("Guest ")
    finally:
        page.context.close()
