"""Accessibility: axe-core (shipped inside the axe-playwright-python package, so it runs
offline) finds no serious or critical violation on the site's pages, for a first-time visitor
and for a player, on a desktop and on a phone-sized screen."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

from axe_playwright_python import sync_playwright as axe_playwright  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

BLOCKING = {"serious", "critical"}
# WCAG 2.x A and AA, and axe's best practices.
AXE_OPTIONS = {
    "resultTypes": ["violations"],
    "runOnly": {
        "type": "tag",
        "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"],
    },
}


@pytest.fixture(scope="module")
def pages(make_dailies) -> list[str]:
    today = make_dailies()["munger"]["date"]
    past = make_dailies(back=1)["date"]
    return [
        "/",
        "/rules/munger/",
        "/rules/masterpiece/",
        "/archive/",
        f"/archive/?month={past[:7]}",
        "/me/",
        f"/board/munger/{today}/",
        f"/board/masterpiece/{past}/",
        "/account/",
        "/play/klondike/",  # the 404 page
    ]


def blocking_violations(page: Any) -> list[str]:
    results = axe_playwright.Axe().run(page, options=AXE_OPTIONS)
    found = []
    for violation in results.response["violations"]:
        if violation.get("impact") in BLOCKING:
            targets = [", ".join(node["target"]) for node in violation["nodes"][:5]]
            found.append(
                f"{violation['id']} ({violation['impact']}): {violation['help']} {targets}"
            )
    return found


def check(page: Any, url: str) -> list[str]:
    page.goto(url)
    page.wait_for_load_state("networkidle")
    return [f"{url}: {problem}" for problem in blocking_violations(page)]


def test_pages_have_no_serious_violation_for_a_first_visit(e2e_page, live_server_url, pages):
    problems = [problem for path in pages for problem in check(e2e_page, live_server_url + path)]

    assert not problems, "\n".join(problems)


def test_pages_have_no_serious_violation_for_a_player(e2e_page, live_server_url, pages):
    page = e2e_page
    page.goto(f"{live_server_url}/")
    page.get_by_role("button", name="Skip").click()
    expect(page.locator(".hello")).to_be_visible()

    problems = [problem for path in pages for problem in check(page, live_server_url + path)]

    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("language", ["fr", "ru"])
def test_translated_pages_have_no_serious_violation(browser, live_server_url, pages, language):
    context = browser.new_context(locale=language, extra_http_headers={"Accept-Language": language})
    try:
        page = context.new_page()
        problems = [
            problem for path in pages[:4] for problem in check(page, live_server_url + path)
        ]
    finally:
        context.close()

    assert not problems, "\n".join(problems)


def test_phone_screen_has_no_serious_violation(browser, live_server_url, pages):
    context = browser.new_context(viewport={"width": 375, "height": 740}, is_mobile=True)
    try:
        page = context.new_page()
        problems = [problem for path in pages for problem in check(page, live_server_url + path)]
    finally:
        context.close()

    assert not problems, "\n".join(problems)
